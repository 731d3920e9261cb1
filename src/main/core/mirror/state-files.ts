/**
 * Quire's own files in `<sync folder>/.quire` — the mirror and its -wal, -shm and -journal, the
 * folder's lock and who holds it, the staging folder for moves — are never used through a
 * symbolic link, `.quire` itself included. A link there would make Quire read or write wherever
 * it leads: another folder's mirror, a file outside the sync folder. SQLite follows a link to a
 * database, so every path is looked at (lstat) before it is opened.
 *
 * What stands where Quire keeps a file of its own — a link, a folder, a device — is refused
 * with one line naming it and saying what to do. Only the lock files, which hold nothing, are
 * replaced instead (folder-lock.ts).
 */
import { lstatSync, mkdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { STATE_DIR } from './state-dir';

/** Something other than what Quire keeps stands at one of its paths in `.quire`. */
export class StateFileError extends Error {
  override name = 'StateFileError';

  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** What is at `path`, without following a link; null when nothing is. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

/** Where a link points, for a message. */
export function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return 'somewhere else';
  }
}

/** The one line for a link where Quire keeps its own file or folder. */
export function linkRefused(path: string): StateFileError {
  return new StateFileError(
    path,
    `${path} is a symbolic link (to ${linkTarget(path)}): Quire never reads or writes its sync state through a link. ` +
      'Remove the link (or move what it points to into its place), then run Quire again.',
  );
}

/**
 * `<folder>/.quire`, checked: a real folder, or nothing yet (created when `create`, with the
 * sync folder). Throws StateFileError for a link or a file in its place.
 */
export function stateDir(syncFolder: string, options: { create: boolean }): string {
  const dir = join(syncFolder, STATE_DIR);
  const found = lstatOrNull(dir);
  if (found) {
    checkDir(dir, found);
    return dir;
  }
  if (!options.create) return dir;
  mkdirSync(syncFolder, { recursive: true });
  try {
    mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // Made by us or, in a race, by another process: look again.
  checkDir(dir, lstatSync(dir));
  return dir;
}

function checkDir(path: string, found: Stats): void {
  if (found.isSymbolicLink()) throw linkRefused(path);
  if (!found.isDirectory()) {
    throw new StateFileError(path, `${path} is a file, where Quire keeps its sync state in a folder. Move it away, then run Quire again.`);
  }
}

/** A file Quire keeps in `.quire` may be absent or a regular file: anything else there is refused by name. */
export function checkStateFile(path: string): void {
  const found = lstatOrNull(path);
  if (!found || found.isFile()) return;
  if (found.isSymbolicLink()) throw linkRefused(path);
  throw new StateFileError(
    path,
    found.isDirectory()
      ? `${path} is a folder, where Quire keeps a file of its own. Move it out of ${STATE_DIR}, then run Quire again.`
      : `${path} is not a regular file (a device, pipe or socket), where Quire keeps a file of its own. Remove it, then run Quire again.`,
  );
}

/**
 * `.quire/staging/<spaceId>`, where a space's files wait during moves (made by the first move):
 * neither it, `.quire/staging` nor `.quire` may be a link (moves would carry the writer's files
 * through it). Checks only: nothing is created here.
 */
export function stagingDir(syncFolder: string, spaceId: string): string {
  const staging = join(stateDir(syncFolder, { create: false }), 'staging');
  const dir = join(staging, spaceId);
  for (const path of [staging, dir]) {
    const found = lstatOrNull(path);
    if (found?.isSymbolicLink()) throw linkRefused(path);
    if (found && !found.isDirectory()) {
      throw new StateFileError(path, `${path} is a file, where Quire moves files through a folder of its own. Move it away, then run Quire again.`);
    }
  }
  return dir;
}
