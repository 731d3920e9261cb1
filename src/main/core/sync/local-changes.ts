/**
 * Edits in a space folder that are not on the server yet (what `quire status` and the app list
 * as pending): page files changed, moved, added or removed since the last cycle, new or changed
 * images and other files under `.gitbook/assets/`, and changes a cycle planned whose push is not
 * confirmed yet. Each is named by its file (a page no file holds any more, by its last path).
 * Reads only: unchanged files cost one stat.
 */
import type { Mirror } from '../mirror';
import { SUMMARY_FILE } from '../naming';
import { scanSpace } from './scan';

export interface LocalChanges {
  modified: string[];
  /** Page files found at another path (a rename or a move), as the sync pushes them: a move. */
  moved: { from: string; to: string }[];
  added: string[];
  deleted: string[];
}

/** How many edits wait, each counted once. */
export function changeCount(c: LocalChanges): number {
  return c.modified.length + c.moved.length + c.added.length + c.deleted.length;
}

/** Every file an edit names (a move by both its paths). */
export function changedPaths(c: LocalChanges): string[] {
  return [...c.modified, ...c.moved.flatMap((m) => [m.from, m.to]), ...c.added, ...c.deleted];
}

/** Pending edits of one space. */
export function pendingEdits(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox'>,
  spaceId: string,
  spaceDir: string,
): Promise<LocalChanges> {
  const scan = scanSpace({ mirror, spaceId, spaceDir, hint: 'all' });
  const conflictPaths = new Set(mirror.content.conflicts(spaceId).map((c) => c.path));
  const changes: LocalChanges = { modified: [], moved: [], added: [], deleted: [] };
  if (scan.missing) return Promise.resolve(changes);
  for (const e of scan.local.edited.values()) changes.modified.push(e.path);
  // A file back at its own path (a page restored) is an edit, not a move.
  for (const m of scan.local.moved.values()) {
    if (m.from === m.to) changes.modified.push(m.to);
    else changes.moved.push({ from: m.from, to: m.to });
  }
  for (const a of scan.local.added) changes.added.push(a.path);
  for (const path of scan.local.vanished.values()) changes.deleted.push(path);
  // Images and other files: a new one is uploaded with the next push, a changed one goes up as a new file.
  for (const a of scan.assets.added) changes.added.push(a.path);
  for (const a of scan.assets.changed) changes.modified.push(a.path);
  // Its moves and titles are pushed by the next cycle.
  if (scan.summary) changes.modified.push(SUMMARY_FILE);
  const listed = new Set([...changes.modified, ...changes.added, ...changes.moved.map((m) => m.to)]);
  for (const key of mirror.folder.pending(spaceId)) {
    const node = mirror.folder.node(spaceId, key);
    if (!node) continue;
    if (node.path === null) {
      const pushed = mirror.outbox.pushedPage(spaceId, key);
      const path = lastPath(mirror, spaceId, key);
      // Its file back at its path (restored) is the edit the scan listed: not a delete as well.
      if (!pushed?.deleted && (path === null || !listed.has(path))) changes.deleted.push(path ?? `“${node.title}”`);
    } else if (!listed.has(node.path)) changes.modified.push(node.path);
  }
  for (const list of [changes.modified, changes.added, changes.deleted]) {
    const kept = [...new Set(list.filter((p) => !conflictPaths.has(p)))].sort();
    list.splice(0, list.length, ...kept);
  }
  changes.moved = changes.moved.filter((m) => !conflictPaths.has(m.to)).sort((a, b) => a.to.localeCompare(b.to));
  return Promise.resolve(changes);
}

/** Where a page no file holds had its file: as pushed, as main has it, or as history last saw it. */
function lastPath(mirror: Pick<Mirror, 'content' | 'history' | 'outbox'>, spaceId: string, key: string): string | null {
  return mirror.outbox.pushedPage(spaceId, key)?.path ?? mirror.content.page(spaceId, key)?.path ?? mirror.history.page(spaceId, key)?.path ?? null;
}
