/**
 * Apply (core/sync/apply.ts) on its own: a plan's file operations carried out on a folder the
 * scan just looked at. What it writes, moves, deletes and copies is reported for the record;
 * a file edited since the scan is never written over or deleted; a fresh file never
 * replaces one that appeared; the first disk error stops what is left.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/main/core/api';
import type { Mirror } from '../../src/main/core/mirror';
import { applyFileOps, type ApplyContext, type WrittenPage } from '../../src/main/core/sync/apply';
import { sha256 } from '../../src/main/core/sync/hash';
import { LinkResolver } from '../../src/main/core/sync/link-targets';
import { OwnWrites } from '../../src/main/core/sync/own-writes';
import type { FileOp, Plan } from '../../src/main/core/sync/plan';
import { scanSpace } from '../../src/main/core/sync/scan';
import { keyOf, recordedFolder, SPACE, writeInside } from '../helpers/recorded-folder';
import { listFiles } from '../helpers/tree';

const fault = vi.hoisted(() => ({ code: null as string | null }));
/** The next write into an open file fails with `code`, once. */
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    // Writing into an open file (the temp file a write goes through): the disk is full.
    writeFileSync: (...args: Parameters<typeof real.writeFileSync>) => {
      if (fault.code !== null && typeof args[0] === 'number') {
        const code = fault.code;
        fault.code = null;
        throw Object.assign(new Error(`${code}: injected`), { code });
      }
      return real.writeFileSync(...args);
    },
  };
});

let mirror: Mirror | undefined;
afterEach(() => {
  fault.code = null;
  mirror?.close();
  mirror = undefined;
});

/** A recorded folder, scanned as a cycle scans it before applying; `apply` then carries out file operations on it. */
function scanned(files: Record<string, string>) {
  const folder = recordedFolder(files);
  mirror = folder.mirror;
  const scan = scanSpace({ mirror: folder.mirror, spaceId: SPACE, spaceDir: folder.spaceDir, hint: 'all' });
  const heard: WrittenPage[] = [];
  const ownWrites = new OwnWrites();
  const ctx: ApplyContext = {
    // No operation here fetches a text (each carries its own): a client nothing answers.
    api: new ApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'unused', maxAttempts: 1 }),
    mirror: folder.mirror,
    spaceId: SPACE,
    spaceTitle: 'Handbook',
    spaceDir: folder.spaceDir,
    stagingDir: join(folder.root, '.quire', 'staging', SPACE),
    links: new LinkResolver(folder.mirror),
    seen: scan.seen,
    remotePage: () => undefined,
    onWritten: (page) => heard.push(page),
    ownWrites,
  };
  // Apply reads only the plan's file operations.
  const apply = (fileOps: FileOp[]) => applyFileOps(ctx, { fileOps } as Plan);
  const read = (path: string) => readFileSync(join(folder.spaceDir, path), 'utf8');
  return { ...folder, apply, read, heard, ownWrites };
}

describe('applyFileOps', () => {
  it('writes, moves, deletes and copies as planned, and reports each for the record', async () => {
    const { apply, read, spaceDir, heard, ownWrites } = scanned({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
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
    const { apply, read, spaceDir } = scanned({ 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' });
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

  it('stops at the first disk error, says what to do, and leaves the file it failed on as it was', async () => {
    const { apply, read, spaceDir } = scanned({ 'a.md': '# A\n', 'b.md': '# B\n' });
    fault.code = 'ENOSPC';
    const result = await apply([
      { op: 'write', key: keyOf('a.md'), path: 'a.md', text: '# A, from main\n', fresh: false },
      { op: 'remote-copy', key: keyOf('b.md'), path: 'b.remote.md', text: '# B, theirs\n' },
    ]);
    expect(result.error?.message).toMatch(/disk is full/);
    expect([...result.failed].sort()).toEqual([keyOf('a.md'), keyOf('b.md')].sort());
    expect(result.written.size).toBe(0);
    expect(result.copies).toEqual([]);
    expect(read('a.md')).toBe('# A\n');
    expect(listFiles(spaceDir)).toEqual(['a.md', 'b.md']);
  });
});
