/**
 * File operations confined to one root folder (a space folder).
 *
 * Every relative path is checked twice: lexically (no absolute paths, drive letters,
 * `..` segments or NUL: `pathProblem`, the rule paths read from the mirror meet too) and on disk (the real path of the deepest existing ancestor,
 * which resolves symbolic links, must stay inside the real root). Paths use `/` or `\`.
 * A symlink swapped in between the check and the write is not guarded against.
 */
import {
  closeSync,
  fstatSync,
  fsync,
  lstatSync,
  mkdirSync,
  open,
  promises as fsp,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { pathProblem } from '../mirror';
import { forEachBounded } from './bounded';
import { sha256 } from './hash';
import { Spellings, spelledOnDisk } from './spelling';

export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
  constructor(
    readonly relPath: string,
    reason: string,
  ) {
    super(`Refusing to use "${relPath}": ${reason}. Nothing was read or written.`);
  }
}

export class SafeFsError extends Error {
  override name = 'SafeFsError';
  constructor(
    message: string,
    /** The system error code (ENOENT, ENOSPC, ...), so callers can branch on it. */
    readonly code: string | undefined,
    readonly relPath: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const errnoCode = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;

/** Turns a system error into one that says what happened and what to do. */
export function explainFsError(err: unknown, action: string, relPath: string): SafeFsError {
  const code = errnoCode(err);
  const what = `Could not ${action} "${relPath}"`;
  const kept = 'Nothing was lost: the file on disk was left as it was, and Quire still has the content and will try again.';
  let advice: string;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      advice = `the disk is full (or your quota is used up). Free some space, then sync again. ${kept}`;
      break;
    case 'EROFS':
      advice = `the folder is on a read-only disk. Move the space folder to a writable location (or remount the disk read-write), then sync again. ${kept}`;
      break;
    case 'EACCES':
    case 'EPERM':
      advice = `permission denied. Check that your user owns the folder and that it and the file are not read-only or locked by another program, then sync again. ${kept}`;
      break;
    case 'ENAMETOOLONG':
      advice = `the path is too long for this system. Move the space folder closer to the top of the disk, then sync again. ${kept}`;
      break;
    case 'EISDIR':
      advice = 'a folder is in the way where a file should be. Move or rename that folder, then sync again.';
      break;
    case 'ENOTDIR':
      advice = 'a file is in the way where a folder should be. Move or rename that file, then sync again.';
      break;
    case 'ENOENT':
      advice = 'it does not exist.';
      break;
    default:
      advice = `${(err as Error)?.message ?? String(err)}.`;
  }
  return new SafeFsError(`${what}: ${advice}`, code, relPath, { cause: err });
}

function isInsideOrSame(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Real path of `p`, following symlinks as far as the path exists; missing tail parts are appended as is. */
function realpathOfDeepestExisting(p: string, relPath: string): string {
  const missing: string[] = [];
  let current = p;
  // Nothing there yet, or a file that is not a symbolic link: its real path is its folder's
  // (one lstat, rather than a realpath that fails or walks the same folders).
  const own = lstatOrUndefined(p);
  const parent = path.dirname(p);
  if (parent !== p && (own === undefined || (!own.isSymbolicLink() && !own.isDirectory()))) {
    missing.push(path.basename(p));
    current = parent;
  }
  for (;;) {
    try {
      return path.join(realpathSync.native(current), ...missing.reverse());
    } catch (err) {
      const code = errnoCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw explainFsError(err, 'check', relPath);
      if (isDanglingSymlink(current)) throw new UnsafePathError(relPath, `"${current}" is a symbolic link to something that does not exist; remove that link`);
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...missing.reverse());
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR and the like: nothing there, as for a missing path
  }
}

function isDanglingSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function lexicalSegments(relPath: string): string[] {
  const problem = pathProblem(relPath);
  if (problem !== null) throw new UnsafePathError(String(relPath), problem);
  return relPath.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
}

/**
 * Absolute path of `relPath` inside `root`, each name as it is spelt on disk (NFC or NFD:
 * spelling.ts). Throws UnsafePathError if it would leave root, lexically or through a symbolic
 * link already on disk. Root need not exist yet.
 */
export function resolveInside(root: string, relPath: string): string {
  return checkedInside(root, relPath);
}

/**
 * resolveInside, with the root's real path as `rootOnce` last found it: a writer of many files
 * into one root (a pull) looks the root up once, each file's own path every time.
 */
function checkedInside(root: string, relPath: string, rootOnce?: RealRoot): string {
  const absRoot = path.resolve(root);
  const target = path.join(absRoot, ...spelledOnDisk(absRoot, lexicalSegments(relPath), rootOnce?.spellings));
  if (!isInsideOrSame(absRoot, target) || target === absRoot) {
    throw new UnsafePathError(relPath, 'the path leaves the space folder');
  }
  const realRoot = rootOnce?.of(absRoot, relPath) ?? realpathOfDeepestExisting(absRoot, relPath);
  const realTarget = realpathOfDeepestExisting(target, relPath);
  if (!isInsideOrSame(realRoot, realTarget) || realTarget === realRoot) {
    throw new UnsafePathError(relPath, 'a symbolic link on disk leads outside the space folder; replace that link with a real folder or file');
  }
  return target;
}

/** Makes a folder's entries (a rename into it) durable; a no-op where folders can't be fsynced. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some systems (Windows) cannot open or fsync a directory; the rename is still atomic.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export interface AtomicWriteOptions {
  /** False: the caller fsyncs the folder (once for many writes: `syncDirectories`). Default true. */
  syncDirectory?: boolean;
  /** The root's real path, looked up once for many writes into it (`new RealRoot()` per batch of writes). */
  root?: RealRoot;
}

/**
 * The real path of a root folder, looked up on first use and kept: many writes into one root
 * (the files of a pull) check each file's own path against it, not the root again each time.
 * Kept only once the root exists (before, each use looks again).
 */
export class RealRoot {
  private known: { abs: string; real: string } | null = null;
  /** Folders' names spelt otherwise than NFC, listed once for the batch. */
  readonly spellings = new Spellings();

  of(absRoot: string, relPath: string): string {
    if (this.known?.abs === absRoot) return this.known.real;
    const real = realpathOfDeepestExisting(absRoot, relPath);
    if (lstatOrUndefined(absRoot)?.isDirectory()) this.known = { abs: absRoot, real };
    return real;
  }
}

/** Temp files are named by this process and a count: unique without a random number each. */
const TEMP_PREFIX = `.quire-tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}-`;
let tempCount = 0;

/**
 * Writes `data` to `relPath` inside `root` so that readers see either the old file or
 * the new one, never a half-written file: a temp file in the same folder, fsync, rename.
 * Creates missing parent folders (inside root only). Returns the absolute path.
 * On failure the temp file is removed and a SafeFsError explains what to do.
 * With `syncDirectory: false` the caller takes on fsyncing the folder (once for many writes).
 */
export async function writeFileAtomic(root: string, relPath: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<string> {
  return (await writeFileAtomicStat(root, relPath, data, options))!.path;
}

/**
 * writeFileAtomic, also saying what the file is once written (its size, mtime and inode, as a
 * stat of it would). With `onlyIfAbsent`, writes nothing and resolves null when something is
 * already at `relPath`; with `ifHolds` (a SHA-256 in hex), when the file there no longer holds
 * those bytes — checked at the last moment, just before the rename, so a save (or a rename) the
 * writer makes while the new text is written is never replaced.
 */
export async function writeFileAtomicStat(
  root: string,
  relPath: string,
  /** The file's text, or its bytes, whole or in blocks written one after the other as they are read. */
  data: string | Uint8Array | Iterable<Uint8Array>,
  options: AtomicWriteOptions & { onlyIfAbsent?: boolean; ifHolds?: string } = {},
): Promise<{ path: string; stats: Stats } | null> {
  const target = checkedInside(root, relPath, options.root);
  const dir = path.dirname(target);
  const temp = path.join(dir, `${TEMP_PREFIX}${++tempCount}`);
  // The small calls are synchronous: each costs several times less without a promise and a
  // thread-pool hop (a folder too: queued behind other files' fsyncs, its file waited longer).
  // Creating the temp file and the fsync are not: they may wait on the disk's journal (for
  // other files' fsyncs), which must not hold up everything else.
  let fd: number | undefined;
  let tempCreated = false;
  let stats: Stats;
  try {
    let created: string | undefined;
    if (!statOrUndefined(dir)?.isDirectory()) {
      try {
        created = mkdirSync(dir, { recursive: true });
      } catch (err) {
        // mkdir -p says EEXIST when a file sits where a folder should be.
        throw errnoCode(err) === 'EEXIST' ? explainFsError(Object.assign(new Error(String(err)), { code: 'ENOTDIR' }), 'save', relPath) : err;
      }
    }
    if (created !== undefined) checkedInside(root, relPath, options.root); // again, now that the new folders exist
    const existing = statOrUndefined(target);
    if (existing && options.onlyIfAbsent) return null;
    const existingMode = existing?.isFile() ? existing.mode & 0o777 : undefined;
    fd = await new Promise<number>((resolve, reject) => open(temp, 'wx', existingMode ?? 0o666, (err, opened) => (err ? reject(err) : resolve(opened))));
    tempCreated = true;
    for (const block of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) writeFileSync(fd, block);
    const written = fd;
    await new Promise<void>((resolve, reject) => fsync(written, (err) => (err ? reject(err) : resolve())));
    // The file renamed keeps its size, mtime and inode: no stat of it after.
    stats = fstatSync(fd);
    closeSync(fd);
    fd = undefined;
    if ((options.onlyIfAbsent && statOrUndefined(target)) || (options.ifHolds !== undefined && !holds(target, options.ifHolds))) {
      rmQuietly(temp);
      return null;
    }
    renameSync(temp, target);
    tempCreated = false;
  } catch (err) {
    if (fd !== undefined) closeQuietly(fd);
    if (tempCreated) rmQuietly(temp);
    if (err instanceof UnsafePathError || err instanceof SafeFsError) throw err;
    throw explainFsError(err, 'save', relPath);
  }
  if (options.syncDirectory !== false) await syncDirectory(dir);
  return { path: target, stats };
}

/** The file at `p` holds bytes whose SHA-256 is `hash` (false when it is gone or unreadable). */
function holds(p: string, hash: string): boolean {
  try {
    return sha256(readFileSync(p)) === hash;
  } catch {
    return false;
  }
}

function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed, or the disk is gone: nothing more to do
  }
}

function rmQuietly(p: string): void {
  try {
    rmSync(p, { force: true });
  } catch {
    // left behind: a temp name the scan ignores
  }
}

/** Folders fsynced at once by syncDirectories. */
const SYNC_DIRECTORIES_AT_ONCE = 8;

/** Makes the entries of these folders durable (after writes with `syncDirectory: false`), each once. */
export async function syncDirectories(dirs: Iterable<string>): Promise<void> {
  // A few at a time: Node's thread pool does four anyway, and a pull of 20,000 pages into
  // thousands of folders started them all at once (~18 MB of pending opens, at the pull's peak).
  await forEachBounded(new Set(dirs), SYNC_DIRECTORIES_AT_ONCE, syncDirectory);
}

/** Reads a file inside root (as text when an encoding is given). */
export async function readFileInside(root: string, relPath: string): Promise<Buffer>;
export async function readFileInside(root: string, relPath: string, encoding: BufferEncoding): Promise<string>;
export async function readFileInside(root: string, relPath: string, encoding?: BufferEncoding): Promise<Buffer | string> {
  const target = resolveInside(root, relPath);
  try {
    return encoding ? await fsp.readFile(target, encoding) : await fsp.readFile(target);
  } catch (err) {
    throw explainFsError(err, 'read', relPath);
  }
}

/**
 * Removes a file inside root. Returns false if it was already gone. With
 * `pruneEmptyFolders`, then removes the folders it leaves empty, up to (not including) root.
 */
export async function removeFileInside(root: string, relPath: string, options: { pruneEmptyFolders?: boolean } = {}): Promise<boolean> {
  const target = resolveInside(root, relPath);
  let removed = true;
  try {
    await fsp.unlink(target);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw explainFsError(err, 'delete', relPath);
    removed = false;
  }
  if (options.pruneEmptyFolders) {
    const absRoot = path.resolve(root);
    let dir = path.dirname(target);
    while (dir !== absRoot && isInsideOrSame(absRoot, dir)) {
      try {
        await fsp.rmdir(dir);
      } catch {
        break; // not empty (or not ours to remove): stop here
      }
      dir = path.dirname(dir);
    }
  }
  return removed;
}
