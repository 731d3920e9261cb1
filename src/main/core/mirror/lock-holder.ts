/**
 * Who holds a sync folder's lock (folder-lock.ts): pid, host, since and command, written beside
 * the lock in `.quire/sync.lock.json` by its holder, only to tell others whom they wait for.
 * Read and written without following a link (state-files.ts).
 */
import { closeSync, constants, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { when } from '../../../shared/when';
import { STATE_DIR } from './state-dir';

export const HOLDER_FILE = 'sync.lock.json';
/** More than any holder file Quire writes. */
const HOLDER_MAX_BYTES = 4096;

export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock (ISO time). */
  since: string;
  /** What it is, e.g. "quire sync --once" or "the Quire app". */
  command: string;
}

/** "pid 4242 on laptop (quire sync --once), since 3 min ago" */
export function describeHolder(holder: LockHolder | null): string {
  if (!holder) return 'a process that has just started';
  return `pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} (${holder.command}), since ${when(holder.since)}`;
}

/**
 * Who else holds the folder's lock: a live process on this machine (or one on another machine,
 * which cannot be asked) that wrote it down; null otherwise, and when this process holds it.
 */
export function currentHolder(syncFolder: string): LockHolder | null {
  const holder = readHolder(join(syncFolder, STATE_DIR));
  if (!holder || holder.host !== hostname()) return holder;
  if (holder.pid === process.pid) return null;
  try {
    process.kill(holder.pid, 0);
    return holder;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? holder : null;
  }
}

export function readHolder(stateDir: string): LockHolder | null {
  let fd: number;
  try {
    fd = openSync(join(stateDir, HOLDER_FILE), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const bytes = Buffer.alloc(HOLDER_MAX_BYTES);
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    const parsed = JSON.parse(bytes.subarray(0, read).toString('utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.since !== 'string') return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), since: parsed.since, command: String(parsed.command ?? 'another Quire') };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Written aside (a new file, never through a link) and renamed into place (a rename replaces a link, not its target). */
export function writeHolder(stateDir: string, holder: LockHolder): void {
  const tmp = join(stateDir, `${HOLDER_FILE}.${process.pid}.tmp`);
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(stateDir, HOLDER_FILE));
}
