/**
 * A corrupt mirror in the app (issue 9, item 3, outside sync): opening the folder keeps the
 * damaged file aside for inspection, starts a fresh mirror, and shows one line saying so in the
 * status bar and the sync log — on start and when switching to such a folder.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import { startFakeApi } from '../../fake';
import { openService } from '../../helpers/service';

let dirs: string[];
let service: QuireService | null;
beforeEach(() => {
  dirs = [];
  service = null;
});
afterEach(async () => {
  await service?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function damagedFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-app-corrupt-'));
  dirs.push(dir);
  mkdirSync(join(dir, '.quire'));
  writeFileSync(join(dir, '.quire/mirror.db'), 'not sqlite at all '.repeat(100));
  return dir;
}

const open = (folder: string) =>
  openService({
    apiUrl: 'https://api.example.com',
    folder,
  });

function expectSetAside(message: string | null, folder: string) {
  expect(message).toMatch(/^Quire's sync state was unreadable \(file is not a database\): it is kept as .*mirror\.db\.corrupt-.* for inspection/);
  const kept = /kept as (.*) for inspection/.exec(message!)![1]!;
  expect(kept.startsWith(join(folder, '.quire'))).toBe(true);
  expect(readFileSync(kept, 'utf8')).toBe('not sqlite at all '.repeat(100));
}

it('on start: the damaged mirror is kept aside and the status bar and the log say so', async () => {
  const folder = await damagedFolder();
  service = await open(folder);
  const status = service.status();
  expectSetAside(status.message, folder);
  const log = await service.request('log.list', {});
  expect(log.map((e) => e.message)).toContain(status.message);
  expect(existsSync(join(folder, '.quire/mirror.db'))).toBe(true);
});

it('the line stays in the status bar through the first sync, which starts the fresh mirror', async () => {
  const fake = await startFakeApi();
  try {
    const org = fake.store.addOrg({ title: 'Acme' });
    fake.store.addSpace(org.id, { title: 'Handbook', pages: [{ title: 'Intro', markdown: 'Hi.\n' }] });
    const folder = await damagedFolder();
    service = await openService({
      apiUrl: fake.url,
      folder,
      token: fake.token,
    });
    const notice = service.status().message;
    expectSetAside(notice, folder);
    await service.request('catalog.refresh', {});
    const after = await service.syncOnce();
    expect(after).toMatchObject({ state: 'not-set-up', message: notice });
    expect((await service.syncOnce()).message).toBeNull();
  } finally {
    await service?.close();
    service = null;
    await fake.close();
  }
});

it('when switching to a folder whose mirror is damaged', async () => {
  const home = await mkdtemp(join(tmpdir(), 'quire-app-home-'));
  dirs.push(home);
  service = await open(home);
  const folder = await damagedFolder();
  await service.request('settings.update', { folder });
  expectSetAside(service.status().message, folder);
});
