/**
 * A full disk and a read-only space folder: sync stops with one clear line (exit 1) and
 * loses nothing; once the disk is writable again it catches up. Needs to mount a small
 * tmpfs (root on Linux); skipped where that is not allowed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { openChangeRequests, pageByTitle, read, seedGuide, syncOnce, write } from '../../helpers/sync';

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

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let mounts: string[] = [];

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  root = tempDir('quire-disk-');
  mounts = [];
});
afterEach(async () => {
  for (const m of mounts.reverse()) {
    try {
      execFileSync('umount', [m], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
  await fake.close();
});

describe.skipIf(!canMount)('when the disk refuses writes', () => {
  it('a full disk gives one clear line, keeps the local edit, and sync catches up once there is room', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', root]);
    mounts.push(root);
    expect((await syncOnce(fake, root)).code).toBe(0);
    const dir = join(root, 'guide');
    write(dir, 'faq.md', '# FAQ\n\nWritten before the disk filled up.\n');
    fake.store.addPage(space.id, { title: 'Big news', markdown: 'A page to pull.\n' });
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Changelog').id, { markdown: 'Version 2.\n' });
    // Fill the disk.
    const filler = join(root, 'filler.bin');
    try {
      for (let i = 0; i < 4096; i++) writeFileSync(filler, Buffer.alloc(1024), { flag: 'a' });
    } catch {
      // ENOSPC: full
    }

    const run = await syncOnce(fake, root);
    expect(run.code).toBe(1);
    const errors = run.stderr.split('\n').filter((l) => l.startsWith('quire sync:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/disk is full.*Free some space/i);
    expect(read(dir, 'faq.md')).toBe('# FAQ\n\nWritten before the disk filled up.\n');

    rmSync(filler);
    const again = await syncOnce(fake, root);
    expect(again.code).toBe(0);
    expect(read(dir, 'changelog.md')).toContain('Version 2.');
    expect(read(dir, 'big-news.md')).toContain('A page to pull.');
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Written before the disk filled up.\n');
  });

  it('a read-only space folder gives one clear line and loses nothing', async () => {
    expect((await syncOnce(fake, root)).code).toBe(0);
    const dir = join(root, 'guide');
    write(dir, 'faq.md', '# FAQ\n\nEdited before the folder went read-only.\n');
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Changelog').id, { markdown: 'Version 2.\n' });
    execFileSync('mount', ['--bind', dir, dir]);
    mounts.push(dir);
    execFileSync('mount', ['-o', 'remount,bind,ro', dir]);

    const run = await syncOnce(fake, root);
    expect(run.code).toBe(1);
    const errors = run.stderr.split('\n').filter((l) => l.startsWith('quire sync:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/read-only.*sync again/);
    expect(read(dir, 'faq.md')).toBe('# FAQ\n\nEdited before the folder went read-only.\n');

    execFileSync('umount', [dir]);
    mounts.pop();
    mkdirSync(dir, { recursive: true });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'changelog.md')).toContain('Version 2.');
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Edited before the folder went read-only.\n');
  });
});
