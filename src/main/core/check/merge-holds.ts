/**
 * What in the writer's folder holds a change request's merge back (issue 30: merging
 * deliberately): a page of it with an open conflict in the folder, or a page of it in which
 * `quire check` finds errors. These are local checks — the host says so, and lets the user go
 * past them on purpose; the server's merge rules are the server's.
 */
import type { Mirror } from '../mirror';
import { checkPage } from './check-space';
import { CheckSetupError, loadFolder } from './check-folder';
import { joinRoot } from './folder-index';
import type { Problem } from './problem';

/** A page of the change request, as its diff names it. */
export interface ChangedPage {
  pageId: string;
  title: string;
  /** `removed`: the change request deletes it (only a conflict on it counts then). */
  kind: string;
}

export interface MergeHold {
  code: 'conflict' | 'check';
  pageId: string;
  title: string;
  /** The page's file, relative to its space folder. */
  path: string;
  /** For `check`: the errors found in the file, first line first. */
  problems: Problem[];
}

/** The local reasons not to merge a change request of `spaceId` that changes `pages` now (empty: none). */
export function mergeHolds(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'openapi' | 'syncFolder'>,
  spaceId: string,
  pages: readonly ChangedPage[],
): MergeHold[] {
  const space = mirror.catalog.space(spaceId);
  if (!space || space.folder === null || pages.length === 0) return [];
  const conflicts = mirror.content.conflicts(spaceId);
  const files = pages.flatMap((p) => {
    const path = mirror.folder.node(spaceId, p.pageId)?.path ?? conflicts.find((c) => c.pageId === p.pageId)?.path;
    return path ? [{ page: p, path }] : [];
  });
  const holds: MergeHold[] = [];
  for (const { page, path } of files) {
    if (conflicts.some((c) => c.path === path || c.pageId === page.pageId)) {
      holds.push({ code: 'conflict', pageId: page.pageId, title: page.title, path, problems: [] });
    }
  }
  const checked = files.filter((f) => f.page.kind !== 'removed');
  if (checked.length === 0) return holds;
  let index: ReturnType<typeof loadFolder>['index'];
  try {
    index = loadFolder(mirror.syncFolder, mirror, [spaceId]).index;
  } catch (err) {
    if (err instanceof CheckSetupError) return holds;
    throw err;
  }
  for (const { page, path } of checked) {
    const errors = checkPage(index, joinRoot(space.folder, path)).filter((p) => p.severity === 'error');
    if (errors.length > 0) holds.push({ code: 'check', pageId: page.pageId, title: page.title, path, problems: errors });
  }
  return holds;
}
