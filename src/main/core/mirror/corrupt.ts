/**
 * A mirror SQLite cannot read (not a database, a malformed page, an unreadable schema) is
 * never deleted and never patched: it is moved aside as `mirror.db.corrupt-<time>` (with its
 * -wal and -shm, renamed alike so SQLite still pairs them) for inspection, and a fresh one
 * takes its place. Rebuilding what it held from the server and the folder is the engine's
 * job: an empty mirror beside a non-empty folder means "rebuild".
 */
import { closeSync, constants, existsSync, openSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_DIR } from './state-dir';

export const MIRROR_FILE = 'mirror.db';

/** Whether `dir` is a Quire sync folder (it has a mirror); opening one that is not would create it. */
export function hasMirror(dir: string): boolean {
  return existsSync(join(dir, STATE_DIR, MIRROR_FILE));
}

/** SQLite's own word that the file is damaged (as opposed to busy, read-only or full). */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * The same verdict SQLite would give a file without SQLite's header, but reached without
 * opening it: SQLite, opening such a file, may clean up its -wal and -shm, which are part of
 * what is kept for inspection. Null when the file is absent, empty (a new mirror) or looks
 * like SQLite.
 */
export function notADatabase(syncFolder: string): Error | null {
  let fd: number;
  try {
    // Never through a link (state-files.ts refuses one, with a line that says so).
    fd = openSync(join(syncFolder, STATE_DIR, MIRROR_FILE), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const read = readSync(fd, head, 0, head.length, 0);
    if (read === 0 || head.equals(SQLITE_MAGIC)) return null;
    return Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
  } finally {
    closeSync(fd);
  }
}

/** What SQLite said, in a few words: "file is not a database", "database disk image is malformed", … */
function corruptionReason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Read-only commands found the mirror damaged: they say so and leave it for the next sync to set aside. */
export class CorruptMirrorError extends Error {
  override name = 'CorruptMirrorError';
  readonly path: string;

  constructor(syncFolder: string, cause: unknown) {
    const path = join(syncFolder, STATE_DIR, MIRROR_FILE);
    super(
      `Quire's sync state in ${path} is damaged (${corruptionReason(cause)}). ` +
        'Your files are not affected. The next sync moves it aside, keeps it for inspection, and rebuilds it from the server and your folder.',
      { cause },
    );
    this.path = path;
  }
}

/** What was moved aside, and the one line hosts show. */
export interface SetAside {
  /** The damaged file's new path. */
  keptAs: string;
  reason: string;
  notice: string;
}

/** Moves the damaged mirror and its companions aside; returns where it went. The database must be closed. */
export function setAsideCorrupt(syncFolder: string, cause: unknown, now = new Date()): SetAside {
  const dir = join(syncFolder, STATE_DIR);
  const stamp = now.toISOString().replace(/[:.]/g, '-'); // no ':' in file names on Windows
  const keptName = `${MIRROR_FILE}.corrupt-${stamp}`;
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const from = join(dir, `${MIRROR_FILE}${suffix}`);
    if (existsSync(from)) renameSync(from, join(dir, `${keptName}${suffix}`));
  }
  const keptAs = join(dir, keptName);
  const reason = corruptionReason(cause);
  return {
    keptAs,
    reason,
    notice: `Quire's sync state was unreadable (${reason}): it is kept as ${keptAs} for inspection, and a fresh one was started. Sync rebuilds it from the server and your folder.`,
  };
}
