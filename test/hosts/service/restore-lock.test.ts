/**
 * The app's history restore writes into the folder under the lock its sync cycles hold: with a
 * cycle running (held by a proxy just before its push reaches the server), a restore waits and
 * writes only once the cycle is done, so the cycle pushes the text it read, never a half-restored
 * folder, and the restored text is the next sync's edit.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import { startFakeApi, type FakeApi } from '../../fake';
import { holdingProxy, openChangeRequests, pageByTitle } from '../../helpers/sync';
import { openService } from '../../helpers/service';

const isContentBatch = (m: string, p: string) => m === 'POST' && /\/change-requests\/[^/]+\/content$/.test(p);
const PULLED = '# Setup\n\nInstall the gizmo.\n';
const EDITED = '# Setup\n\nInstall it, edited before the cycle.\n';

let fake: FakeApi;
let proxy: Awaited<ReturnType<typeof holdingProxy>>;
let dir: string;
let service: QuireService;
/** Resolves the first waiter whose pattern a log line matches. */
const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
const logged = (pattern: RegExp) => new Promise<string>((resolve) => waiters.push({ pattern, resolve }));

beforeEach(async () => {
  fake = await startFakeApi();
  const space = fake.store.addSpace(fake.store.addOrg({ title: 'Acme' }).id, {
    title: 'Handbook',
    pages: [
      { title: 'Intro', markdown: 'Welcome.\n' },
      { title: 'Setup', markdown: 'Install the gizmo.\n' },
    ],
  });
  proxy = await holdingProxy(fake.url, { match: isContentBatch, when: 'before' });
  dir = await mkdtemp(join(tmpdir(), 'quire-service-restore-'));
  service = await openService({
    apiUrl: proxy.url,
    folder: dir,
    api: { maxAttempts: 1, timeoutMs: 10_000 },
    log: (line) => {
      for (const w of [...waiters]) {
        if (!w.pattern.test(line)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    },
  });
  await service.request('session.signIn', { apiUrl: proxy.url, token: fake.token });
  await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds: [space.id], selected: true });
  expect((await service.syncOnce()).state).toBe('in-sync');
});
afterEach(async () => {
  proxy.release();
  await service.close();
  await proxy.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

it('history.restore waits for a running sync cycle, then writes', async () => {
  const { spaces } = await service.request('catalog.get', {});
  const space = spaces[0]!;
  const file = join(dir, space.folder!, 'setup.md');
  const pageKey = pageByTitle(fake, space.id, 'Setup').id;
  expect(await readFile(file, 'utf8')).toBe(PULLED);

  await writeFile(file, EDITED);
  const cycle = service.syncOnce();
  await proxy.held; // the cycle holds the folder, its push not yet at the server

  const waiting = logged(/^Waiting for pid \d+ \(quire ui\), since .+ to finish with this folder before restoring a version\.$/);
  const restore = service.request('history.restore', { spaceId: space.id, pageKey, version: 1 });
  await Promise.race([
    waiting,
    restore.then(() => {
      throw new Error('the restore wrote while the sync cycle held the folder');
    }),
  ]);
  expect(await readFile(file, 'utf8')).toBe(EDITED);

  proxy.release();
  expect((await cycle).state).toBe('in-sync');
  expect(await restore).toMatchObject({ version: 1, file: `${space.folder}/setup.md`, outcome: 'written' });
  expect(await readFile(file, 'utf8')).toBe(PULLED);
  // The cycle pushed the text it had read; the restore came after it.
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'Setup', cr!.id).markdown).toBe('Install it, edited before the cycle.\n');
}, 30_000);
