/**
 * SQLite's own words never reach the user (issue 17, item 15): "database is locked" (another
 * process holding a write past 5 s), "unable to open database file" (a read-only `.quire`) and
 * "disk I/O error" (a full disk) are said as what happened and what to do, by every command;
 * waiting for another writer names who holds the folder when Quire knows. The read-only and full
 * disks need to mount (root on Linux) and are skipped where that is not allowed.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { folderLockElsewhere, seedGuide, syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';

const RAW = /database is locked|unable to open database file|disk I\/O error|attempt to write a readonly database|database or disk is full/;

describe('another process writing the mirror', () => {
  let fake: FakeApi;
  let root: string;
  syncedGuideEachTest((world) => {
    ({ fake, root } = world);
  });

  /** A second connection in the middle of a write, as another program would be. */
  function holdWrite(): () => void {
    const db = new Database(join(root, '.quire/mirror.db'));
    db.exec('BEGIN IMMEDIATE');
    return () => {
      db.exec('ROLLBACK');
      db.close();
    };
  }

  it('names the Quire holding the folder, says to let it finish, and exits 1', async () => {
    const holder = await folderLockElsewhere(root, 'quire sync --interval 30');
    const release = holdWrite();
    try {
      const run = await quire(['history', '--dir', root, '--keep-days', '30']);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toMatch(RAW);
      expect(run.stderr).toMatch(
        new RegExp(
          `^quire history: Quire's sync state in ${join(root, '.quire/mirror.db')} is being written by pid ${holder.pid} \\(quire sync --interval 30\\), since [^,]+, which holds this folder, so this could not write it\\. Let it finish \\(or close it\\), then run the command again\\.$`,
        ),
      );
    } finally {
      release();
      await holder.release();
    }
  });

  it('a sync: says another program is writing, loses nothing, and syncs once it is done', async () => {
    write(join(root, 'guide'), 'faq.md', '# FAQ\n\nEdited while another program wrote the mirror.\n');
    const release = holdWrite();
    let run: Awaited<ReturnType<typeof syncOnce>>;
    try {
      run = await syncOnce(fake, root);
    } finally {
      release();
    }
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(RAW);
    expect(run.stderr.split('\n').at(-1)).toBe(
      `quire sync: Quire's sync state in ${join(root, '.quire/mirror.db')} is being written by another program (another Quire, or a tool that opened it), so this could not write it. Let it finish (or close it), then sync again. Your files were not changed beyond what was already written, and every edit is still in them.`,
    );
    const again = await syncOnce(fake, root);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/1 page pushed/);
  });
});

function tryMount(args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const probe = tempDir('quire-mount-probe-');
const canMount = process.platform === 'linux' && tryMount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
if (canMount) execFileSync('umount', [probe]);

describe.skipIf(!canMount)('a disk that refuses writes', () => {
  let fake: FakeApi;
  const mounts: string[] = [];
  afterEach(async () => {
    for (const m of mounts.splice(0).reverse()) {
      try {
        execFileSync('umount', [m], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
    await fake?.close();
  });

  async function synced(root: string): Promise<void> {
    fake = await startFakeApi();
    seedGuide(fake);
    expect((await syncOnce(fake, root)).code).toBe(0);
  }

  it('a read-only .quire: every command says the disk is read-only and what to do, not SQLite’s words', async () => {
    const root = tempDir('quire-ro-');
    await synced(root);
    const state = join(root, '.quire');
    execFileSync('mount', ['--bind', state, state]);
    mounts.push(state);
    execFileSync('mount', ['-o', 'remount,bind,ro', state]);

    for (const args of [
      ['status', '--dir', root],
      ['history', '--dir', root, '--keep-days', '30'],
      ['search', 'FAQ', '--dir', root],
      ['sync', '--api', fake.url, '--dir', root, '--once'],
    ]) {
      const run = await quire(args, { env: { QUIRE_TOKEN: fake.token } });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
      expect(run.stderr).not.toMatch(RAW);
      expect(run.stderr.split('\n').at(-1)).toMatch(
        new RegExp(
          `^quire ${args[0]}: Could not open or save Quire's sync state in ${join(state, 'mirror.db')}: ${join(state, 'mirror.db')} is on a read-only disk\\. Make it writable, then (run the command|sync) again\\.`,
        ),
      );
    }
  });

  it('a full disk: a command that writes says the disk is full and to free some space', async () => {
    const root = tempDir('quire-full-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', root]);
    mounts.push(root);
    await synced(root);
    try {
      for (let i = 0; i < 4096; i++) writeFileSync(join(root, 'filler.bin'), Buffer.alloc(1024), { flag: 'a' });
    } catch {
      // ENOSPC: full
    }
    for (const args of [
      ['history', '--dir', root, '--keep-days', '30'],
      ['comment', 'reply', 'c1', '--body', 'A reply written offline.', '--dir', root],
    ]) {
      const run = await quire(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
      expect(run.stderr).not.toMatch(RAW);
      expect(run.stderr.split('\n').at(-1)).toBe(
        `quire ${args[0]}: Could not save Quire's sync state in ${join(root, '.quire/mirror.db')}: the disk is full. Free some space, then run the command again.`,
      );
    }
  });
});
