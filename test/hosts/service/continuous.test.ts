/**
 * The app runs the same continuous sync as the CLI (issue 10, item 1): a save is pushed as soon
 * as the watcher sees it settle, not on the next 60-second timer; and each cycle takes the
 * folder's lock, waiting for its turn while another process holds it (issue 9, item 1). With the
 * API stopped, it says Offline within a second of the first refused request, and notices the API
 * within 5 s of its return, with the client's own retries (issue 28, item 3).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FolderLock } from '../../../src/main/core/mirror';
import { HistoryStore } from '../../../src/main/core/mirror/history';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { createQuireService, type QuireService } from '../../../src/main/hosts/service';
import type { SyncStatusVM } from '../../../src/shared/contract';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { contentBatches, pageByTitle } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let dir: string;
let service: QuireService;
const statuses: SyncStatusVM[] = [];
const checks: (() => void)[] = [];

function until(test: () => boolean, what: string, withinMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not within ${withinMs} ms: ${what}; last status: ${JSON.stringify(statuses.at(-1))}`)), withinMs);
    const check = () => {
      if (!test()) return;
      clearTimeout(timer);
      checks.splice(checks.indexOf(check), 1);
      resolve();
    };
    checks.push(check);
    check();
  });
}

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Handbook',
    pages: [
      { title: 'Intro', markdown: 'Hi.\n' },
      { title: 'FAQ', markdown: 'Q.\n' },
    ],
  });
  dir = await mkdtemp(join(tmpdir(), 'quire-app-live-'));
  statuses.length = 0;
});
afterEach(async () => {
  await service.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(syncIntervalMs: number, api: { maxAttempts?: number; timeoutMs?: number } = { maxAttempts: 1, timeoutMs: 5000 }): Promise<void> {
  service = await createQuireService({
    apiUrl: fake.url,
    folder: dir,
    tokens: new MemoryTokenStore(),
    token: fake.token,
    host: { kind: 'electron', openExternal: async () => undefined, openPath: async () => undefined },
    syncIntervalMs,
    api,
  });
  service.subscribe((e) => {
    if (e.name === 'sync.status') statuses.push(e.payload);
    for (const c of [...checks]) c();
  });
  for (const c of [...checks]) c();
}

/** How many cycles have started, from the status events (each turns the state to syncing). */
const cyclesStarted = () => statuses.filter((s, i) => s.state === 'syncing' && statuses[i - 1]?.state !== 'syncing').length;

it('pushes a save within seconds, with the 60-second timer far off', async () => {
  // A folder already synced with the space chosen, as the app finds it on a restart.
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--space', space.id], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  await open(60_000);
  // The watch is set, then the one start-up cycle runs at once (there is no second one to wait for).
  await until(() => cyclesStarted() >= 1 && service.status().state === 'in-sync', 'the start-up cycle');

  const savedAt = Date.now();
  writeFileSync(join(dir, 'handbook/faq.md'), '# FAQ\n\nAnswered from the app’s folder.\n');
  await until(() => contentBatches(fake).length > 0, 'the push');
  expect(Date.now() - savedAt).toBeLessThan(5_000);
  const [cr] = fake.store.changeRequestsOf(space.id);
  expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Answered from the app’s folder.\n');
});

it('waits for its turn while another process holds the folder, saying who, then syncs', async () => {
  const other = await FolderLock.acquire(dir, { command: 'quire sync --once' });
  await open(0);
  await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds: [space.id], selected: true });
  fake.resetLog();
  const synced = service.syncOnce();
  await until(() => (service.status().message ?? '').startsWith('Waiting for pid'), 'the waiting message');
  expect(service.status().message).toMatch(new RegExp(`^Waiting for pid ${process.pid} \\(quire sync --once\\), since .+ to finish with this folder…$`));
  expect(fake.requests.filter((r) => r.path.includes('/content'))).toEqual([]);

  other.release();
  expect((await synced).state).toBe('in-sync');
  expect(fake.requests.some((r) => r.path === `/v1/spaces/${space.id}/content`)).toBe(true);
});

it('says Offline within a second of the first refused request, and notices the API back within 5 s', async () => {
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--space', space.id], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  await open(60_000, {}); // the client as the app makes it: its own attempts and timeouts
  await until(() => cyclesStarted() >= 1 && service.status().state === 'in-sync', 'the start-up cycle');

  await fake.stop();
  writeFileSync(join(dir, 'handbook/faq.md'), '# FAQ\n\nWritten offline.\n');
  // The save's cycle starts by listing the spaces: its first request, refused at once.
  await until(() => statuses.at(-1)?.progress?.phase === 'catalog', 'the save’s cycle');
  const firstRequestAt = Date.now();
  await until(() => service.status().state === 'offline', 'Offline', 1_000);
  expect(Date.now() - firstRequestAt).toBeLessThan(1_000);
  expect(service.status()).toMatchObject({ editsWaiting: 1, offlineSince: expect.any(String) });
  // Tried again within seconds, and each try leaves Offline shown (never Syncing… listing spaces).
  const shown = statuses.length;
  await until(() => statuses.slice(shown).filter((s) => s.progress?.phase === 'catalog').length >= 2, 'two more tries', 5_000);
  expect(statuses.slice(shown).map((s) => s.state)).toEqual(statuses.slice(shown).map(() => 'offline'));

  fake.resetLog();
  await fake.restart();
  const backAt = Date.now();
  await until(() => service.status().state === 'in-sync', 'in sync again', 6_000);
  expect(Math.min(...fake.requests.map((r) => r.at)) - backAt).toBeLessThan(5_000);
  expect(contentBatches(fake).length).toBeGreaterThan(0);
}, 40_000);

it('sweeps history’s retention with its start-up cycles, not again with every cycle after (one engine, as under quire sync)', async () => {
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--space', space.id], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  await open(60_000);
  await until(() => cyclesStarted() >= 1 && service.status().state === 'in-sync', 'the start-up cycle');
  const startUp = cyclesStarted();
  const prune = vi.spyOn(HistoryStore.prototype, 'prune');
  try {
    for (let i = 0; i < 3; i++) expect((await service.syncOnce()).state).toBe('in-sync');
    expect(cyclesStarted()).toBeGreaterThanOrEqual(startUp + 3); // each ran a cycle (with two start-up cycles, this was 5)
    expect(prune).not.toHaveBeenCalled();
  } finally {
    prune.mockRestore();
  }
});
