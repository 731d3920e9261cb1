/**
 * Emit: the decisions and the laid-out tree turned into what a cycle does, and what the mirror
 * remembers afterwards. Each step writes its part of the plan:
 *
 *   conflicts -> file operations -> changes for the change request (emit-changes.ts)
 *     -> main as last synced -> the folder's tree
 */
import { samePageText } from '../../content';
import { remoteCopyPath } from '../../naming';
import { keepsFile } from './decide';
import { planChanges, pushesDelete } from './emit-changes';
import { type FinalTree, finalTree } from './final';
import type { EmitInput } from './stages';
import { type BasePage, type BaseRow, type FileOp, type FolderRow, isNewPageKey, type NewConflict, type Plan, type PushedPage, type RemotePage } from './types';

const NONE: ReadonlyMap<string, PushedPage> = new Map();

export function emit(input: EmitInput): Plan {
  const plan = emptyPlan();
  plan.held = [...input.held];
  plan.summaryKept = input.summaryKept;
  const tree = finalTree(input);
  const remoteCopies = emitConflicts(input, plan, tree);
  emitFileOps(input, plan, tree, remoteCopies);
  const { pushed, waiting } = emitChanges(input, plan, tree);
  emitBase(input, plan);
  emitFolderTree(input, plan, tree, pushed, waiting);
  plan.clearPushed = input.view.changeRequest === 'merged' || input.view.changeRequest === 'closed';
  return plan;
}

export function emptyPlan(): Plan {
  return {
    massDelete: null,
    needBodies: [],
    fileOps: [],
    push: [],
    base: { upsert: [], remove: [] },
    folder: { upsert: [], remove: [], removeWhenPushed: [] },
    conflicts: { add: [], resolve: [], refresh: [], relocate: [] },
    clearPushed: false,
    pushedPaths: new Map(),
    treeChanged: false,
    held: [],
    summaryKept: null,
    stats: { pulled: 0, merged: 0, conflicts: 0, movedLocally: 0, deletedLocally: 0 },
  };
}

// ---- conflicts --------------------------------------------------------------------------

/** Conflicts resolved, moved with their file, new or refreshed; returns the server copies to write beside the files. */
function emitConflicts(input: EmitInput, plan: Plan, tree: FinalTree): FileOp[] {
  // Settled once its server copy is gone, when its file could be read (else it waits: what the
  // file holds is what the settling keeps).
  for (const c of input.view.conflicts)
    if (!c.remoteFilePresent && (c.pageId === null || input.decisions.get(c.pageId)?.kind !== 'unreadable')) plan.conflicts.resolve.push(c);
  // A conflicted page gone from both sides (its file deleted here, the page there): nothing is left to decide.
  for (const [key, d] of input.decisions) {
    const open = input.sides.get(key)?.conflict;
    if (open?.remoteFilePresent && (d.kind === 'gone' || d.kind === 'delete-file' || d.kind === 'push-delete')) plan.conflicts.resolve.push(open);
  }
  const copies: FileOp[] = [];
  for (const [key, d] of input.decisions) {
    if (d.kind !== 'held') continue;
    const s = input.sides.get(key)!;
    const open = s.conflict;
    if (open && s.local && s.local.path !== open.path) plan.conflicts.relocate.push({ from: open.path, to: s.local.path });
    if (d.conflict) {
      const path = conflictPath(input, tree, key);
      const c: NewConflict = { pageId: key, path, kind: d.conflict.kind, remotePath: remoteCopyPath(path), baseText: d.conflict.baseText };
      plan.conflicts.add.push(c);
      copies.push({ op: 'remote-copy', key, path: c.remotePath!, text: c.kind === 'deleted-remotely' ? null : (s.remoteText ?? '') });
    } else if (d.refresh && open) {
      plan.conflicts.refresh.push({ pageId: key, path: s.local?.path ?? open.path, kind: open.kind, remotePath: open.remotePath, baseText: null });
      if (open.remotePath) copies.push({ op: 'remote-copy', key, path: open.remotePath, text: s.remoteText ?? '' });
    }
  }
  plan.stats.conflicts = plan.conflicts.add.length;
  return copies;
}

/** The file a new conflict is about: the page's file, else where the page belongs. */
function conflictPath(input: EmitInput, tree: FinalTree, key: string): string {
  const local = input.sides.get(key)!.local;
  const path = local?.path ?? tree.path(key) ?? `${key}.md`;
  // A page deleted here: its server copy goes where the page belongs, whose path says which folder it owns.
  if (!local && path === 'README.md') {
    const laid = input.laid.get(key) ?? tree.nodeOf(key);
    if (laid?.name) return laid.folder ? `${laid.folder}/README.md` : `${laid.name}.md`;
  }
  return path;
}

// ---- file operations --------------------------------------------------------------------

/** File operations by kind, in the order they run: deletes free paths for moves, moves for writes. */
interface FileOps {
  deletes: FileOp[];
  moves: Extract<FileOp, { op: 'move' }>[];
  writes: Extract<FileOp, { op: 'write' }>[];
  /** By key: a file is written again for its links once, whoever asks. */
  relinks: Map<string, FileOp>;
}

function emitFileOps(input: EmitInput, plan: Plan, tree: FinalTree, remoteCopies: readonly FileOp[]): void {
  const ops: FileOps = { deletes: [], moves: [], writes: [], relinks: new Map() };
  decidedFileOps(input, plan, tree, ops);
  carriedMoves(input, ops);
  plan.stats.movedLocally = ops.moves.length;
  relinksToChangedTargets(input, tree, ops);
  plan.fileOps = [...ops.deletes, ...ops.moves, ...ops.writes, ...ops.relinks.values(), ...remoteCopies];
}

/** What each decision does to its page's file: delete, move, write (the server's or a merged text), or relink. */
function decidedFileOps(input: EmitInput, plan: Plan, tree: FinalTree, ops: FileOps): void {
  const { stats } = plan;
  for (const [key, d] of input.decisions) {
    const s = input.sides.get(key)!;
    const now = s.local?.path ?? null;
    const to = tree.path(key);
    if (d.kind === 'delete-file') {
      if (now) ops.deletes.push({ op: 'delete', key, path: now });
      continue;
    }
    if (d.kind !== 'text' && d.kind !== 'pull-unseen') continue;
    if (to === null) continue;
    if (now && now !== to) ops.moves.push(moveOp(input, key, now, to));
    if (d.kind === 'pull-unseen') {
      ops.writes.push({ op: 'write', key, path: to, text: null, fresh: now === null });
      stats.pulled++;
    } else if (d.change !== 'none' && (now === null || d.text !== s.local?.text)) {
      ops.writes.push({ op: 'write', key, path: to, text: d.text, fresh: now === null, ...(d.change === 'merged' ? { merged: true as const } : {}) });
      if (d.change === 'pulled') stats.pulled++;
      else stats.merged++;
    } else if (now && (now !== to || input.view.local.moved.has(key))) {
      // A file that moved (here or now) links from somewhere else: its links are written again.
      ops.relinks.set(key, { op: 'relink', key, path: to, text: d.text });
    }
  }
}

/** Pages that only move because the tree around them did (a folder renamed or moved). */
function carriedMoves(input: EmitInput, ops: FileOps): void {
  for (const [key, laid] of input.laid) {
    if (input.decisions.has(key) || laid.path === null) continue;
    const node = input.tree.node(key);
    if (!node?.path || node.path === laid.path) continue;
    ops.moves.push(moveOp(input, key, node.path, laid.path));
    const text = input.tree.text(key);
    if (text !== null) ops.relinks.set(key, { op: 'relink', key, path: laid.path, text });
  }
}

/** A move, saying why when that is not main (kept-paths.ts). */
function moveOp(input: EmitInput, key: string, from: string, to: string): FileOp & { op: 'move' } {
  const cause = input.laid.get(key)?.cause;
  return cause ? { op: 'move', key, from, to, cause } : { op: 'move', key, from, to };
}

/** Links to pages that moved, appeared or went away are written again in the files that hold them. */
function relinksToChangedTargets(input: EmitInput, tree: FinalTree, ops: FileOps): void {
  const changedTargets = [
    ...ops.moves.map((m) => m.key),
    ...input.view.local.moved.keys(),
    ...input.removed,
    ...[...input.decisions].filter(([k, d]) => !tree.nodeOf(k) && (d.kind === 'text' || d.kind === 'pull-unseen')).map(([k]) => k),
  ];
  const pageTargets = changedTargets.filter((k) => !isNewPageKey(k));
  if (pageTargets.length === 0) return;
  const written = new Set(ops.writes.map((w) => w.key));
  for (const key of input.tree.linking(pageTargets)) {
    if (written.has(key) || ops.relinks.has(key) || input.removed.has(key)) continue;
    const d = input.decisions.get(key);
    if (d && !(d.kind === 'text' && d.change === 'none')) continue;
    const text = d?.kind === 'text' ? d.text : input.tree.text(key);
    const path = tree.path(key);
    if (text !== null && path !== null) ops.relinks.set(key, { op: 'relink', key, path, text });
  }
}

// ---- changes for the change request -----------------------------------------------------

/** The pushes; returns the keys they push (their nodes stay pending until confirmed). */
function emitChanges(input: EmitInput, plan: Plan, tree: FinalTree): { pushed: Set<string>; waiting: ReadonlySet<string> } {
  const { push, waiting } = planChanges(input, tree);
  plan.push = push;
  plan.stats.deletedLocally = push.filter((p) => p.op === 'delete' && input.sides.get(p.id)?.base !== undefined).length;
  return { pushed: new Set(push.flatMap((op) => (op.op === 'insert' ? [op.key] : op.op === 'files' ? [] : [op.id]))), waiting };
}

// ---- main as last synced ------------------------------------------------------------------

/** Main's rows that changed (or that a conflict keeps), main's rows gone, and siblings main only reordered. */
function emitBase(input: EmitInput, plan: Plan): void {
  const { view } = input;
  const rows: BaseRow[] = [];
  for (const [key, s] of input.sides) {
    if (isNewPageKey(key)) continue;
    const R = s.remote;
    const B = s.base;
    if (R) {
      const text = R.kind === 'document' ? (s.remoteText ?? null) : null;
      const textChanged = R.kind === 'document' && (!B || s.remoteText === undefined || !samePageText(s.remoteText, s.baseText) || B.goneRemotely);
      if (B && sameRow(B, R) && !textChanged) continue;
      rows.push(baseRow(R, false, textChanged ? text : null, textChanged));
    } else if (B) {
      const d = input.decisions.get(key);
      if (d?.kind === 'held' && d.keepBase) {
        if (!B.goneRemotely) rows.push(baseRow(B, true, null, false));
      } else plan.base.remove.push(key);
    }
  }
  for (const parent of view.remote.reordered()) {
    for (const id of view.remote.children(parent)) {
      if (input.sides.has(id)) continue;
      const R = view.remote.page(id);
      const B = view.base.page(id);
      if (R && B && B.position !== R.position) rows.push(baseRow({ ...B, position: R.position }, B.goneRemotely, null, false));
    }
  }
  plan.base.upsert = rows;
}

/** Main's page as last synced is main's page now (its text apart). */
function sameRow(B: BasePage, R: RemotePage): boolean {
  return (
    !B.goneRemotely &&
    B.parentId === R.parentId &&
    B.position === R.position &&
    B.kind === R.kind &&
    B.title === R.title &&
    B.slug === R.slug &&
    B.href === R.href &&
    B.documentId === R.documentId &&
    B.updatedAt === R.updatedAt &&
    JSON.stringify(B.meta) === JSON.stringify(R.meta)
  );
}

/**
 * A row of main as last synced: the page's fields and what the row records, built field by field
 * (one shape for every row: a large pull holds tens of thousands).
 */
function baseRow(p: RemotePage, goneRemotely: boolean, text: string | null, textChanged: boolean): BaseRow {
  return {
    id: p.id,
    parentId: p.parentId,
    position: p.position,
    kind: p.kind,
    title: p.title,
    slug: p.slug,
    meta: p.meta,
    href: p.href,
    documentId: p.documentId,
    updatedAt: p.updatedAt,
    goneRemotely,
    text,
    textChanged,
  };
}

// ---- the folder's tree --------------------------------------------------------------------

/** The folder's tree after this cycle: nodes to write and to forget, whether SUMMARY.md changes, and new paths of pushed pages. */
function emitFolderTree(input: EmitInput, plan: Plan, tree: FinalTree, pushed: ReadonlySet<string>, waiting: ReadonlySet<string>): void {
  const rows = keptRows(input, tree, pushed, waiting);
  removedRows(input, plan, rows);
  plan.folder.upsert = [...rows.values()];
  const rekeyed = new Set(input.rekeyed.values());
  plan.treeChanged = plan.folder.remove.length > 0 || plan.folder.upsert.some((r) => rekeyed.has(r.key) || placeChanged(tree, r));
  pushedPaths(input, plan, tree);
}

/** A row for every node the plan looked at and keeps. */
function keptRows(input: EmitInput, tree: FinalTree, pushed: ReadonlySet<string>, waiting: ReadonlySet<string>): Map<string, FolderRow> {
  const { removed } = input;
  const rows = new Map<string, FolderRow>();
  const keys = new Set([...input.laid.keys(), ...input.placements.keys(), ...[...input.decisions.keys()].filter((k) => !removed.has(k))]);
  for (const key of keys) {
    if (removed.has(key)) continue;
    const d = input.decisions.get(key);
    const s = input.sides.get(key);
    // A document that keeps no file and is placed nowhere gets no row.
    if (
      d &&
      s &&
      !keepsFile(d, s.local !== undefined) &&
      d.kind !== 'held' &&
      (s.remote?.kind ?? s.base?.kind ?? 'document') === 'document' &&
      !input.placements.has(key)
    )
      continue;
    const row = folderRow(input, tree, key, pushed, waiting);
    if (row) rows.set(key, row);
  }
  return rows;
}

/** A node after this cycle: its place (laid out, else placed, else as it was) and what its file holds. */
function folderRow(input: EmitInput, tree: FinalTree, key: string, pushed: ReadonlySet<string>, waiting: ReadonlySet<string>): FolderRow | null {
  const { view } = input;
  const node = tree.nodeOf(key);
  const p = input.placements.get(key);
  const laid = input.laid.get(key);
  const d = input.decisions.get(key);
  const s = input.sides.get(key);
  if (!node && !p) return null;
  const kind = p?.kind ?? node!.kind;
  let holds: FolderRow['holds'] = 'unchanged';
  if (d?.kind === 'text') holds = { text: d.text };
  else if (d?.kind === 'pull-unseen') holds = 'remote';
  else if (d?.kind === 'held') holds = d.text !== null ? { text: d.text } : 'none';
  else if (kind !== 'document') holds = 'none';
  else if (s && !s.local && d?.kind !== 'unreadable') holds = 'none';
  const placedLocally = p ? p.placedLocally && !(view.changeRequest === 'merged' && view.pushed.get(key)?.moved) : node!.placedLocally;
  return {
    key,
    kind,
    parentKey: laid ? laid.parentKey : p ? p.parentKey : node!.parentKey,
    position: laid ? laid.position : (node?.position ?? 0),
    title: p ? p.title : node!.title,
    name: laid ? laid.name : node ? node.name : (p?.slug ?? null),
    path: laid ? laid.path : (s?.local?.path ?? node?.path ?? null),
    folder: laid ? laid.folder : (node?.folder ?? null),
    href: p?.href ?? node?.href ?? null,
    placedLocally,
    pathKept: laid ? laid.kept === true : (node?.pathKept ?? false),
    // A new page that could not go in yet (its parent is not on the server) is looked at again.
    pending: pushed.has(key) || waiting.has(key) || (isNewPageKey(key) && d?.kind === 'text'),
    holds,
  };
}

/**
 * Nodes gone this cycle. A page deleted here stays in the tree, without a file, until its delete
 * is pushed (a delete that has to wait, or whose push fails, is planned again next cycle) — also
 * one whose delete has to go again into a new change request.
 */
function removedRows(input: EmitInput, plan: Plan, rows: Map<string, FolderRow>): void {
  const { view } = input;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  for (const key of input.removed) {
    const node = view.folder.node(key);
    if (pushesDelete(input.decisions.get(key)) && (node || !pushedOpen.get(key)?.deleted)) {
      const s = input.sides.get(key);
      const shape = node ?? {
        key,
        kind: 'document' as const,
        parentKey: null,
        position: 0,
        title: s?.base?.title ?? s?.remote?.title ?? key,
        href: null,
        placedLocally: false,
        pathKept: false,
      };
      rows.set(key, { ...shape, name: null, path: null, folder: null, pending: true, pathKept: false, holds: 'none' });
      plan.folder.removeWhenPushed.push(key);
    } else if (node) plan.folder.remove.push(key);
  }
}

/** The row is new, or placed, named or titled otherwise than its node (SUMMARY.md is written again). */
function placeChanged(tree: FinalTree, r: FolderRow): boolean {
  const n = tree.nodeOf(r.key);
  return (
    !n ||
    n.parentKey !== r.parentKey ||
    n.position !== r.position ||
    n.title !== r.title ||
    n.name !== r.name ||
    n.path !== r.path ||
    n.kind !== r.kind ||
    n.href !== r.href
  );
}

/** Pages only the open change request has, whose file moves: the change request learns their new path. */
function pushedPaths(input: EmitInput, plan: Plan, tree: FinalTree): void {
  const { view } = input;
  if (view.changeRequest !== 'open') return;
  for (const [key, p] of view.pushed) {
    const path = tree.path(key);
    if (!p.deleted && !view.base.page(key) && path && path !== p.path && input.laid.has(key)) plan.pushedPaths.set(key, path);
  }
}
