/**
 * Quire's own files in `.quire` in the app (issue 17, item 4): a lock file with stray bytes is
 * replaced and said in the status bar, never taken for a damaged mirror; a `.quire` that is a
 * link is refused — on start and when the folder is changed — and nothing where it points is
 * read or written.
 */
import { mkdtempSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import type { FakeApi } from '../../fake';
import { syncedGuideEachTest, write } from '../../helpers/sync';
import { snapshotTree } from '../../helpers/tree';
import { openService } from '../../helpers/service';

let fake: FakeApi;
let root: string;
let dir: string;
syncedGuideEachTest((world) => {
  ({ fake, root, dir } = world);
});

let service: QuireService | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
});

const open = (folder: string) =>
  openService({
    apiUrl: fake.url,
    folder,
    token: fake.token,
    api: { maxAttempts: 1 },
  });

it('stray bytes in sync.lock: the sync runs, the status bar names the lock, and the mirror is kept', async () => {
  writeFileSync(join(root, '.quire/sync.lock'), 'not a lock, not a database\n'.repeat(50));
  write(dir, 'faq.md', '# FAQ\n\nEdited in the app.\n');
  service = await open(root);

  const after = await service.syncOnce();
  expect(after.state).toBe('in-sync');
  expect(after.message).toContain(`${join(root, '.quire/sync.lock')} held something other than Quire's lock (file is not a database)`);
  expect(readdirSync(join(root, '.quire')).filter((f) => f.includes('.corrupt-'))).toEqual([]);
  // The mirror kept its history (versions from the first sync, before the lock was damaged).
  const pages = await service.request('history.pages', {});
  expect(pages.find((p) => p.path === 'faq.md')?.versions).toBeGreaterThan(1);
  expect(fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/content'))).toBe(true);
});

it('.quire as a link: refused on start and when chosen, and nothing where it points is touched', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'quire-elsewhere-'));
  renameSync(join(root, '.quire'), join(outside, 'state'));
  symlinkSync(join(outside, 'state'), join(root, '.quire'));
  const before = snapshotTree(outside);
  const line = `${join(root, '.quire')} is a symbolic link (to ${join(outside, 'state')}): Quire never reads or writes its sync state through a link.`;

  await expect(open(root)).rejects.toThrow(line);

  const home = mkdtempSync(join(tmpdir(), 'quire-app-'));
  service = await open(home);
  await expect(service.request('settings.update', { folder: root })).rejects.toMatchObject({ code: 'invalid-request', message: expect.stringContaining(line) });
  expect((await service.request('settings.get', {})).folder).toBe(home);
  expect(snapshotTree(outside)).toEqual(before);
});
