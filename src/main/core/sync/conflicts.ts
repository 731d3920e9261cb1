/**
 * Conflicts for hosts: read the three versions of one, and resolve it.
 *
 * Resolving by hand works too: fix the page file, then delete its `.remote.md` copy;
 * the next cycle sees the copy gone and treats the file as the writer's choice.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { type ConflictRow, type Mirror, UnsafeStatePathError } from '../mirror';
import { resolveInside, removeFileInside, writeFileAtomic } from './safe-fs';
import type { ConflictKind } from './plan';

export type ConflictChoice = 'mine' | 'theirs';

export interface ConflictTexts {
  spaceId: string;
  path: string;
  pageId: string | null;
  kind: ConflictKind;
  remotePath: string | null;
  /** The writer's file, or null when it is gone (deleted here). */
  local: string | null;
  /** The server's version, or null when the server deleted the page. */
  remote: string | null;
  /** The common ancestor, when known. */
  base: string | null;
}

export class ConflictNotFoundError extends Error {
  override name = 'ConflictNotFoundError';
}

function spaceDirOf(mirror: Pick<Mirror, 'catalog'>, root: string, spaceId: string): string {
  const space = mirror.catalog.space(spaceId);
  if (space?.folderRefused) throw new UnsafeStatePathError(spaceId, space.folderRefused);
  if (!space?.folder) throw new ConflictNotFoundError(`Space ${spaceId} has no folder in this mirror; run a sync first.`);
  return join(root, space.folder);
}

function findConflict(mirror: Pick<Mirror, 'content'>, spaceId: string, path: string): ConflictRow {
  const row = mirror.content.conflicts(spaceId).find((c) => c.path === path);
  if (!row) throw new ConflictNotFoundError(`There is no open conflict on ${path}; it may have been resolved already.`);
  return row;
}

async function readOrNull(dir: string, rel: string | null): Promise<string | null> {
  if (rel === null) return null;
  try {
    return await fsp.readFile(resolveInside(dir, rel), 'utf8');
  } catch {
    return null;
  }
}

/** The writer's, the server's and the common version of a conflict. */
export async function readConflict(mirror: Pick<Mirror, 'catalog' | 'content'>, root: string, spaceId: string, path: string): Promise<ConflictTexts> {
  const row = findConflict(mirror, spaceId, path);
  const dir = spaceDirOf(mirror, root, spaceId);
  const kind = row.kind as ConflictKind;
  const page = row.pageId ? mirror.content.page(spaceId, row.pageId) : undefined;
  return {
    spaceId,
    path,
    pageId: row.pageId,
    kind,
    remotePath: row.remotePath,
    local: await readOrNull(dir, path),
    remote: kind === 'deleted-remotely' ? null : ((await readOrNull(dir, row.remotePath)) ?? page?.baseContent ?? null),
    base: mirror.content.conflictBase(spaceId, path),
  };
}

/**
 * Resolves a conflict: 'mine' keeps the writer's side (the file as it is, or its
 * deletion), 'theirs' takes the server's (its text, or its deletion). The next cycle
 * pushes what 'mine' kept.
 */
export async function resolveConflict(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'log' | 'transaction'>,
  root: string,
  spaceId: string,
  path: string,
  choice: ConflictChoice,
): Promise<void> {
  const row = findConflict(mirror, spaceId, path);
  const dir = spaceDirOf(mirror, root, spaceId);
  const kind = row.kind as ConflictKind;
  if (choice === 'theirs') {
    if (kind === 'deleted-remotely') {
      await removeFileInside(dir, path, { pruneEmptyFolders: true });
    } else {
      const page = row.pageId ? mirror.content.page(spaceId, row.pageId) : undefined;
      const remote = (await readOrNull(dir, row.remotePath)) ?? page?.baseContent ?? null;
      if (remote === null) throw new ConflictNotFoundError(`The server's version of ${path} is not available any more; sync, then try again.`);
      await writeFileAtomic(dir, path, remote);
    }
  }
  if (row.remotePath !== null) await removeFileInside(dir, row.remotePath);
  mirror.transaction(() => {
    mirror.content.removeConflict(spaceId, path);
    // The next cycle looks at the page again: it pushes what 'mine' kept.
    if (row.pageId) mirror.folder.setPending(spaceId, row.pageId, true);
    // The server deleted the page: what remains here is a new page (mine) or nothing (theirs).
    if (kind === 'deleted-remotely' && row.pageId) mirror.content.deletePage(spaceId, row.pageId);
    mirror.log.add('info', `${path}: conflict resolved, ${choice === 'mine' ? 'kept the version here' : "took the server's version"}`, spaceId);
  });
}
