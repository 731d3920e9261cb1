/**
 * The app never combines a folder with a token meant for another API (issue 9, item 6): a
 * token handed over at start is used only for the API it came with; switching to a folder
 * that syncs with another API takes that API and the token saved for it, and leaves the
 * folder's address as it was. A folder the app synced remembers its API for the command line
 * (issue 18, item 6).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { createQuireService, type QuireService } from '../../../src/main/hosts/service';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire } from '../../helpers/cli';

let first: FakeApi;
let second: FakeApi;
let dirs: string[];
let services: QuireService[];

beforeEach(async () => {
  first = await startFakeApi({ token: 'gb_api_first_0123456789' });
  second = await startFakeApi({ token: 'gb_api_second_0123456789' });
  for (const fake of [first, second]) {
    const org = fake.store.addOrg({ title: 'Acme' });
    fake.store.addSpace(org.id, { title: 'Handbook', pages: [{ title: 'Intro', markdown: 'Hi.\n' }] });
  }
  dirs = [];
  services = [];
});
afterEach(async () => {
  for (const s of services) await s.close();
  await first.close();
  await second.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function folderSyncedWith(fake: FakeApi): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-api-address-'));
  dirs.push(dir);
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  return dir;
}

async function open(options: { apiUrl: string; folder: string; token?: string; tokens?: MemoryTokenStore }): Promise<QuireService> {
  const service = await createQuireService({
    apiUrl: options.apiUrl,
    folder: options.folder,
    token: options.token,
    tokens: options.tokens ?? new MemoryTokenStore(),
    host: { kind: 'web', openExternal: async () => undefined, openPath: async () => undefined },
    syncIntervalMs: 0,
    api: { maxAttempts: 1, timeoutMs: 5000 },
  });
  services.push(service);
  return service;
}

it('does not use a token given at start for a folder that syncs with another API', async () => {
  const folder = await folderSyncedWith(first);
  first.resetLog();
  const service = await open({ apiUrl: second.url, folder, token: second.token });
  const session = await service.request('session.get', {});
  expect(session).toMatchObject({ signedIn: false, apiUrl: first.url });
  expect(session.reason).toContain(`This folder syncs with ${first.url}`);
  await expect(service.request('sync.now', {})).rejects.toMatchObject({ code: 'signed-out' });
  expect(first.requests).toEqual([]);
});

it('switching to a folder of another API takes that API and its own saved token, and keeps the folder’s address', async () => {
  const tokens = new MemoryTokenStore();
  await tokens.set(second.url, second.token);
  const home = await mkdtemp(join(tmpdir(), 'quire-api-home-'));
  dirs.push(home);
  const service = await open({ apiUrl: first.url, folder: home, tokens });
  await service.request('session.signIn', { apiUrl: first.url, token: first.token });
  const other = await folderSyncedWith(second);

  second.resetLog();
  first.resetLog();
  await service.request('settings.update', { folder: other });
  expect(await service.request('session.get', {})).toMatchObject({ signedIn: true, apiUrl: second.url });
  expect((await service.syncOnce()).state).toBe('in-sync');
  expect(second.requests.length).toBeGreaterThan(0);
  expect(first.requests).toEqual([]);
  expect(JSON.parse((await quire(['status', '--dir', other, '--json'])).stdout)).toMatchObject({ apiUrl: second.url });
});

it('switching to a folder of another API with no token saved for it signs out, saying why', async () => {
  const home = await mkdtemp(join(tmpdir(), 'quire-api-home-'));
  dirs.push(home);
  const service = await open({ apiUrl: first.url, folder: home });
  await service.request('session.signIn', { apiUrl: first.url, token: first.token });
  const other = await folderSyncedWith(second);

  await service.request('settings.update', { folder: other });
  const session = await service.request('session.get', {});
  expect(session).toMatchObject({ signedIn: false, apiUrl: second.url });
  expect(session.reason).toContain(`This folder syncs with ${second.url}`);
  expect(JSON.parse((await quire(['status', '--dir', other, '--json'])).stdout)).toMatchObject({ apiUrl: second.url });
});

it('remembers the API of a folder the app (or quire ui) synced, for the command line: status shows it, comment needs no --api', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'quire-api-address-'));
  dirs.push(folder);
  const spaceId = [...first.store.spaces.values()][0]!.id;
  const page = first.store.pageByTitle(spaceId, 'Intro');
  const comment = first.store.addComment(spaceId, { body: 'Still true?', page: page.id });
  // As `quire ui --api … --dir …` starts it with QUIRE_TOKEN: no sign-in, so nothing but the sync can remember the address.
  const service = await open({ apiUrl: first.url, folder, token: first.token });
  await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds: [spaceId], selected: true });
  expect((await service.syncOnce()).state).toBe('in-sync');
  await service.close();

  const status = await quire(['status', '--dir', folder]);
  expect(status.stdout.split('\n')).toContain(`API: ${first.url} (remembered by this folder; its token is looked up for this address)`);
  expect(JSON.parse((await quire(['status', '--dir', folder, '--json'])).stdout)).toMatchObject({ apiUrl: first.url });
  const reply = await quire(['comment', 'reply', comment.id, '--dir', folder, '--body', 'Yes.'], { env: { QUIRE_TOKEN: first.token } });
  expect(reply.stdout).toMatch(/: sent/);
  expect(first.store.comment(spaceId, comment.id).replies.map((r) => r.markdown)).toEqual(['Yes.']);
});
