/**
 * The scan (core/sync/scan.ts) on its own, over a folder and a mirror recording what the last
 * cycle left: it reads only what changed, pairs a renamed file with its record, takes nothing it
 * cannot read for a delete, narrows to the watcher's paths and widens again when those see only
 * half of a rename.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mirror } from '../../src/main/core/mirror';
import { sha256 } from '../../src/main/core/sync/hash';
import { scanSpace, type ScanHint } from '../../src/main/core/sync/scan';
import { keyOf, recordedFolder, SPACE, writeInside } from '../helpers/recorded-folder';

let mirror: Mirror | undefined;

afterEach(() => {
  mirror?.close();
  mirror = undefined;
});

function recorded(files: Record<string, string>) {
  const folder = recordedFolder(files);
  mirror = folder.mirror;
  const scan = (hint: ScanHint = 'all') => scanSpace({ mirror: folder.mirror, spaceId: SPACE, spaceDir: folder.spaceDir, hint });
  return { ...folder, scan };
}

const write = writeInside;

/** What the planner hears of the folder. */
const changes = (r: ReturnType<typeof scanSpace>) => ({
  edited: Object.fromEntries([...r.local.edited].map(([k, v]) => [k, v.text])),
  vanished: Object.fromEntries(r.local.vanished),
  moved: Object.fromEntries(r.local.moved),
  added: r.local.added.map((a) => a.path),
  unreadable: r.local.unreadable.map((u) => [u.path, u.key, u.reason]),
});

const NOTHING = { edited: {}, vanished: {}, moved: {}, added: [], unreadable: [] };

describe('scanSpace', () => {
  it('reads no file that is as recorded, and reports a touched one as touched, not edited', () => {
    const { spaceDir, scan } = recorded({ 'a.md': '# A\n', 'b.md': '# B\n' });
    const idle = scan();
    expect(changes(idle)).toEqual(NOTHING);
    expect(idle.readCount).toBe(0);
    expect(idle.seen.get('a.md')?.hash).toBe(sha256('# A\n'));

    utimesSync(join(spaceDir, 'b.md'), new Date(), new Date(Date.now() + 5000));
    const touched = scan();
    expect(changes(touched)).toEqual(NOTHING);
    expect(touched.readCount).toBe(1);
    expect(touched.touched.map((t) => t.key)).toEqual([keyOf('b.md')]);
  });

  it('tells an edit, a new file, a delete and a rename apart', () => {
    const { spaceDir, scan } = recorded({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n', 'd.md': '# D\n' });
    write(spaceDir, 'a.md', '# A, edited\n');
    write(spaceDir, 'new.md', '# New\n');
    rmSync(join(spaceDir, 'b.md'));
    renameSync(join(spaceDir, 'c.md'), join(spaceDir, 'see.md'));
    mkdirSync(join(spaceDir, 'guide'));
    renameSync(join(spaceDir, 'd.md'), join(spaceDir, 'guide/d.md'));
    expect(changes(scan())).toEqual({
      edited: { [keyOf('a.md')]: '# A, edited\n' },
      vanished: { [keyOf('b.md')]: 'b.md' },
      moved: {
        [keyOf('c.md')]: { from: 'c.md', to: 'see.md', text: null },
        [keyOf('d.md')]: { from: 'd.md', to: 'guide/d.md', text: null },
      },
      added: ['new.md'],
      unreadable: [],
    });
  });

  it('takes nothing it cannot read for a delete: a link, a file that is not UTF-8, one with NUL bytes', () => {
    const { spaceDir, scan } = recorded({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
    rmSync(join(spaceDir, 'a.md'));
    symlinkSync('/etc/passwd', join(spaceDir, 'a.md'));
    write(spaceDir, 'b.md', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    write(spaceDir, 'c.md', 'text\u0000more\n');
    const r = scan();
    expect(r.local.vanished.size).toBe(0);
    expect(r.local.edited.size).toBe(0);
    expect(
      changes(r)
        .unreadable.map(([path, key]) => [path, key])
        .sort(),
    ).toEqual([
      ['a.md', keyOf('a.md')],
      ['b.md', keyOf('b.md')],
      ['c.md', keyOf('c.md')],
    ]);
    expect(changes(r).unreadable.find(([path]) => path === 'a.md')?.[2]).toBe('symlink');
  });

  it("looks only at the watcher's paths, and at the whole folder when they see only half of a rename", () => {
    const { spaceDir, scan } = recorded({ 'a.md': '# A\n', 'b.md': '# B\n' });
    write(spaceDir, 'a.md', '# A, edited\n');
    write(spaceDir, 'b.md', '# B, edited\n');
    const narrowed = scan(['b.md']);
    expect(narrowed.whole).toBe(false);
    expect(narrowed.readCount).toBe(1);
    expect(changes(narrowed).edited).toEqual({ [keyOf('b.md')]: '# B, edited\n' });
    write(spaceDir, 'a.md', '# A\n');

    renameSync(join(spaceDir, 'a.md'), join(spaceDir, 'renamed.md'));
    const widened = scan(['a.md']); // the watcher saw a.md go, not where it went
    expect(widened.whole).toBe(true);
    expect(changes(widened).moved).toEqual({ [keyOf('a.md')]: { from: 'a.md', to: 'renamed.md', text: null } });
    expect(changes(widened).vanished).toEqual({});
  });

  it('says the space folder is missing, planning no delete, when it is gone', () => {
    const { spaceDir, scan } = recorded({ 'a.md': '# A\n' });
    rmSync(spaceDir, { recursive: true });
    const r = scan();
    expect(r.missing).toBe(true);
    expect(changes(r)).toEqual(NOTHING);
  });
});
