/**
 * Emit: the decisions and the laid-out tree turned into what a cycle does — conflicts, file
 * operations, changes for the change request (changes.ts) — and what the mirror remembers
 * afterwards (main's rows, the folder's tree).
 */
import { samePageText } from '../../content';
import { remoteCopyPath } from './layout';
import { planChanges, pushesDelete } from './changes';
import type { PlanContext } from './context';
import { keepsFile } from './decide';
import { finalTree } from './final';
import { isNewPageKey, type BaseRow, type FileOp, type FolderRow, type NewConflict, type PushedPage, type RemotePage } from './types';

const NONE: ReadonlyMap<string, PushedPage> = new Map();

export function emit(ctx: PlanContext): void {
  const { view, plan, removed } = ctx;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  const tree = finalTree(ctx);
  const { nodeOf } = tree;
  const finalPath = tree.path;
  const rekeyedFrom = new Map([...ctx.rekeyed].map(([from, to]) => [to, from]));

  // ---- conflicts ------------------------------------------------------------------------
  for (const c of view.conflicts) if (!c.remoteFilePresent) plan.conflicts.resolve.push(c);
  // A conflicted page gone from both sides (its file deleted here, the page there): nothing is left to decide.
  for (const [key, d] of ctx.decisions) {
    const open = ctx.sides.get(key)?.conflict;
    if (open?.remoteFilePresent && (d.kind === 'gone' || d.kind === 'delete-file' || d.kind === 'push-delete')) plan.conflicts.resolve.push(open);
  }
  const copies: { key: string; path: string; text: string | null }[] = [];
  for (const [key, d] of ctx.decisions) {
    if (d.kind !== 'held') continue;
    const s = ctx.sides.get(key)!;
    const open = s.conflict;
    if (open && s.local && s.local.path !== open.path) plan.conflicts.relocate.push({ from: open.path, to: s.local.path });
    if (d.conflict) {
      let path = s.local?.path ?? finalPath(key) ?? `${key}.md`;
      // A page deleted here: its server copy goes where the page belongs, whose path says which folder it owns.
      if (!s.local && path === 'README.md') {
        const laid = ctx.laid.get(key) ?? nodeOf(key);
        if (laid?.name) path = laid.folder ? `${laid.folder}/README.md` : `${laid.name}.md`;
      }
      const c: NewConflict = { pageId: key, path, kind: d.conflict.kind, remotePath: remoteCopyPath(path), baseText: d.conflict.baseText };
      plan.conflicts.add.push(c);
      copies.push({ key, path: c.remotePath!, text: c.kind === 'deleted-remotely' ? null : (s.remoteText ?? '') });
    } else if (d.refresh && open) {
      plan.conflicts.refresh.push({ pageId: key, path: s.local?.path ?? open.path, kind: open.kind, remotePath: open.remotePath, baseText: null });
      if (open.remotePath) copies.push({ key, path: open.remotePath, text: s.remoteText ?? '' });
    }
  }
  plan.stats.conflicts = plan.conflicts.add.length;

  // ---- file operations ------------------------------------------------------------------
  const deletes: FileOp[] = [];
  const moves: FileOp[] = [];
  const writes: FileOp[] = [];
  const relinks = new Map<string, FileOp>();
  const written = new Set<string>();
  const movedIds = new Set<string>();
  for (const [key, d] of ctx.decisions) {
    const s = ctx.sides.get(key)!;
    const now = s.local?.path ?? null;
    const to = finalPath(key);
    if (d.kind === 'delete-file') {
      if (now) deletes.push({ op: 'delete', key, path: now });
      continue;
    }
    if (d.kind !== 'text' && d.kind !== 'pull-unseen') continue;
    if (to === null) continue;
    if (now && now !== to) {
      moves.push({ op: 'move', key, from: now, to });
      movedIds.add(key);
    }
    if (d.kind === 'pull-unseen') {
      writes.push({ op: 'write', key, path: to, text: null, fresh: now === null });
      written.add(key);
      plan.stats.pulled++;
    } else if (d.change !== 'none' && (now === null || d.text !== s.local?.text)) {
      writes.push({ op: 'write', key, path: to, text: d.text, fresh: now === null });
      written.add(key);
      if (d.change === 'pulled') plan.stats.pulled++;
      else plan.stats.merged++;
    } else if (now && (now !== to || view.local.moved.has(key))) {
      // A file that moved (here or now) links from somewhere else: its links are written again.
      relinks.set(key, { op: 'relink', key, path: to, text: d.text });
    }
  }
  // Pages that only move because the tree around them did.
  for (const [key, laid] of ctx.laid) {
    if (ctx.decisions.has(key) || laid.path === null) continue;
    const node = ctx.tree.node(key);
    if (!node?.path || node.path === laid.path) continue;
    moves.push({ op: 'move', key, from: node.path, to: laid.path });
    movedIds.add(key);
    const text = ctx.tree.text(key);
    if (text !== null) relinks.set(key, { op: 'relink', key, path: laid.path, text });
  }
  plan.stats.movedLocally = moves.length;
  // Links to pages that moved, appeared or went away are written again in the files that hold them.
  const changedTargets = [
    ...movedIds,
    ...view.local.moved.keys(),
    ...removed,
    ...[...ctx.decisions].filter(([k, d]) => !nodeOf(k) && (d.kind === 'text' || d.kind === 'pull-unseen')).map(([k]) => k),
  ];
  const pageTargets = changedTargets.filter((k) => !isNewPageKey(k));
  if (pageTargets.length > 0) {
    for (const key of ctx.tree.linking(pageTargets)) {
      if (written.has(key) || relinks.has(key) || removed.has(key)) continue;
      const d = ctx.decisions.get(key);
      if (d && !(d.kind === 'text' && d.change === 'none')) continue;
      const text = d?.kind === 'text' ? d.text : ctx.tree.text(key);
      const path = finalPath(key);
      if (text !== null && path !== null) relinks.set(key, { op: 'relink', key, path, text });
    }
  }
  const remoteCopies: FileOp[] = copies.map((c) => ({ op: 'remote-copy', key: c.key, path: c.path, text: c.text }));
  plan.fileOps = [...deletes, ...moves, ...writes, ...relinks.values(), ...remoteCopies];

  // ---- changes for the change request ----------------------------------------------------
  const push = planChanges(ctx, tree);
  plan.push = push;
  const pushed = new Set(push.flatMap((op) => (op.op === 'insert' ? [op.key] : op.op === 'files' ? [] : [op.id])));
  plan.stats.deletedLocally = push.filter((p) => p.op === 'delete' && ctx.sides.get(p.id)?.base !== undefined).length;

  // ---- main as last synced ------------------------------------------------------------
  const baseRows: BaseRow[] = [];
  for (const [key, s] of ctx.sides) {
    if (isNewPageKey(key)) continue;
    const R = s.remote;
    const B = s.base;
    const d = ctx.decisions.get(key);
    if (R) {
      const text = R.kind === 'document' ? (s.remoteText ?? null) : null;
      const textChanged = R.kind === 'document' && (!B || s.remoteText === undefined || !samePageText(s.remoteText, s.baseText) || B.goneRemotely);
      const same =
        B !== undefined &&
        !B.goneRemotely &&
        B.parentId === R.parentId &&
        B.position === R.position &&
        B.kind === R.kind &&
        B.title === R.title &&
        B.slug === R.slug &&
        B.href === R.href &&
        B.documentId === R.documentId &&
        B.updatedAt === R.updatedAt &&
        JSON.stringify(B.meta) === JSON.stringify(R.meta);
      if (same && !textChanged) continue;
      baseRows.push(baseRow(R, false, textChanged ? text : null, textChanged));
    } else if (B) {
      if (d?.kind === 'held' && d.keepBase) {
        if (!B.goneRemotely) baseRows.push(baseRow(B, true, null, false));
      } else plan.base.remove.push(key);
    }
  }
  for (const parent of view.remote.reordered()) {
    for (const id of view.remote.children(parent)) {
      if (ctx.sides.has(id)) continue;
      const R = view.remote.page(id);
      const B = view.base.page(id);
      if (R && B && B.position !== R.position) baseRows.push(baseRow({ ...B, position: R.position }, B.goneRemotely, null, false));
    }
  }
  plan.base.upsert = baseRows;

  // ---- the folder's tree ----------------------------------------------------------------
  const rows = new Map<string, FolderRow>();
  const rowFor = (key: string): FolderRow | null => {
    const node = nodeOf(key);
    const p = ctx.placements.get(key);
    const laid = ctx.laid.get(key);
    const d = ctx.decisions.get(key);
    const s = ctx.sides.get(key);
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
      // A new page that could not go in yet (its parent is not on the server) is looked at again.
      pending: pushed.has(key) || ctx.waiting.has(key) || (isNewPageKey(key) && d?.kind === 'text'),
      holds,
    };
  };
  const keys = new Set([...ctx.laid.keys(), ...ctx.placements.keys(), ...[...ctx.decisions.keys()].filter((k) => !removed.has(k))]);
  for (const key of keys) {
    if (removed.has(key)) continue;
    const d = ctx.decisions.get(key);
    const s = ctx.sides.get(key);
    if (
      d &&
      s &&
      !keepsFile(d, s.local !== undefined) &&
      d.kind !== 'held' &&
      (s.remote?.kind ?? s.base?.kind ?? 'document') === 'document' &&
      !ctx.placements.has(key)
    )
      continue;
    const row = rowFor(key);
    if (row) rows.set(key, row);
  }
  // A page deleted here stays in the tree, without a file, until its delete is pushed (a delete
  // that has to wait, or whose push fails, is planned again next cycle) — also one whose
  // delete has to go again into a new change request.
  for (const key of removed) {
    const node = view.folder.node(key);
    if (pushesDelete(ctx.decisions.get(key)) && (node || !pushedOpen.get(key)?.deleted)) {
      const s = ctx.sides.get(key);
      const shape = node ?? {
        key,
        kind: 'document' as const,
        parentKey: null,
        position: 0,
        title: s?.base?.title ?? s?.remote?.title ?? key,
        href: null,
        placedLocally: false,
      };
      rows.set(key, { ...shape, name: null, path: null, folder: null, pending: true, holds: 'none' });
      plan.folder.removeWhenPushed.push(key);
    } else if (node) plan.folder.remove.push(key);
  }
  plan.folder.upsert = [...rows.values()];
  plan.treeChanged =
    plan.folder.remove.length > 0 ||
    plan.folder.upsert.some((r) => {
      const n = nodeOf(r.key);
      return (
        !n ||
        rekeyedFrom.has(r.key) ||
        n.parentKey !== r.parentKey ||
        n.position !== r.position ||
        n.title !== r.title ||
        n.name !== r.name ||
        n.path !== r.path ||
        n.kind !== r.kind ||
        n.href !== r.href
      );
    });
  for (const [key, p] of pushedOpen) {
    const path = finalPath(key);
    if (!p.deleted && !view.base.page(key) && path && path !== p.path && ctx.laid.has(key)) plan.pushedPaths.set(key, path);
  }
  plan.clearPushed = view.changeRequest === 'merged' || view.changeRequest === 'closed';
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
