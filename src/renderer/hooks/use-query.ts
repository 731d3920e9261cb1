import { useCallback, useEffect, useRef, useState } from 'react';
import type { DataArea, EventMap, EventName, Params, RequestName, Result } from '../../shared/contract';
import { useBridge } from './bridge-context';

export interface QueryState<T> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  reload(): void;
}

/**
 * Reads through the contract and reads again when the host says one of
 * `areas` changed, or when the connection comes back. A stale answer (an older
 * request finishing after a newer one) is dropped.
 */
export function useQuery<N extends RequestName>(name: N, params: Params<N>, areas: DataArea[]): QueryState<Result<N>> {
  const bridge = useBridge();
  const [state, setState] = useState<{ data: Result<N> | undefined; error: Error | null; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const key = JSON.stringify(params);
  const generation = useRef(0);
  const areasKey = areas.join(',');

  const load = useCallback(() => {
    const gen = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    bridge.request(name, JSON.parse(key) as Params<N>).then(
      (data) => gen === generation.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        gen === generation.current && setState((s) => ({ data: s.data, error: error instanceof Error ? error : new Error(String(error)), loading: false })),
    );
  }, [bridge, name, key]);

  useEffect(() => {
    load();
    const wanted = new Set(areasKey.split(','));
    const offData = bridge.on('data.changed', ({ areas: changed }) => {
      if (changed.some((a) => wanted.has(a))) load();
    });
    const offConn = bridge.onConnection((c) => c === 'open' && load());
    return () => {
      offData();
      offConn();
    };
  }, [bridge, load, areasKey]);

  return { ...state, reload: load };
}

/** Latest payload of a pushed event, seeded by an initial request. */
export function useEventState<E extends EventName, N extends RequestName>(event: E, initial: N, initialParams: Params<N>): EventMap[E] | undefined {
  const bridge = useBridge();
  const [value, setValue] = useState<EventMap[E] | undefined>(undefined);
  const seen = useRef(false);
  const key = JSON.stringify(initialParams);
  useEffect(() => {
    seen.current = false;
    const off = bridge.on(event, (payload) => {
      seen.current = true;
      setValue(payload);
    });
    const fetchInitial = () =>
      bridge.request(initial, JSON.parse(key) as Params<N>).then(
        (v) => !seen.current && setValue(v as unknown as EventMap[E]),
        () => undefined,
      );
    void fetchInitial();
    const offConn = bridge.onConnection((c) => {
      if (c === 'open') {
        seen.current = false;
        void fetchInitial();
      }
    });
    return () => {
      off();
      offConn();
    };
  }, [bridge, event, initial, key]);
  return value;
}

export interface ActionState {
  busy: boolean;
  error: Error | null;
  run<N extends RequestName>(name: N, params: Params<N>): Promise<Result<N> | undefined>;
  clearError(): void;
}

/** Runs requests that change something, tracking busy state and the last error. */
export function useAction(): ActionState {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const run = useCallback(
    async <N extends RequestName>(name: N, params: Params<N>) => {
      setBusy(true);
      setError(null);
      try {
        return await bridge.request(name, params);
      } catch (e) {
        setError(e instanceof Error ? e : new Error(String(e)));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [bridge],
  );
  return { busy, error, run, clearError: () => setError(null) };
}
