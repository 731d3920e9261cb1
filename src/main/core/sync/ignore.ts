/**
 * Files in a sync folder that are not content: Quire's own state, editors' temporary
 * and swap files. Neither scanned nor watched; nor is the server's side of a conflict
 * (core/naming names it: `isRemoteCopy`).
 */
// The constant alone, not the mirror's index (which loads better-sqlite3).
import { STATE_DIR } from '../mirror';

/** Editor temp files: vim swap files and its `4913` write probe, backups (`~`), Emacs locks (`.#`), our own temp files. */
export function isTempName(name: string): boolean {
  if (name.endsWith('.md') && !name.startsWith('.')) return false; // a page file, as nearly every name is
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
