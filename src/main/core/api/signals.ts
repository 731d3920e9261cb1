import { setMaxListeners } from 'node:events';
import { CancelledError } from './errors';

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Detaches from the sources; call when done so long-lived signals don't collect listeners. */
  dispose(): void;
}

/**
 * A signal that aborts as soon as any source does (never, without one). One source, or the
 * same one given twice (a call's signal is often the client's own), is that source itself: a
 * request passes through layers that each link what they were given, and every controller
 * and listener they build is paid on each of thousands of requests.
 */
export function linkSignals(...sources: (AbortSignal | null | undefined)[]): LinkedSignal {
  const live = [...new Set(sources.filter((s): s is AbortSignal => s != null))];
  if (live.length === 1) return { signal: live[0]!, dispose: () => undefined };
  const controller = new AbortController();
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

const fanOuts = new WeakMap<AbortSignal, AbortSignal>();

/**
 * A signal that aborts with `source` and may have any number of listeners, while `source`
 * gets just one. Every request in flight or queued listens to the signal it was given: a
 * caller's signal shared by many concurrent calls (the CLI's Ctrl-C signal) would otherwise
 * pass Node's warning threshold of 10 listeners (MaxListenersExceededWarning).
 */
export function fanOut(source: AbortSignal): AbortSignal;
export function fanOut(source: AbortSignal | undefined): AbortSignal | undefined;
export function fanOut(source: AbortSignal | undefined): AbortSignal | undefined {
  if (!source) return undefined;
  const known = fanOuts.get(source);
  if (known) return known;
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (source.aborted) controller.abort();
  else source.addEventListener('abort', () => controller.abort(), { once: true });
  fanOuts.set(source, controller.signal);
  return controller.signal;
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
