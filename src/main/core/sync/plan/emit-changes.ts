/**
 * Emit's changes: what the change request must receive so that main with it applied says what the
 * folder says — texts, places (parent, order among siblings, name) and deletes.
 *
 * A place is sent when it changes here: a page the writer moved, renamed or reordered goes
 * right after the sibling it follows here (among those the server has). Moves are sent parents
 * first and, within a folder, in the folder's order, so each lands after a sibling already in
 * place. Pages main places are never pushed back: the folder follows main for them.
 */
import { samePageText } from '../../content';
import { isNameFor } from '../../naming';
import type { Decision } from './decide';
import type { FinalTree } from './final';
import type { EmitInput } from './stages';
import { isNewPageKey, type PushOp, type PushedPage } from './types';

const NONE: ReadonlyMap<string, PushedPage> = new Map();

export const pushesDelete = (d: Decision | undefined): boolean =>
  d !== undefined && (d.kind === 'push-delete' || ((d.kind === 'gone' || d.kind === 'delete-file') && d.pushDelete));

/** Where a page is sent: under this parent, after this sibling (null: first); `last`: nothing after it there. */
type Place = { parentKey: string | null; after: string | null; last: boolean };

/** What the server will have once this push is applied, as the steps ask about it. */
interface ServerAfterPush {
  /** What the open change request holds (nothing when none is open). */
  pushedOpen: ReadonlyMap<string, PushedPage>;
  /** A conflict holds the page (or its file cannot be read): it is not moved. */
  held(key: string): boolean;
  /** A new page that goes in with this push. */
  inserted(key: string): boolean;
  /** The page a new page goes under is on the server, or goes in too. */
  hasParent(key: string | null): boolean;
  onServer(key: string): boolean;
  placedLocally(key: string): boolean;
  /** True when no sibling the server will have comes after the page here. */
  lastOnServer(key: string): boolean;
  /** The sibling a page follows among those the server will have there (null: first). */
  afterOnServer(key: string): string | null;
}

export function planChanges(input: EmitInput, tree: FinalTree): { push: PushOp[]; waiting: Set<string> } {
  const server = serverAfterPush(input, tree);
  const { places, waiting } = placesToSend(input, tree, server);
  const ops = opsPerPage(input, tree, server, places);
  const push = inOrder(input, tree, ops, deletesToSend(input, tree));
  deferBlockedDeletes(input, push);
  return { push, waiting };
}

function serverAfterPush(input: EmitInput, tree: FinalTree): ServerAfterPush {
  const { view } = input;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  const held = (key: string) =>
    input.placements.get(key)?.held === true || input.decisions.get(key)?.kind === 'held' || input.decisions.get(key)?.kind === 'unreadable';

  // New pages go in when the page they go under is on the server, or goes in too.
  const insertable = new Map<string, boolean>();
  const inserted = (key: string): boolean => {
    const known = insertable.get(key);
    if (known !== undefined) return known;
    insertable.set(key, false);
    const d = input.decisions.get(key);
    const ok = isNewPageKey(key) && d?.kind === 'text' && tree.path(key) !== null && hasParent(tree.parent(key));
    insertable.set(key, ok);
    return ok;
  };
  const hasParent = (key: string | null): boolean => {
    if (key === null) return true;
    if (isNewPageKey(key)) return inserted(key);
    if (view.remote.page(key)) return true;
    const p = pushedOpen.get(key);
    return p !== undefined && !p.deleted;
  };
  /** On the server once this push is applied (in main or the request, inserted or brought back now). */
  const onServer = (key: string): boolean => {
    if (isNewPageKey(key)) return inserted(key);
    const d = input.decisions.get(key);
    if (pushesDelete(d)) return false;
    const P = pushedOpen.get(key);
    const R = view.remote.page(key) !== undefined;
    if (P?.deleted) return d !== undefined && (d.kind === 'text' || d.kind === 'pull-unseen' || d.kind === 'held') && (R || d.kind !== 'held');
    if (P) return true; // the request holds it (moved, edited, or a page main no longer has)
    return R;
  };
  /** Where the change request (or main) has a page now. */
  const requestParent = (key: string): string | null | undefined => {
    const P = pushedOpen.get(key);
    if (P && !P.deleted && P.moved) return P.parentId;
    const R = view.remote.page(key);
    return R ? R.parentId : undefined;
  };
  /** Under `parent` on the server once this push is applied (held pages do not move). */
  const underOnServer = (key: string, parent: string | null): boolean => {
    if (!onServer(key)) return false;
    if (isNewPageKey(key) || requestParent(key) === parent) return true;
    return !held(key);
  };
  const placedLocally = (key: string) => input.placements.get(key)?.placedLocally ?? tree.nodeOf(key)?.placedLocally ?? false;

  /** True when no sibling the server will have comes after the page here. */
  const lastOnServer = (key: string): boolean => {
    const parent = tree.parent(key);
    const list = tree.siblings(parent);
    for (let i = list.indexOf(key) + 1; i < list.length; i++) if (underOnServer(list[i]!, parent)) return false;
    return true;
  };
  /** The sibling a page follows among those the server will have there (null: first). */
  const afterOnServer = (key: string): string | null => {
    const parent = tree.parent(key);
    const list = tree.siblings(parent);
    for (let i = list.indexOf(key) - 1; i >= 0; i--) if (underOnServer(list[i]!, parent)) return list[i]!;
    return null;
  };

  return { pushedOpen, held, inserted, hasParent, onServer, placedLocally, lastOnServer, afterOnServer };
}

/**
 * Places to send: a page is placed when the writer moved or reordered it this cycle (or its
 * parent went away), or when the change request holds no place for a page the writer placed
 * (say its push failed, or the request it went into was closed). Returns them, and the pages
 * that wait for their parent to be on the server.
 */
function placesToSend(input: EmitInput, tree: FinalTree, server: ServerAfterPush): { places: Map<string, Place>; waiting: Set<string> } {
  const { held, onServer, hasParent, afterOnServer, lastOnServer, pushedOpen } = server;
  const waiting = new Set<string>();
  const place = new Map<string, Place>();
  // A held page does not move, unless the page it was under goes away (its delete would take it along).
  const orphaned = (key: string) => {
    const parent = tree.nodeOf(key)?.parentKey ?? null;
    return parent !== null && input.removed.has(parent);
  };
  for (const [key, p] of input.placements) {
    if (input.removed.has(key) || (held(key) && !orphaned(key)) || !p.placedLocally || !onServer(key)) continue;
    const P = pushedOpen.get(key);
    const parentKey = tree.parent(key);
    const recorded = P !== undefined && !P.deleted && P.moved && P.ordered && P.parentId === parentKey;
    if (p.movedNow || !recorded) {
      // Its parent is not on the server yet: it waits (and stays in scope) until it is.
      if (parentKey !== null && !hasParent(parentKey)) {
        waiting.add(key);
        continue;
      }
      place.set(key, { parentKey, after: afterOnServer(key), last: lastOnServer(key) });
    }
  }
  return { places: place, waiting };
}

/** One operation per page: inserts, texts (with the page's place when it changed), and pages that only move or are retitled. */
function opsPerPage(input: EmitInput, tree: FinalTree, server: ServerAfterPush, place: ReadonlyMap<string, Place>): Map<string, PushOp> {
  const { inserted, afterOnServer, lastOnServer, pushedOpen } = server;
  const placeOp = (key: string, text: string | null, restore: boolean, current: string | null) =>
    placeOpFor(input, tree, server, place, key, text, restore, current);
  const ops = new Map<string, PushOp>();
  for (const [key, d] of input.decisions) {
    if (isNewPageKey(key)) {
      if (!inserted(key) || d.kind !== 'text') continue;
      const at = place.get(key) ?? { parentKey: tree.parent(key), after: afterOnServer(key), last: lastOnServer(key) };
      ops.set(key, {
        op: 'insert',
        key,
        path: tree.path(key)!,
        text: d.text,
        parentKey: at.parentKey,
        after: at.after,
        last: at.last,
        name: tree.name(key) ?? key,
        ...titleOfNew(input, key),
      });
      continue;
    }
    const s = input.sides.get(key)!;
    const P = pushedOpen.get(key);
    const R = s.remote;
    // Groups and links have no text: only their place and title are ever pushed.
    if ((R?.kind ?? s.base?.kind ?? tree.nodeOf(key)?.kind ?? 'document') !== 'document') continue;
    // A page a conflict holds gets nothing for its text: the change request keeps what the writer
    // pushed (main's side is beside the file) until the writer settles it.
    if (d.kind === 'text' || d.kind === 'pull-unseen') {
      const restore = P?.deleted === true;
      const ref = P && !P.deleted && P.text !== null ? P.text : R ? (s.remoteText ?? s.baseText) : s.baseText;
      const textChanged = restore || (d.kind === 'text' && !samePageText(d.text, ref));
      const op = placeOp(key, textChanged && d.kind === 'text' ? d.text : null, restore, d.kind === 'text' ? d.text : null);
      if (op) ops.set(key, op);
    }
  }
  // Pages that only move (a folder around them reordered, a parent going away) or are retitled.
  // The change request keeps the text it holds: the file's, unless a conflict holds the page
  // (its file is not what the change request holds: main's text stays there until settled).
  for (const key of new Set([...place.keys(), ...input.retitled.keys()])) {
    if (ops.has(key) || isNewPageKey(key) || input.removed.has(key)) continue;
    const op = placeOp(key, null, false, server.held(key) ? null : input.tree.text(key));
    if (op) ops.set(key, op);
  }
  return ops;
}

/** A new page's title where its text carries none: the one the writer typed in SUMMARY.md. */
function titleOfNew(input: EmitInput, key: string): { title?: string } {
  const title = input.retitled.get(key);
  return title !== undefined ? { title } : {};
}

/** An update for a page: its text, its place, its name and its title, as far as they change (null: nothing to send). */
function placeOpFor(
  input: EmitInput,
  tree: FinalTree,
  { pushedOpen, placedLocally, held }: ServerAfterPush,
  place: ReadonlyMap<string, Place>,
  key: string,
  text: string | null,
  restore: boolean,
  current: string | null,
): PushOp | null {
  const { view } = input;
  const P = pushedOpen.get(key);
  const R = view.remote.page(key);
  const byRequest = P && !P.deleted && P.moved ? P : null;
  const move = place.get(key) ?? null;
  const name = tree.name(key);
  let rename: string | null = null;
  if (name !== null && placedLocally(key) && !held(key)) {
    const parent = tree.parent(key);
    const dir = parent === null ? '' : (input.laid.get(parent)?.folder ?? tree.nodeOf(parent)?.folder ?? '');
    if (byRequest) rename = name !== byRequest.name ? name : null;
    else if (R && !isNameFor(name, { id: key, slug: R.slug, title: R.title }, dir, input.options.names)) rename = name;
  }
  const title = input.retitled.get(key) ?? null;
  if (text === null && !restore && !move && !rename && title === null) return null;
  const parentKey = move ? move.parentKey : byRequest ? byRequest.parentId : R ? R.parentId : tree.parent(key);
  const after = move ? move.after : byRequest?.ordered ? byRequest.after : null;
  return {
    op: 'update',
    id: key,
    path: tree.path(key) ?? input.sides.get(key)?.local?.path ?? '',
    text,
    record: text ?? byRequest?.text ?? (P && !P.deleted ? P.text : null) ?? current,
    move,
    rename,
    title,
    restore,
    parentKey,
    after,
    name: rename ?? name ?? key,
  };
}

/**
 * Deletes: a page main has goes only when a file that stood for it went away (decide.ts): never
 * a group or a link, never a page no file stands for. Children first: a parent's delete takes
 * its subpages along, and the server refuses a delete of one already gone.
 */
function deletesToSend(input: EmitInput, tree: FinalTree): PushOp[] {
  const { view } = input;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  const deletes: PushOp[] = [];
  for (const [key, d] of input.decisions) {
    if (isNewPageKey(key) || !pushesDelete(d)) continue;
    const s = input.sides.get(key)!;
    const P = pushedOpen.get(key);
    if (P?.deleted || !(s.base || s.remote || P) || (s.remote && !s.fileGone)) continue;
    deletes.push({ op: 'delete', id: key, path: s.base ? (tree.nodeOf(key)?.path ?? null) : (P?.path ?? null) });
  }
  const depth = new Map(deletes.map((op) => [op, op.op === 'delete' ? serverDepth(input, op.id) : 0] as const));
  deletes.sort((a, b) => depth.get(b)! - depth.get(a)!);
  return deletes;
}

/** The files first, then pages placed — parents first and, within a folder, in its order —, then the other updates, then deletes. */
function inOrder(input: EmitInput, tree: FinalTree, ops: ReadonlyMap<string, PushOp>, deletes: readonly PushOp[]): PushOp[] {
  const { view } = input;
  const placed = [...ops.values()].filter((op) => op.op === 'insert' || (op.op === 'update' && op.move));
  const rank = (op: PushOp): [number, number] => {
    const key = op.op === 'insert' ? op.key : op.op === 'update' ? op.id : '';
    const parent = tree.parent(key);
    return [tree.depth(parent), tree.siblings(parent).indexOf(key)];
  };
  placed.sort((a, b) => {
    const [da, ia] = rank(a);
    const [db, ib] = rank(b);
    return da - db || ia - ib;
  });
  const others = [...ops.values()].filter((op) => !placed.includes(op));
  const out: PushOp[] = [];
  if (view.local.assets.length > 0) out.push({ op: 'files', assets: [...view.local.assets] });
  out.push(...placed, ...others, ...deletes);
  return out;
}

/** How deep a page is on the server (main's tree now, else as last synced, else in the change request); 0 at the top. */
function serverDepth({ view }: EmitInput, id: string): number {
  const parentOf = (k: string): string | null => view.remote.page(k)?.parentId ?? view.base.page(k)?.parentId ?? view.pushed.get(k)?.parentId ?? null;
  let d = 0;
  for (let p = parentOf(id); p !== null && d < 10_000; p = parentOf(p)) d++;
  return d;
}

/**
 * `delete_page` takes the page's subpages with it. A delete waits while a page that must stay
 * (held by a conflict, or anything not deleted nor moved out in this push) is still under it.
 */
function deferBlockedDeletes(input: EmitInput, push: PushOp[]): void {
  const deletes = new Set(push.flatMap((op) => (op.op === 'delete' ? [op.id] : [])));
  if (deletes.size === 0) return;
  const { view } = input;
  const pushedOpen = view.changeRequest === 'open' ? view.pushed : NONE;
  const movedOut = new Set(push.flatMap((op) => (op.op === 'update' && op.move ? [op.id] : [])));
  const stays = (id: string): boolean => !deletes.has(id) && !movedOut.has(id) && !pushedOpen.get(id)?.deleted;
  // Children on the server: main's, and those the change request placed there.
  const requestChildren = new Map<string, string[]>();
  // (A page main does not have is in the request where it was sent, moved or not.)
  for (const p of pushedOpen.values())
    if (!p.deleted && (p.moved || !view.remote.page(p.id)) && p.parentId !== null)
      requestChildren.set(p.parentId, [...(requestChildren.get(p.parentId) ?? []), p.id]);
  const serverChildren = (id: string): string[] => [
    ...view.remote.children(id).filter((k) => {
      const p = pushedOpen.get(k);
      return !(p && !p.deleted && p.moved && p.parentId !== id);
    }),
    ...(requestChildren.get(id) ?? []),
  ];
  const blocked = new Set<string>();
  for (const id of deletes) {
    const stack = serverChildren(id);
    for (let n = 0; stack.length > 0 && n < 100_000; n++) {
      const k = stack.pop()!;
      if (stays(k)) {
        blocked.add(id);
        break;
      }
      if (!movedOut.has(k)) stack.push(...serverChildren(k));
    }
  }
  for (let i = push.length - 1; i >= 0; i--) {
    const op = push[i]!;
    if (op.op === 'delete' && blocked.has(op.id)) push.splice(i, 1);
  }
}
