import type { DataArea, EventMap, EventName, PushedEvent } from '../../../shared/contract';
import { describeError } from './errors';

/** Fans pushed events out to the host's listeners; a failing listener is logged, never fatal. */
export class EventHub {
  private readonly listeners = new Set<(e: PushedEvent) => void>();

  constructor(private readonly log: (line: string) => void) {}

  emit<E extends EventName>(name: E, payload: EventMap[E]): void {
    const event = { name, payload } as PushedEvent;
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        this.log(`event listener failed: ${describeError(e)}`);
      }
    }
  }

  /** Tells the views which areas to read again. */
  changed(...areas: DataArea[]): void {
    this.emit('data.changed', { areas });
  }

  subscribe(listener: (e: PushedEvent) => void): () => boolean {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.listeners.clear();
  }
}
