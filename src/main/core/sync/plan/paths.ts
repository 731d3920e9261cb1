/**
 * Lay out: the order, names and paths of the folders this cycle touched (layout.ts's rules,
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
import { type FileMoves, fileMoves } from './kept-paths';
import { type FolderKind, nameFolder, placeOf, type NameInput } from '../../naming';
import { nameKey, PORTABLE_NAMES } from '../../naming';
import type { Laid, PlanContext } from './context';
import type { PageKind } from './types';

const README = 'README.md';

export function layOut(ctx: PlanContext): void {
  const { view, removed } = ctx;
  const nodeOf = (key: string) => ctx.tree.node(key);
  const inTree = (key: string) => !removed.has(key) && (ctx.placements.has(key) || ctx.tree.node(key) !== undefined);
  const parentOf = (key: string): string | null => {
    const p = ctx.placements.get(key);
    return p ? p.parentKey : (ctx.tree.node(key)?.parentKey ?? null);
  };
  const kindOf = (key: string): PageKind => ctx.placements.get(key)?.kind ?? nodeOf(key)?.kind ?? 'document';
  const placedLocally = (key: string): boolean => ctx.placements.get(key)?.placedLocally ?? nodeOf(key)?.placedLocally ?? false;

  const into = new Map<string | null, string[]>();
  for (const p of ctx.placements.values()) {
    const siblings = into.get(p.parentKey);
    if (siblings) siblings.push(p.key);
    else into.set(p.parentKey, [p.key]);
  }

  // Folders to lay out again.
  const affected = new Set<string | null>();
  if (ctx.options.full) {
    affected.add(null);
    for (const key of ctx.tree.keys()) if (inTree(key)) affected.add(key);
    for (const key of ctx.placements.keys()) affected.add(key);
  }
  for (const p of ctx.placements.values()) {
    const node = nodeOf(p.key);
    const s = ctx.sides.get(p.key);
    const B = s?.base;
    const R = s?.remote;
    const renamed = R !== undefined && (B === undefined || R.slug !== B.slug || R.title !== B.title || R.kind !== B.kind || R.href !== B.href);
    if (!node || node.parentKey !== p.parentKey || p.movedNow || renamed || node.placedLocally !== p.placedLocally) {
      affected.add(p.parentKey);
      if (node) affected.add(node.parentKey);
    }
  }
  for (const key of removed) {
    const node = ctx.tree.node(key);
    if (node) affected.add(node.parentKey);
  }
  for (const key of ctx.options.toGitbook ?? []) if (inTree(key)) affected.add(parentOf(key));
  // A folder gaining or losing pages may turn its owner's `x.md` into `x/README.md` (or back),
  // which may let it take (or make it give up) a name `README.md` or `SUMMARY.md` refuses.
  for (const f of [...affected]) if (f !== null && inTree(f)) affected.add(parentOf(f));
  for (const parent of view.remote.reordered()) if (parent === null || inTree(parent)) affected.add(parent);
  for (const parent of ctx.summaryOrder.keys()) if (parent === null || inTree(parent)) affected.add(parent);
  for (const f of [...affected]) if (f !== null && !inTree(f)) affected.delete(f);

  // Order.
  const ordered = ctx.order;
  const childrenOf = (f: string | null): string[] => {
    const known = ordered.get(f);
    if (known) return known;
    const before = ctx.tree.children(f).filter((k) => !removed.has(k) && !ctx.rekeyed.has(k));
    if (!affected.has(f)) return before;
    const members = new Set(before.filter((k) => !ctx.placements.has(k) || ctx.placements.get(k)!.parentKey === f));
    const arrivals = (into.get(f) ?? []).filter((k) => !members.has(k));
    arrivals.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    for (const k of arrivals) members.add(k);
    let localSeq = [...before.filter((k) => members.has(k)), ...arrivals];
    const listed = ctx.summaryOrder.get(f);
    if (listed) {
      const inList = new Set(listed);
      localSeq = [...listed.filter((k) => members.has(k)), ...localSeq.filter((k) => !inList.has(k))];
    }
    const out: string[] = [];
    const seen = new Set<string>();
    for (const id of f === null || !f.startsWith('new:') ? view.remote.children(f) : []) {
      if (members.has(id) && !placedLocally(id) && !seen.has(id)) {
        out.push(id);
        seen.add(id);
      }
    }
    for (const k of localSeq) {
      if (placedLocally(k) || seen.has(k)) continue;
      out.push(k);
      seen.add(k);
    }
    localSeq.forEach((k, i) => {
      if (seen.has(k)) return;
      let at = 0;
      if (f === null && pathNow(k) === README) at = 0;
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
    ordered.set(f, out);
    return out;
  };
  const sortKey = (key: string): string => pathNow(key) ?? `~${key}`;
  const pathNow = (key: string): string | null => ctx.sides.get(key)?.local?.path ?? nodeOf(key)?.path ?? null;
  const hasChildren = (key: string): boolean => (affected.has(key) ? childrenOf(key).length > 0 : ctx.tree.children(key).length > 0);

  // The space's first page (README.md): the first document, entering groups only.
  const firstIn = (f: string | null, depth = 0): string | null => {
    for (const k of childrenOf(f)) {
      const kind = kindOf(k);
      if (kind === 'document') return k;
      if (kind === 'group' && depth < 64) {
        const inside = firstIn(k, depth + 1);
        if (inside !== null) return inside;
      }
    }
    return null;
  };
  const before = ctx.tree.byPath(README) ?? null;
  ctx.firstPage.before = before;
  const after = firstIn(null);
  ctx.firstPage.after = after;
  const relay = new Set<string>();
  if (before !== after) {
    for (const k of [before, after]) {
      if (k === null || !inTree(k)) continue;
      affected.add(parentOf(k));
      relay.add(k);
    }
  }

  // Names and paths, top down.
  const depthOf = (f: string | null): number => {
    let n = 0;
    for (let p = f; p !== null && n < 512; p = parentOf(p)) n++;
    return n;
  };
  const dirOf = (f: string | null): string => {
    if (f === null) return '';
    const laid = ctx.laid.get(f);
    if (laid) return laid.folder ?? joinPath(dirOf(laid.parentKey), laid.name ?? '');
    const node = nodeOf(f);
    if (node?.folder) return node.folder;
    return joinPath(dirOf(node?.parentKey ?? null), node?.name ?? '');
  };
  const moves = fileMoves(ctx, (key) => {
    const laid = ctx.laid.get(key);
    return laid ? laid.parentKey : parentOf(key);
  });
  const queue = new ShallowestFirst(depthOf);
  for (const f of affected) queue.add(f);
  const done = new Set<string | null>();
  for (let f = queue.take(); f !== undefined; f = queue.take()) {
    if (done.has(f)) continue;
    done.add(f);
    // The folder's owner may turn `x.md` into `x/README.md` (or back): place it again first.
    if (f !== null && !ctx.laid.has(f)) relayOwner(f);
    const dir = dirOf(f);
    const children = childrenOf(f);
    const inputs: NameInput[] = children.map((k) => {
      const p = ctx.placements.get(k);
      const node = nodeOf(k);
      // A page this cycle did not place asks for what it asked for before: main's slug, or (placed by the writer) its file's name.
      const slug = p ? p.slug : node && !node.placedLocally ? (view.remote.page(k)?.slug ?? node.name) : (node?.name ?? null);
      return { id: k, kind: kindOf(k), slug, title: p?.title ?? node?.title ?? '', hasChildren: hasChildren(k), isFirstPage: k === after };
    });
    const holds: FolderKind = f === null ? 'root' : kindOf(f) === 'group' ? 'group' : 'page';
    const names = nameFolder(
      dir,
      inputs,
      (k) => {
        // A file the writer placed here this cycle keeps the name it has.
        const p = ctx.placements.get(k);
        if (p?.movedNow && p.parentKey === f && ctx.sides.get(k)?.local) return p.slug;
        const node = nodeOf(k);
        return node && node.parentKey === f ? node.name : null;
      },
      { ...(ctx.options.names ? { rules: ctx.options.names } : {}), holds },
    );
    children.forEach((k, position) => {
      const node = nodeOf(k);
      const name = names.get(k) ?? null;
      const held = ctx.placements.get(k)?.held === true;
      const where = placeOf(dir, name, kindOf(k), hasChildren(k), k === after);
      const laid: Laid = held ? heldPlace(k, f, position, name, where) : { parentKey: f, position, name, path: where.file, folder: where.folder };
      ctx.laid.set(k, laid);
      const folderBefore = node?.folder ?? null;
      if (!held && folderBefore !== null && laid.folder !== null && laid.folder !== folderBefore) keepFolder(k, laid, folderBefore);
      if (laid.folder !== folderBefore && (hasChildren(k) || (node && ctx.tree.children(k).length > 0))) {
        affected.add(k);
        queue.add(k);
      }
    });
  }
  for (const k of relay) if (!ctx.laid.has(k)) relayOwner(k);

  /**
   * A held page stays where its file is, and what the layout puts under it goes into the folder
   * its file is actually in (`x/README.md` owns `x`; `x.md` would own `x`).
   */
  function heldPlace(key: string, parent: string | null, position: number, name: string | null, where: { file: string | null; folder: string | null }): Laid {
    const file = ctx.sides.get(key)?.local?.path ?? null;
    const path = file ?? pathNow(key) ?? where.file;
    const kept = file !== null && file !== where.file;
    // Without a file here (deleted here, edited there), it is where the layout puts it.
    if (file === null || path === README || where.folder === null) return { parentKey: parent, position, name, path, folder: where.folder, kept };
    const folder = /\/README\.md$/i.test(file) ? file.slice(0, -'/README.md'.length) : file.replace(/\.md$/i, '');
    return { parentKey: parent, position, name, path: file, folder, kept };
  }

  /**
   * A page's folder the layout would move: it stays where it is unless main moved it (or the
   * writer asked), and whatever moved it, while it holds other files than pages. The page's own
   * `README.md` there stays with it; the pages below are laid out inside it.
   */
  function keepFolder(key: string, laid: Laid, before: string): void {
    const why = moves.cause(key);
    const file = ctx.sides.get(key)?.local?.path ?? nodeOf(key)?.path ?? null;
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

  function relayOwner(key: string): void {
    const node = nodeOf(key);
    if (!node) return;
    const parentDir = dirOf(node.parentKey);
    const where = placeOf(parentDir, node.name, node.kind, hasChildren(key), key === after);
    const held = ctx.placements.get(key)?.held === true;
    if (!held && where.file === node.path && where.folder === node.folder) return;
    ctx.laid.set(
      key,
      held
        ? heldPlace(key, node.parentKey, node.position, node.name, where)
        : { parentKey: node.parentKey, position: node.position, name: node.name, path: where.file, folder: where.folder },
    );
  }

  keepFiles(ctx, moves);
  avoidStayingFiles(ctx, removed);
}

/**
 * Files the layout would move that stay where they are (kept-paths.ts): laid out at their path,
 * marked kept. The others move, saying why when that is not main.
 */
function keepFiles(ctx: PlanContext, moves: FileMoves): void {
  const nowOf = (key: string): string | null => {
    const s = ctx.sides.get(key);
    return s ? (s.local?.path ?? null) : (ctx.tree.node(key)?.path ?? null);
  };
  for (const [key, laid] of ctx.laid) {
    if (laid.path === null) continue;
    const now = nowOf(key);
    if (now === null || now === laid.path) {
      laid.kept ??= false;
      continue;
    }
    const why = moves.cause(key);
    // (A page main moved goes; one that would only follow leaves no folder without its pages.)
    if (why === 'asked' || (why !== null && (moves.movedByMain(key) || !moves.leavesOthers(folderOf(now), folderOf(laid.path))))) {
      if (why !== 'main') laid.cause = why;
      laid.kept = false;
      continue;
    }
    laid.path = now;
    laid.kept = true;
  }
}

const joinPath = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);
/** The folder a file is in ('' for the space folder). */
const folderOf = (path: string): string => {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
};

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

/** A path wanted by a page but held by a file that stays gets `<name>-<short key>.md` instead. */
function avoidStayingFiles(ctx: PlanContext, removed: ReadonlySet<string>): void {
  const { view } = ctx;
  const finalPath = (key: string): string | null | undefined => {
    if (removed.has(key)) return undefined;
    const laid = ctx.laid.get(key);
    if (laid) return laid.path;
    return ctx.sides.get(key)?.local?.path ?? ctx.tree.node(key)?.path;
  };
  const blocked = new Set(view.local.unreadable.map((u) => u.path));
  // Paths compared as the volume compares them.
  const rules = ctx.options.names ?? PORTABLE_NAMES;
  const keyOf = (path: string): string => nameKey(path, rules);
  const claimed = new Map<string, string>();
  const now = (key: string) => ctx.sides.get(key)?.local?.path ?? ctx.tree.node(key)?.path ?? null;
  for (const [key, laid] of ctx.laid) if (laid.path !== null && now(key) === laid.path) claimed.set(keyOf(laid.path), key);
  for (const [key, laid] of ctx.laid) {
    if (laid.path === null || now(key) === laid.path) continue;
    const occupant = ctx.tree.byPath(laid.path);
    const occupied =
      blocked.has(laid.path) ||
      (occupant !== undefined && occupant !== key && !removed.has(occupant) && finalPath(occupant) === laid.path) ||
      (claimed.has(keyOf(laid.path)) && claimed.get(keyOf(laid.path)) !== key);
    if (!occupied) {
      claimed.set(keyOf(laid.path), key);
      continue;
    }
    const stem = laid.path.replace(/\.md$/i, '');
    const short =
      key
        .replace(/[^A-Za-z0-9_]/g, '')
        .slice(0, 8)
        .toLowerCase() || 'page';
    let candidate = `${stem}-${short}.md`;
    const taken = (path: string) => {
      const holder = claimed.get(keyOf(path)) ?? ctx.tree.byPath(path);
      return blocked.has(path) || (holder !== undefined && holder !== key);
    };
    for (let n = 2; taken(candidate); n++) candidate = `${stem}-${short}-${n}.md`;
    // Only the file moves aside: the page keeps its name (and the folder it owns).
    laid.path = candidate;
    claimed.set(keyOf(candidate), key);
  }
}
