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
import type { PlanContext } from './context';
import type { PageSides } from './decide';
import { pairNearlySame, type Vanished } from './pair-moves';
import { isNewPageKey, newPageKey, type OpenConflict, type PushedPage } from './types';

const NONE: ReadonlyMap<string, PushedPage> = new Map();

export function identify(ctx: PlanContext): void {
  const { view, keys } = ctx;
  const local = view.local;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  const pushedMerged = view.changeRequest === 'merged' ? view.pushed : NONE;

  if (ctx.options.full) {
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
  if (view.changeRequest !== 'open' || ctx.options.full) for (const id of view.pushed.keys()) keys.add(id);

  // Conflicts: held while their server copy exists; resolved once the writer deleted it.
  const held = new Map<string, OpenConflict>();
  const resolved = new Map<string, OpenConflict>();
  for (const c of view.conflicts) {
    if (c.pageId === null) continue;
    if (c.remoteFilePresent) held.set(c.pageId, c);
    else resolved.set(c.pageId, c);
  }
  const unreadable = new Set(local.unreadable.flatMap((u) => (u.key === null ? [] : [u.key])));

  const sidesOf = (key: string): PageSides => {
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

  /** A page, or one above it, is deleted in the open change request. */
  const deletedAbove = (id: string | null): boolean => {
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
      ctx.rekeyed.set(key, fresh);
      newFiles.push({ ...sidesOf(fresh), id: fresh, local: s.local });
      // The change request still has the old page: it goes, or merging would bring it back beside the new one.
      if (s.pushed && !s.pushed.deleted) ctx.sides.set(key, { ...s, local: undefined, fileGone: true, conflict: undefined, resolved: undefined });
      continue;
    }
    ctx.sides.set(key, s);
  }
  for (const key of ctx.rekeyed.keys()) if (!ctx.sides.has(key)) keys.delete(key);
  for (const a of local.added) {
    const key = newPageKey(a.path);
    newFiles.push({ ...sidesOf(key), id: key, local: { path: a.path, text: a.text } });
  }

  // New server pages and new files saying the same thing are the same page.
  const newRemote = [...keys].filter((id) => {
    const s = ctx.sides.get(id);
    return s?.remote?.kind === 'document' && !s.base && !s.local && !view.folder.node(id);
  });
  const adopt = (id: string, file: PageSides): void => {
    newFiles.splice(newFiles.indexOf(file), 1);
    ctx.sides.set(id, { ...ctx.sides.get(id)!, local: file.local, adopted: true });
    if (!isNewPageKey(file.id) || ctx.rekeyed.size > 0) {
      for (const [from, to] of ctx.rekeyed) if (to === file.id) ctx.rekeyed.set(from, id);
    }
    // A new file the folder's tree knew by its path (its insert not confirmed) is that page now.
    if (isNewPageKey(file.id) && view.folder.node(file.id)) ctx.rekeyed.set(file.id, id);
  };
  const unmatched: Vanished[] = [];
  if (newFiles.length > 0) {
    for (const id of newRemote) {
      const s = ctx.sides.get(id)!;
      if (s.remoteText === undefined) {
        ctx.plan.needBodies.push(id);
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
  for (const f of newFiles) {
    ctx.sides.set(f.id, f);
    keys.add(f.id);
  }
}
