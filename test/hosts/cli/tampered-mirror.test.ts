/**
 * A mirror changed outside Quire (issue 27, item 9): every path it names — a space's folder, a
 * page's file or folder, an asset, a conflict copy, a history record — is checked to stay
 * inside the sync folder (and its space's folder) before anything is read or written there. A
 * space whose state names one that does not is stopped with one line: nothing of it is read,
 * written or sent (above all no delete for pages "missing" from a folder it cannot trust), while
 * the other spaces sync; `quire status` says the same line and follows none of those paths.
 */
import Database from 'better-sqlite3';
import { cpSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/core/mirror';
import { startPreview } from '../../../src/main/hosts/preview';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { seedGuide, syncOnce } from '../../helpers/sync';
import { snapshotTree } from '../../helpers/tree';

let fake: FakeApi;
let guide: SpaceRec;
let notes: SpaceRec;
let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  fake = await startFakeApi();
  guide = seedGuide(fake);
  notes = fake.store.addSpace(guide.orgId, { title: 'Notes', pages: [{ title: 'Ideas', markdown: 'Some ideas.\n' }] });
  base = tempDir('quire-tampered-');
  root = join(base, 'sync');
  outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), 'Not for any server.\n');
  const first = await syncOnce(fake, root);
  expect(first.code, first.stderr).toBe(0);
  fake.resetLog();
});
afterEach(async () => {
  await fake.close();
});

/** Changes the mirror as another program would. */
function tamper(sql: string, ...params: unknown[]): void {
  const db = new Database(join(root, '.quire/mirror.db'));
  db.prepare(sql).run(...params);
  db.close();
}

/** Requests that would change the guide space on the server. */
const guideWrites = () => fake.requests.filter((r) => r.method !== 'GET' && r.path.includes(guide.id));
const deletes = () => fake.requests.filter((r) => JSON.stringify(r.body ?? null).includes('delete_page'));
const notesPushed = () => fake.requests.some((r) => r.method === 'POST' && r.path.includes(notes.id) && r.path.endsWith('/content'));
const status = () => quire(['status', '--dir', root, '--json']);

/** The guide's folder copied outside with two pages gone and one edited; the notes space edited here. */
function stage(): void {
  cpSync(join(root, 'guide'), join(outside, 'guide'), { recursive: true });
  rmSync(join(outside, 'guide/faq.md'));
  rmSync(join(outside, 'guide/changelog.md'));
  writeFileSync(join(outside, 'guide/getting-started/install.md'), '# Install\n\nEdited outside.\n');
  fake.store.editPage(guide.id, fake.store.pageByTitle(guide.id, 'Install').id, { markdown: 'Rewritten on main.\n' });
  writeFileSync(join(root, 'notes/ideas.md'), '# Ideas\n\nMore ideas.\n');
}

it('a space folder that leaves the sync folder: that space stops in one line, nothing written outside, no delete sent; the others sync', async () => {
  stage();
  tamper(`UPDATE spaces SET folder = ? WHERE id = ?`, '../outside/guide', guide.id);
  const before = snapshotTree(outside);

  const run = await syncOnce(fake, root);
  expect(run.code).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => !/^\w+ing .*: \d+\/\d+/.test(l));
  expect(lines).toEqual([expect.stringMatching(/^quire sync: Quire's sync state names “\.\.\/outside\/guide” as the folder of “Guide”/)]);
  expect(lines[0]).toMatch(/Nothing of “Guide” was read, written or sent\./);
  expect(snapshotTree(outside)).toEqual(before);
  expect(deletes()).toEqual([]);
  expect(guideWrites()).toEqual([]);
  expect(notesPushed()).toBe(true);

  // status says the same, and counts no edits from where the folder points.
  const shown = await status();
  const guideState = (JSON.parse(shown.stdout) as { spaces: { spaceId: string; reasons: { kind: string; message: string }[] }[] }).spaces.find(
    (s) => s.spaceId === guide.id,
  )!;
  expect(guideState.reasons.map((r) => r.kind)).toEqual(['unsafe-state']);
  expect(guideState.reasons[0]!.message).toMatch(/names “\.\.\/outside\/guide” as the folder of “Guide”/);
  expect(snapshotTree(outside)).toEqual(before);

  // A dry run plans nothing for it either.
  const dry = await syncOnce(fake, root, '--dry-run');
  expect(dry.code).toBe(1);
  expect(dry.stderr).toMatch(/^quire sync: Quire's sync state names “\.\.\/outside\/guide” as the folder of “Guide”/);
});

it.each([
  ['an absolute path', () => join(outside, 'guide'), /leaves the sync folder/],
  ['the parent folder', () => '..', /leaves the sync folder/],
  ['a path through a folder', () => 'guide/../../outside/guide', /leaves the sync folder/],
  ['the sync folder itself (empty)', () => '', /is the sync folder itself/],
  ['the sync folder itself (.)', () => '.', /is the sync folder itself/],
  ['Quire’s own folder', () => '.quire', /is Quire's own folder/],
  ['Quire’s own folder in other case', () => '.Quire', /is Quire's own folder/],
  ['a NUL byte', () => 'guide\u0000x', /is not a folder name/],
])('a space folder that is %s: stopped in one line, nothing read, written or sent for it', async (_what, folder, reason) => {
  stage();
  tamper(`UPDATE spaces SET folder = ? WHERE id = ?`, folder(), guide.id);
  const outsideBefore = snapshotTree(outside);
  const rootBefore = snapshotTree(root);
  rootBefore.delete('notes/ideas.md');

  const run = await syncOnce(fake, root);
  expect(run.code).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => !/^\w+ing .*: \d+\/\d+/.test(l));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^quire sync: Quire's sync state names “.*” as the folder of “Guide”/);
  expect(lines[0]).toMatch(reason);
  expect(guideWrites()).toEqual([]);
  expect(deletes()).toEqual([]);
  expect(notesPushed()).toBe(true);
  expect(snapshotTree(outside)).toEqual(outsideBefore);
  // Nothing new in the sync folder but Quire's state and the notes space's own files.
  const after = snapshotTree(root);
  for (const [path, bytes] of after) if (!path.startsWith('.quire/') && !path.startsWith('notes/')) expect([path, rootBefore.get(path)]).toEqual([path, bytes]);
  for (const path of after.keys()) if (path.startsWith('.quire/')) expect(path).toMatch(/^\.quire\/(|mirror\.db(-wal|-shm)?|sync\.lock(\.json)?|staging\/.*)$/);
});

it('a folder two spaces’ states name (in any case): both stop, neither reads, writes nor sends anything', async () => {
  stage();
  tamper(`UPDATE spaces SET folder = ? WHERE id = ?`, 'NOTES', guide.id);
  const before = snapshotTree(root);

  const run = await syncOnce(fake, root);
  expect(run.code).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => !/^\w+ing .*: \d+\/\d+/.test(l));
  expect(lines).toEqual([
    expect.stringMatching(
      /^quire sync: Quire's sync state names “(NOTES|notes)” as the folder of “(Guide|Notes)”, which is also the folder of “(Notes|Guide)”/,
    ),
  ]);
  expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  for (const [path, bytes] of snapshotTree(root)) if (!path.startsWith('.quire/')) expect([path, before.get(path)]).toEqual([path, bytes]);

  const shown = JSON.parse((await status()).stdout) as { spaces: { reasons: { kind: string; message: string }[] }[] };
  expect(shown.spaces.map((s) => s.reasons.map((r) => r.kind))).toEqual([['unsafe-state'], ['unsafe-state']]);
  expect(shown.spaces.map((s) => s.reasons[0]!.message).join('\n')).toMatch(/“NOTES” as the folder of “Guide”, which is also the folder of “Notes”/);
});

it('the preview neither lists nor serves what a space folder outside the sync folder holds, and says why', async () => {
  stage();
  writeFileSync(join(outside, 'guide/README.md'), '# Outside welcome\n\nSECRET-OUTSIDE\n');
  tamper(`UPDATE spaces SET folder = ? WHERE id = ?`, '../outside/guide', guide.id);
  const mirror = Mirror.open(root);
  const said: string[] = [];
  const server = await startPreview({ dir: root, mirror, log: (line) => said.push(line) });
  try {
    const url = new URL(server.url);
    const home = await (await fetch(url)).text();
    expect(home).toContain('Notes');
    expect(home).not.toMatch(/Outside welcome|outside\/guide/);
    // The path the tampered folder gives its pages, as one segment the browser does not resolve.
    const page = await fetch(`${url.origin}${url.pathname}..%2Foutside%2Fguide%2FREADME.md`);
    expect(await page.text()).not.toContain('SECRET-OUTSIDE');
    expect(said.filter((l) => !l.startsWith('preview:'))).toEqual([
      expect.stringMatching(/^Quire's sync state names “\.\.\/outside\/guide” as the folder of “Guide”/),
    ]);
  } finally {
    await server.close();
    mirror.close();
  }
});

it('a space folder that is a symbolic link: stopped in one line, nothing written where it leads', async () => {
  stage();
  const elsewhere = join(outside, 'moved-guide');
  renameSync(join(root, 'guide'), elsewhere);
  rmSync(join(elsewhere, 'faq.md'));
  symlinkSync(elsewhere, join(root, 'guide'));
  const before = snapshotTree(outside);

  const run = await syncOnce(fake, root);
  expect(run.code).toBe(1);
  expect(run.stderr.split('\n').filter((l) => !/^\w+ing .*: \d+\/\d+/.test(l))).toEqual([
    expect.stringMatching(/^quire sync: The folder of “Guide”, .*guide, is a symbolic link \(to .*moved-guide\): /),
  ]);
  expect(snapshotTree(outside)).toEqual(before);
  expect(guideWrites()).toEqual([]);
  expect(notesPushed()).toBe(true);
});

it.each([
  ['a page file', `UPDATE folder_nodes SET path = '../../outside/secret.md' WHERE space_id = @space AND path = 'faq.md'`],
  ['a page file (absolute)', `UPDATE folder_nodes SET path = @abs WHERE space_id = @space AND path = 'faq.md'`],
  ['a page folder', `UPDATE folder_nodes SET folder = '../../outside' WHERE space_id = @space AND folder = 'getting-started'`],
  [
    'an asset',
    `INSERT INTO folder_assets (space_id, path, file_id, size, mtime_ms, ino, hash) VALUES (@space, '.gitbook/assets/../../../../outside/secret.md', NULL, 1, 1, NULL, 'x')`,
  ],
  [
    'a conflict copy',
    `INSERT INTO conflicts (space_id, path, page_id, kind, remote_path, detected_at) VALUES (@space, 'faq.md', NULL, 'edited-both', '../../outside/faq.remote.md', '2024-01-01T00:00:00Z')`,
  ],
])('a path of %s that leaves the space folder: that space stops in one line, nothing read, written or sent for it', async (_what, sql) => {
  stage();
  tamper(sql.replace('@abs', `'${join(outside, 'secret.md')}'`).replaceAll('@space', `'${guide.id}'`));
  // The guide's folder as it was: only the tampered path would make its pages look gone.
  rmSync(join(outside, 'guide'), { recursive: true });
  const before = snapshotTree(outside);

  const run = await syncOnce(fake, root);
  expect(run.code).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => !/^\w+ing .*: \d+\/\d+/.test(l));
  expect(lines).toEqual([
    expect.stringMatching(/^quire sync: Quire's sync state names “.*outside.*” as .* of “Guide”, .*Nothing of “Guide” was read, written or sent\./),
  ]);
  expect(guideWrites()).toEqual([]);
  expect(deletes()).toEqual([]);
  expect(notesPushed()).toBe(true);
  expect(snapshotTree(outside)).toEqual(before);

  const shown = await status();
  const state = JSON.parse(shown.stdout) as { spaces: { spaceId: string; reasons: { kind: string }[] }[] };
  expect(state.spaces.find((s) => s.spaceId === guide.id)!.reasons.map((r) => r.kind)).toEqual(['unsafe-state']);
});

it('a history record whose path leaves the space folder: restore refuses it in one line and writes nothing', async () => {
  tamper(`UPDATE history_pages SET path = '../../outside/secret.md' WHERE space_id = ? AND path = 'faq.md'`, guide.id);
  tamper(`UPDATE history_versions SET path = '../../outside/secret.md' WHERE space_id = ? AND path = 'faq.md'`, guide.id);
  const page = fake.store.pageByTitle(guide.id, 'FAQ').id;
  const before = snapshotTree(outside);
  const run = await quire(['restore', page, '--version', '1', '--dir', root]);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^quire restore: Quire's sync state names “\.\.\/\.\.\/outside\/secret\.md” as a page's file of “Guide”/);
  expect(run.stderr.split('\n')).toHaveLength(1);
  expect(snapshotTree(outside)).toEqual(before);
});

it('a move journal naming a file outside Quire’s staging folder: that file is never moved in, nor pushed', async () => {
  const staging = join(root, '.quire/staging', guide.id);
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'moves.json'), JSON.stringify({ moves: [{ from: 'stolen.md', to: 'stolen.md', staged: '../../../../outside/secret.md' }] }));
  const before = snapshotTree(outside);

  const run = await syncOnce(fake, root);
  expect(snapshotTree(outside)).toEqual(before);
  expect(JSON.stringify(fake.requests.map((r) => r.body ?? null))).not.toContain('Not for any server');
  expect(run.stderr).not.toMatch(/secret/);
});
