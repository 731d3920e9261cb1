/** The files a space folder holds besides its pages' own, and the name a file gives its page. */

export const ASSETS_FOLDER = '.gitbook/assets';
export const SUMMARY_FILE = 'SUMMARY.md';
/** The space's first page at the space folder's root; a page's own file in the folder it owns. */
export const README_FILE = 'README.md';
/** Suffix of the file holding the server's side of a conflict, beside the writer's file. */
const REMOTE_COPY_SUFFIX = '.remote.md';

export const isRemoteCopy = (relPath: string): boolean => relPath.toLowerCase().endsWith(REMOTE_COPY_SUFFIX);

/** Where the server's side of a conflict on `path` goes: `<name>.remote.md` beside it. */
export function remoteCopyPath(path: string): string {
  return path.replace(/\.md$/i, '') + REMOTE_COPY_SUFFIX;
}

/** The folder a file is in ('' for the space folder). */
export const dirOf = (path: string): string => {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
};

const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The name a file gives its page: its file name without `.md`, or its folder's name for a README. */
export function nameFromPath(path: string): string {
  if (/^readme\.md$/i.test(baseOf(path)) && path.includes('/')) return baseOf(dirOf(path));
  return baseOf(path).replace(/\.md$/i, '');
}
