/**
 * Search and history through the contract, as both app hosts serve them: the real service
 * and core over a folder synced from the fake API.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import { dispatch, type PushedEvent } from '../../../src/shared/contract';
import { startFakeApi, type FakeApi } from '../../fake';
import { openService, signInAndSync } from '../../helpers/service';

let fake: FakeApi;
let dir: string;
let service: QuireService;
let events: PushedEvent[];
let spaceId: string;
let pageId: string;
let spaceDir: string;

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  const space = fake.store.addSpace(org.id, {
    title: 'Handbook',
    pages: [
      { title: 'Intro', markdown: 'Welcome to the café.\n' },
      { title: 'Setup', markdown: 'Install the gizmo.\n' },
    ],
  });
  spaceId = space.id;
  pageId = fake.store.pageByPath(space.id, 'setup').id;
  fake.store.addComment(space.id, { body: 'Which gizmo version?', page: pageId, by: fake.store.addUser({ displayName: 'Rita' }).id });
  dir = await mkdtemp(join(tmpdir(), 'quire-service-find-'));
  events = [];
  service = await openService({
    apiUrl: fake.url,
    folder: dir,
    api: { maxAttempts: 1, timeoutMs: 5000 },
  });
  service.subscribe((e) => events.push(e));
  await signInAndSync(service, fake, [spaceId]);
  const folder = (await service.request('catalog.get', {})).spaces[0]!.folder!;
  spaceDir = join(dir, folder);
});
afterEach(async () => {
  await service.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('search.query', () => {
  it('finds pages and comments with where they are and the matched words', async () => {
    const results = await service.request('search.query', { query: 'gizmo' });
    expect(results).toHaveLength(2);
    expect(results.find((r) => r.kind === 'page')).toMatchObject({
      kind: 'page',
      spaceId,
      spaceTitle: 'Handbook',
      title: 'Setup',
      path: 'setup.md',
      file: 'handbook/setup.md',
      snippet: [
        { text: 'Install the ', match: false },
        { text: 'gizmo', match: true },
        { text: '.', match: false },
      ],
    });
    expect(results.find((r) => r.kind === 'comment')).toMatchObject({
      kind: 'comment',
      author: 'Rita',
      pageId,
      replyId: null,
      file: 'handbook/setup.md',
      title: 'Setup',
    });
    expect(await service.request('search.query', { query: 'cafe', kinds: ['comment'] })).toEqual([]);
    expect(await service.request('search.query', { query: 'caf', kinds: ['page'] })).toEqual([]);
    expect(await service.request('search.query', { query: 'caf*', kinds: ['page'] })).toHaveLength(1);
  });

  it('refuses parameters outside the contract', async () => {
    const outcome = await dispatch(service, 'search.query', { query: 'x', kinds: ['pages'] });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(await dispatch(service, 'search.query', { query: '' })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
  });
});

describe('history', () => {
  it('lists pages and versions, gives two versions to compare, and restores one', async () => {
    const pages = await service.request('history.pages', {});
    expect(pages.map((p) => p.title).sort()).toEqual(['Intro', 'Setup']);
    expect(pages.find((p) => p.pageKey === pageId)).toMatchObject({
      spaceTitle: 'Handbook',
      path: 'setup.md',
      file: 'handbook/setup.md',
      versions: 1,
      deleted: false,
    });

    await writeFile(join(spaceDir, 'setup.md'), '# Setup\n\nInstall it, edited.\n');
    events.length = 0;
    const restored = await service.request('history.restore', { spaceId, pageKey: pageId, version: 1 });
    expect(restored).toEqual({ version: 1, file: 'handbook/setup.md', outcome: 'written', savedVersion: 2, besideOther: false });
    expect(await readFile(join(spaceDir, 'setup.md'), 'utf8')).toBe('# Setup\n\nInstall the gizmo.\n');
    expect(events).toContainEqual({ name: 'data.changed', payload: { areas: ['history'] } });

    const history = await service.request('history.versions', { spaceId, pageKey: pageId });
    expect(history.page).toMatchObject({ title: 'Setup', versions: 3, lastReason: 'restored' });
    expect(history.versions.map((v) => [v.number, v.reason, v.detail])).toEqual([
      [3, 'restored', 'version 1'],
      [2, 'local', 'before a restore'],
      [1, 'pulled', expect.stringMatching(/^revision /)],
    ]);
    expect(await service.request('history.text', { spaceId, pageKey: pageId, version: 2 })).toEqual({ number: 2, text: '# Setup\n\nInstall it, edited.\n' });
  });

  it('says what is not there in words a person can act on', async () => {
    await expect(service.request('history.text', { spaceId, pageKey: pageId, version: 9 })).rejects.toMatchObject({ code: 'not-found' });
    await expect(service.request('history.versions', { spaceId, pageKey: 'nope' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(service.request('history.restore', { spaceId, pageKey: pageId, version: 9 })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/Version 9 of setup\.md is not in history \(it has version 1\)/),
    });
    expect(await dispatch(service, 'history.restore', { spaceId, pageKey: 'a\u0007b', version: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(await dispatch(service, 'history.restore', { spaceId, pageKey: pageId, version: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
  });
});
