/**
 * Indexing a space's pages whole, from the folder: for a space the index has not seen yet
 * (a mirror from before search existed, or a space synced by a Quire without the engine's
 * hooks). After that, the sync engine keeps the index current one page at a time.
 */
import { promises as fsp } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';
import type { Mirror } from '../mirror';
import { relSpelledOnDisk } from '../sync';
import { pageDocument } from './page-document';
import { syncedPageFiles } from './page-paths';

const BATCH = 500;

/** Indexes every synced page of the space from its file (files that are gone are skipped); returns how many. */
export async function indexSpaceFolder(mirror: Pick<Mirror, 'catalog' | 'content' | 'search' | 'transaction'>, root: string, spaceId: string): Promise<number> {
  const folder = mirror.catalog.space(spaceId)?.folder;
  if (!folder) return 0;
  const spaceDir = join(root, folder);
  const files = syncedPageFiles(mirror, spaceId);
  let indexed = 0;
  for (let i = 0; i < files.length; i += BATCH) {
    const batch = files.slice(i, i + BATCH);
    const texts = await Promise.all(
      batch.map((f) => (isInside(f.path) ? fsp.readFile(join(spaceDir, relSpelledOnDisk(spaceDir, f.path)), 'utf8').catch(() => null) : null)),
    );
    mirror.transaction(() => {
      batch.forEach((f, n) => {
        const text = texts[n];
        if (text == null) return;
        mirror.search.indexPage({ spaceId, key: f.pageId, path: f.path, ...pageDocument(text, f.title) });
        indexed++;
      });
    });
  }
  mirror.transaction(() => mirror.search.markSpaceIndexed(spaceId));
  return indexed;
}

/** A relative path that stays inside its folder (the mirror's paths always do; this only reads). */
function isInside(rel: string): boolean {
  const n = normalize(rel);
  return !isAbsolute(n) && n !== '..' && !n.startsWith(`..${sep}`);
}

/** Indexes the synced spaces the index has not seen whole yet; returns how many pages. */
export async function indexNewSpaces(mirror: Pick<Mirror, 'catalog' | 'content' | 'search' | 'transaction'>, root: string): Promise<number> {
  let pages = 0;
  for (const space of mirror.catalog.selectedSpaces()) {
    if (space.folder && !mirror.search.spaceIndexed(space.id)) pages += await indexSpaceFolder(mirror, root, space.id);
  }
  return pages;
}
