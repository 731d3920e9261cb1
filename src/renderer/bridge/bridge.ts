import type { EventMap, EventName, Params, RequestName, Result } from '../../shared/contract';

export type ConnectionState = 'connecting' | 'open' | 'lost';

/**
 * The renderer's only way to reach the host: the typed contract, whether it is
 * carried by Electron IPC or by the web host's WebSocket. Failures reject with
 * a QuireError whose message says what happened and what to do.
 */
export interface Bridge {
  request<N extends RequestName>(name: N, params: Params<N>): Promise<Result<N>>;
  on<E extends EventName>(name: E, listener: (payload: EventMap[E]) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  readonly connection: ConnectionState;
}

/** Listener bookkeeping shared by the bridge implementations. */
export class Listeners {
  private readonly events = new Map<string, Set<(payload: never) => void>>();
  private readonly connection = new Set<(state: ConnectionState) => void>();

  on<E extends EventName>(name: E, listener: (payload: EventMap[E]) => void): () => void {
    const set = this.events.get(name) ?? new Set();
    this.events.set(name, set);
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit(name: string, payload: unknown): void {
    for (const l of this.events.get(name) ?? []) (l as (p: unknown) => void)(payload);
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    this.connection.add(listener);
    return () => this.connection.delete(listener);
  }

  emitConnection(state: ConnectionState): void {
    for (const l of this.connection) l(state);
  }
}
