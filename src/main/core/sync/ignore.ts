/**
 * Files in a sync folder that are not content: Quire's own state, editors' temporary
 * and swap files, the server's side of conflicts. Neither scanned nor watched.
 */
// The constant alone, not the mirror's index: the planner uses this file and must not load SQLite.
import { STATE_DIR } from '../mirror/state-dir';

/** Suffix of the file holding the server's side of a conflict, beside the writer's file. */
const REMOTE_COPY_SUFFIX = '.remote.md';

/** Editor temp files: vim swap files and its `4913` write probe, backups (`~`), Emacs locks (`.#`), our own temp files. */
export function isTempName(name: string): boolean {
  return (
    /\.sw[a-p]$/i.test(name) ||
    name.endsWith('~') ||
    name.startsWith('.#') ||
    name === '4913' ||
    name.startsWith('.quire-tmp-') ||
    name === '.DS_Store' ||
    /^\.~lock\..*#$/.test(name) ||
    /\.(tmp|crdownload|part)$/i.test(name)
  );
}

/** Folders never entered. */
export function isIgnoredDir(name: string): boolean {
  return name === STATE_DIR || name === '.git' || name === 'node_modules' || (name.startsWith('.') && name !== '.gitbook');
}

export const isRemoteCopy = (relPath: string): boolean => relPath.toLowerCase().endsWith(REMOTE_COPY_SUFFIX);

/** Where the server's side of a conflict on `path` goes: `<name>.remote.md` beside it. */
export function remoteCopyPath(path: string): string {
  return path.replace(/\.md$/i, '') + REMOTE_COPY_SUFFIX;
}
