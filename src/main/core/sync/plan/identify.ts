/**
 * Identify: which pages this cycle looks at, and everything each view says about them.
 *
 * The scope is what changed somewhere — on the server (remote.changed), in the folder (the
 * scan's edits, moves, deletions, new and unreadable files), in a conflict, in a change request
 * that was merged or closed, and every node the writer placed that main has not caught up with.
 * A full plan looks at every page instead; both must come to the same plan.
 *
 * Deletes: a page is deleted here only when a file that stood for it went away (`fileGone`):
 * the scan saw it vanish, or an earlier cycle did and recorded the delete, not pushed yet.
 *
 * Identity: a node is the page its key says, except a file whose page exists nowhere any more
 * (the server deleted it and the writer kept the file; or only a change request that is gone
 * had it; or the open one deleted it and a page above it, so it cannot be restored), which is a
 * new page again; and a new file saying what a new server page says is that
 * page (say a change request merged before Quire learnt the ids it created).
 */
import { samePageText } from '../../content';
import type { PageSides } from './decide';
import { pairNearlySame, type Vanished } from './pair-moves';
import { rekeyedTree } from './rekeyed-tree';
import type { Scope, Views } from './stages';
import { isNewPageKey, newPageKey, type OpenConflict, type PlanOptions, type PushedPage, type SpaceView } from './types';

const NONE: ReadonlyMap<string, PushedPage> = new Map();

export function identify({ view, options }: Views): Scope {
  const keys = scopeKeys(view, options);
  const sidesOf = sidesReader(view);
  const sides = new Map<string, PageSides>();
  const rekeyed = new Map<string, string>();
  const newFiles = settleIdentities(view, keys, sidesOf, sides, rekeyed);
  const needBodies = adoptNewFiles(view, keys, sides, rekeyed, newFiles);
  return { sides, rekeyed, tree: rekeyedTree(view.folder, rekeyed), needBodies };
}

/** Every key this plan looks at: what changed somewhere, and what waits (every key, for a full plan). */
function scopeKeys(view: SpaceView, options: PlanOptions): Set<string> {
  const keys = new Set<string>();
  const local = view.local;
  if (options.full) {
    for (const id of view.base.ids()) keys.add(id);
    for (const id of view.remote.ids()) keys.add(id);
    for (const key of view.folder.keys()) keys.add(key);
  } else {
    for (const id of view.remote.changed()) keys.add(id);
    for (const key of view.folder.pending()) keys.add(key);
  }
  for (const key of local.edited.keys()) keys.add(key);
  for (const key of local.vanished.keys()) keys.add(key);
  for (const key of local.moved.keys()) keys.add(key);
  for (const u of local.unreadable) if (u.key !== null) keys.add(u.key);
  for (const c of view.conflicts) if (c.pageId !== null) keys.add(c.pageId);
  if (view.changeRequest !== 'open' || options.full) for (const id of view.pushed.keys()) keys.add(id);
  return keys;
}

/** What each view says about a key. */
function sidesReader(view: SpaceView): (key: string) => PageSides {
  const local = view.local;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  const pushedMerged = view.changeRequest === 'merged' ? view.pushed : NONE;
  // Conflicts: held while their server copy exists; resolved once the writer deleted it.
  const held = new Map<string, OpenConflict>();
  const resolved = new Map<string, OpenConflict>();
  for (const c of view.conflicts) {
    if (c.pageId === null) continue;
    if (c.remoteFilePresent) held.set(c.pageId, c);
    else resolved.set(c.pageId, c);
  }
  const unreadable = new Set(local.unreadable.flatMap((u) => (u.key === null ? [] : [u.key])));

  return (key: string): PageSides => {
    const node = view.folder.node(key);
    const edited = local.edited.get(key);
    const moved = local.moved.get(key);
    let file: PageSides['local'];
    // A file that cannot be read where it is now (it moved since the scan, or the scan did not
    // look there) is left alone this cycle: what it holds is not known, so nothing is taken for it.
    let notRead = false;
    if (edited) file = { path: edited.path, text: edited.text };
    else if (moved) {
      const text = moved.text ?? view.folder.text(key);
      if (text !== null) file = { path: moved.to, text };
      else notRead = true;
    } else if (node?.path && !local.vanished.has(key) && node.kind === 'document') {
      const text = view.folder.text(key);
      if (text !== null) file = { path: node.path, text };
      else notRead = true;
    }
    const isPage = !isNewPageKey(key);
    const base = isPage ? view.base.page(key) : undefined;
    const remote = isPage ? view.remote.page(key) : undefined;
    return {
      id: key,
      kind: remote?.kind ?? base?.kind ?? node?.kind ?? 'document',
      base,
      baseText: isPage ? view.base.text(key) : null,
      remote,
      remoteText: isPage ? view.remote.text(key) : null,
      local: file,
      unreadable: unreadable.has(key) || notRead,
      // The scan saw its file vanish, or an earlier cycle did: its node keeps no file until the
      // delete is pushed, and the change request holds it deleted since.
      fileGone: local.vanished.has(key) || (file === undefined && ((node?.kind === 'document' && node.path === null) || pushedOpen.get(key)?.deleted === true)),
      pushed: pushedOpen.get(key),
      pushedMerged: pushedMerged.get(key),
      conflict: held.get(key),
      resolved: resolved.get(key),
      adopted: false,
    };
  };
}

/**
 * The sides of every key in scope, under the identity each has now: a file whose page exists
 * nowhere any more is a new page again (returned, with the files new to the folder).
 */
function settleIdentities(
  view: SpaceView,
  keys: Set<string>,
  sidesOf: (key: string) => PageSides,
  sides: Map<string, PageSides>,
  rekeyed: Map<string, string>,
): PageSides[] {
  /** A page, or one above it, is deleted in the open change request. */
  const deletedAbove = (id: string | null): boolean => {
    const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
    for (let p = id, n = 0; p !== null && n < 100; p = view.remote.page(p)?.parentId ?? null, n++) if (pushedOpen.get(p)?.deleted) return true;
    return false;
  };
  const newFiles: PageSides[] = [];
  for (const key of keys) {
    const s = sidesOf(key);
    const kind = s.kind;
    const keptAfterServerDelete = s.resolved?.kind === 'deleted-remotely' && !s.remote;
    const onlyInGoneRequest = !isNewPageKey(key) && !s.base && !s.remote && !s.pushed && kind === 'document';
    // Back after its delete was pushed, but the page it stood under is deleted in the change
    // request too: it cannot be restored where it was (revert_page), so it is added again.
    const parentDeletedToo = s.pushed?.deleted === true && deletedAbove(s.remote?.parentId ?? s.base?.parentId ?? null);
    if (s.local && (keptAfterServerDelete || onlyInGoneRequest || parentDeletedToo)) {
      const fresh = newPageKey(s.local.path);
      rekeyed.set(key, fresh);
      newFiles.push({ ...sidesOf(fresh), id: fresh, local: s.local });
      // The change request still has the old page: it goes, or merging would bring it back beside the new one.
      if (s.pushed && !s.pushed.deleted) sides.set(key, { ...s, local: undefined, fileGone: true, conflict: undefined, resolved: undefined });
      continue;
    }
    sides.set(key, s);
  }
  for (const key of rekeyed.keys()) if (!sides.has(key)) keys.delete(key);
  for (const a of view.local.added) {
    const key = newPageKey(a.path);
    newFiles.push({ ...sidesOf(key), id: key, local: { path: a.path, text: a.text } });
  }
  return newFiles;
}

/** New server pages and new files saying the same thing are the same page; returns the server pages whose text that needs. */
function adoptNewFiles(
  view: SpaceView,
  keys: ReadonlySet<string>,
  sides: Map<string, PageSides>,
  rekeyed: Map<string, string>,
  newFiles: PageSides[],
): string[] {
  const needBodies: string[] = [];
  const newRemote = [...keys].filter((id) => {
    const s = sides.get(id);
    return s?.remote?.kind === 'document' && !s.base && !s.local && !view.folder.node(id);
  });
  const adopt = (id: string, file: PageSides): void => {
    newFiles.splice(newFiles.indexOf(file), 1);
    sides.set(id, { ...sides.get(id)!, local: file.local, adopted: true });
    if (!isNewPageKey(file.id) || rekeyed.size > 0) {
      for (const [from, to] of rekeyed) if (to === file.id) rekeyed.set(from, id);
    }
    // A new file the folder's tree knew by its path (its insert not confirmed) is that page now.
    if (isNewPageKey(file.id) && view.folder.node(file.id)) rekeyed.set(file.id, id);
  };
  const unmatched: Vanished[] = [];
  if (newFiles.length > 0) {
    for (const id of newRemote) {
      const s = sides.get(id)!;
      if (s.remoteText === undefined) {
        needBodies.push(id);
        continue;
      }
      const file = newFiles.find((f) => f.local !== undefined && samePageText(f.local.text, s.remoteText));
      if (file) adopt(id, file);
      else unmatched.push({ key: id, path: '', text: s.remoteText });
    }
    // Or nearly the same (a file a pull wrote, then killed before recording it, edited since):
    // that page too, the two texts a clash for the writer (decide.ts).
    const files = newFiles.flatMap((f) => (f.local ? [{ path: f.local.path, text: f.local.text }] : []));
    for (const [id, near] of pairNearlySame(unmatched, files)) adopt(id, newFiles.find((f) => f.local?.path === near.path)!);
  }
  for (const f of newFiles) sides.set(f.id, f);
  return needBodies;
}
