import { posix } from 'node:path';
import type { Mirror, SearchHit, SearchOptions } from '../mirror';

/** A search result with what a host needs to show and open it. */
export type FolderSearchHit = SearchHit & {
  spaceTitle: string;
  /** The page's file (for a comment: its page's file) relative to the sync folder; null when there is none. */
  file: string | null;
};

/** Searches the mirror's index of a sync folder (see SearchIndex.search for the query syntax). */
export function searchFolder(mirror: Pick<Mirror, 'catalog' | 'search'>, query: string, options: SearchOptions = {}): FolderSearchHit[] {
  const spaces = new Map(mirror.catalog.spaces().map((s) => [s.id, s]));
  return mirror.search.search(query, options).map((hit) => {
    const space = spaces.get(hit.spaceId);
    const path = hit.kind === 'page' ? hit.path : hit.pagePath;
    return { ...hit, spaceTitle: space?.title ?? hit.spaceId, file: space?.folder && path ? posix.join(space.folder, path) : null };
  });
}
