/**
 * The sync planner: a pure function from the views of one space (trees.ts) to what a
 * cycle does. No I/O here, so it can be tested exhaustively (test/sync/plan/).
 *
 * Per page, content:
 * - changed on the server only: the file takes the server's text;
 * - changed here only: pushed into the change request;
 * - changed on both sides: merged line by line (merge.ts); the merge is written here and
 *   pushed; a clash keeps the file untouched, puts the server's text beside it
 *   (`<name>.remote.md`) and holds the page until the writer deletes that file;
 * - deleted on one side and edited on the other: a conflict, never a silent loss;
 * - while the change request is open, "changed here" means "differs from what the change
 *   request holds" (pushed); once it is merged, what was pushed is the merge base.
 *
 * Per page, place: a file moved or renamed here is an `update_page` move (parent, slug),
 * never a delete plus an insert; otherwise the server's tree decides where files go
 * (layout.ts over the effective tree: the server's tree with the local moves and new
 * files applied, so server pages never take the names of new local files).
 *
 * Fail-safe: a cycle that would delete more than half of a space's pages on either side
 * (and at least two) plans nothing and reports a hold, unless the caller allows it.
 */
import { remoteCopyPath } from './ignore';
import { planLayout, type LayoutPage, type LayoutPlan } from './layout';
import { mergeText, type MergeLimits } from './merge';
import { samePageText } from '../content';
import {
  isNewPageKey,
  newPageKey,
  type BasePage,
  type ConflictKind,
  type LocalAsset,
  type LocalPage,
  type LocalTree,
  type OpenConflict,
  type PushedPage,
  type RemotePage,
} from './trees';

export type ChangeRequestState = 'none' | 'open' | 'merged' | 'closed';

export interface PlanInput {
  base: ReadonlyMap<string, BasePage>;
  remote: ReadonlyMap<string, RemotePage>;
  local: LocalTree;
  pushed: ReadonlyMap<string, PushedPage>;
  /** The change request `pushed` describes. Merged: main holds it now. Closed: it went nowhere. */
  changeRequest: ChangeRequestState;
  conflicts: readonly OpenConflict[];
  /** New files under `.gitbook/assets/`. */
  assets?: readonly LocalAsset[];
  allowMassDelete?: boolean;
  mergeLimits?: MergeLimits;
}

/** File operations, run in order: deletes (freeing paths), moves, writes, remote copies. */
export type FileOp =
  | { op: 'move'; pageId: string; from: string; to: string }
  /**
   * Write `text` (null: the server's text, fetched when written); `expect` is the file's
   * text the plan saw (null: no file), so a file changed since is left alone.
   */
  | { op: 'write'; pageId: string; path: string; text: string | null; expect: string | null }
  | { op: 'delete'; pageId: string; path: string; expect: string }
  /** The server's side of a conflict, beside the writer's file. */
  | { op: 'remote-copy'; pageId: string; path: string; text: string };

/** A change for the change request, in terms of pages (change-request.ts turns it into API changes). */
export type PushOp =
  | { op: 'insert'; key: string; path: string; text: string; parentKey: string | null; position: number | null; name: string }
  | {
      op: 'update';
      id: string;
      path: string;
      /** New text, or null when only the place changed. */
      text: string | null;
      /** The page's text after the change, for the record. */
      record: string;
      /** Move under this parent (page id or new-page key) when its parent changed. */
      move: { parentKey: string | null; position: number | null } | null;
      /** New name (slug) when renamed. */
      rename: string | null;
      /** The change request deleted the page: bring it back first. */
      restore: boolean;
      /** Parent and name after the change, for the record. */
      parentKey: string | null;
      name: string;
    }
  | { op: 'delete'; id: string; path: string | null }
  | { op: 'files'; assets: LocalAsset[] };

export interface NewConflict {
  pageId: string;
  path: string;
  kind: ConflictKind;
  remotePath: string | null;
  /** The common ancestor, for a three-way view (null when there is none). */
  baseText?: string | null;
}

export interface MassDeleteHold {
  localDeletes: number;
  remoteDeletes: number;
  pages: number;
}

export interface PlanStats {
  pulled: number;
  merged: number;
  conflicts: number;
  movedLocally: number;
  deletedLocally: number;
}

export interface Plan {
  /** Set when the mass-delete fail-safe stopped the cycle: nothing else in the plan. */
  held: MassDeleteHold | null;
  fileOps: FileOp[];
  push: PushOp[];
  /** The new base of every page; rows whose file ops fail must keep their old base. */
  base: BasePage[];
  /** relocate: held files the writer moved (the conflict follows its file). */
  conflicts: { add: NewConflict[]; resolve: OpenConflict[]; refresh: NewConflict[]; relocate: { from: string; to: string }[] };
  /** The change request was merged or closed: forget what was pushed once the plan is applied. */
  clearPushed: boolean;
  /** Text each page's file holds once the file ops ran (pages taking the server's unseen text aside). */
  diskText: Map<string, string>;
  /** New paths of files of pages only the change request has (their identity lives in the pushed record). */
  pushedPaths: Map<string, string>;
  /** The effective tree and where its files are, for SUMMARY.md. */
  summary: { tree: LayoutPage[]; plan: LayoutPlan; files: Map<string, string | null> };
  stats: PlanStats;
}

const MASS_DELETE_MIN = 2;

export { remoteCopyPath };

/** The stub put beside a file whose page the server deleted while it was edited here. */
export const DELETED_REMOTELY_NOTE =
  '<!-- Quire: this page was deleted on the server while you edited it here.\n' +
  'Delete this file to keep your version (it is then proposed as a new page),\n' +
  'or delete both files to accept the deletion. -->\n';

interface PlannedMove {
  parentKey: string | null;
  name: string;
  position: number | null;
}

interface Decision {
  /** The file's text after this cycle (null: no file, or the server's text not fetched yet). */
  finalText: string | null;
  /** The file takes the server's text, which was not fetched (RemotePage.pending). */
  pendingRemote?: boolean;
  /** Page is held by a conflict: nothing pushed, file untouched. */
  held: boolean;
  /** Locally deleted: push a delete. */
  pushDelete: boolean;
}

const hasFile = (d: Decision | undefined): boolean => d !== undefined && (d.finalText !== null || d.pendingRemote === true);

/** Thrown when a decision needs a body the caller did not fetch (see bodiesNeeded). */
export class MissingBodyError extends Error {
  override name = 'MissingBodyError';
  constructor(readonly pageId: string) {
    super(`The sync planner needs the server's text of page ${pageId}, which was not fetched.`);
  }
}

/**
 * Pages whose changed body the planner must see before it decides (a merge, a conflict,
 * a push, recognising a new file); the others can fetch it while writing. `input.remote`
 * holds every page whose body changed as `pending`.
 */
export function bodiesNeeded(input: PlanInput): Set<string> {
  const needed = new Set<string>();
  const pushedOpen = input.changeRequest === 'open' ? input.pushed : new Map<string, PushedPage>();
  const pushedMerged = input.changeRequest === 'merged' ? input.pushed : new Map<string, PushedPage>();
  const localById = new Map<string, LocalPage>();
  let newFiles = 0;
  for (const page of input.local.pages.values()) {
    if (page.id !== null && (input.base.has(page.id) || input.remote.has(page.id) || pushedOpen.has(page.id))) localById.set(page.id, page);
    else newFiles++;
  }
  const heldIds = new Set(input.conflicts.map((c) => c.pageId));
  const goneHere = new Set([...input.base.values()].filter((b) => b.kind === 'document' && !localById.has(b.id)).map((b) => b.id));
  const underGone = (R: RemotePage): boolean => {
    for (let p = R.parentId, n = 0; p !== null && n < 256; p = input.remote.get(p)?.parentId ?? null, n++) if (goneHere.has(p)) return true;
    return false;
  };
  for (const R of input.remote.values()) {
    if (!R.pending) continue;
    const B = input.base.get(R.id);
    const L = localById.get(R.id);
    const mergeBase = pushedMerged.get(R.id)?.text ?? B?.text ?? null;
    const need = L
      ? mergeBase === null ||
        !samePageText(L.text, mergeBase) ||
        L.movedFrom !== null ||
        pushedOpen.has(R.id) ||
        heldIds.has(R.id) ||
        underGone(R) ||
        (L.parentKey !== null && !input.remote.has(L.parentKey))
      : B !== undefined || newFiles > 0 || heldIds.has(R.id) || underGone(R);
    if (need) needed.add(R.id);
  }
  return needed;
}

export function planSync(input: PlanInput): Plan {
  const { base, remote, local } = input;
  const limits = input.mergeLimits;
  const pushedOpen: ReadonlyMap<string, PushedPage> = input.changeRequest === 'open' ? input.pushed : new Map();
  const pushedMerged: ReadonlyMap<string, PushedPage> = input.changeRequest === 'merged' ? input.pushed : new Map();
  const stats: PlanStats = { pulled: 0, merged: 0, conflicts: 0, movedLocally: 0, deletedLocally: 0 };

  // Local pages by id; files whose identity came only from a change request that is gone are new again.
  const localById = new Map<string, LocalPage>();
  const newLocal: LocalPage[] = [];
  for (const page of local.pages.values()) {
    const known = page.id !== null && (base.has(page.id) || remote.has(page.id) || pushedOpen.has(page.id));
    if (page.id !== null && known) localById.set(page.id, page);
    else newLocal.push(page.id === null ? page : { ...page, key: newPageKey(page.path), id: null });
  }

  // Conflicts: held while their `.remote.md` file exists; resolved once it is gone.
  const held = new Map<string, OpenConflict>();
  const resolved: OpenConflict[] = [];
  for (const c of input.conflicts) {
    if (c.remoteFilePresent) {
      if (c.pageId !== null) held.set(c.pageId, c);
    } else {
      resolved.push(c);
    }
  }
  // Kept after the server deleted it: from now on a new page.
  for (const c of resolved) {
    if (c.kind !== 'deleted-remotely' || c.pageId === null || remote.has(c.pageId)) continue;
    const page = localById.get(c.pageId);
    localById.delete(c.pageId);
    if (page) newLocal.push({ ...page, key: newPageKey(page.path), id: null });
  }

  // A new server page and a new file saying the same thing are the same page (e.g. a
  // change request merged before Quire learnt the ids it created).
  const adopted = adoptNewRemotePages(input, localById, newLocal);

  const decisions = new Map<string, Decision>();
  const fileOps: { moves: FileOp[]; writes: FileOp[]; deletes: FileOp[]; copies: FileOp[] } = { moves: [], writes: [], deletes: [], copies: [] };
  const newConflicts: NewConflict[] = [];
  const refreshConflicts: NewConflict[] = [];
  const relocated: { from: string; to: string }[] = [];
  const removedBase = new Set<string>();
  const keepBaseText = new Map<string, string | null>();
  let remoteDeletes = 0;

  const ids = new Set<string>([...base.keys(), ...remote.keys(), ...localById.keys()]);
  for (const id of ids) {
    const B = base.get(id);
    const R = remote.get(id);
    const L = localById.get(id);
    const kind = R?.kind ?? B?.kind ?? 'document';
    if (kind !== 'document') continue;
    const conflict = held.get(id);
    const mergeBase = pushedMerged.get(id)?.text ?? B?.text ?? null;

    if (R) {
      const remoteChanged = !B || R.pending === true || !samePageText(R.text, B.text);
      const remoteText = (): string => {
        if (R.pending) throw new MissingBodyError(id);
        return R.text ?? '';
      };
      if (L) {
        if (conflict) {
          decisions.set(id, { finalText: L.text, held: true, pushDelete: false });
          if (L.path !== conflict.path) relocated.push({ from: conflict.path, to: L.path });
          if (remoteChanged) {
            remoteText();
            refreshConflicts.push({ pageId: id, path: L.path, kind: conflict.kind, remotePath: conflict.remotePath });
          }
          continue;
        }
        if (!remoteChanged || (!R.pending && samePageText(L.text, R.text))) {
          decisions.set(id, { finalText: L.text, held: false, pushDelete: false });
          continue;
        }
        if (mergeBase === null || adopted.has(id)) {
          // The server's page and the file were never synced with each other.
          remoteText();
          const c = { pageId: id, path: L.path, kind: 'local-file-in-the-way' as const, remotePath: remoteCopyPath(L.path), baseText: null };
          newConflicts.push(c);
          decisions.set(id, { finalText: L.text, held: true, pushDelete: false });
          continue;
        }
        if (samePageText(L.text, mergeBase)) {
          decisions.set(
            id,
            R.pending ? { finalText: null, pendingRemote: true, held: false, pushDelete: false } : { finalText: R.text ?? '', held: false, pushDelete: false },
          );
          stats.pulled++;
          continue;
        }
        const merged = mergeText(L.text, mergeBase, remoteText(), limits);
        if (merged.kind === 'merged') {
          decisions.set(id, { finalText: merged.text, held: false, pushDelete: false });
          stats.merged++;
        } else {
          newConflicts.push({ pageId: id, path: L.path, kind: 'both-changed', remotePath: remoteCopyPath(L.path), baseText: mergeBase });
          decisions.set(id, { finalText: L.text, held: true, pushDelete: false });
        }
        continue;
      }
      // No file here.
      if (B) {
        if (conflict) {
          decisions.set(id, { finalText: null, held: true, pushDelete: false });
          if (remoteChanged) {
            remoteText();
            refreshConflicts.push({ pageId: id, path: conflict.path, kind: conflict.kind, remotePath: conflict.remotePath });
          }
          continue;
        }
        const resolvedHere = resolved.some((c) => c.pageId === id && c.kind === 'deleted-locally');
        if (remoteChanged && !resolvedHere && !pushedMerged.get(id)?.deleted) {
          // Deleted here, edited there: bring nothing back silently, put the server's text beside.
          remoteText();
          const path = B.path ?? `${id}.md`;
          newConflicts.push({ pageId: id, path, kind: 'deleted-locally', remotePath: remoteCopyPath(path), baseText: mergeBase });
          decisions.set(id, { finalText: null, held: true, pushDelete: false });
          continue;
        }
        decisions.set(id, { finalText: null, held: false, pushDelete: true });
        continue;
      }
      // A page new on the server: written below, once its path is known.
      decisions.set(
        id,
        R.pending ? { finalText: null, pendingRemote: true, held: false, pushDelete: false } : { finalText: R.text ?? '', held: false, pushDelete: false },
      );
      stats.pulled++;
      continue;
    }

    // Not on the server (any more).
    if (B) {
      if (L) {
        if (conflict) {
          decisions.set(id, { finalText: L.text, held: true, pushDelete: false });
          if (L.path !== conflict.path) relocated.push({ from: conflict.path, to: L.path });
          keepBaseText.set(id, B.text);
          continue;
        }
        if (mergeBase !== null && samePageText(L.text, mergeBase)) {
          fileOps.deletes.push({ op: 'delete', pageId: id, path: L.path, expect: L.text });
          removedBase.add(id);
          remoteDeletes++;
          // The change request must not bring it back (it holds a move or an old edit of it).
          const p = pushedOpen.get(id);
          if (p && !p.deleted) decisions.set(id, { finalText: null, held: false, pushDelete: true });
          continue;
        }
        newConflicts.push({ pageId: id, path: L.path, kind: 'deleted-remotely', remotePath: remoteCopyPath(L.path), baseText: mergeBase });
        decisions.set(id, { finalText: L.text, held: true, pushDelete: false });
        keepBaseText.set(id, B.text);
        continue;
      }
      removedBase.add(id);
      const p = pushedOpen.get(id);
      if (p && !p.deleted) decisions.set(id, { finalText: null, held: false, pushDelete: true });
      continue;
    }
    // Only in the change request (Quire created it there).
    if (L) decisions.set(id, { finalText: L.text, held: !!conflict, pushDelete: false });
  }
  // Pages only in the change request whose file is gone.
  for (const [id, p] of pushedOpen) {
    if (base.has(id) || remote.has(id) || localById.has(id) || p.deleted) continue;
    decisions.set(id, { finalText: null, held: false, pushDelete: true });
  }

  // A server page whose parent is being deleted here would go with it: it moves up to the
  // nearest parent that stays (pushed as a move; a file here already sits there).
  const inTree = (id: string): boolean => {
    const R = remote.get(id);
    if (!R) return false;
    if (R.kind !== 'document') return true;
    const d = decisions.get(id);
    return d !== undefined && (hasFile(d) || d.held);
  };
  const isGoneParent = (id: string | null) => id !== null && !inTree(id) && !localById.has(id);
  const reparent = new Map<string, string | null>();
  for (const R of remote.values()) {
    if (R.parentId === null || inTree(R.parentId) || !inTree(R.id)) continue;
    let p: string | null = R.parentId;
    for (let n = 0; p !== null && !inTree(p) && n < 256; n++) p = remote.get(p)?.parentId ?? null;
    reparent.set(R.id, p);
  }

  // Structure. A file keeps the place it has here when it was moved here since the last
  // sync (or push), when the change request moves it, or when main does not have it; the
  // server's tree places every other file. A move here is pushed unless main made it too.
  const localPlaced = new Set<string>();
  const moves = new Map<string, PlannedMove>();
  for (const [id, L] of localById) {
    const d = decisions.get(id);
    // A held file stays where it is, and its folder with it.
    if (d?.held) localPlaced.add(id);
    if (!hasFile(d) || adopted.has(id)) continue;
    const R = remote.get(id);
    const B = base.get(id);
    const pOpen = pushedOpen.get(id);
    const p = pOpen ?? pushedMerged.get(id);
    // Where the folder had it: as the change request placed it, else as main did.
    const ref = p && !p.deleted && (p.moved || !B) ? { parentId: p.parentId, name: p.name } : B ? { parentId: B.parentId, name: B.name } : null;
    // Just released from a conflict: its file stayed put while it was held, so where it
    // sits says nothing about where the writer wants it.
    const released = resolved.some((c) => c.pageId === id);
    const changedHere = released ? false : ref ? L.parentKey !== ref.parentId || (ref.name !== null && L.name !== ref.name) : !R;
    const mainParent = R === undefined ? null : reparent.has(id) ? reparent.get(id)! : R.parentId;
    const asMain = R !== undefined && L.parentKey === mainParent && L.name === remoteNameOf(R, B);
    const requestMoves =
      pOpen !== undefined && !pOpen.deleted && pOpen.moved && R !== undefined && (pOpen.parentId !== mainParent || pOpen.name !== remoteNameOf(R, B));
    // What main with the change request applied says; a move here is pushed when it differs.
    const asRequest = requestMoves ? L.parentKey === pOpen!.parentId && L.name === pOpen!.name : asMain;
    if (!R || (changedHere && !asMain) || requestMoves) localPlaced.add(id);
    if (changedHere && !asRequest && (R || pOpen)) moves.set(id, { parentKey: L.parentKey, name: L.name, position: L.position });
    else if (R && reparent.has(id) && isGoneParent(pOpen && !pOpen.deleted && pOpen.moved ? pOpen.parentId : R.parentId)) {
      moves.set(id, { parentKey: mainParent, name: (pOpen?.moved ? pOpen.name : null) ?? remoteNameOf(R, B) ?? L.name, position: null });
    }
  }

  const effective = effectiveTree(input, pushedOpen, localById, newLocal, decisions, localPlaced, reparent);
  const layout = planLayout(effective.tree, { previous: effective.previous });
  // Deleted here, edited there: the server's copy goes where the page now belongs.
  for (const c of newConflicts) {
    if (c.kind !== 'deleted-locally') continue;
    const planned = layout.pages.get(c.pageId);
    let target = planned?.file ?? null;
    // Not the space's README.md: the path must say which folder the page owns.
    if (target === 'README.md' && planned?.name) target = planned.folder ? `${planned.folder}/README.md` : `${planned.name}.md`;
    if (target) Object.assign(c, { path: target, remotePath: remoteCopyPath(target) });
  }
  // Pages whose parent is gone (deleted on either side) move up: pushed as moves so the
  // change request does not keep them under a page that is going away.
  for (const [key, parent] of effective.orphans) {
    const L = localById.get(key);
    if (L) {
      const pOpen = pushedOpen.get(key);
      const R = remote.get(key);
      const recorded = pOpen && !pOpen.deleted && (pOpen.moved || !R) ? pOpen.parentId : R ? R.parentId : undefined;
      const planned = moves.get(key);
      if (planned && planned.parentKey !== parent) moves.set(key, { ...planned, parentKey: parent, position: null });
      else if (!planned && recorded !== parent) moves.set(key, { parentKey: parent, name: layout.pages.get(key)?.name ?? L.name, position: null });
      continue;
    }
    const fresh = newLocal.find((p) => p.key === key);
    if (fresh) fresh.parentKey = parent;
  }

  // Where each file ends up: where the layout of the effective tree puts it (a file that
  // keeps its local place moves only when its parent's folder moved, or when gaining or
  // losing children turns `x.md` into `x/README.md` or back); held files never move; a
  // file that stays is never displaced (whoever wanted its path keeps its own, or takes
  // another name if new).
  // Held files stay where they are, and what the layout puts under them goes into the
  // folder they are actually in.
  const rebase: { from: string; to: string }[] = [];
  for (const [id, d] of decisions) {
    const L = localById.get(id);
    const folder = layout.pages.get(id)?.folder;
    if (!d.held || !L || !folder || L.path === 'README.md') continue;
    const actual = L.path.replace(/\/README\.md$/i, '').replace(/\.md$/i, '');
    if (actual !== folder) rebase.push({ from: `${folder}/`, to: `${actual}/` });
  }
  rebase.sort((a, b) => b.from.length - a.from.length);
  const targetOf = (key: string): string | null => {
    const path = layout.pagePaths.get(key) ?? null;
    if (path === null) return null;
    const r = rebase.find((x) => path.startsWith(x.from));
    return r ? r.to + path.slice(r.from.length) : path;
  };
  const finalPath = new Map<string, string | null>();
  const current = new Map<string, string>();
  for (const [id, L] of localById) current.set(id, L.path);
  for (const p of newLocal) current.set(p.key, p.path);
  const wants = new Map<string, string | null>();
  for (const [id, d] of decisions) {
    const L = localById.get(id);
    if (d.held) {
      if (L) wants.set(id, L.path);
      continue;
    }
    if (!hasFile(d)) continue;
    const target = targetOf(id);
    if (L && target === null) wants.set(id, L.path);
    else wants.set(id, target ?? L?.path ?? null);
  }
  for (const p of newLocal) {
    wants.set(p.key, targetOf(p.key) ?? p.path);
  }
  const stays = (key: string) => current.has(key) && wants.get(key) === current.get(key);
  for (let changed = true; changed; ) {
    changed = false;
    const stayed = new Map<string, string>();
    for (const [key, path] of wants) if (path !== null && stays(key)) stayed.set(path, key);
    for (const [key, path] of wants) {
      if (path === null || stays(key) || !current.has(key)) continue;
      const holder = stayed.get(path);
      if (holder !== undefined && holder !== key) {
        wants.set(key, current.get(key)!);
        changed = true;
      }
    }
  }
  const taken = new Map<string, string>();
  for (const [key, path] of wants) if (path !== null && stays(key)) taken.set(path, key);
  for (const [key, path] of wants) {
    if (path === null || stays(key)) {
      finalPath.set(key, path);
      continue;
    }
    const target = taken.has(path) && taken.get(path) !== key ? alternativePath(path, key, taken) : path;
    finalPath.set(key, target);
    taken.set(target, key);
  }

  // File operations.
  for (const [id, d] of decisions) {
    const L = localById.get(id);
    const path = finalPath.get(id) ?? null;
    if (d.held) continue;
    if (!hasFile(d) || path === null) continue;
    if (L && L.path !== path) {
      fileOps.moves.push({ op: 'move', pageId: id, from: L.path, to: path });
      stats.movedLocally++;
    }
    if (!L) fileOps.writes.push({ op: 'write', pageId: id, path, text: d.finalText, expect: null });
    else if (d.pendingRemote || d.finalText !== L.text) fileOps.writes.push({ op: 'write', pageId: id, path, text: d.finalText, expect: L.text });
  }
  for (const p of newLocal) {
    const path = finalPath.get(p.key);
    if (path && path !== p.path) fileOps.moves.push({ op: 'move', pageId: p.key, from: p.path, to: path });
  }
  for (const c of [...newConflicts, ...refreshConflicts]) {
    const R = remote.get(c.pageId);
    if (c.remotePath === null) continue;
    const text = R?.text ?? DELETED_REMOTELY_NOTE;
    fileOps.copies.push({ op: 'remote-copy', pageId: c.pageId, path: c.remotePath, text });
  }
  stats.conflicts = newConflicts.length;

  // Pushes.
  const push = planPushes(input, pushedOpen, localById, newLocal, decisions, moves, finalPath);
  for (const [id, parent] of reparent) {
    const d = decisions.get(id);
    if (localById.has(id) || !d || d.held || !hasFile(d)) continue;
    if (d.finalText === null) throw new MissingBodyError(id);
    const laidOut = layout.pages.get(id);
    const at = finalPath.get(id);
    const name = at && laidOut?.file && at !== laidOut.file ? nameFromPath(at) : (laidOut?.name ?? remote.get(id)?.slug ?? id);
    push.push({
      op: 'update',
      id,
      path: finalPath.get(id) ?? '',
      text: null,
      record: d.finalText,
      move: { parentKey: parent, position: null },
      rename: null,
      restore: false,
      parentKey: parent,
      name,
    });
  }
  deferBlockedDeletes(push, input, pushedOpen);
  stats.deletedLocally = push.filter((p) => p.op === 'delete' && base.has(p.id)).length;

  // New base rows.
  const baseRows: BasePage[] = [];
  for (const R of remote.values()) {
    if (R.kind !== 'document') {
      baseRows.push({ ...R, name: layout.pages.get(R.id)?.name ?? base.get(R.id)?.name ?? null, path: null });
      continue;
    }
    const d = decisions.get(R.id);
    const B = base.get(R.id);
    const final = d?.finalText ?? null;
    // A page deleted here has no file any more: its old path must not claim the next file put there.
    const L = localById.get(R.id);
    const path = d && !L && !hasFile(d) ? null : (finalPath.get(R.id) ?? L?.path ?? B?.path ?? null);
    const text = !R.pending && !d?.held && final !== null && samePageText(final, R.text) ? final : R.text;
    if (d?.held && B && L) {
      // Held: the server's text is seen, but the page keeps the place it had, so that once
      // released it follows main's moves rather than pushing its old place back.
      baseRows.push({ ...B, title: R.title, documentId: R.documentId, updatedAt: R.updatedAt, meta: R.meta, path, text });
      continue;
    }
    const laidOut = layout.pages.get(R.id);
    // A file put elsewhere than the layout wanted (its place was taken) is known by the name it got.
    const name = localPlaced.has(R.id)
      ? remoteName(R, B)
      : path !== null && laidOut?.file != null && path !== laidOut.file
        ? nameFromPath(path)
        : (laidOut?.name ?? B?.name ?? null);
    baseRows.push({ ...R, name, path, text });
  }
  for (const [id, B] of base) {
    if (remote.has(id) || removedBase.has(id)) continue;
    if (keepBaseText.has(id)) baseRows.push({ ...B, path: localById.get(id)?.path ?? B.path, goneRemotely: true });
  }

  const totalPages = [...base.values()].filter((b) => b.kind === 'document').length;
  const massDelete = (n: number) => n >= MASS_DELETE_MIN && n * 2 > totalPages;
  const held_ =
    !input.allowMassDelete && (massDelete(stats.deletedLocally) || massDelete(remoteDeletes))
      ? { localDeletes: stats.deletedLocally, remoteDeletes, pages: totalPages }
      : null;

  const diskText = new Map<string, string>();
  for (const [id, d] of decisions) if (d.finalText !== null) diskText.set(id, d.finalText);
  const pushedPaths = new Map<string, string>();
  for (const [id, p] of pushedOpen) {
    const path = finalPath.get(id);
    if (!base.has(id) && !p.deleted && path && path !== p.path) pushedPaths.set(id, path);
  }

  const summaryFiles = new Map<string, string | null>();
  for (const page of layout.pages.values()) summaryFiles.set(page.id, finalPath.get(page.id) ?? newLocal.find((p) => p.key === page.id)?.path ?? page.file);

  if (held_) {
    return {
      held: held_,
      fileOps: [],
      push: [],
      base: [...base.values()],
      conflicts: { add: [], resolve: [], refresh: [], relocate: [] },
      clearPushed: false,
      diskText: new Map(),
      pushedPaths: new Map(),
      summary: { tree: effective.tree, plan: layout, files: summaryFiles },
      stats: { pulled: 0, merged: 0, conflicts: 0, movedLocally: 0, deletedLocally: 0 },
    };
  }
  return {
    held: null,
    fileOps: [...fileOps.deletes, ...fileOps.moves, ...fileOps.writes, ...fileOps.copies],
    push,
    base: baseRows,
    conflicts: { add: newConflicts, resolve: resolved, refresh: refreshConflicts, relocate: relocated },
    clearPushed: input.changeRequest === 'merged' || input.changeRequest === 'closed',
    diskText,
    pushedPaths,
    summary: { tree: effective.tree, plan: layout, files: summaryFiles },
    stats,
  };
}

/**
 * `delete_page` takes the page's subpages with it. A delete waits while a page that must
 * stay (held by a conflict, or anything not deleted nor moved out here) is still under it.
 */
function deferBlockedDeletes(push: PushOp[], input: PlanInput, pushedOpen: ReadonlyMap<string, PushedPage>): void {
  const deletes = new Set(push.flatMap((op) => (op.op === 'delete' ? [op.id] : [])));
  if (deletes.size === 0) return;
  const movedTo = new Map(push.flatMap((op) => (op.op === 'update' && op.move ? [[op.id, op.move.parentKey] as const] : [])));
  const parentOf = (id: string): string | null => {
    if (movedTo.has(id)) return movedTo.get(id)!;
    const p = pushedOpen.get(id);
    if (p && !p.deleted && (p.moved || !input.remote.has(id))) return p.parentId;
    return input.remote.get(id)?.parentId ?? null;
  };
  const blocked = new Set<string>();
  const ids = new Set([...input.remote.keys(), ...[...pushedOpen.values()].filter((p) => !p.deleted).map((p) => p.id)]);
  for (const id of ids) {
    if (deletes.has(id) || pushedOpen.get(id)?.deleted) continue;
    for (let p = parentOf(id), n = 0; p !== null && n < 256; p = parentOf(p), n++) {
      if (deletes.has(p)) blocked.add(p);
    }
  }
  for (let i = push.length - 1; i >= 0; i--) {
    const op = push[i]!;
    if (op.op === 'delete' && blocked.has(op.id)) push.splice(i, 1);
  }
}

/** Pairs new server pages with new files of the same text; the files take the pages' ids. */
function adoptNewRemotePages(input: PlanInput, localById: Map<string, LocalPage>, newLocal: LocalPage[]): Set<string> {
  const adopted = new Set<string>();
  for (const R of input.remote.values()) {
    if (R.kind !== 'document' || input.base.has(R.id) || localById.has(R.id) || R.text === null) continue;
    const index = newLocal.findIndex((p) => samePageText(p.text, R.text));
    if (index < 0) continue;
    const [file] = newLocal.splice(index, 1);
    localById.set(R.id, { ...file!, key: R.id, id: R.id });
    adopted.add(R.id);
  }
  return adopted;
}

interface Effective {
  tree: LayoutPage[];
  previous: Map<string, { parentId: string | null; name: string | null }>;
  /** Pages whose parent is gone from the tree, with the parent they move up to. */
  orphans: Map<string, string | null>;
}

/**
 * The server's tree with this folder's moves and new files applied: what main will look
 * like once the change request is merged. Pages that keep their local place carry their
 * file name as slug, so the layout gives them the name they already have.
 */
function effectiveTree(
  input: PlanInput,
  pushedOpen: ReadonlyMap<string, PushedPage>,
  localById: Map<string, LocalPage>,
  newLocal: LocalPage[],
  decisions: Map<string, Decision>,
  localPlaced: Set<string>,
  reparent: ReadonlyMap<string, string | null>,
): Effective {
  interface Node {
    key: string;
    parent: string | null;
    order: number;
    sub: number;
    page: LayoutPage;
  }
  const nodes = new Map<string, Node>();
  const previous = new Map<string, { parentId: string | null; name: string | null }>();
  const remote = input.remote;
  // A file that keeps its place at the space's README.md stays the first page.
  const firstOrder = (L: LocalPage): number | null => (L.path === 'README.md' ? -1 : null);

  for (const R of remote.values()) {
    const d = decisions.get(R.id);
    if (R.kind === 'document' && (!d || (!hasFile(d) && !d.held))) continue;
    const held = d?.held === true;
    const B = input.base.get(R.id);
    const p = pushedOpen.get(R.id);
    const placedByRequest = p?.moved && !p.deleted ? p : null;
    const heldFile = held ? localById.get(R.id) : undefined;
    // A held file does not move: its page stays under the parent it had (as the scan will
    // say next time), with the name its file has.
    const L = held && B ? undefined : localById.get(R.id);
    const local = L && localPlaced.has(R.id);
    // No file here, but the change request places it: there it goes.
    const byRequest = !L && !heldFile && placedByRequest !== null && placedByRequest.name !== null ? placedByRequest : null;
    const slug = local ? L.name : byRequest ? byRequest.name! : heldFile ? heldFile.name : R.slug;
    const page: LayoutPage = {
      id: R.id,
      title: R.title,
      type: R.kind,
      ...(slug !== null ? { slug } : {}),
      ...(R.href !== undefined ? { href: R.href } : {}),
    };
    const heldParent = placedByRequest ? placedByRequest.parentId : B ? B.parentId : R.parentId;
    const remoteParent = byRequest ? byRequest.parentId : heldFile ? heldParent : reparent.has(R.id) ? reparent.get(R.id)! : R.parentId;
    nodes.set(R.id, {
      key: R.id,
      parent: local ? L.parentKey : remoteParent,
      // Main's order (a SUMMARY.md position is not comparable with it; it only places inserts).
      order: local ? (firstOrder(L) ?? R.position) : heldFile ? (firstOrder(heldFile) ?? R.position) : R.position,
      sub: local || byRequest ? 1 : 0,
      page,
    });
    previous.set(R.id, {
      parentId: local ? L.parentKey : remoteParent,
      name: local ? L.name : byRequest ? byRequest.name : heldFile ? heldFile.name : (B?.name ?? localById.get(R.id)?.name ?? null),
    });
  }
  const localOnly = [...[...localById.values()].filter((L) => !remote.has(L.id!) && hasFile(decisions.get(L.id!))), ...newLocal];
  for (const L of localOnly) {
    // A held file stays under the parent the scan will give it (the one it had).
    const heldHere = L.id !== null && decisions.get(L.id)?.held === true;
    const p = L.id !== null ? pushedOpen.get(L.id) : undefined;
    const B = L.id !== null ? input.base.get(L.id) : undefined;
    const parent = heldHere ? (p?.moved && !p.deleted ? p.parentId : B ? B.parentId : L.parentKey) : L.parentKey;
    nodes.set(L.key, {
      key: L.key,
      parent,
      order: firstOrder(L) ?? Number.MAX_SAFE_INTEGER,
      sub: 1,
      page: { id: L.key, title: L.name, type: 'document', slug: L.name },
    });
    previous.set(L.key, { parentId: parent, name: L.name });
  }

  const orphans = new Map<string, string | null>();
  for (const node of nodes.values()) {
    let parent = node.parent;
    // A parent not in the tree: the nearest one that is, along main's tree.
    for (let n = 0; parent !== null && !nodes.has(parent) && n < 256; n++) parent = remote.get(parent)?.parentId ?? null;
    if (parent !== null && !nodes.has(parent)) parent = null;
    if (parent !== node.parent) orphans.set(node.key, parent);
    node.parent = parent;
  }
  // A move here and a move there can make a loop (each page under the other): the move
  // made here wins, the server's page goes to the root.
  for (const node of nodes.values()) {
    const loop = loopThrough(nodes, node.key);
    if (!loop) continue;
    const cut = loop.find((key) => nodes.get(key)!.sub === 0) ?? node.key;
    nodes.get(cut)!.parent = null;
    orphans.set(cut, null);
  }
  const children = new Map<string | null, Node[]>();
  for (const node of nodes.values()) children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  const build = (parent: string | null): LayoutPage[] =>
    (children.get(parent) ?? [])
      .sort((a, b) => a.order - b.order || a.sub - b.sub || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((n) => {
        const kids = build(n.key);
        return kids.length > 0 ? { ...n.page, pages: kids } : n.page;
      });
  return { tree: build(null), previous, orphans };
}

/** The keys of the loop `start` is part of, or null. */
function loopThrough(nodes: Map<string, { parent: string | null }>, start: string): string[] | null {
  const path = [start];
  for (let p = nodes.get(start)?.parent ?? null; p !== null; p = nodes.get(p)?.parent ?? null) {
    if (p === start) return path;
    if (path.includes(p) || path.length > nodes.size) return null;
    path.push(p);
  }
  return null;
}

/** The name main gives a page: its base name while its slug and parent stand, else its slug. */
function remoteNameOf(R: RemotePage, B: BasePage | undefined): string | null {
  return B && B.slug === R.slug && B.parentId === R.parentId ? B.name : R.slug;
}

/** Name of a page in main's own layout, for pages whose file keeps a local name. */
function remoteName(R: RemotePage, B: BasePage | undefined): string | null {
  if (B && B.slug === R.slug && B.parentId === R.parentId) return B.name;
  return planLayout([{ id: R.id, title: R.title, type: R.kind, ...(R.slug !== null ? { slug: R.slug } : {}) }]).pages.get(R.id)?.name ?? null;
}

/** The name a file gives its page: the file name without `.md`, or its folder's name for a README. */
function nameFromPath(path: string): string {
  const parts = path.split('/');
  const last = parts[parts.length - 1]!;
  if (/^readme\.md$/i.test(last) && parts.length > 1) return parts[parts.length - 2]!;
  return last.replace(/\.md$/i, '');
}

function alternativePath(target: string, id: string, occupied: Map<string, string>): string {
  const stem = target.replace(/\.md$/i, '');
  const short =
    id
      .replace(/[^A-Za-z0-9_]/g, '')
      .slice(0, 8)
      .toLowerCase() || 'page';
  let candidate = `${stem}-${short}.md`;
  for (let n = 2; occupied.has(candidate); n++) candidate = `${stem}-${short}-${n}.md`;
  return candidate;
}

function planPushes(
  input: PlanInput,
  pushedOpen: ReadonlyMap<string, PushedPage>,
  localById: Map<string, LocalPage>,
  newLocal: LocalPage[],
  decisions: Map<string, Decision>,
  moves: ReadonlyMap<string, PlannedMove>,
  finalPath: Map<string, string | null>,
): PushOp[] {
  const ops: PushOp[] = [];
  const { base, remote } = input;
  const assets = input.assets ?? [];
  if (assets.length > 0) ops.push({ op: 'files', assets: [...assets] });
  // A page can only go under a page the server has (or one created in the same push): a
  // file under a page the server deleted waits until that conflict is decided.
  const serverHas = (key: string | null): boolean => {
    if (key === null || isNewPageKey(key) || remote.has(key)) return true;
    const p = pushedOpen.get(key);
    return p !== undefined && !p.deleted;
  };

  for (const L of newLocal) {
    if (!serverHas(L.parentKey)) continue;
    ops.push({ op: 'insert', key: L.key, path: finalPath.get(L.key) ?? L.path, text: L.text, parentKey: L.parentKey, position: L.position, name: L.name });
  }
  for (const [id, L] of localById) {
    const d = decisions.get(id);
    if (!d || !hasFile(d) || d.held) continue;
    if (d.finalText === null) {
      // Takes the server's text unseen: unchanged here, so only a move could need pushing.
      if (moves.has(id)) throw new MissingBodyError(id);
      continue;
    }
    const p = pushedOpen.get(id);
    const R = remote.get(id);
    const restore = p?.deleted === true;
    const refText = p && !p.deleted ? p.text : (R?.text ?? base.get(id)?.text ?? null);
    const textChanged = restore || !samePageText(d.finalText, refText);
    const B = base.get(id);
    const placed = p && !p.deleted && (p.moved || !R) ? p : null;
    const refName = placed ? placed.name : R ? remoteNameOf(R, B) : (B?.name ?? null);
    const refParent = placed ? placed.parentId : R ? R.parentId : B ? B.parentId : null;
    const planned = moves.get(id);
    const mv = planned && serverHas(planned.parentKey) && (planned.parentKey !== refParent || planned.name !== refName) ? planned : undefined;
    if (!textChanged && !mv) continue;
    ops.push({
      op: 'update',
      id,
      path: finalPath.get(id) ?? L.path,
      text: textChanged ? d.finalText : null,
      record: d.finalText,
      move: mv && mv.parentKey !== refParent ? { parentKey: mv.parentKey, position: mv.position } : null,
      rename: mv && mv.name !== refName ? mv.name : null,
      restore,
      parentKey: mv ? mv.parentKey : refParent,
      name: mv ? mv.name : (refName ?? L.name),
    });
  }
  for (const [id, d] of decisions) {
    const p = pushedOpen.get(id);
    // A page a conflict holds: the change request takes main's version, so merging it
    // can never drop main's side while the writer decides.
    const R = remote.get(id);
    if (d.held && p && R && R.text !== null && (p.deleted || !samePageText(p.text, R.text))) {
      const B = base.get(id);
      const placed = !p.deleted && p.moved ? p : null;
      ops.push({
        op: 'update',
        id,
        path: localById.get(id)?.path ?? B?.path ?? p.path ?? '',
        text: R.text,
        record: R.text,
        move: null,
        rename: null,
        restore: p.deleted,
        parentKey: placed ? placed.parentId : R.parentId,
        name: (placed ? placed.name : remoteNameOf(R, B)) ?? R.slug ?? id,
      });
    }
    if (!d.pushDelete || p?.deleted) continue;
    ops.push({ op: 'delete', id, path: base.get(id)?.path ?? p?.path ?? null });
  }
  return ops;
}
