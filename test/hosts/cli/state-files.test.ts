/**
 * Quire's own files in `.quire` (issue 17, item 4) through the command line. The lock is not
 * the mirror: a lock file full of stray bytes, or a link in its place, is said by name and
 * replaced, and the healthy mirror — history, the remembered API, the sync state — is kept; a
 * folder in its place is named, not taken for a read-only folder. Nothing in `.quire` is used
 * through a link, `.quire` included: every command refuses one with a line naming it, and
 * nothing is read or written where it points.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';
import { snapshotTree } from '../../helpers/tree';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

const state = (name = '') => join(root, '.quire', name);
const setAside = () => readdirSync(state()).filter((f) => f.includes('.corrupt-'));
/** Sync with the API the folder remembers (no --api): fails if the mirror was lost. */
const syncRemembered = () => quire(['sync', '--dir', root, '--once'], { env: { QUIRE_TOKEN: fake.token } });
const versionsOf = async (file: string) =>
  (JSON.parse((await quire(['history', file, '--dir', root, '--json'])).stdout) as { versions: { reason: string; at: string }[] }).versions;

/** A folder outside the sync folder, with a file in it, to point links at. */
function elsewhere(): { dir: string; file: string } {
  const outside = mkdtempSync(join(tmpdir(), 'quire-elsewhere-'));
  writeFileSync(join(outside, 'precious.txt'), 'Not Quire’s.\n');
  return { dir: outside, file: join(outside, 'precious.txt') };
}

it('stray bytes in sync.lock: said by name, the lock replaced, and the mirror kept with its history and API', async () => {
  const before = await versionsOf('guide/faq.md');
  expect(before.length).toBeGreaterThan(0);
  writeFileSync(state('sync.lock'), Buffer.from('\x00\xffrandom bytes, not a lock at all\n'.repeat(40), 'latin1'));
  write(dir, 'faq.md', '# FAQ\n\nEdited after the lock was damaged.\n');

  const run = await syncRemembered();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toContain(`${state('sync.lock')} held something other than Quire's lock (file is not a database)`);
  expect(run.stderr).not.toMatch(/unreadable|kept as|corrupt/i);
  expect(run.stdout).toMatch(/1 page pushed/);
  expect(setAside()).toEqual([]);
  expect((await versionsOf('guide/faq.md')).slice(-before.length)).toEqual(before);
  expect(readFileSync(state('sync.lock')).length).toBe(0);

  // Every later run is clean: nothing to say, nothing moved aside.
  const again = await syncRemembered();
  expect(again.code).toBe(0);
  expect(again.stderr).toBe('');
  expect(setAside()).toEqual([]);
});

it('sync.lock as a link: replaced by a file of its own, never followed, and the mirror kept', async () => {
  const outside = elsewhere();
  const target = snapshotTree(outside.dir);
  rmSync(state('sync.lock'), { force: true });
  symlinkSync(outside.file, state('sync.lock'));
  symlinkSync(outside.file, state('sync.lock.json'));

  const run = await syncRemembered();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toContain(`${state('sync.lock')} was a symbolic link (to ${outside.file}): Quire never uses a link in .quire`);
  expect(setAside()).toEqual([]);
  expect(snapshotTree(outside.dir)).toEqual(target);
  expect(snapshotTree(state())).not.toContainEqual(expect.stringMatching(/^link to/));
});

it('a folder where sync.lock goes: named, not "read-only", and nothing else touched', async () => {
  rmSync(state('sync.lock'), { force: true });
  mkdirSync(state('sync.lock'));
  const before = snapshotTree(root);

  const run = await syncRemembered();
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(`quire sync: ${state('sync.lock')} is a folder, where Quire keeps a file of its own. Move it out of .quire, then run Quire again.`);
  expect(snapshotTree(root)).toEqual(before);
});

it('.quire as a link: every command refuses it in one line, and nothing where it points is read or written', async () => {
  // The folder's state moved elsewhere, and .quire made a link to it.
  const outside = mkdtempSync(join(tmpdir(), 'quire-elsewhere-'));
  renameSync(state(), join(outside, 'state'));
  symlinkSync(join(outside, 'state'), state());
  write(dir, 'faq.md', '# FAQ\n\nEdited.\n');
  const before = snapshotTree(outside);
  const line = `${state()} is a symbolic link (to ${join(outside, 'state')}): Quire never reads or writes its sync state through a link. Remove the link (or move what it points to into its place), then run Quire again.`;

  for (const [command, args] of [
    ['sync', ['sync', '--api', fake.url, '--dir', root, '--once']],
    ['sync', ['sync', '--api', fake.url, '--dir', root, '--dry-run']],
    ['status', ['status', '--dir', root]],
    ['history', ['history', '--dir', root]],
    ['search', ['search', 'FAQ', '--dir', root]],
    ['review', ['review', '--dir', root]],
  ] as const) {
    const run = await quire([...args], { env: { QUIRE_TOKEN: fake.token } });
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
    expect(run.stderr.split('\n').at(-1)).toBe(`quire ${command}: ${line}`);
  }
  expect(snapshotTree(outside)).toEqual(before);
  expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
});

it('mirror.db or its -wal as a link: refused by name; the file it points to is neither read nor written', async () => {
  const outside = elsewhere();
  for (const name of ['mirror.db', 'mirror.db-wal']) {
    renameSync(state('mirror.db'), state('kept.db'));
    if (name !== 'mirror.db') renameSync(state('kept.db'), state('mirror.db'));
    symlinkSync(outside.file, state(name));
    const before = snapshotTree(outside.dir);
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `quire sync: ${state(name)} is a symbolic link (to ${outside.file}): Quire never reads or writes its sync state through a link. Remove the link (or move what it points to into its place), then run Quire again.`,
    );
    expect(snapshotTree(outside.dir)).toEqual(before);
    expect(setAside()).toEqual([]);
    rmSync(state(name));
    if (name === 'mirror.db') renameSync(state('kept.db'), state('mirror.db'));
  }
});

it('.quire/staging as a link: a move does not carry the writer’s file through it', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'quire-elsewhere-'));
  symlinkSync(outside, state('staging'));
  const untouched = statSync(outside).mtimeMs; // a file made or removed in it would change this
  // A move on the server: the local file is moved through the staging folder.
  const faq = fake.store.pageByTitle(space.id, 'FAQ');
  fake.store.movePage(space.id, faq.id, { parent: fake.store.pageByTitle(space.id, 'Getting Started').id });

  const run = await syncOnce(fake, root);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`${state('staging')} is a symbolic link (to ${outside})`);
  expect(readdirSync(outside)).toEqual([]);
  expect(statSync(outside).mtimeMs).toBe(untouched);
  expect(readFileSync(join(dir, 'faq.md'), 'utf8')).toContain('Questions.');
});

it('a staging journal that is a link: not read, so nothing it lists is moved into the folder', async () => {
  const outside = elsewhere();
  writeFileSync(outside.file, JSON.stringify({ moves: [{ from: 'planted.md', to: 'faq.md', staged: 'waiting' }] }));
  const staging = state(`staging/${space.id}`);
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'waiting'), '# Planted\n\nNot the writer’s.\n');
  symlinkSync(outside.file, join(staging, 'moves.json'));

  const run = await syncOnce(fake, root);
  expect(run.code, run.stderr).toBe(0);
  expect(readdirSync(dir)).not.toContain('planted.md');
  expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/content'))).toEqual([]);
});
