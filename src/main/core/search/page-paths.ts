/**
 * Where a page's file is: the one place that knows which records say so, in the order they
 * are current. The search index has the path the engine last saw in the folder (it follows
 * scans), the content store the path of the last synced revision, and history the path a
 * deleted page had. (The sync core may move where paths live; only this file follows it.)
 */
import type { Mirror } from '../mirror';

/** A page of the synced revision that has a file. */
export interface PageFile {
  pageId: string;
  path: string;
  title: string;
}

/** The page files of a space as last synced. */
export function syncedPageFiles(mirror: Pick<Mirror, 'content'>, spaceId: string): PageFile[] {
  return mirror.content
    .pages(spaceId)
    .filter((p) => p.path !== null && p.type === 'document')
    .map((p) => ({ pageId: p.id, path: p.path!, title: p.title }));
}

/** The page's file now, or where it was last seen (a deleted page); null when nothing says. */
export function pagePath(mirror: Pick<Mirror, 'content' | 'history' | 'search'>, spaceId: string, pageKey: string): string | null {
  const indexed = mirror.search.indexedPath(spaceId, pageKey);
  if (indexed !== undefined) return indexed;
  if (pageKey.startsWith('new:')) return pageKey.slice('new:'.length);
  const synced = mirror.content.page(spaceId, pageKey)?.path;
  if (synced) return synced;
  return mirror.history.page(spaceId, pageKey)?.path ?? null;
}

/**
 * The page whose file is at `path` now (its page id, or `new:<path>` for a file not yet a
 * page), else the page whose file was last seen there; null when no record knows the path.
 */
export function pageAtPath(mirror: Pick<Mirror, 'content' | 'history' | 'search'>, spaceId: string, path: string): { key: string; current: boolean } | null {
  const current = currentKeyAt(mirror, spaceId, path);
  if (current) return { key: current, current: true };
  const earlier = mirror.history.keyAtPath(spaceId, path);
  return earlier ? { key: earlier, current: false } : null;
}

/** The page the records say has its file at `path` now. */
export function currentKeyAt(mirror: Pick<Mirror, 'content' | 'search'>, spaceId: string, path: string): string | null {
  const indexed = mirror.search.indexedKeyAt(spaceId, path);
  if (indexed !== undefined) return indexed;
  const synced = mirror.content.pageAt(spaceId, path);
  return synced?.id ?? null;
}
