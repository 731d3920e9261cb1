/**
 * A page held by a conflict whose file the writer renames or moves: in every order of main's
 * delete (or main's clashing edit), the writer's edit, the rename and the settling of the
 * conflict, the writer's text survives at the file's new place — on the server (re-inserted, or
 * moved, at that place) and in the folder — no file is moved back, nothing is duplicated, and a
 * rename made while the conflict is held is kept.
 *
 * Driven through the engine, with the watcher's paths where the order depends on them (a cycle
 * that runs after a rename, before the watcher has reported it: the soak's seed 23).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { resolveConflict } from '../../../src/main/core/sync/conflicts';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { holdingProxy, openChangeRequests } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
let mirror: Mirror;
let engine: SyncEngine;
let notes: string;

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Docs',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'Section A', markdown: 'A.\n', pages: [{ title: 'Page A1', markdown: 'A1.\n' }] },
      { title: 'Section C', markdown: 'C.\n', pages: [{ title: 'Page C1', markdown: 'C1.\n' }] },
      { title: 'Notes', markdown: 'Notes: the opening line.\n\nNotes: the closing line.\n' },
    ],
  });
  notes = fake.store.pageByTitle(space.id, 'Notes').id;
  root = tempDir();
  dir = join(root, 'docs');
  mirror = Mirror.open(root);
  engine = engineThrough(fake.url);
  await engine.runCycle();
  expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toContain('Notes: the opening line.');
});
afterEach(async () => {
  mirror.close();
  await fake.close();
});

function engineThrough(url: string): SyncEngine {
  return new SyncEngine({ api: new ApiClient({ baseUrl: url, token: fake.token, maxAttempts: 2 }), mirror, root, spaces: { ids: [space.id] } });
}

// ---- the writer, main, the watcher ------------------------------------------------------------

/** A line of the writer's after the title (far from where main edits). */
function edit(rel: string, line: string): void {
  const text = readFileSync(join(dir, rel), 'utf8');
  const nl = text.indexOf('\n');
  writeFileSync(join(dir, rel), `${text.slice(0, nl + 1)}\n${line}\n${text.slice(nl + 1)}`);
}
function append(rel: string, line: string): void {
  writeFileSync(join(dir, rel), `${readFileSync(join(dir, rel), 'utf8')}\n${line}\n`);
}
function move(from: string, to: string): void {
  mkdirSync(dirname(join(dir, to)), { recursive: true });
  renameSync(join(dir, from), join(dir, to));
}
/** The writer settles the conflict by deleting the server's copy (keeping their file). */
const settle = (copy: string) => rmSync(join(dir, copy));
const mainDeletes = () => fake.store.deletePage(space.id, notes);
/** Main changes the line the writer changed: a clash. */
const mainClashes = () => fake.store.editPage(space.id, notes, { markdown: 'Notes: the opening line, as main has it.\n\nNotes: the closing line.\n' });
/** A cycle told of these paths by the watcher (relative to the space folder). */
const saw = (...paths: string[]) => engine.runCycle({ changed: paths.map((p) => `docs/${p}`) });

// ---- what must hold at the end -----------------------------------------------------------------

const pageFiles = (): string[] =>
  (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.md') && f !== 'SUMMARY.md')
    .sort();
const holding = (line: string) => pageFiles().filter((f) => readFileSync(join(dir, f), 'utf8').includes(line));

/** Cycles until one neither writes to the server nor changes a file. */
async function quiet(): Promise<void> {
  const snapshot = () => JSON.stringify(pageFiles().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  for (let round = 0; round < 6; round++) {
    const before = snapshot();
    fake.resetLog();
    await engine.runCycle();
    if (!fake.requests.some((r) => r.method !== 'GET') && snapshot() === before) return;
  }
  throw new Error('the sync did not settle');
}

/**
 * The writer's file is at `path` with every one of `lines`; no conflict is left; the server has
 * the page once, at that place, with those lines (main once the change request is merged); and
 * the folder, following main, moves nothing back.
 */
async function expectWritersPageAt(path: string, lines: string[]): Promise<void> {
  await quiet();
  const check = () => {
    expect(pageFiles().filter((f) => f.endsWith('.remote.md'))).toEqual([]);
    for (const line of lines) expect(holding(line), line).toEqual([path]);
  };
  check();
  expect(mirror.content.conflicts(space.id)).toEqual([]);
  const requests = openChangeRequests(fake, space.id);
  expect(requests).toHaveLength(1);
  fake.store.mergeChangeRequest(space.id, requests[0]!.id);
  const pages = fake.store.pages(space.id).filter((p) => p.markdown.includes(lines[0]!));
  expect(pages).toHaveLength(1);
  for (const line of lines) expect(pages[0]!.markdown).toContain(line);
  expect(fake.store.pagePath(space.id, pages[0]!.id)).toBe(path.replace(/\.md$/, ''));
  await quiet();
  check();
  expect(openChangeRequests(fake, space.id)).toEqual([]);
}

describe('main deleted a page whose file the writer edited, and the writer renames or moves the file', () => {
  it('renamed while the conflict is held, then settled', async () => {
    edit('notes.md', 'L1 wrote here.');
    mainDeletes();
    await engine.runCycle();
    expect(existsSync(join(dir, 'notes.remote.md'))).toBe(true);
    move('notes.md', 'notes-renamed.md');
    await engine.runCycle();
    settle('notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('notes-renamed.md', ['L1 wrote here.', 'Notes: the opening line.']);
  });

  it('moved into another section, edited, and main’s delete seen in the same cycle; then settled', async () => {
    edit('notes.md', 'L1 wrote here.');
    move('notes.md', 'section-c/notes.md');
    mainDeletes();
    await engine.runCycle();
    expect(existsSync(join(dir, 'section-c/notes.remote.md'))).toBe(true);
    settle('section-c/notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('section-c/notes.md', ['L1 wrote here.', 'Notes: the opening line.']);
  });

  it('renamed in the cycle that sees the conflict settled', async () => {
    edit('notes.md', 'L1 wrote here.');
    mainDeletes();
    await engine.runCycle();
    move('notes.md', 'section-a/notes-renamed.md');
    settle('notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('section-a/notes-renamed.md', ['L1 wrote here.', 'Notes: the opening line.']);
  });

  it('renamed after the conflict was settled (the page is proposed again)', async () => {
    edit('notes.md', 'L1 wrote here.');
    mainDeletes();
    await engine.runCycle();
    settle('notes.remote.md');
    await engine.runCycle();
    move('notes.md', 'notes-renamed.md');
    await engine.runCycle();
    await expectWritersPageAt('notes-renamed.md', ['L1 wrote here.', 'Notes: the opening line.']);
  });

  it('moved and pushed before main deleted it, edited after; then settled', async () => {
    move('notes.md', 'section-c/notes.md');
    await engine.runCycle();
    expect(fake.store.pagePath(space.id, notes, { changeRequest: openChangeRequests(fake, space.id)[0]!.id })).toBe('section-c/notes');
    mainDeletes();
    edit('section-c/notes.md', 'L1 wrote here.');
    await engine.runCycle();
    expect(existsSync(join(dir, 'section-c/notes.remote.md'))).toBe(true);
    move('section-c/notes.md', 'section-c/notes-renamed.md');
    await engine.runCycle();
    settle('section-c/notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('section-c/notes-renamed.md', ['L1 wrote here.', 'Notes: the opening line.']);
  });

  it('a cycle runs after the rename, before the watcher reports it (the soak, seed 23)', async () => {
    edit('notes.md', 'L1 wrote here.');
    mainDeletes();
    await saw('notes.md');
    append('notes.md', 'L2 appended before a rename.');
    await saw('notes.md');
    move('notes.md', 'notes-renamed.md');
    await saw('welcome.md'); // another file's save: the conflict is looked at, its file is not where it was
    // The whole folder was looked at: the conflict follows its file at once.
    expect(mirror.content.conflicts(space.id).map((c) => c.path)).toEqual(['notes-renamed.md']);
    await saw('notes.md', 'notes-renamed.md');
    settle('notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('notes-renamed.md', ['L1 wrote here.', 'L2 appended before a rename.', 'Notes: the opening line.']);
  });

  it('renamed after the scan read the folder, before the cycle planned (main’s tree on its way)', async () => {
    edit('notes.md', 'L1 wrote here.');
    mainDeletes();
    await engine.runCycle();
    append('notes.md', 'L2 appended before a rename.');
    await engine.runCycle();
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hi, edited on main.\n' }); // main moved: its tree is asked for
    const proxy = await holdingProxy(fake.url, { match: (m, p) => m === 'GET' && /\/spaces\/[^/]+\/content$/.test(p), when: 'after' });
    try {
      const cycle = engineThrough(proxy.url).runCycle();
      await proxy.held;
      move('notes.md', 'notes-renamed.md');
      proxy.release();
      await cycle;
    } finally {
      await proxy.close();
    }
    await engine.runCycle();
    expect(mirror.content.conflicts(space.id).map((c) => c.path)).toEqual(['notes-renamed.md']);
    settle('notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('notes-renamed.md', ['L1 wrote here.', 'L2 appended before a rename.', 'Notes: the opening line.']);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('Hi, edited on main.');
  });

  it('renamed while held, then settled from a host (“mine”)', async () => {
    edit('notes.md', 'L1 wrote here.');
    mainDeletes();
    await engine.runCycle();
    move('notes.md', 'section-a/notes.md');
    await engine.runCycle();
    expect(mirror.content.conflicts(space.id).map((c) => c.path)).toEqual(['section-a/notes.md']);
    await resolveConflict(mirror, root, space.id, 'section-a/notes.md', 'mine');
    await engine.runCycle();
    await expectWritersPageAt('section-a/notes.md', ['L1 wrote here.', 'Notes: the opening line.']);
  });
});

describe('a clash with main, and the writer renames the file while the conflict is held', () => {
  it('the page keeps its id and takes the new name once settled', async () => {
    edit('notes.md', 'L1 wrote here.');
    writeFileSync(
      join(dir, 'notes.md'),
      readFileSync(join(dir, 'notes.md'), 'utf8').replace('Notes: the opening line.', 'Notes: the opening line, as the writer has it.'),
    );
    mainClashes();
    await engine.runCycle();
    expect(existsSync(join(dir, 'notes.remote.md'))).toBe(true);
    move('notes.md', 'section-c/notes-renamed.md');
    await engine.runCycle();
    settle('notes.remote.md');
    await engine.runCycle();
    await expectWritersPageAt('section-c/notes-renamed.md', ['L1 wrote here.', 'Notes: the opening line, as the writer has it.']);
    expect(fake.store.pagePath(space.id, notes)).toBe('section-c/notes-renamed');
  });
});
