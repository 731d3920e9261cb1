/**
 * Which page a person means by "a file or a page id": `user-guide/install.md` (relative to
 * the working directory or to the sync folder, or absolute), a page id, or `new:<path>`.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Mirror } from '../mirror';
import { pageAtPath, pagePath } from '../search';

export interface PageRef {
  spaceId: string;
  /** The page id, or `new:<path>` for a file that is not a page yet. */
  pageKey: string;
  /** The page's file relative to its space folder, now or when last seen; null when no record knows it. */
  path: string | null;
}

export class PageNotFoundError extends Error {
  override name = 'PageNotFoundError';
}

const looksLikePath = (target: string) => /[/\\]/.test(target) || /\.md$/i.test(target);

/** The page `target` names in the sync folder `root`; throws PageNotFoundError saying what to give instead. */
export function findPage(mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'search'>, root: string, target: string, cwd = process.cwd()): PageRef {
  const spaces = mirror.catalog.spaces();
  if (target.startsWith('new:') || !looksLikePath(target)) {
    const holders = spaces.filter(
      (s) =>
        mirror.history.page(s.id, target) !== undefined ||
        mirror.search.indexedPath(s.id, target) !== undefined ||
        mirror.content.page(s.id, target) !== undefined,
    );
    if (holders.length === 1) return refOf(mirror, holders[0]!.id, target);
    if (holders.length > 1)
      throw new PageNotFoundError(`Page id ${target} is in several spaces here; name its file instead (for example <space folder>/<page>.md).`);
    if (!looksLikePath(target)) {
      throw new PageNotFoundError(
        `No page with id ${target} in the mirror of ${root}. Give the page's file (for example <space folder>/<page>.md) or an id from \`quire search --json\`.`,
      );
    }
  }
  const base = resolve(root);
  const candidates = isAbsolute(target) ? [target] : [resolve(cwd, target), resolve(base, target)];
  for (const abs of candidates) {
    const rel = relative(base, abs);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) continue;
    const [folder, ...rest] = rel.split(sep);
    const path = rest.join('/').normalize('NFC');
    const space = spaces.find((s) => s.folder === folder) ?? spaces.find((s) => s.folder?.toLowerCase() === folder?.toLowerCase());
    if (!space || path === '') continue;
    const known = pageAtPath(mirror, space.id, path);
    if (known) return refOf(mirror, space.id, known.key);
    if (existsSync(abs)) return { spaceId: space.id, pageKey: `new:${path}`, path };
  }
  throw new PageNotFoundError(
    `${target} is not a page file of a synced space in ${root}, and no page was ever seen there. Give a path like <space folder>/<page>.md, relative to ${root} or to this directory.`,
  );
}

export function refOf(mirror: Pick<Mirror, 'content' | 'history' | 'search'>, spaceId: string, pageKey: string): PageRef {
  return { spaceId, pageKey, path: pagePath(mirror, spaceId, pageKey) };
}
