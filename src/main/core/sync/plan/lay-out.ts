/**
 * Lay out: the order, names and paths of the folders this cycle touched (core/naming's rules,
 * one folder at a time). A folder is laid out again when a page arrives in it, leaves it, is
 * renamed or retitled there, or main reordered it; a page whose folder moved takes its subtree
 * along. Every other folder keeps the order, names and paths it had.
 *
 * Order among siblings: the pages main places keep main's order; each page the writer placed
 * goes right after the sibling it follows in the folder (SUMMARY.md order); the writer's file at
 * the space's README.md stays first.
 *
 * A file that stays is never displaced: a page laid out onto a path a staying file holds gets
 * another name. Which files may move at all is kept-paths.ts's to say: only main, a layout
 * laid out anew or the writer's asking moves a file; one the writer placed keeps its path, and
 * its name (a page of main asking for it takes another).
 */
import { type FolderKind, type NameInput, nameFolder, placeOf, README_FILE } from '../../naming';
import { type FileMoves, fileMoves, keepFiles, avoidStayingFiles } from './kept-paths';
import type { Laid, LayOutInput, Paths } from './stages';
import type { PageKind } from './types';

/** What the steps of laying out share: the stage's input, and its result as they build it. */
interface LayingOut {
  input: LayOutInput;
  /** The pages placed into each folder this cycle. */
  into: Map<string | null, string[]>;
  /** Folders laid out again (a folder whose place moves joins, with its subtree). */
  affected: Set<string | null>;
  laid: Map<string, Laid>;
  order: Map<string | null, string[]>;
  firstPage: { before: string | null; after: string | null };
}

export function layOut(input: LayOutInput): Paths {
  const st: LayingOut = { input, into: placedInto(input), affected: new Set(), laid: new Map(), order: new Map(), firstPage: { before: null, after: null } };
  affectedFolders(st);
  const relay = settleFirstPage(st);
  const moves = fileMoves({ ...input, laid: st.laid, order: st.order, firstPage: st.firstPage }, (key) => {
    const laid = st.laid.get(key);
    return laid ? laid.parentKey : parentOf(st, key);
  });
  layFolders(st, moves);
  for (const k of relay) if (!st.laid.has(k)) relayOwner(st, k);
  keepFiles(input, st.laid, moves);
  avoidStayingFiles(input, st.laid);
  return { laid: st.laid, order: st.order, firstPage: st.firstPage };
}

const nodeOf = (st: LayingOut, key: string) => st.input.tree.node(key);
const inTree = ({ input }: LayingOut, key: string): boolean => !input.removed.has(key) && (input.placements.has(key) || input.tree.node(key) !== undefined);
function parentOf({ input }: LayingOut, key: string): string | null {
  const p = input.placements.get(key);
  return p ? p.parentKey : (input.tree.node(key)?.parentKey ?? null);
}
const kindOf = (st: LayingOut, key: string): PageKind => st.input.placements.get(key)?.kind ?? nodeOf(st, key)?.kind ?? 'document';
const placedLocally = (st: LayingOut, key: string): boolean => st.input.placements.get(key)?.placedLocally ?? nodeOf(st, key)?.placedLocally ?? false;
const pathNow = (st: LayingOut, key: string): string | null => st.input.sides.get(key)?.local?.path ?? nodeOf(st, key)?.path ?? null;
const sortKey = (st: LayingOut, key: string): string => pathNow(st, key) ?? `~${key}`;
const hasChildren = (st: LayingOut, key: string): boolean => (st.affected.has(key) ? childrenOf(st, key).length > 0 : st.input.tree.children(key).length > 0);

/** The pages placed into each folder. */
function placedInto(input: LayOutInput): Map<string | null, string[]> {
  const into = new Map<string | null, string[]>();
  for (const p of input.placements.values()) {
    const siblings = into.get(p.parentKey);
    if (siblings) siblings.push(p.key);
    else into.set(p.parentKey, [p.key]);
  }
  return into;
}

/** Folders to lay out again: those a page arrives in or leaves, is renamed or retitled in, main or SUMMARY.md reordered. */
function affectedFolders(st: LayingOut): void {
  const { input, affected } = st;
  const { view, options, tree, removed } = input;
  if (options.full) {
    affected.add(null);
    for (const key of tree.keys()) if (inTree(st, key)) affected.add(key);
    for (const key of input.placements.keys()) affected.add(key);
  }
  for (const p of input.placements.values()) {
    const node = nodeOf(st, p.key);
    const s = input.sides.get(p.key);
    const B = s?.base;
    const R = s?.remote;
    const renamed = R !== undefined && (B === undefined || R.slug !== B.slug || R.title !== B.title || R.kind !== B.kind || R.href !== B.href);
    if (!node || node.parentKey !== p.parentKey || p.movedNow || renamed || node.placedLocally !== p.placedLocally) {
      affected.add(p.parentKey);
      if (node) affected.add(node.parentKey);
    }
  }
  for (const key of removed) {
    const node = tree.node(key);
    if (node) affected.add(node.parentKey);
  }
  for (const key of options.toGitbook ?? []) if (inTree(st, key)) affected.add(parentOf(st, key));
  // A folder gaining or losing pages may turn its owner's `x.md` into `x/README.md` (or back),
  // which may let it take (or make it give up) a name `README.md` or `SUMMARY.md` refuses.
  for (const f of [...affected]) if (f !== null && inTree(st, f)) affected.add(parentOf(st, f));
  for (const parent of view.remote.reordered()) if (parent === null || inTree(st, parent)) affected.add(parent);
  for (const parent of input.summaryOrder.keys()) if (parent === null || inTree(st, parent)) affected.add(parent);
  for (const f of [...affected]) if (f !== null && !inTree(st, f)) affected.delete(f);
}

/**
 * A folder's children in their order after this cycle: main's order for the pages main places,
 * each page the writer placed right after the sibling it follows in the folder (SUMMARY.md's
 * order where the writer set it), the writer's file at the space's README.md first.
 */
function childrenOf(st: LayingOut, f: string | null): string[] {
  const { input, order } = st;
  const { view, tree, removed, rekeyed, placements } = input;
  const known = order.get(f);
  if (known) return known;
  const before = tree.children(f).filter((k) => !removed.has(k) && !rekeyed.has(k));
  if (!st.affected.has(f)) return before;
  const members = new Set(before.filter((k) => !placements.has(k) || placements.get(k)!.parentKey === f));
  const arrivals = (st.into.get(f) ?? []).filter((k) => !members.has(k));
  arrivals.sort((a, b) => sortKey(st, a).localeCompare(sortKey(st, b)));
  for (const k of arrivals) members.add(k);
  let localSeq = [...before.filter((k) => members.has(k)), ...arrivals];
  const listed = input.summaryOrder.get(f);
  if (listed) {
    const inList = new Set(listed);
    localSeq = [...listed.filter((k) => members.has(k)), ...localSeq.filter((k) => !inList.has(k))];
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const id of f === null || !f.startsWith('new:') ? view.remote.children(f) : []) {
    if (members.has(id) && !placedLocally(st, id) && !seen.has(id)) {
      out.push(id);
      seen.add(id);
    }
  }
  for (const k of localSeq) {
    if (placedLocally(st, k) || seen.has(k)) continue;
    out.push(k);
    seen.add(k);
  }
  localSeq.forEach((k, i) => {
    if (seen.has(k)) return;
    let at = 0;
    if (f === null && pathNow(st, k) === README_FILE) at = 0;
    else {
      for (let j = i - 1; j >= 0; j--) {
        const found = out.indexOf(localSeq[j]!);
        if (found >= 0) {
          at = found + 1;
          break;
        }
      }
    }
    out.splice(at, 0, k);
    seen.add(k);
  });
  order.set(f, out);
  return out;
}

/**
 * The space's first page (README.md): the first document, entering groups only. When another
 * page becomes first, both pages' folders are laid out again; returns the two pages, placed
 * again once the folders are laid out.
 */
function settleFirstPage(st: LayingOut): Set<string> {
  const firstIn = (f: string | null, depth = 0): string | null => {
    for (const k of childrenOf(st, f)) {
      const kind = kindOf(st, k);
      if (kind === 'document') return k;
      if (kind === 'group' && depth < 64) {
        const inside = firstIn(k, depth + 1);
        if (inside !== null) return inside;
      }
    }
    return null;
  };
  const before = st.input.tree.byPath(README_FILE) ?? null;
  st.firstPage.before = before;
  const after = firstIn(null);
  st.firstPage.after = after;
  const relay = new Set<string>();
  if (before !== after) {
    for (const k of [before, after]) {
      if (k === null || !inTree(st, k)) continue;
      st.affected.add(parentOf(st, k));
      relay.add(k);
    }
  }
  return relay;
}

function depthOf(st: LayingOut, f: string | null): number {
  let n = 0;
  for (let p = f; p !== null && n < 512; p = parentOf(st, p)) n++;
  return n;
}

/** The folder a node's children are in (laid out this cycle, else as it was). */
function dirOf(st: LayingOut, f: string | null): string {
  if (f === null) return '';
  const laid = st.laid.get(f);
  if (laid) return laid.folder ?? joinPath(dirOf(st, laid.parentKey), laid.name ?? '');
  const node = nodeOf(st, f);
  if (node?.folder) return node.folder;
  return joinPath(dirOf(st, node?.parentKey ?? null), node?.name ?? '');
}

/** Names and paths, top down: each affected folder, then the folders of its pages whose folder moved. */
function layFolders(st: LayingOut, moves: FileMoves): void {
  const queue = new ShallowestFirst((f) => depthOf(st, f));
  for (const f of st.affected) queue.add(f);
  const done = new Set<string | null>();
  for (let f = queue.take(); f !== undefined; f = queue.take()) {
    if (done.has(f)) continue;
    done.add(f);
    // The folder's owner may turn `x.md` into `x/README.md` (or back): place it again first.
    if (f !== null && !st.laid.has(f)) relayOwner(st, f);
    for (const k of layFolder(st, f, moves)) {
      st.affected.add(k);
      queue.add(k);
    }
  }
}

/** One folder's children named and placed; returns those whose own folder moves (laid out next). */
function layFolder(st: LayingOut, f: string | null, moves: FileMoves): string[] {
  const { input } = st;
  const { view, tree, placements, options } = input;
  const after = st.firstPage.after;
  const dir = dirOf(st, f);
  const children = childrenOf(st, f);
  const inputs: NameInput[] = children.map((k) => {
    const p = placements.get(k);
    const node = nodeOf(st, k);
    // A page this cycle did not place asks for what it asked for before: main's slug, or (placed by the writer) its file's name.
    const slug = p ? p.slug : node && !node.placedLocally ? (view.remote.page(k)?.slug ?? node.name) : (node?.name ?? null);
    return { id: k, kind: kindOf(st, k), slug, title: p?.title ?? node?.title ?? '', hasChildren: hasChildren(st, k), isFirstPage: k === after };
  });
  const holds: FolderKind = f === null ? 'root' : kindOf(st, f) === 'group' ? 'group' : 'page';
  const names = nameFolder(
    dir,
    inputs,
    (k) => {
      // A file the writer placed here this cycle keeps the name it has.
      const p = placements.get(k);
      if (p?.movedNow && p.parentKey === f && input.sides.get(k)?.local) return p.slug;
      const node = nodeOf(st, k);
      return node && node.parentKey === f ? node.name : null;
    },
    { ...(options.names ? { rules: options.names } : {}), holds },
  );
  const next: string[] = [];
  children.forEach((k, position) => {
    const node = nodeOf(st, k);
    const name = names.get(k) ?? null;
    const held = placements.get(k)?.held === true;
    const where = placeOf(dir, name, kindOf(st, k), hasChildren(st, k), k === after);
    const laid: Laid = held ? heldPlace(st, k, f, position, name, where) : { parentKey: f, position, name, path: where.file, folder: where.folder };
    st.laid.set(k, laid);
    const folderBefore = node?.folder ?? null;
    if (!held && folderBefore !== null && laid.folder !== null && laid.folder !== folderBefore) keepFolder(st, moves, k, laid, folderBefore);
    if (laid.folder !== folderBefore && (hasChildren(st, k) || (node && tree.children(k).length > 0))) next.push(k);
  });
  return next;
}

/**
 * A held page stays where its file is, and what the layout puts under it goes into the folder
 * its file is actually in (`x/README.md` owns `x`; `x.md` would own `x`).
 */
function heldPlace(
  st: LayingOut,
  key: string,
  parent: string | null,
  position: number,
  name: string | null,
  where: { file: string | null; folder: string | null },
): Laid {
  const file = st.input.sides.get(key)?.local?.path ?? null;
  const path = file ?? pathNow(st, key) ?? where.file;
  const kept = file !== null && file !== where.file;
  // Without a file here (deleted here, edited there), it is where the layout puts it.
  if (file === null || path === README_FILE || where.folder === null) return { parentKey: parent, position, name, path, folder: where.folder, kept };
  const folder = /\/README\.md$/i.test(file) ? file.slice(0, -'/README.md'.length) : file.replace(/\.md$/i, '');
  return { parentKey: parent, position, name, path: file, folder, kept };
}

/**
 * A page's folder the layout would move: it stays where it is unless main moved it (or the
 * writer asked), and whatever moved it, while it holds other files than pages. The page's own
 * `README.md` there stays with it; the pages below are laid out inside it.
 */
function keepFolder(st: LayingOut, moves: FileMoves, key: string, laid: Laid, before: string): void {
  const why = moves.cause(key);
  const file = st.input.sides.get(key)?.local?.path ?? nodeOf(st, key)?.path ?? null;
  const readmeDir = file !== null && /\/README\.md$/i.test(file) ? file.slice(0, -'/README.md'.length) : null;
  const here = readmeDir ?? before;
  if (why === 'asked' || (why !== null && !moves.leavesOthers(before, laid.folder!))) {
    if (why !== 'main') laid.cause = why;
    return;
  }
  laid.folder = here;
  if (readmeDir !== null) laid.path = file;
  laid.kept = true;
}

function relayOwner(st: LayingOut, key: string): void {
  const node = nodeOf(st, key);
  if (!node) return;
  const parentDir = dirOf(st, node.parentKey);
  const where = placeOf(parentDir, node.name, node.kind, hasChildren(st, key), key === st.firstPage.after);
  const held = st.input.placements.get(key)?.held === true;
  if (!held && where.file === node.path && where.folder === node.folder) return;
  st.laid.set(
    key,
    held
      ? heldPlace(st, key, node.parentKey, node.position, node.name, where)
      : { parentKey: node.parentKey, position: node.position, name: node.name, path: where.file, folder: where.folder },
  );
}

const joinPath = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/**
 * Folders to lay out (null: the space's root), the shallowest first, in the order they came
 * within a depth. One list per depth: keeping one list sorted cost a scan of it per folder added
 * (seconds for a pull into thousands of folders).
 */
class ShallowestFirst {
  private readonly levels: (string | null)[][] = [];
  /** Per depth, how many of its folders were taken. */
  private readonly taken: number[] = [];
  private lowest = 0;

  constructor(private readonly depthOf: (f: string | null) => number) {}

  add(f: string | null): void {
    const depth = this.depthOf(f);
    const level = this.levels[depth];
    if (level) level.push(f);
    else this.levels[depth] = [f];
    this.taken[depth] ??= 0;
    this.lowest = Math.min(this.lowest, depth);
  }

  /** The next folder; undefined when none is left. */
  take(): string | null | undefined {
    for (; this.lowest < this.levels.length; this.lowest++) {
      const level = this.levels[this.lowest];
      if (level !== undefined && this.taken[this.lowest]! < level.length) return level[this.taken[this.lowest]!++];
    }
    return undefined;
  }
}
