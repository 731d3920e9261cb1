/**
 * Apply (core/sync/apply.ts) under a disk fault injected into node:fs, where files are written
 * (tests run as root and cannot fill a disk for real): the first error stops what is left.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeScannedFolders, keyOf, scannedFolder } from '../../helpers/recorded-folder';
import { listFiles } from '../../helpers/tree';

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

afterEach(() => {
  fault.code = null;
  closeScannedFolders();
});

describe('applyFileOps under a disk fault', () => {
  it('stops at the first disk error, says what to do, and leaves the file it failed on as it was', async () => {
    const { apply, read, spaceDir } = scannedFolder({ 'a.md': '# A\n', 'b.md': '# B\n' });
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
