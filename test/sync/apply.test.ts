/**
 * Apply (core/sync/apply.ts) on its own: a plan's file operations carried out on a folder the
 * scan just looked at. What it writes, moves, deletes and copies is reported for the record;
 * a file edited since the scan is never written over or deleted; a fresh file never
 * replaces one that appeared. Disk errors: test/sync/durability/apply-faults.test.ts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/main/core/sync/hash';
import { closeScannedFolders, keyOf, SPACE, scannedFolder, writeInside } from '../helpers/recorded-folder';
import { listFiles } from '../helpers/tree';

afterEach(() => closeScannedFolders());

describe('applyFileOps', () => {
  it('writes, moves, deletes and copies as planned, and reports each for the record', async () => {
    const { apply, read, spaceDir, heard, ownWrites } = scannedFolder({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
    const result = await apply([
      { op: 'delete', key: keyOf('c.md'), path: 'c.md' },
      { op: 'move', key: keyOf('b.md'), from: 'b.md', to: 'guide/b.md' },
      { op: 'write', key: keyOf('a.md'), path: 'a.md', text: '# A, from main\n', fresh: false },
      { op: 'write', key: 'new-page', path: 'guide/new.md', text: '# New\n', fresh: true },
      { op: 'remote-copy', key: keyOf('a.md'), path: 'a.remote.md', text: '# A, theirs\n' },
    ]);
    expect(result.error).toBeNull();
    expect([...result.failed]).toEqual([]);
    expect(listFiles(spaceDir)).toEqual(['a.md', 'a.remote.md', 'guide/b.md', 'guide/new.md']);
    expect([read('a.md'), read('guide/b.md'), read('guide/new.md'), read('a.remote.md')]).toEqual(['# A, from main\n', '# B\n', '# New\n', '# A, theirs\n']);
    expect(result.deleted).toEqual(new Map([[keyOf('c.md'), 'c.md']]));
    expect(result.moved).toEqual(new Map([[keyOf('b.md'), 'guide/b.md']]));
    expect(result.copies).toEqual(['a.remote.md']);
    const a = result.written.get(keyOf('a.md'))!;
    expect(a).toMatchObject({ path: 'a.md', textHash: sha256('# A, from main\n'), hash: sha256('# A, from main\n'), size: 15 });
    expect([...result.written.keys()].sort()).toEqual([keyOf('a.md'), 'new-page'].sort());
    expect(heard.map((p) => [p.key, p.path, p.relinked]).sort()).toEqual([
      ['new-page', 'guide/new.md', false],
      [keyOf('a.md'), 'a.md', false],
    ]);
    // What it wrote is known as its own (the watcher does not take it for the writer's edit).
    const st = statSync(join(spaceDir, 'a.md'));
    expect(ownWrites.wrote(SPACE, 'a.md', st)).toBe(true);
  });

  it('never writes over or deletes a file edited since the scan, nor replaces one that appeared', async () => {
    const { apply, read, spaceDir } = scannedFolder({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
    // Saved by the writer after the scan, before the plan is applied.
    writeInside(spaceDir, 'a.md', '# A, mine\n');
    writeInside(spaceDir, 'c.md', '# C, mine\n');
    writeInside(spaceDir, 'new.md', '# Someone else’s\n');
    const result = await apply([
      { op: 'write', key: keyOf('a.md'), path: 'a.md', text: '# A, from main\n', fresh: false },
      { op: 'delete', key: keyOf('c.md'), path: 'c.md' },
      { op: 'write', key: 'new-page', path: 'new.md', text: '# New\n', fresh: true },
      { op: 'write', key: keyOf('b.md'), path: 'b.md', text: '# B, from main\n', fresh: false },
    ]);
    expect(result.error).toBeNull();
    expect([...result.failed].sort()).toEqual([keyOf('a.md'), keyOf('c.md'), 'new-page'].sort());
    expect([read('a.md'), read('c.md'), read('new.md'), read('b.md')]).toEqual(['# A, mine\n', '# C, mine\n', '# Someone else’s\n', '# B, from main\n']);
    expect([...result.written.keys()]).toEqual([keyOf('b.md')]);
    expect(result.deleted.size).toBe(0);
  });
});
