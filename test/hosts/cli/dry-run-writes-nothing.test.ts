/**
 * `quire sync --dry-run` writes nothing anywhere (issue 17, item 12): on a folder that does not
 * exist yet, a folder of files with no mirror, or a mirror from an older Quire, it plans against
 * a mirror in memory and leaves every byte as it was — no folder, no `.quire`, no mirror. And a
 * sync folder of `/` or of a home folder itself is refused in one line by every command, before
 * anything is written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/core/mirror/database';
import { migrations } from '../../../src/main/core/mirror/migrations';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { seedGuide, syncOnce } from '../../helpers/sync';
import { snapshotTree } from '../../helpers/tree';

let fake: FakeApi;
let parent: string;
beforeEach(async () => {
  fake = await startFakeApi();
  seedGuide(fake);
  parent = tempDir('quire-dry-');
});
afterEach(async () => {
  await fake.close();
});

const dryRun = (dir: string, ...extra: string[]) => syncOnce(fake, dir, '--dry-run', ...extra).then((r) => r);
const PLANNED = /^ {2}pull new\s+getting-started\/install\.md$/m;

it('a folder that does not exist yet: plans every page, and creates neither the folder nor a mirror', async () => {
  const dir = join(parent, 'docs');
  const before = snapshotTree(parent);
  const run = await dryRun(dir);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(PLANNED);
  expect(run.stdout).toMatch(/Dry run: nothing was written, nothing was sent/);
  expect(existsSync(dir)).toBe(false);
  expect(snapshotTree(parent)).toEqual(before);
  expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);

  // --json too; and the real sync then does what the dry run said.
  expect(JSON.parse((await dryRun(dir, '--json')).stdout).dryRun).toBe(true);
  expect(snapshotTree(parent)).toEqual(before);
  expect((await syncOnce(fake, dir)).code).toBe(0);
  expect(readFileSync(join(dir, 'guide/getting-started/install.md'), 'utf8')).toContain('Line one.');
});

it('a folder of files with no mirror: every byte stays as it was', async () => {
  const dir = join(parent, 'repo');
  mkdirSync(join(dir, 'guide'), { recursive: true });
  writeFileSync(join(dir, 'guide/faq.md'), '# FAQ\n\nWritten before any sync.\n');
  const before = snapshotTree(parent);
  const run = await dryRun(dir);
  expect(run.code, run.stderr).toBe(0);
  expect(snapshotTree(parent)).toEqual(before);
  expect(readdirSync(dir)).toEqual(['guide']);
});

it('a mirror written by an older Quire: planned from a copy in memory, the file neither migrated nor touched', async () => {
  const dir = join(parent, 'old');
  openDatabase(
    dir,
    migrations.filter((m) => m.version < Math.max(...migrations.map((n) => n.version))),
  ).close();
  const before = snapshotTree(parent);
  const run = await dryRun(dir);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(PLANNED);
  expect(snapshotTree(parent)).toEqual(before);
});

it('a damaged mirror: the dry run says so and sets nothing aside (the next sync does)', async () => {
  const dir = join(parent, 'damaged');
  mkdirSync(join(dir, '.quire'), { recursive: true });
  writeFileSync(join(dir, '.quire/mirror.db'), 'garbage '.repeat(100));
  const before = snapshotTree(parent);
  const run = await dryRun(dir);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^quire sync: Quire's sync state in .* is damaged \(file is not a database\)\. .*The next sync moves it aside/);
  expect(snapshotTree(parent)).toEqual(before);
});

/** Runs `fn`, and takes away a `.quire` it finds made in `dir` (were the refusal to regress) so the machine stays clean. */
async function guarded(dir: string, fn: () => Promise<void>): Promise<void> {
  const had = existsSync(join(dir, '.quire'));
  try {
    await fn();
  } finally {
    if (!had) rmSync(join(dir, '.quire'), { recursive: true, force: true });
  }
}

const EVERY_COMMAND = (dir: string) => [
  ['sync', '--api', fake.url, '--dir', dir, '--once'],
  ['sync', '--api', fake.url, '--dir', dir, '--dry-run'],
  ['sync', '--api', fake.url, '--dir', dir, '--interval', '30'],
  ['status', '--dir', dir],
  ['review', '--dir', dir],
  ['history', '--dir', dir],
  ['search', 'words', '--dir', dir],
  ['restore', 'a.md', '--version', '1', '--dir', dir],
  ['comment', 'reply', 'c1', '--body', 'hi', '--dir', dir],
  ['check', '--dir', dir],
  ['preview', '--dir', dir],
  ['ui', '--api', fake.url, '--dir', dir],
];

/**
 * The commands that, were the refusal to regress, would write only into `<dir>/.quire` (the
 * guard takes it away): never a sync into `/`, nor a check that walks it, nor a server.
 */
const CONTAINED = (dir: string) =>
  EVERY_COMMAND(dir).filter((args) => ['status', 'review', 'history', 'search', 'restore', 'comment'].includes(args[0]!) || args.includes('--dry-run'));

it('the root of the file system: every command refuses it in one line (exit 2), before anything is written', async () => {
  await guarded('/', async () => {
    expect(existsSync('/.quire')).toBe(false);
    for (const args of CONTAINED('/')) {
      const run = await quire(args, { env: { QUIRE_TOKEN: fake.token } });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^quire ${args[0]}: --dir / is the root of the file system: .* give it a folder of its own, such as \\S+\\.$`));
      expect(existsSync('/.quire')).toBe(false);
    }
  });
  expect(fake.requests).toEqual([]);
});

it('a home folder itself ($HOME, and any account’s in /etc/passwd): refused in one line, nothing written in it', async () => {
  const home = tempDir('quire-home-');
  const saved = process.env.HOME;
  process.env.HOME = home;
  try {
    const before = snapshotTree(home);
    for (const dir of [home, `${home}/`, join(home, '.')]) {
      for (const args of EVERY_COMMAND(dir)) {
        const run = await quire(args, { env: { QUIRE_TOKEN: fake.token } });
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toBe(
          `quire ${args[0]}: --dir ${dir} is your home folder: Quire writes its own .quire folder and a folder per space into the sync folder, so give it a folder of its own inside it, such as ${join(home, 'Docs')}.`,
        );
      }
    }
    expect(snapshotTree(home)).toEqual(before);
    // A folder inside it is fine.
    expect((await dryRun(join(home, 'Docs'))).code).toBe(0);
  } finally {
    process.env.HOME = saved;
  }

  // Another account's home, from /etc/passwd (root's is /root on most systems).
  const other = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((f) => f.length >= 7 && f[5] && f[5] !== '/' && f[5] !== saved && existsSync(f[5]));
  if (other) {
    await guarded(other[5]!, async () => {
      for (const args of CONTAINED(other[5]!)) {
        const run = await quire(args, { env: { QUIRE_TOKEN: fake.token } });
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toContain(`--dir ${other[5]} is ${other[0]}'s home folder`);
      }
    });
  }
});
