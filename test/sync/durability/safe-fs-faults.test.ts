// Disk faults (full disk, read-only disk, permission denied) injected into node:fs, where
// writeFileAtomic writes and renames, since tests run as root and cannot provoke them for real.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SafeFsError, writeFileAtomic } from '../../../src/main/core/sync/safe-fs';

const fault = vi.hoisted(() => ({ code: null as string | null, at: 'write' as 'write' | 'rename' }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const failure = () => Object.assign(new Error(`${fault.code}: injected`), { code: fault.code });
  return {
    ...real,
    // Writing into an open file (the temp file): a path would be someone else's write.
    writeFileSync: (...args: Parameters<typeof real.writeFileSync>) => {
      if (fault.code !== null && fault.at === 'write' && typeof args[0] === 'number') throw failure();
      return real.writeFileSync(...args);
    },
    renameSync: (...args: Parameters<typeof real.renameSync>) => {
      if (fault.code !== null && fault.at === 'rename') throw failure();
      return real.renameSync(...args);
    },
  };
});

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'quire-faults-'));
  await writeFile(join(root, 'page.md'), 'old content');
});
afterEach(async () => {
  fault.code = null;
  await rm(root, { recursive: true, force: true });
});

describe('writeFileAtomic under disk faults', () => {
  it.each([
    ['ENOSPC', 'write', /disk is full/],
    ['EROFS', 'rename', /read-only disk/],
    ['EACCES', 'write', /permission denied/],
  ] as const)('%s during %s: clear error, old file intact, no temp file left', async (code, at, pattern) => {
    fault.code = code;
    fault.at = at;
    const error = await writeFileAtomic(root, 'page.md', 'new content').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafeFsError);
    expect((error as SafeFsError).code).toBe(code);
    expect((error as SafeFsError).message).toMatch(pattern);
    expect((error as SafeFsError).message).toMatch(/Nothing was lost/);
    fault.code = null;
    expect(await readFile(join(root, 'page.md'), 'utf8')).toBe('old content');
    expect(await readdir(root)).toEqual(['page.md']);
  });

  it('writes normally once the fault is gone', async () => {
    await writeFileAtomic(root, 'page.md', 'new content');
    expect(await readFile(join(root, 'page.md'), 'utf8')).toBe('new content');
  });
});
