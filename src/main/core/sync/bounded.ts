/**
 * Runs `fn` over `items` with at most `limit` at once. The first failure stops new work;
 * it rejects with that failure once the items already started have finished, so nothing
 * keeps writing after the caller moved on.
 */
export async function forEachBounded<T>(items: Iterable<T>, limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null) {
      const next = iterator.next();
      if (next.done) return;
      try {
        await fn(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
