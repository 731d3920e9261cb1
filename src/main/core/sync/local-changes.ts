/**
 * Edits in a space folder that are not on the server yet: neither in main nor in the
 * open change request (what `quire status` lists as pending).
 */
import type { Mirror, PageRow } from '../mirror';
import { samePageText } from '../content';
import { scanSpace } from './scan';
import type { PushedPage } from './trees';

export interface LocalChanges {
  modified: string[];
  added: string[];
  deleted: string[];
}

/**
 * Compares a space folder with the mirror: which page files were edited, added or
 * removed and not pushed yet. Unchanged files cost one stat.
 */
export async function detectLocalChanges(
  spaceDir: string,
  pages: readonly PageRow[],
  pushed: ReadonlyMap<string, PushedPage> = new Map(),
  conflictPaths: ReadonlySet<string> = new Set(),
): Promise<LocalChanges> {
  const scan = await scanSpace(spaceDir, { pages, pushed, files: [], pushedFiles: [] });
  const changes: LocalChanges = { modified: [], added: [], deleted: [] };
  const byId = new Map(pages.map((p) => [p.id, p]));
  const seen = new Set<string>();
  for (const local of scan.tree.pages.values()) {
    if (conflictPaths.has(local.path)) continue;
    if (local.id === null) {
      changes.added.push(local.path);
      continue;
    }
    seen.add(local.id);
    const p = pushed.get(local.id);
    const reference = p && !p.deleted ? p.text : (byId.get(local.id)?.baseContent ?? null);
    const movedSincePush = p && !p.deleted ? p.path !== local.path : local.movedFrom !== null;
    if (p?.deleted || !samePageText(local.text, reference) || movedSincePush) changes.modified.push(local.path);
  }
  for (const page of pages) {
    if (page.path === null || page.type === 'group' || page.type === 'link' || seen.has(page.id) || conflictPaths.has(page.path)) continue;
    if (pushed.get(page.id)?.deleted) continue;
    changes.deleted.push(page.path);
  }
  for (const p of pushed.values()) {
    if (p.deleted || byId.has(p.id) || seen.has(p.id) || p.path === null) continue;
    changes.deleted.push(p.path);
  }
  for (const list of [changes.modified, changes.added, changes.deleted]) list.sort();
  return changes;
}

/** Pending edits of one space, reading what was pushed and the open conflicts from the mirror. */
export async function pendingEdits(mirror: Mirror, spaceId: string, spaceDir: string): Promise<LocalChanges> {
  const pushed = mirror.outbox.pushedPages(spaceId);
  const conflictPaths = new Set(mirror.content.conflicts(spaceId).map((c) => c.path));
  return detectLocalChanges(spaceDir, mirror.content.pages(spaceId), pushed, conflictPaths);
}
