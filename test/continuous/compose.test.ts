/**
 * Continuous sync as core/continuous composes it for every host (issue 32, item 5), through its
 * words: a cycle holds the folder's lock (waiting for its turn, saying who holds it), review
 * follows it, and a failure comes classified — going offline is said once (and logged once), a
 * retry while still offline says nothing new, another failure in between makes the next offline
 * news again, and the cycle that reaches the API again says it is back.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiClient } from '../../src/main/core/api';
import { continuousSync, type SyncFailure } from '../../src/main/core/continuous';
import { FolderLock, Mirror } from '../../src/main/core/mirror';
import { ReviewService } from '../../src/main/core/review';
import type { ContinuousSync } from '../../src/main/core/sync';
import { startFakeApi, type FakeApi } from '../fake';
import { tempDir } from '../helpers/cli';
import { seedGuide } from '../helpers/sync';

let fake: FakeApi;
let root: string;
let mirror: Mirror;
let abort: AbortController;
let sync: ContinuousSync;
/** The words, in order. */
const said: string[] = [];

beforeEach(async () => {
  fake = await startFakeApi();
  const space = seedGuide(fake).id;
  root = tempDir();
  mirror = Mirror.open(root);
  abort = new AbortController();
  said.length = 0;
  const api = new ApiClient({ baseUrl: fake.url, token: fake.token, signal: abort.signal, maxAttempts: 1 });
  const review = new ReviewService(mirror);
  sync = continuousSync({
    mirror,
    root,
    connect: () => ({ api, review }),
    spaces: { ids: [space] },
    command: 'a test',
    intervalMs: 0, // cycles only when asked for
    signal: abort.signal,
    words: {
      cycleStart: () => said.push('start'),
      waiting: (holder) => said.push(`waiting for ${holder?.command}`),
      lockNotice: (line) => said.push(line),
      cycled: (report) => said.push(`cycled ${report.spaces.length}`),
      reviewing: () => said.push('reviewing'),
      reviewed: (report) => said.push(report ? `reviewed ${report.refreshed}` : 'review failed'),
      report: (_report, backOnline) => said.push(backOnline ? 'report, back online' : 'report'),
      failed: (_err, failure: SyncFailure) => {
        said.push(failure.kind === 'offline' ? `offline${failure.again ? ' again' : ''}` : failure.kind);
        return false;
      },
    },
  });
});

afterEach(async () => {
  abort.abort();
  await sync.stop();
  mirror.close();
  await fake.close();
});

/** Runs one cycle and returns what it said. */
async function cycle(): Promise<string[]> {
  const from = said.length;
  await sync.syncNow();
  return said.slice(from);
}

it('runs a cycle under the folder’s lock, then review, and says so in order', async () => {
  const other = await FolderLock.acquire(root, { command: 'quire sync --once' });
  const ran = cycle();
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (!said.includes('waiting for quire sync --once')) return;
      clearInterval(check);
      resolve();
    }, 10);
  });
  expect(said).not.toContain('cycled 1');
  other.release();
  expect(await ran).toEqual(['start', 'waiting for quire sync --once', 'cycled 1', 'reviewing', 'reviewed true', 'report']);
  // The review refreshed with the first cycle; the next within its cadence only sends what is queued.
  expect(await cycle()).toEqual(['start', 'cycled 1', 'reviewing', 'reviewed false', 'report']);
});

it('says going offline once, news again after another failure, and back online when the API answers', async () => {
  expect(await cycle()).toContain('report');
  await fake.stop();
  expect(await cycle()).toEqual(['start', 'offline']);
  expect(await cycle()).toEqual(['start', 'offline again']);
  const retries = () => mirror.log.recent(200, 'retry').length;
  expect(retries()).toBe(1);

  // A failure that is not the API's absence in between (a server fault): going offline after it is news again.
  await fake.restart();
  fake.faults.fail(1, 500);
  expect(await cycle()).toEqual(['start', 'error']);
  await fake.stop();
  expect(await cycle()).toEqual(['start', 'offline']);
  expect(retries()).toBe(2);

  await fake.restart();
  expect(await cycle()).toEqual(['start', 'cycled 1', 'reviewing', 'reviewed false', 'report, back online']);
  expect(await cycle()).toEqual(['start', 'cycled 1', 'reviewing', 'reviewed false', 'report']);
});
