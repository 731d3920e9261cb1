/**
 * Paths the mirror hands out are checked here, as they are read, not where they are used: a
 * space's folder must be one real folder inside the sync folder, and every path relative to a
 * space's folder (page files and folders, assets, conflict copies, history, the search index)
 * must stay inside it. Quire never writes another kind, so one of them means the mirror was
 * changed outside Quire (or a folder received from someone else): the space it belongs to is
 * stopped, and nothing of it is read, written or sent — a page "missing" from where a changed
 * path points would otherwise be pushed as a delete.
 *
 * The lexical rules are the ones the safe file operations apply (safe-fs.ts uses `pathProblem`).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { posix, win32, join } from 'node:path';
import type { Db } from './database';
import { STATE_DIR } from './state-dir';

/** A path the mirror names that Quire would never have written: the one line says which, whose, and what to do. */
export class UnsafeStatePathError extends Error {
  override name = 'UnsafeStatePathError';

  constructor(
    readonly spaceId: string,
    message: string,
  ) {
    super(message);
  }
}

/** A segment made only of dots and spaces, other than `.`: `..` (and `...`, `.. ` which Windows reads as `..`). */
const DOTS_SEGMENT = /(?:^|[\\/])(?:\.[. ]+|[ ][. ]*)(?=[\\/]|$)/;
/** Only separators and `.` segments: the folder itself. */
const NO_NAME = /^[\\/.]*$/;
/**
 * Names of letters, digits, `_`, `-` and `.`, none starting with `.`, joined by `/`: what nearly
 * every stored path is, and none of what the rules below refuse (no space, NUL, `\` or `:`; no
 * segment of dots; not absolute). One test instead of all of them, for a large space's every path.
 */
const PLAIN = /^[\w-][\w.-]*(?:\/[\w-][\w.-]*)*$/;

/**
 * Why `relPath` cannot name a file inside a folder, or null when it can: empty, a NUL byte, an
 * absolute path (or a drive), a segment of dots such as `..`, or the folder itself. Paths use
 * `/` or `\`. Allocates nothing for a path that passes (a large space's every path is checked).
 */
export function pathProblem(relPath: string): string | null {
  if (typeof relPath === 'string' && PLAIN.test(relPath)) return null;
  if (typeof relPath !== 'string' || relPath.trim() === '') return 'the path is empty';
  if (relPath.includes('\0')) return 'the path contains a NUL character';
  // `c:x` names drive C's current folder on Windows; elsewhere it is a file name like any other.
  if (posix.isAbsolute(relPath) || win32.isAbsolute(relPath) || (process.platform === 'win32' && /^[A-Za-z]:/.test(relPath))) {
    return 'the path is absolute; only paths inside the space folder are allowed';
  }
  if (DOTS_SEGMENT.test(relPath)) return 'a segment is made only of dots and spaces (such as "..") and could leave the space folder';
  if (NO_NAME.test(relPath)) return 'the path names the space folder itself, not a file';
  return null;
}

/** What a path names, for the line: "a page's file", "an asset", … */
export type StoredPathKind = "a page's file" | "a page's folder" | 'an asset' | 'a conflict copy' | 'a file of main';

/**
 * Checks paths relative to a space's folder as stores read them. Each check is a few tests of
 * the string; the space's title is read only for the line, when one fails.
 */
export class StoredPaths {
  constructor(
    private readonly db: Db,
    private readonly syncFolder: string,
  ) {}

  /** `path` when it stays inside its space's folder; else throws UnsafeStatePathError. */
  inSpace<P extends string | null>(spaceId: string, path: P, what: StoredPathKind): P {
    if (path === null || pathProblem(path) === null) return path;
    throw this.refused(spaceId, path, what, "which leaves the space's folder");
  }

  /** Each row's `field` checked (rows as read, not copied). */
  rowsInSpace<R extends { path: string | null }>(spaceId: string, rows: R[], what: StoredPathKind): R[] {
    for (const r of rows) this.inSpace(spaceId, r.path, what);
    return rows;
  }

  /** The line for a space folder that cannot be one, or null when it is fine (see `spaceFolderProblem`). */
  folderRefusal(space: { id: string; title: string; folder: string }, others: readonly { id: string; title: string; folder: string | null }[]): string | null {
    const problem = spaceFolderProblem(space.folder, space.id, others);
    if (problem !== null) return stateLine(this.syncFolder, space.title, space.folder, 'the folder', problem);
    const link = linkAt(join(this.syncFolder, space.folder));
    if (link === null) return null;
    return (
      `The folder of “${printable(space.title)}”, ${join(this.syncFolder, space.folder)}, is a symbolic link (to ${printable(link)}): ` +
      `Quire syncs a space only into a real folder inside the sync folder, so nothing of “${printable(space.title)}” was read, written or sent. ` +
      'Put the folder itself where the link is, then sync again.'
    );
  }

  private refused(spaceId: string, path: string, what: StoredPathKind, problem: string): UnsafeStatePathError {
    const row = this.db.prepare(`SELECT title FROM spaces WHERE id = ?`).get(spaceId) as { title: string } | undefined;
    return new UnsafeStatePathError(spaceId, stateLine(this.syncFolder, row?.title ?? spaceId, path, what, problem));
  }
}

/**
 * Why `folder` cannot be a space's folder, or null: it must be one name of a folder inside the
 * sync folder — not the sync folder itself, not Quire's own `.quire` (in any case: macOS and
 * Windows volumes ignore it), not a path, and no other space's (compared as chooseSpaceFolder
 * compares names).
 */
function spaceFolderProblem(folder: string, spaceId: string, others: readonly { id: string; title: string; folder: string | null }[]): string | null {
  if (folder === '' || folder === '.') return 'which is the sync folder itself';
  if (posix.isAbsolute(folder) || win32.isAbsolute(folder) || DOTS_SEGMENT.test(folder)) return 'which leaves the sync folder';
  if (/[\\/\0]/.test(folder) || (process.platform === 'win32' && /^[A-Za-z]:/.test(folder))) return 'which is not a folder name';
  const lower = folder.toLowerCase();
  if (lower === STATE_DIR) return "which is Quire's own folder";
  const shared = others.find((o) => o.id !== spaceId && o.folder?.toLowerCase() === lower);
  return shared ? `which is also the folder of “${printable(shared.title)}”` : null;
}

/** Where the link at `path` points, or null when no link is there. */
function linkAt(path: string): string | null {
  try {
    if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return null;
    return readlinkSync(path);
  } catch {
    return null; // a component that is not a folder: no link (the sync says what stands there)
  }
}

/** The one line: what the state names, why Quire cannot use it, what it did not do, what to do. */
function stateLine(syncFolder: string, title: string, value: string, what: string, problem: string): string {
  const space = `“${printable(title)}”`;
  return (
    `Quire's sync state names “${printable(value)}” as ${what} of ${space}, ${problem}: it was changed outside Quire. ` +
    `Nothing of ${space} was read, written or sent. If you did not change it, move ${join(syncFolder, STATE_DIR)} aside and sync again: ` +
    'Quire rebuilds its state from the server and your files.'
  );
}

/** Control characters (a NUL, a line break) shown as `\uXXXX`: the line stays one line. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
