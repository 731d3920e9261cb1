/**
 * Counts the requests one piece of work makes, when other work shares the client at the same
 * time (`sync --once` refreshes review beside its cycle: the cycle's "N requests" is its own).
 * A count follows the work's async calls; work that counts for itself inside it is not counted
 * there as well.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const counts = new AsyncLocalStorage<{ requests: number }>();

/** Runs `fn` with a count of its own; `requests()` is how many requests it has sent so far. */
export function withRequestCount<T>(fn: (requests: () => number) => Promise<T>): Promise<T> {
  const count = { requests: 0 };
  return counts.run(count, () => fn(() => count.requests));
}

/** One request sent (attempts included), for the work that sent it. */
export function countRequest(): void {
  const count = counts.getStore();
  if (count) count.requests++;
}

const behind = new AsyncLocalStorage<true>();

/**
 * Runs `fn` with its requests sent behind other work's: while other work's wait, one in eight
 * sent is one of these, one at a time (review refreshed beside a pull takes an eighth of the
 * requests, not a block of one per space before the pull's pages; pacer.ts).
 */
export function behindOtherWork<T>(fn: () => Promise<T>): Promise<T> {
  return behind.run(true, fn);
}

/** Whether the request being sent is for work run behind other work. */
export function sentBehind(): boolean {
  return behind.getStore() === true;
}
