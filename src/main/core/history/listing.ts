/** What hosts show of page history: a page's file in the sync folder, a version without its hash. */
import { posix } from 'node:path';
import type { Mirror, VersionInfo } from '../mirror';

/** The page file at `path` of a space, relative to the sync folder (null: no path, or the space is gone). */
export function fileInSyncFolder(mirror: Pick<Mirror, 'catalog'>, spaceId: string, path: string | null): string | null {
  const folder = mirror.catalog.space(spaceId)?.folder;
  return folder && path ? posix.join(folder, path) : null;
}

/** A version as listed to a person or a script. */
export function versionListing(v: VersionInfo): Pick<VersionInfo, 'number' | 'at' | 'reason' | 'detail' | 'path' | 'title' | 'size'> {
  return { number: v.number, at: v.at, reason: v.reason, detail: v.detail, path: v.path, title: v.title, size: v.size };
}
