/**
 * One engine per sync folder: an exclusive lock held for the whole of a cycle. Two processes
 * cycling over one folder (two `quire sync`, or the CLI beside the app) would each push the
 * same new pages.
 *
 * The lock is an advisory lock taken by the operating system, through SQLite (already the
 * mirror's engine): a write transaction held open on `.quire/sync.lock` — fcntl() byte-range
 * locks on Linux and macOS, LockFileEx() on Windows. The OS drops it when its process ends,
 * however it ends (kill -9, a crash, a power cut), so a lock left by a dead process never
 * blocks, and there is nothing to judge by pid: no stale lock file, no pid reused by another
 * program, no clock, and no guess about a process on another machine sharing the folder.
 * Node has no flock(); a lock file taken with O_EXCL would need all of those guesses.
 *
 * Who holds it (pid, host, since, command) is written beside it, in `sync.lock.json`, only
 * to tell a waiting process whom it waits for.
 *
 * The lock file holds nothing (the OS lock is on the file, not in its bytes), so it is never
 * mistaken for the mirror: a lock file SQLite cannot read (stray bytes) is emptied in place —
 * the same file, so a live holder keeps its lock and is waited for as usual — and a link there is
 * replaced by a file of Quire's own (state-files.ts: nothing in `.quire` is used through a link).
 * Each is said in one line. A folder in its place is refused by name.
 */
import type Database from 'better-sqlite3';
import { closeSync, constants, ftruncateSync, openSync, rmSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isCorruptionError } from './corrupt';
import { describeHolder, HOLDER_FILE, type LockHolder, readHolder, writeHolder } from './lock-holder';
import { openSqlite } from './sqlite';
import { checkStateFile, linkTarget, lstatOrNull, stateDir as checkedStateDir } from './state-files';
import { STATE_DIR } from './state-dir';
import { explainStorageError } from './storage-errors';

const LOCK_FILE = 'sync.lock';
/** SQLite's journal for the lock's (empty) transaction, opened by name if it is there. */
const LOCK_JOURNAL = 'sync.lock-journal';
const POLL_MS = 200;

export interface FolderLockOptions {
  /** What the caller is, written for others to read while it holds the lock. */
  command: string;
  /** How long to wait for the holder to finish: 0 tries once; Infinity waits for its turn. Default 0. */
  waitMs?: number;
  /** The folder is busy and the caller starts waiting: who holds it (null while the holder is writing it down). */
  onWait?: (holder: LockHolder | null) => void;
  /** Stops waiting (rejects with the signal's reason). */
  signal?: AbortSignal;
  /** A lock file Quire could not use was replaced: the one line to show. */
  onNotice?: (line: string) => void;
}

/** Another process holds the folder past the wait. */
export class FolderBusyError extends Error {
  override name = 'FolderBusyError';

  constructor(
    readonly folder: string,
    readonly holder: LockHolder | null,
  ) {
    super(`Another Quire is syncing ${folder}: ${describeHolder(holder)}.`);
  }
}

export class FolderLock {
  private constructor(
    private readonly db: Database.Database,
    private readonly stateDir: string,
    private readonly holder: LockHolder,
  ) {}

  /** Takes the folder's lock, waiting as the options say; throws FolderBusyError when the wait is over. */
  static async acquire(syncFolder: string, options: FolderLockOptions): Promise<FolderLock> {
    const deadline = Date.now() + (options.waitMs ?? 0);
    let told = false;
    for (;;) {
      const stateDir = checkedStateDir(syncFolder, { create: true });
      const lock = FolderLock.tryAcquire(syncFolder, stateDir, options);
      if (lock) return lock;
      const holder = readHolder(stateDir);
      if (Date.now() >= deadline) throw new FolderBusyError(syncFolder, holder);
      if (!told) {
        told = true;
        options.onWait?.(holder);
      }
      await pause(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), options.signal);
    }
  }

  private static tryAcquire(syncFolder: string, stateDir: string, options: FolderLockOptions): FolderLock | null {
    const say = options.onNotice ?? (() => undefined);
    for (const name of [LOCK_FILE, LOCK_JOURNAL, HOLDER_FILE]) replaceLink(join(stateDir, name), say);
    let emptied = false;
    for (;;) {
      let db: Database.Database | null = null;
      try {
        // timeout 0: busy is an answer, not something to block the event loop on.
        db = openSqlite(join(stateDir, LOCK_FILE), { timeout: 0 });
        db.exec('BEGIN IMMEDIATE');
      } catch (err) {
        db?.close();
        if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return null;
        if (isCorruptionError(err) && !emptied) {
          emptied = true;
          emptyLockFile(join(stateDir, LOCK_FILE), err, say);
          continue;
        }
        throw explainStorageError(err, syncFolder, LOCK_FILE);
      }
      const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: options.command };
      writeHolder(stateDir, holder);
      return new FolderLock(db, stateDir, holder);
    }
  }

  /** Lets the next one in. Safe to call twice. */
  release(): void {
    if (!this.db.open) return;
    const current = readHolder(this.stateDir);
    if (current?.pid === this.holder.pid && current.since === this.holder.since) rmSync(join(this.stateDir, HOLDER_FILE), { force: true });
    this.db.exec('ROLLBACK');
    this.db.close();
  }
}

/**
 * Whether another process (or this one) is syncing the folder right now, and who: null when
 * nobody is. Never waits: the lock is tried once and let go at once, and nothing is written.
 */
export function folderBusy(syncFolder: string): { holder: LockHolder | null } | null {
  const stateDir = join(syncFolder, STATE_DIR);
  const path = join(stateDir, LOCK_FILE);
  // None yet, or something Quire never uses through (a link: the next sync replaces it): nobody holds it.
  if (!lstatOrNull(path)?.isFile()) return null;
  let db: Database.Database | null = null;
  try {
    db = openSqlite(path, { timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return null;
  } catch (err) {
    // Busy is the answer; a lock file SQLite cannot read holds no lock either (the next sync empties it).
    return (err as { code?: unknown }).code === 'SQLITE_BUSY' ? { holder: readHolder(stateDir) } : null;
  } finally {
    db?.close();
  }
}

/** Runs `fn` holding the folder's lock. */
export async function withFolderLock<T>(syncFolder: string, options: FolderLockOptions, fn: () => Promise<T>): Promise<T> {
  const lock = await FolderLock.acquire(syncFolder, options);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** A link where a lock file goes holds nothing of Quire's: it is removed (never followed), and a file made in its place. */
function replaceLink(path: string, say: (line: string) => void): void {
  if (!lstatOrNull(path)?.isSymbolicLink()) {
    checkStateFile(path); // a folder or a device is refused by name
    return;
  }
  const target = linkTarget(path);
  unlinkSync(path);
  say(
    `${path} was a symbolic link (to ${target}): Quire never uses a link in ${STATE_DIR}, so it was replaced with a file of Quire's own; the sync state in mirror.db was not touched.`,
  );
}

/** The lock file holds bytes SQLite cannot read: emptied in place (the same file, so a live holder keeps its OS lock). */
function emptyLockFile(path: string, cause: unknown, say: (line: string) => void): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    ftruncateSync(fd, 0);
  } finally {
    closeSync(fd);
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  say(`${path} held something other than Quire's lock (${reason}): it was emptied and used as the lock again; the sync state in mirror.db was not touched.`);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
