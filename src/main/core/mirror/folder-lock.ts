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
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { STATE_DIR } from './state-dir';

const LOCK_FILE = 'sync.lock';
const HOLDER_FILE = 'sync.lock.json';
const POLL_MS = 200;

export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock (ISO time). */
  since: string;
  /** What it is, e.g. "quire sync --once" or "the Quire app". */
  command: string;
}

export interface FolderLockOptions {
  /** What the caller is, written for others to read while it holds the lock. */
  command: string;
  /** How long to wait for the holder to finish: 0 tries once; Infinity waits for its turn. Default 0. */
  waitMs?: number;
  /** The folder is busy and the caller starts waiting: who holds it (null while the holder is writing it down). */
  onWait?: (holder: LockHolder | null) => void;
  /** Stops waiting (rejects with the signal's reason). */
  signal?: AbortSignal;
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

/** "pid 4242 on laptop (quire sync --once), since 2024-05-01T10:00:00.000Z" */
export function describeHolder(holder: LockHolder | null): string {
  if (!holder) return 'a process that has just started';
  return `pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} (${holder.command}), since ${holder.since}`;
}

export class FolderLock {
  private constructor(
    private readonly db: Database.Database,
    private readonly stateDir: string,
    private readonly holder: LockHolder,
  ) {}

  /** Takes the folder's lock, waiting as the options say; throws FolderBusyError when the wait is over. */
  static async acquire(syncFolder: string, options: FolderLockOptions): Promise<FolderLock> {
    const stateDir = join(syncFolder, STATE_DIR);
    mkdirSync(stateDir, { recursive: true });
    const deadline = Date.now() + (options.waitMs ?? 0);
    let told = false;
    for (;;) {
      const lock = FolderLock.tryAcquire(stateDir, options.command);
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

  private static tryAcquire(stateDir: string, command: string): FolderLock | null {
    // timeout 0: busy is an answer, not something to block the event loop on.
    const db = new Database(join(stateDir, LOCK_FILE), { timeout: 0 });
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      db.close();
      if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return null;
      throw err;
    }
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command };
    writeHolder(stateDir, holder);
    return new FolderLock(db, stateDir, holder);
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
  if (!existsSync(join(stateDir, LOCK_FILE))) return null;
  const db = new Database(join(stateDir, LOCK_FILE), { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return null;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return { holder: readHolder(stateDir) };
    throw err;
  } finally {
    db.close();
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

function readHolder(stateDir: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(join(stateDir, HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.since !== 'string') return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), since: parsed.since, command: String(parsed.command ?? 'another Quire') };
  } catch {
    return null;
  }
}

function writeHolder(stateDir: string, holder: LockHolder): void {
  const tmp = join(stateDir, `${HOLDER_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(holder));
  renameSync(tmp, join(stateDir, HOLDER_FILE));
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
