import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  explainFsError,
  RealRoot,
  readFileInside,
  removeFileInside,
  resolveInside,
  SafeFsError,
  UnsafePathError,
  writeFileAtomic,
  writeFileAtomicStat,
} from '../../../src/main/core/sync/safe-fs';
import { renameSync, writeFileSync } from 'node:fs';
import { sha256 } from '../../../src/main/core/sync/hash';

let sandbox: string;
let root: string;
let outside: string;

beforeEach(async () => {
  sandbox = await mkdtemp(join(tmpdir(), 'quire-safefs-'));
  root = join(sandbox, 'space');
  outside = join(sandbox, 'outside');
  await mkdir(root);
  await mkdir(outside);
});
afterEach(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

describe('resolveInside', () => {
  it('resolves relative paths (either slash) inside the root', () => {
    expect(resolveInside(root, 'a/b.md')).toBe(join(root, 'a', 'b.md'));
    expect(resolveInside(root, 'a\\b.md')).toBe(join(root, 'a', 'b.md'));
    expect(resolveInside(root, './a//b.md')).toBe(join(root, 'a', 'b.md'));
  });

  it.each([
    ['..', 'parent'],
    ['../outside/x.md', 'parent'],
    ['a/../../x.md', 'parent'],
    ['a/../b.md', 'even when it would stay inside'],
    ['..\\x.md', 'backslash parent'],
    ['... /x', 'Windows trims dots and spaces'],
    ['/etc/passwd', 'absolute'],
    ['\\\\server\\share', 'UNC'],
    ['C:\\x.md', 'drive'],
    ...(process.platform === 'win32' ? [['c:x.md', 'drive-relative']] : []),
    ['a\0b.md', 'NUL'],
    ['', 'empty'],
    ['.', 'the root itself'],
  ])('refuses %j (%s)', (rel) => {
    expect(() => resolveInside(root, rel)).toThrow(UnsafePathError);
  });

  it.skipIf(process.platform === 'win32')('takes "c:x.md" for the file name it is where no drive letters exist', () => {
    expect(resolveInside(root, 'c:x.md')).toBe(join(root, 'c:x.md'));
  });

  it('refuses a path through a symlink that leads outside the root', async () => {
    await symlink(outside, join(root, 'link'));
    expect(() => resolveInside(root, 'link/x.md')).toThrow(/symbolic link/);
    await writeFile(join(outside, 'secret.md'), 'secret');
    await symlink(join(outside, 'secret.md'), join(root, 'file-link.md'));
    expect(() => resolveInside(root, 'file-link.md')).toThrow(UnsafePathError);
  });

  it('refuses a dangling symlink', async () => {
    await symlink(join(outside, 'not-yet'), join(root, 'dangling'));
    expect(() => resolveInside(root, 'dangling/x.md')).toThrow(/does not exist/);
  });

  it('allows symlinks that stay inside, and a root that is itself reached through a symlink', async () => {
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'alias'));
    expect(resolveInside(root, 'alias/x.md')).toBe(join(root, 'alias', 'x.md'));
    const rootLink = join(sandbox, 'root-link');
    await symlink(root, rootLink);
    expect(resolveInside(rootLink, 'a.md')).toBe(join(rootLink, 'a.md'));
  });

  it('works before the root exists', () => {
    expect(resolveInside(join(sandbox, 'new-space'), 'a/b.md')).toBe(join(sandbox, 'new-space', 'a', 'b.md'));
  });
});

describe('writeFileAtomic', () => {
  it('creates parent folders and writes the content', async () => {
    const abs = await writeFileAtomic(root, 'deep/er/page.md', 'hello');
    expect(abs).toBe(join(root, 'deep', 'er', 'page.md'));
    expect(await readFile(abs, 'utf8')).toBe('hello');
  });

  it('replaces an existing file, keeping its permissions, and leaves no temp file', async () => {
    await writeFile(join(root, 'p.md'), 'old');
    await chmod(join(root, 'p.md'), 0o640);
    await writeFileAtomic(root, 'p.md', Buffer.from('new'));
    expect(await readFile(join(root, 'p.md'), 'utf8')).toBe('new');
    expect((await stat(join(root, 'p.md'))).mode & 0o777).toBe(0o640);
    expect(await readdir(root)).toEqual(['p.md']);
  });

  it('refuses to write through a symlink leading outside, writing nothing there', async () => {
    await symlink(outside, join(root, 'link'));
    await expect(writeFileAtomic(root, 'link/x.md', 'x')).rejects.toThrow(UnsafePathError);
    await expect(writeFileAtomic(root, '../outside/x.md', 'x')).rejects.toThrow(UnsafePathError);
    expect(await readdir(outside)).toEqual([]);
  });

  it('fails clearly when a folder is in the way, cleaning its temp file and keeping the folder', async () => {
    await mkdir(join(root, 'taken.md'));
    await writeFile(join(root, 'taken.md', 'inner'), 'keep');
    const error = await writeFileAtomic(root, 'taken.md', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafeFsError);
    expect((error as SafeFsError).message).toMatch(/Could not save "taken.md": a folder is in the way/);
    expect(await readdir(root)).toEqual(['taken.md']);
    expect(await readFile(join(root, 'taken.md', 'inner'), 'utf8')).toBe('keep');
  });

  it('fails clearly when a file is in the way of a folder', async () => {
    await writeFile(join(root, 'a.md'), 'x');
    await expect(writeFileAtomic(root, 'a.md/b.md', 'x')).rejects.toThrow(/file is in the way/);
  });

  it('with the root looked up once for many writes, still checks each file: a folder turned into a link outside between two writes is refused', async () => {
    const once = new RealRoot();
    await writeFileAtomicStat(root, 'guides/one.md', 'one', { root: once });
    await rm(join(root, 'guides'), { recursive: true });
    await symlink(outside, join(root, 'guides'));
    await expect(writeFileAtomicStat(root, 'guides/two.md', 'two', { root: once })).rejects.toThrow(UnsafePathError);
    expect(await readdir(outside)).toEqual([]);
  });

  it('with the root looked up once, a root replaced by a link elsewhere is refused (the root is not looked up again)', async () => {
    const once = new RealRoot();
    await writeFileAtomicStat(root, 'one.md', 'one', { root: once });
    await rm(root, { recursive: true });
    await symlink(outside, root);
    await expect(writeFileAtomicStat(root, 'two.md', 'two', { root: once })).rejects.toThrow(UnsafePathError);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('writeFileAtomicStat over a file the writer may be saving (issue 17, item 19)', () => {
  // The write's first step waits for the disk: what is done before awaiting it happens while it is under way.
  it('with ifHolds, writes nothing when the file changed while the new text was written', async () => {
    await writeFile(join(root, 'page.md'), 'as seen\n');
    const writing = writeFileAtomicStat(root, 'page.md', 'from the server\n', { ifHolds: sha256('as seen\n') });
    writeFileSync(join(root, 'page.md'), 'as seen\nsaved by the writer meanwhile\n');
    expect(await writing).toBeNull();
    expect(await readFile(join(root, 'page.md'), 'utf8')).toBe('as seen\nsaved by the writer meanwhile\n');
    expect((await readdir(root)).filter((n) => n.startsWith('.quire-tmp'))).toEqual([]);
  });

  it('with ifHolds, writes nothing when the file was renamed meanwhile (it is not made again at its old path)', async () => {
    await writeFile(join(root, 'page.md'), 'as seen\n');
    const writing = writeFileAtomicStat(root, 'page.md', 'from the server\n', { ifHolds: sha256('as seen\n') });
    renameSync(join(root, 'page.md'), join(root, 'renamed.md'));
    expect(await writing).toBeNull();
    expect((await readdir(root)).sort()).toEqual(['renamed.md']);
  });

  it('with ifHolds, writes when the file still holds those bytes; with onlyIfAbsent, not over a file made meanwhile', async () => {
    await writeFile(join(root, 'page.md'), 'as seen\n');
    expect(await writeFileAtomicStat(root, 'page.md', 'from the server\n', { ifHolds: sha256('as seen\n') })).not.toBeNull();
    expect(await readFile(join(root, 'page.md'), 'utf8')).toBe('from the server\n');
    const fresh = writeFileAtomicStat(root, 'new.md', 'pulled\n', { onlyIfAbsent: true });
    writeFileSync(join(root, 'new.md'), 'the writer’s own new page\n');
    expect(await fresh).toBeNull();
    expect(await readFile(join(root, 'new.md'), 'utf8')).toBe('the writer’s own new page\n');
  });
});

describe('readFileInside and removeFileInside', () => {
  it('reads bytes or text', async () => {
    await writeFile(join(root, 'r.md'), 'héllo');
    expect(await readFileInside(root, 'r.md', 'utf8')).toBe('héllo');
    expect(Buffer.isBuffer(await readFileInside(root, 'r.md'))).toBe(true);
  });

  it('reports a missing file with code ENOENT', async () => {
    await expect(readFileInside(root, 'missing.md')).rejects.toMatchObject({ code: 'ENOENT', relPath: 'missing.md' });
  });

  it('refuses to read through a symlink leading outside', async () => {
    await writeFile(join(outside, 'secret.md'), 'secret');
    await symlink(join(outside, 'secret.md'), join(root, 'leak.md'));
    await expect(readFileInside(root, 'leak.md')).rejects.toThrow(UnsafePathError);
  });

  it('removes a file, says false when it was already gone, and can prune empty folders up to the root', async () => {
    await writeFileAtomic(root, 'a/b/c.md', 'x');
    await writeFileAtomic(root, 'a/keep.md', 'x');
    expect(await removeFileInside(root, 'a/b/c.md', { pruneEmptyFolders: true })).toBe(true);
    expect(await readdir(join(root, 'a'))).toEqual(['keep.md']);
    expect(await removeFileInside(root, 'a/keep.md', { pruneEmptyFolders: true })).toBe(true);
    expect(await readdir(root)).toEqual([]);
    expect((await stat(root)).isDirectory()).toBe(true);
    expect(await removeFileInside(root, 'a/keep.md')).toBe(false);
  });

  it('refuses to remove outside the root', async () => {
    await writeFile(join(outside, 'x.md'), 'x');
    await expect(removeFileInside(root, '../outside/x.md')).rejects.toThrow(UnsafePathError);
    expect(await readdir(outside)).toEqual(['x.md']);
  });
});

describe('explainFsError', () => {
  const sysError = (code: string) => Object.assign(new Error(`${code}: boom`), { code });

  it.each([
    ['ENOSPC', /disk is full.*Free some space.*Nothing was lost/],
    ['EDQUOT', /quota/],
    ['EROFS', /read-only disk.*Move the space folder.*Nothing was lost/],
    ['EACCES', /permission denied.*owns the folder.*Nothing was lost/],
    ['EPERM', /permission denied/],
    ['ENAMETOOLONG', /too long/],
  ])('%s says what happened, what to do, and that nothing was lost', (code, pattern) => {
    const error = explainFsError(sysError(code), 'save', 'a/b.md');
    expect(error.message).toMatch(/^Could not save "a\/b\.md": /);
    expect(error.message).toMatch(pattern);
    expect(error.code).toBe(code);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('keeps the system message for other errors', () => {
    expect(explainFsError(sysError('EIO'), 'read', 'x.md').message).toBe('Could not read "x.md": EIO: boom.');
  });
});
