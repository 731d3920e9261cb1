/**
 * Long synchronous work written once, as a generator that yields between steps (a file read,
 * a file checked), and run either way: at once, for a caller that needs the result now (the
 * preview's first render, the tests), or in turns that leave the event loop free every few
 * tens of milliseconds, so a host can show progress and stop it between two steps (Ctrl-C).
 * Reading stays synchronous inside a step: thousands of small reads are several times faster
 * without a promise each.
 */

/** How far a long step has got, when it knows: `done` of `total` items. */
export interface StepProgress {
  done: number;
  total: number;
}

export type Steps<T> = Generator<StepProgress | undefined, T, void>;

export function atOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How long a turn may run before the event loop gets a moment. */
const TURN_MS = 40;

/** Runs the steps, yielding to the event loop between turns; throws the signal's reason once it aborts. */
export async function inTurns<T>(steps: Steps<T>, options: { signal?: AbortSignal; onProgress?: (p: StepProgress) => void } = {}): Promise<T> {
  let turnStarted = performance.now();
  let progress: StepProgress | undefined;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (step.value) progress = step.value;
    if (performance.now() - turnStarted < TURN_MS) continue;
    if (progress) options.onProgress?.(progress);
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
    turnStarted = performance.now();
  }
}
