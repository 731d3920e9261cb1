/**
 * The service behind the contract, driven like a host drives it, against the
 * fake API: sign-in and the keychain, sync states, conflicts, the log,
 * settings, and what never leaves it (the token).
 */
import { mkdtemp, readFile, rm, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { MemoryTokenStore, KeychainUnavailableError, type TokenStore } from '../../../src/main/core/secrets';
import { createQuireService, emojiText, normaliseApiUrl, type QuireService } from '../../../src/main/hosts/service';
import { quire } from '../../helpers/cli';
import type { PageNodeVM, PushedEvent, SyncState } from '../../../src/shared/contract';

describe('service', () => {
  let fake: FakeApi;
  let dir: string;
  let tokens: MemoryTokenStore;
  let service: QuireService;
  let events: PushedEvent[];
  let opened: string[];
  let spaceId: string;
  let pageId: string;

  async function open(options: { tokens?: TokenStore; token?: string } = {}): Promise<QuireService> {
    const s = await createQuireService({
      apiUrl: fake.url,
      folder: dir,
      tokens: options.tokens ?? tokens,
      host: { kind: 'web', openExternal: async (u) => void opened.push(u), openPath: async (p) => void opened.push(p) },
      syncIntervalMs: 0,
      api: { maxAttempts: 1, timeoutMs: 5000 },
      ...(options.token ? { token: options.token } : {}),
    });
    s.subscribe((e) => events.push(e));
    return s;
  }

  const states = () => events.flatMap((e) => (e.name === 'sync.status' ? [e.payload.state] : [])) as SyncState[];

  async function signInAndSync(): Promise<string> {
    await service.request('session.signIn', { apiUrl: fake.url, token: fake.token });
    const catalog = await service.request('catalog.refresh', {});
    await service.request('spaces.select', { spaceIds: [spaceId], selected: true });
    expect(catalog.spaces.map((s) => s.title)).toEqual(['Handbook']);
    const status = await service.syncOnce();
    expect(status.state).toBe('in-sync');
    const space = (await service.request('catalog.get', {})).spaces[0]!;
    return join(dir, space.folder!);
  }

  beforeEach(async () => {
    fake = await startFakeApi();
    const org = fake.store.addOrg({ title: 'Acme' });
    const space = fake.store.addSpace(org.id, {
      title: 'Handbook',
      emoji: '1f4d8',
      pages: [{ title: 'Intro', markdown: 'First line.\n\nSecond line.' }],
    });
    spaceId = space.id;
    pageId = fake.store.pageByPath(space.id, 'intro').id;
    dir = await mkdtemp(join(tmpdir(), 'quire-service-'));
    tokens = new MemoryTokenStore();
    events = [];
    opened = [];
    service = await open();
  });

  afterEach(async () => {
    await service.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('signs in with a checked token kept in the token store, and signs out', async () => {
    expect(await service.request('session.get', {})).toMatchObject({ signedIn: false, apiUrl: fake.url });
    await expect(service.request('session.signIn', { apiUrl: fake.url, token: 'nope' })).rejects.toMatchObject({ code: 'token-rejected' });
    const session = await service.request('session.signIn', { apiUrl: `${fake.url}/v1/`, token: fake.token });
    expect(session).toMatchObject({ signedIn: true, apiUrl: fake.url, user: { displayName: 'Casey Quire' }, keychain: 'ok' });
    expect(await tokens.get(fake.url)).toBe(fake.token);
    expect(events.some((e) => e.name === 'session.changed' && e.payload.signedIn)).toBe(true);

    // A new service over the same folder finds the token again.
    await service.close();
    service = await open();
    expect(await service.request('session.get', {})).toMatchObject({ signedIn: true, user: { displayName: 'Casey Quire' } });

    expect(await service.request('session.signOut', {})).toMatchObject({ signedIn: false });
    expect(await tokens.get(fake.url)).toBeNull();
    expect(service.status().state).toBe('signed-out');
    expect(JSON.stringify(events)).not.toContain(fake.token);
  });

  it('explains an unreachable API at sign-in', async () => {
    fake.faults.offline = true;
    await expect(service.request('session.signIn', { apiUrl: fake.url, token: fake.token })).rejects.toMatchObject({
      code: 'offline',
      message: expect.stringContaining('Check the API address and your connection'),
    });
  });

  it('keeps the token for the session when the keychain is unavailable, and says so', async () => {
    const broken: TokenStore = {
      get: async () => {
        throw new KeychainUnavailableError(new Error('Cannot autolaunch D-Bus'));
      },
      set: async () => {
        throw new KeychainUnavailableError(new Error('Cannot autolaunch D-Bus'));
      },
      delete: async () => false,
    };
    await service.close();
    service = await open({ tokens: broken });
    expect(await service.request('session.get', {})).toMatchObject({ signedIn: false, keychain: 'unavailable' });
    expect(await service.request('session.signIn', { apiUrl: fake.url, token: fake.token })).toMatchObject({ signedIn: true, keychain: 'unavailable' });
  });

  it('syncs chosen spaces with progress events and per-space state', async () => {
    // Progress is pushed at most every 50 ms; latency spaces the steps so each phase shows.
    fake.faults.latencyMs = 60;
    const folder = await signInAndSync();
    fake.faults.latencyMs = 0;
    expect(await readFile(join(folder, 'README.md'), 'utf8')).toContain('First line.');
    expect(states()).toEqual(expect.arrayContaining(['not-set-up', 'syncing', 'in-sync']));
    const progress = events.flatMap((e) => (e.name === 'sync.status' && e.payload.progress ? [e.payload.progress] : []));
    expect(progress.some((p) => p.phase === 'pull' && p.spaceTitle === 'Handbook' && p.total > 0)).toBe(true);
    const seqs = events.flatMap((e) => (e.name === 'sync.status' ? [e.payload.seq] : []));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const space = (await service.request('catalog.get', {})).spaces[0]!;
    expect(space).toMatchObject({ state: 'in-sync', emoji: '📘', pendingEdits: 0, conflicts: 0, reasons: [] });

    await writeFile(join(folder, 'README.md'), `${await readFile(join(folder, 'README.md'), 'utf8')}\nMore.\n`);
    expect((await service.request('catalog.get', {})).spaces[0]).toMatchObject({
      state: 'syncing',
      pendingEdits: 1,
      reasons: [expect.objectContaining({ kind: 'edits-waiting', action: 'sync-now' })],
    });
    expect(events.some((e) => e.name === 'data.changed' && e.payload.areas.includes('catalog'))).toBe(true);
  });

  it('reports offline and a rejected token as sync states with their reasons', async () => {
    await signInAndSync();
    fake.faults.offline = true;
    const offline = await service.syncOnce();
    expect(offline).toMatchObject({
      state: 'offline',
      offlineSince: expect.any(String),
      reasons: [expect.objectContaining({ kind: 'offline', action: 'sync-now' })],
    });
    expect(offline.lastReachedServerAt).not.toBeNull();
    fake.faults.offline = false;
    expect((await service.syncOnce()).state).toBe('in-sync');
    fake.faults.fail(1, 401);
    expect(await service.syncOnce()).toMatchObject({ state: 'needs-you', reasons: [expect.objectContaining({ kind: 'token-rejected', action: 'sign-in' })] });
    const log = await service.request('log.list', { kind: 'error' });
    expect(log[0]?.message).toContain('token rejected');
  });

  it('says, in the app’s terms, when the mass-delete fail-safe stops a sync, and deletes nothing', async () => {
    for (const title of ['Setup', 'Usage', 'Limits']) fake.store.addPage(spaceId, { title, markdown: `${title}.\n` });
    const folder = await signInAndSync();
    for (const file of ['setup.md', 'usage.md', 'limits.md']) await rm(join(folder, file));
    const status = await service.syncOnce();
    expect(status.state).toBe('needs-you');
    expect(status.reasons[0]).toMatchObject({
      kind: 'mass-delete',
      action: 'restore-deleted',
      message: expect.stringMatching(/^Stopped before deleting most of “Handbook”: this sync would delete 3 of its 4 pages on the server/),
    });
    expect(fake.store.pages(spaceId).map((p) => p.title)).toEqual(expect.arrayContaining(['Setup', 'Usage', 'Limits']));

    // One click puts them back from history; the next cycle finds nothing to delete.
    const restored = await service.request('history.restoreDeleted', { spaceId });
    expect(restored.restored.sort()).toEqual(['handbook/limits.md', 'handbook/setup.md', 'handbook/usage.md']);
    expect(await readFile(join(folder, 'usage.md'), 'utf8')).toContain('Usage.');
    expect((await service.syncOnce()).state).toBe('in-sync');
  });

  it('lists what each pull and push carried, page by page, and finds an entry by a page’s title or file', async () => {
    const folder = await signInAndSync();
    const sam = fake.store.addUser({ displayName: 'Sam Okafor' });
    const cr = fake.store.addChangeRequest(spaceId, { subject: 'Add limits', createdBy: sam.id });
    fake.store.addPage(spaceId, { title: 'Limits', markdown: 'None.\n' }, { changeRequest: cr.id });
    const merged = fake.store.mergeChangeRequest(spaceId, cr.id, sam.id);
    await writeFile(join(folder, 'README.md'), `${await readFile(join(folder, 'README.md'), 'utf8')}\nMore.\n`);
    expect((await service.syncOnce()).state).toBe('in-sync');

    const [pushed] = await service.request('log.list', { kind: 'pushed' });
    expect(pushed!.message).toMatch(/^Pushed 1 page to change request #\d+ “.+”$/);
    expect(pushed!.activity).toMatchObject({ direction: 'push', pages: [{ pageId, title: 'Intro', path: 'README.md', change: 'edited' }] });
    const [pulled] = await service.request('log.list', { kind: 'pulled', spaceId });
    expect(pulled!.message).toBe(`Pulled 1 page from main — change request #${cr.number} “Add limits” by Sam Okafor, merged by Sam Okafor`);
    expect(pulled!.message).not.toContain(merged.id);
    expect(pulled!.activity).toMatchObject({
      direction: 'pull',
      pages: [{ title: 'Limits', path: 'limits.md', change: 'added' }],
      revision: merged.id,
      source: { changeRequest: { id: cr.id, number: cr.number, subject: 'Add limits' }, createdBy: { id: sam.id, name: 'Sam Okafor' } },
    });
    expect((await service.request('log.list', { text: 'limits.md' })).map((e) => e.seq)).toEqual([pulled!.seq]);
  });

  it('pauses and resumes', async () => {
    await signInAndSync();
    expect(await service.request('sync.setPaused', { paused: true })).toMatchObject({ state: 'paused', paused: true });
    // Resuming runs a cycle for what changed meanwhile: syncing, then in sync.
    expect((await service.request('sync.setPaused', { paused: false })).paused).toBe(false);
    expect(await service.syncOnce()).toMatchObject({ state: 'in-sync', paused: false });
  });

  it('keeps the pause in the folder: quire status says paused with the edits waiting, a restart starts paused, quire sync resumes it', async () => {
    const folder = await signInAndSync();
    await service.request('sync.setPaused', { paused: true });
    await writeFile(join(folder, 'README.md'), `${await readFile(join(folder, 'README.md'), 'utf8')}\nWritten while paused.\n`);
    const status = JSON.parse((await quire(['status', '--dir', dir, '--json'])).stdout) as { state: string; reasons: { kind: string; message: string }[] };
    expect(status.state).toBe('paused');
    expect(status.reasons).toEqual([expect.objectContaining({ kind: 'paused', message: expect.stringMatching(/1 edit waits/) })]);

    await service.close();
    service = await open();
    expect(service.status()).toMatchObject({ state: 'paused', paused: true, editsWaiting: 1 });
    expect(fake.store.changeRequestsOf(spaceId)).toEqual([]);
    await service.close();

    const sync = await quire(['sync', '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } });
    expect(sync.stderr).toMatch(/was paused \(since .*\); `quire sync` resumes it/);
    expect(fake.store.changeRequestsOf(spaceId)).toHaveLength(1);
    service = await open();
    expect(service.status()).toMatchObject({ state: 'in-sync', paused: false });
  });

  async function makeConflict(folder: string) {
    const file = join(folder, 'README.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('First line.', 'First line, mine.'));
    fake.store.editPage(spaceId, pageId, { markdown: 'First line, theirs.\n\nSecond line.' });
    expect(await service.syncOnce()).toMatchObject({ state: 'needs-you', reasons: [expect.objectContaining({ kind: 'conflict', path: 'README.md' })] });
    const [conflict] = await service.request('conflicts.list', {});
    expect(conflict).toMatchObject({ spaceId, path: 'README.md', spaceTitle: 'Handbook' });
    expect(conflict!.local).toContain('First line, mine.');
    expect(conflict!.remote).toContain('First line, theirs.');
    return file;
  }

  it('resolves a conflict by taking theirs', async () => {
    const file = await makeConflict(await signInAndSync());
    expect(await service.request('conflicts.resolve', { spaceId, path: 'README.md', choice: 'theirs' })).toEqual([]);
    expect(await readFile(file, 'utf8')).toContain('First line, theirs.');
    await expect(access(file.replace(/\.md$/, '.remote.md'))).rejects.toThrow();
    // The cycle that records it starts at once.
    expect((await service.syncOnce()).state).toBe('in-sync');
    expect(await service.request('conflicts.list', {})).toEqual([]);
  });

  it('resolves a conflict by keeping mine, and opens the file in the editor', async () => {
    const file = await makeConflict(await signInAndSync());
    await service.request('conflicts.openInEditor', { spaceId, path: 'README.md' });
    expect(opened).toEqual([file]);
    await expect(service.request('conflicts.openInEditor', { spaceId, path: '../../etc/passwd' })).rejects.toThrow();
    await service.request('conflicts.resolve', { spaceId, path: 'README.md', choice: 'mine' });
    expect(await readFile(file, 'utf8')).toContain('First line, mine.');
    await service.syncOnce();
    expect(await service.request('conflicts.list', {})).toEqual([]);
    expect((await service.request('log.list', { text: 'kept the version here' })).length).toBe(1);
    await expect(service.request('conflicts.resolve', { spaceId, path: 'README.md', choice: 'mine' })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('opens in the editor only the conflicting page file and its .remote.md (issue 9, item 10)', async () => {
    const file = await makeConflict(await signInAndSync());
    const folder = join(file, '..');
    await writeFile(join(folder, 'run-me.sh'), '#!/bin/sh\necho owned\n');
    await writeFile(join(folder, 'notes.md'), 'Not part of any conflict.\n');
    for (const path of ['run-me.sh', 'notes.md', 'SUMMARY.md', '.quire/mirror.db', '../../etc/passwd']) {
      await expect(service.request('conflicts.openInEditor', { spaceId, path }), path).rejects.toMatchObject({
        code: expect.stringMatching(/not-found|invalid/),
      });
    }
    expect(opened).toEqual([]);
    await service.request('conflicts.openInEditor', { spaceId, path: 'README.md' });
    await service.request('conflicts.openInEditor', { spaceId, path: 'README.remote.md' });
    expect(opened).toEqual([file, file.replace(/\.md$/, '.remote.md')]);
  });

  it('sends review actions at once when online, and queues them as pending when offline', async () => {
    const comment = fake.store.addComment(spaceId, { body: 'Is this clear?', page: pageId });
    await signInAndSync();
    const [listed] = await service.request('review.comments', {});
    expect(listed).toMatchObject({ id: comment.id, markdown: 'Is this clear?', pageTitle: 'Intro', spaceTitle: 'Handbook', pending: false });

    await service.request('review.reply', { spaceId, commentId: comment.id, markdown: 'Yes.' });
    await expect.poll(() => fake.store.comment(spaceId, comment.id).replies.map((r) => r.markdown)).toEqual(['Yes.']);
    await expect.poll(() => service.status().pendingActions).toBe(0);

    fake.faults.offline = true;
    expect((await service.syncOnce()).state).toBe('offline');
    await service.request('review.resolve', { spaceId, commentId: comment.id });
    const thread = await service.request('review.thread', { spaceId, commentId: comment.id });
    expect(thread).toMatchObject({ status: 'resolved', pending: true });
    expect(service.status().pendingActions).toBe(1);
    expect(fake.store.comment(spaceId, comment.id).status).toBe('open');

    fake.faults.offline = false;
    expect(await service.syncOnce()).toMatchObject({ state: 'in-sync', pendingActions: 0 });
    expect(fake.store.comment(spaceId, comment.id).status).toBe('resolved');
    expect(await service.request('review.comments', {})).toEqual([]);
  });

  it('builds the Pages view from the folder: pages created here appear, each marked new, edited, in change request #N, held (why) or conflict', async () => {
    for (const title of ['Setup', 'Usage']) fake.store.addPage(spaceId, { title, markdown: `${title} steps.\n` });
    const folder = await signInAndSync();
    await writeFile(join(folder, 'release.md'), '# Release notes\n\nWritten here.\n');
    await writeFile(join(folder, 'setup.md'), '# Setup\n\nSetup steps, and one more.\n');
    await service.syncOnce();
    const number = fake.store.changeRequestsOf(spaceId).at(-1)!.number;
    await writeFile(join(folder, 'setup.md'), '# Setup\n\n{% hint style="info" %}\nNever closed.\n');
    await writeFile(join(folder, 'README.md'), (await readFile(join(folder, 'README.md'), 'utf8')).replace('First line.', 'First line, mine.'));
    fake.store.editPage(spaceId, pageId, { markdown: 'First line, theirs.\n\nSecond line.' });
    await service.syncOnce();
    await writeFile(join(folder, 'draft.md'), '# A draft idea\n\nNot pushed yet.\n');
    await writeFile(join(folder, 'usage.md'), '# Usage\n\nUsage steps, edited.\n');

    const [tree] = await service.request('pages.tree', {});
    const flat = (nodes: PageNodeVM[]): PageNodeVM[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const byPath = new Map(flat(tree!.pages).map((n) => [n.path, n]));
    expect(byPath.get('README.md')).toMatchObject({ sync: 'conflict' });
    expect(byPath.get('setup.md')).toMatchObject({ sync: 'held', why: expect.stringMatching(/hint/), changeRequest: number });
    expect(byPath.get('usage.md')).toMatchObject({ sync: 'edited', changeRequest: null });
    expect(byPath.get('release.md')).toMatchObject({ title: 'Release notes', sync: 'new', changeRequest: number });
    expect(byPath.get('draft.md')).toMatchObject({ title: 'A draft idea', sync: 'new', changeRequest: null });
    expect(await service.request('pages.get', { spaceId, path: 'release.md' })).toMatchObject({ title: 'Release notes', sync: 'new', changeRequest: number });
  });

  it('opens only web links in the browser', async () => {
    await service.request('app.openExternal', { url: 'https://example.com/docs' });
    await expect(service.request('app.openExternal', { url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'invalid-request' });
    expect(opened).toEqual(['https://example.com/docs']);
  });

  it('switches to another sync folder and refuses a relative one', async () => {
    await signInAndSync();
    const other = await mkdtemp(join(tmpdir(), 'quire-other-'));
    try {
      await expect(service.request('settings.update', { folder: 'relative/path' })).rejects.toMatchObject({ code: 'invalid-request' });
      const settings = await service.request('settings.update', { folder: other, notifications: false });
      expect(settings).toMatchObject({ folder: other, notifications: false, host: 'web', canChooseFolder: false });
      expect((await service.request('catalog.get', {})).spaces).toEqual([]);
      expect(await service.request('session.get', {})).toMatchObject({ signedIn: true });
      await expect(service.request('settings.chooseFolder', {})).rejects.toMatchObject({ code: 'unsupported' });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('asks to sign in before syncing', async () => {
    await expect(service.request('sync.now', {})).rejects.toMatchObject({ code: 'signed-out', message: expect.stringContaining('Sign in') });
  });

  it('stops gracefully: a running cycle finishes before the mirror closes', async () => {
    await service.request('session.signIn', { apiUrl: fake.url, token: fake.token });
    await service.request('catalog.refresh', {});
    await service.request('spaces.select', { spaceIds: [spaceId], selected: true });
    fake.faults.latencyMs = 100;
    await service.request('sync.now', {});
    expect(service.status().state).toBe('syncing');
    await service.close();
    expect(states().at(-1)).toBe('in-sync');
    const reopened = await open();
    try {
      const space = (await reopened.request('catalog.get', {})).spaces[0]!;
      expect(space.lastSyncAt).not.toBeNull();
      expect(await readFile(join(dir, space.folder!, 'README.md'), 'utf8')).toContain('First line.');
    } finally {
      await reopened.close();
    }
  });

  it('cancels a cycle that outlasts the grace period instead of hanging', async () => {
    await service.request('session.signIn', { apiUrl: fake.url, token: fake.token });
    await service.request('catalog.refresh', {});
    await service.request('spaces.select', { spaceIds: [spaceId], selected: true });
    await service.close();
    service = await createQuireService({
      apiUrl: fake.url,
      folder: dir,
      tokens,
      host: { kind: 'web', openExternal: async () => undefined, openPath: async () => undefined },
      syncIntervalMs: 0,
      stopGraceMs: 50,
    });
    fake.faults.latencyMs = 20_000;
    await service.request('sync.now', {});
    const started = Date.now();
    await service.close();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('normalises API addresses and emoji', () => {
    expect(normaliseApiUrl('https://api.gitbook.com/v1/')).toBe('https://api.gitbook.com');
    expect(() => normaliseApiUrl('ftp://x')).toThrow(/https:\/\//);
    expect(emojiText('1f4d8')).toBe('📘');
    expect(emojiText('1f468-200d-1f4bb')).toBe('👨‍💻');
    expect(emojiText('📘')).toBe('📘');
    expect(emojiText(null)).toBeNull();
  });
});
