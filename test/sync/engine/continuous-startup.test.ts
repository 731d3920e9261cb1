/**
 * Continuous sync's start-up (issue 31): however its steps are ordered (the first cycle, setting
 * up the watch, whatever follows), a save the writer makes while it starts is pushed: before its
 * first cycle, while that cycle runs, and between that cycle's scan and the watch being set.
 */
import { afterEach, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { ContinuousSync } from '../../../src/main/core/sync/continuous';
import { OwnWrites } from '../../../src/main/core/sync/own-writes';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { openChangeRequests, pageByTitle, seedGuide } from '../../helpers/sync';

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

type When = 'before its first cycle' | 'while its first cycle runs' | 'after its first cycle, before the watch';

/** Starts continuous sync on a folder synced once before, the writer saving faq.md `when`; resolves with the text the change request got. */
async function saveDuringStartup(when: When): Promise<{ pushed: () => string | undefined }> {
  const fake: FakeApi = await startFakeApi();
  const space = seedGuide(fake);
  const root = tempDir();
  const mirror = Mirror.open(root);
  const abort = new AbortController();
  const api = new ApiClient({ baseUrl: fake.url, token: fake.token, signal: abort.signal });
  const ownWrites = new OwnWrites();
  const engine = new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] }, signal: abort.signal, ownWrites });
  await engine.runCycle(); // the folder as the writer left it yesterday
  const save = () => writeFileSync(join(root, 'guide/faq.md'), `# FAQ\n\nSaved ${when}.\n`);
  let cycles = 0;
  if (when === 'before its first cycle') save();
  const sync = new ContinuousSync({
    mirror,
    root,
    ownWrites,
    intervalMs: 60_000,
    debounceMs: 50,
    signal: abort.signal,
    runCycle: async (request) => {
      const first = ++cycles === 1;
      const cycle = engine.runCycle(request);
      if (first && when === 'while its first cycle runs') setImmediate(save);
      const report = await cycle;
      if (first && when === 'after its first cycle, before the watch') save();
      return report;
    },
  });
  cleanup = async () => {
    abort.abort();
    await sync.stop();
    mirror.close();
    await fake.close();
  };
  await sync.start();
  return {
    pushed: () => {
      const [cr] = openChangeRequests(fake, space.id);
      return cr ? pageByTitle(fake, space.id, 'FAQ', cr.id).markdown : undefined;
    },
  };
}

/** Resolves once `test()` holds, looking every 20 ms; rejects after 10 s. */
async function until(test: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it.each<When>(['before its first cycle', 'while its first cycle runs', 'after its first cycle, before the watch'])('a save made %s is pushed', async (when) => {
  const { pushed } = await saveDuringStartup(when);
  await until(() => pushed() === `Saved ${when}.\n`);
  expect(pushed()).toBe(`Saved ${when}.\n`);
});
