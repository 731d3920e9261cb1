/**
 * A large pull's full collections (core/sync/memory.ts) leave V8's flags as they found them: a
 * code cache carries a digest of the flags it was made under, and `quire` makes its cache as it
 * exits, for its next run, which starts with the flags of its first line (the launcher's test
 * shows a sync's cache taken by the next).
 */
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { collectGarbage } from '../../src/main/core/sync/memory';

it('collects without leaving `gc` to contexts made afterwards', async () => {
  const unreachable = new WeakRef({ data: new Array(1000).fill('y') });
  await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds its target to the end of the job that made it
  collectGarbage();
  expect(unreachable.deref()).toBeUndefined();
  expect(runInNewContext('typeof gc')).toBe('undefined');
});
