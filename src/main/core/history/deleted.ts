/**
 * Deleted pages, for hosts: those whose files were deleted here since the last sync (their
 * deletes not on the server yet: held by a stop, refused, or waiting for the next cycle), and
 * those history recorded as deleted, here or on the server. Any of them can be put back in one
 * go (`quire restore --deleted`, the app's Restore deleted files): each from its latest version,
 * to its last path, from where the next sync pushes it like any edit.
 */
import type { Mirror } from '../mirror';
import { pageAtPath } from '../search';
import { pendingEdits } from '../sync';
import { fileInSyncFolder } from './listing';
import { type RestoreResult, restoreVersion } from './restore';
import { join } from 'node:path';

export interface DeletedPage {
  spaceId: string;
  pageKey: string;
  /** Its file as it was, relative to the space folder, and to the sync folder. */
  path: string | null;
  file: string | null;
  title: string | null;
  /** Deleted in this folder, or on the server (by a collaborator, or a change request merged there). */
  by: 'here' | 'server';
  /** Its file is gone here and the server still has the page: the delete is not synced yet. */
  pending: boolean;
  /** When history recorded it (ISO); for a pending one, when the app saw the file go, else null (since the last sync). */
  at: string | null;
}

/**
 * The deleted pages of the folder's chosen spaces: every pending one (deleted since the last
 * sync) and, with `since` (ISO), those history recorded as deleted at or after it. Pending ones
 * first, then latest first. A stat per file (the scan), as `quire status`.
 */
export async function deletedPages(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox' | 'search'>,
  root: string,
  options: { since?: string | null; spaceId?: string } = {},
): Promise<DeletedPage[]> {
  const out: DeletedPage[] = [];
  const seen = new Set<string>();
  for (const space of mirror.catalog.selectedSpaces()) {
    if (!space.folder || space.folderRefused || (options.spaceId && space.id !== options.spaceId)) continue;
    const gone = new Map(
      mirror.outbox
        .localEdits(space.id)
        .filter((e) => e.kind === 'unlink')
        .map((e) => [e.path, e.seenAt]),
    );
    for (const path of (await pendingEdits(mirror, space.id, join(root, space.folder))).deleted) {
      const page = pageAtPath(mirror, space.id, path);
      const at = gone.get(path) ?? null;
      if (!page || page.key.startsWith('new:') || (options.since && at !== null && at < options.since)) continue;
      seen.add(`${space.id}\u0000${page.key}`);
      const title = mirror.folder.node(space.id, page.key)?.title ?? mirror.content.page(space.id, page.key)?.title ?? null;
      out.push({ spaceId: space.id, pageKey: page.key, path, file: fileInSyncFolder(mirror, space.id, path), title, by: 'here', pending: true, at });
    }
  }
  if (options.since) {
    for (const p of mirror.history.deletedSince(options.since)) {
      if ((options.spaceId && p.spaceId !== options.spaceId) || seen.has(`${p.spaceId}\u0000${p.pageKey}`)) continue;
      if (!mirror.catalog.space(p.spaceId)?.folder) continue;
      out.push({
        spaceId: p.spaceId,
        pageKey: p.pageKey,
        path: p.path,
        file: fileInSyncFolder(mirror, p.spaceId, p.path),
        title: p.title,
        by: p.lastReason === 'deleted-locally' ? 'here' : 'server',
        pending: false,
        at: p.lastAt,
      });
    }
  }
  return out;
}

/** Puts each page back from its latest version kept (the text it had when deleted); those without one are `missing`. */
export async function restoreDeleted(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'search' | 'transaction'>,
  root: string,
  pages: readonly DeletedPage[],
): Promise<{ restored: (RestoreResult & { page: DeletedPage })[]; missing: DeletedPage[] }> {
  const restored: (RestoreResult & { page: DeletedPage })[] = [];
  const missing: DeletedPage[] = [];
  for (const page of pages) {
    const newest = mirror.history.versions(page.spaceId, page.pageKey)[0];
    if (!newest) {
      missing.push(page);
      continue;
    }
    restored.push({ ...(await restoreVersion(mirror, root, { spaceId: page.spaceId, pageKey: page.pageKey, version: newest.number })), page });
  }
  return { restored, missing };
}
