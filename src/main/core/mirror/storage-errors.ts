/**
 * SQLite's own words ("unable to open database file", "disk I/O error", "database is locked")
 * never reach a person: a failure to open or write one of Quire's files in `.quire` is said as
 * what happened — the disk is full, the folder is read-only, another program is writing — and
 * what to do. Damage (SQLITE_CORRUPT, SQLITE_NOTADB) is not handled here: corrupt.ts and
 * derived.ts have their own words for it, and what to do about it differs.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { currentHolder, describeHolder } from './lock-holder';
import { MIRROR_FILE } from './corrupt';
import { lstatOrNull } from './state-files';
import { STATE_DIR } from './state-dir';

/** Less free space than this, and an I/O error is taken for a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** What could not be done with one of Quire's files, in plain words; `cause` keeps SQLite's error. */
export class StorageError extends Error {
  override name = 'StorageError';

  constructor(
    message: string,
    readonly reason: 'full' | 'io' | 'read-only' | 'busy' | 'cannot-open',
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

export interface ExplainOptions {
  /** What to do once the cause is fixed (default "run the command again"). */
  again?: string;
  /** Added at the end: what is safe (a sync says the writer's files are). */
  reassurance?: string;
}

/** `err` is another connection holding the write lock past the wait (SQLITE_BUSY), as said or as SQLite said it. */
export function isOtherWriter(err: unknown): boolean {
  if (err instanceof StorageError) return err.reason === 'busy';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * `err` in plain words when it is SQLite failing to open or write `file` (in `<syncFolder>/.quire`)
 * for lack of space, a read-only or failing disk, or another writer; anything else unchanged.
 */
export function explainStorageError(err: unknown, syncFolder: string, file = MIRROR_FILE, options: ExplainOptions = {}): Error {
  if (err instanceof StorageError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return err as Error;
  const dir = join(syncFolder, STATE_DIR);
  const path = join(dir, file);
  const again = options.again ?? 'run the command again';
  const tail = options.reassurance ? ` ${options.reassurance}` : '';
  const say = (reason: StorageError['reason'], text: string) => new StorageError(`${text}${tail}`, reason, { cause: err });

  if (code.startsWith('SQLITE_FULL') || (code.startsWith('SQLITE_IOERR') && nearlyFull(dir))) {
    return say('full', `Could not save Quire's sync state in ${path}: the disk is full. Free some space, then ${again}.`);
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return say(
      'io',
      `Could not read or save Quire's sync state in ${path}: the disk reported an input/output error (a failing disk, or a network or removable drive that went away). Check the drive, then ${again}.`,
    );
  }
  if (isOtherWriter(err)) {
    // After waiting 5 s (database.ts), or at once when waiting could not help (a read turning into a write).
    const holder = currentHolder(syncFolder);
    const who = holder ? `${describeHolder(holder)}, which holds this folder` : 'another program (another Quire, or a tool that opened it)';
    return say('busy', `Quire's sync state in ${path} is being written by ${who}, so this could not write it. Let it finish (or close it), then ${again}.`);
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH')) {
    const why = whyNotWritable(syncFolder, dir, path);
    if (why) return say('read-only', `Could not open or save Quire's sync state in ${path}: ${why}. Make it writable, then ${again}.`);
    return say(
      'cannot-open',
      `Could not open Quire's sync state in ${path}: the system refused to open it. Check that the folder is there and yours to write, then ${again}.`,
    );
  }
  return err as Error;
}

function nearlyFull(dir: string): boolean {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

/** Why Quire may not write at `path`: a read-only disk, a folder or file it may not write; null when it may. */
function whyNotWritable(syncFolder: string, dir: string, path: string): string | null {
  const found = lstatOrNull(path);
  if (found?.isDirectory()) return `${path} is a folder, not a file Quire made`;
  for (const target of found ? [path, dir] : lstatOrNull(dir) ? [dir] : [syncFolder]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (err) {
      const errno = (err as NodeJS.ErrnoException).code;
      if (errno === 'EROFS') return `${target} is on a read-only disk`;
      if (errno === 'EACCES' || errno === 'EPERM') return `${target} is read-only for you`;
    }
  }
  return null;
}
