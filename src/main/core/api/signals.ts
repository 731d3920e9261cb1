import { CancelledError } from './errors';

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Detaches from the sources; call when done so long-lived signals don't collect listeners. */
  dispose(): void;
}

/** A signal that aborts as soon as any source does. */
export function linkSignals(...sources: (AbortSignal | null | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const live = sources.filter((s): s is AbortSignal => s != null);
  const abort = (): void => controller.abort();
  for (const source of live) {
    if (source.aborted) {
      controller.abort();
      break;
    }
    source.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of live) s.removeEventListener('abort', abort);
    },
  };
}

/** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
