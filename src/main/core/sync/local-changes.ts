/**
 * Edits in a space folder that are not on the server yet (what `quire status` and the app list
 * as pending): files changed, added or removed since the last cycle, and changes a cycle
 * planned whose push is not confirmed yet. Reads only: unchanged files cost one stat.
 */
import type { Mirror } from '../mirror';
import { SUMMARY_FILE } from '../naming';
import { scanSpace } from './scan';

export interface LocalChanges {
  modified: string[];
  added: string[];
  deleted: string[];
}

/** Pending edits of one space. */
export function pendingEdits(mirror: Mirror, spaceId: string, spaceDir: string): Promise<LocalChanges> {
  const scan = scanSpace({ mirror, spaceId, spaceDir, hint: 'all' });
  const conflictPaths = new Set(mirror.content.conflicts(spaceId).map((c) => c.path));
  const changes: LocalChanges = { modified: [], added: [], deleted: [] };
  if (scan.missing) return Promise.resolve(changes);
  for (const e of scan.local.edited.values()) changes.modified.push(e.path);
  for (const m of scan.local.moved.values()) changes.modified.push(m.to);
  for (const a of scan.local.added) changes.added.push(a.path);
  for (const path of scan.local.vanished.values()) changes.deleted.push(path);
  // Its moves and titles are pushed by the next cycle.
  if (scan.summary) changes.modified.push(SUMMARY_FILE);
  const listed = new Set([...changes.modified, ...changes.added]);
  for (const key of mirror.folder.pending(spaceId)) {
    const node = mirror.folder.node(spaceId, key);
    if (!node) continue;
    if (node.path === null) {
      const pushed = mirror.outbox.pushedPage(spaceId, key);
      if (!pushed?.deleted) changes.deleted.push(mirror.content.basePage(spaceId, key) ? (pushed?.path ?? key) : key);
    } else if (!listed.has(node.path)) changes.modified.push(node.path);
  }
  for (const list of [changes.modified, changes.added, changes.deleted]) {
    const kept = [...new Set(list.filter((p) => !conflictPaths.has(p)))].sort();
    list.splice(0, list.length, ...kept);
  }
  return Promise.resolve(changes);
}
