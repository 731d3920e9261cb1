/**
 * Which files a cycle may move (lay-out.ts asks, for each file the layout would put elsewhere).
 * A page's file moves only:
 *
 * - for main (`main`): main moved or renamed the page, or a page above it whose folder moves;
 *   gave it children or took them (`x.md` becomes `x/README.md`, or back); made another page the
 *   space's first (`README.md`); or a name it had freed up or clashed;
 * - for the layout (`layout`): the folder is laid out anew, once (Quire's naming changed, or the
 *   volume's rules), a file the writer placed excepted;
 * - when the writer asks (`asked`: `quire sync --gitbook-path`).
 *
 * Any other file stays where it is: one the writer created, moved or placed in SUMMARY.md, and
 * one whose page only follows such a change (a page the writer nested another under keeps
 * `x.md`). So does a folder holding files of the writer's (notes, images, a `.git`) with the
 * pages in it, and a page's file that would only follow a move out of it: such a folder is never
 * emptied of its pages, unless the writer asked (a page main itself moves still goes). A file
 * kept off the layout's path is a path deviation the mirror keeps (`pathKept`), listed by
 * `quire status` with GitBook's path (deviations.ts).
 */
import { nameKey, PORTABLE_NAMES } from '../../naming';
import type { Laid, LayOutInput, Paths } from './stages';
import { isNewPageKey } from './types';

export type MoveCause = 'main' | 'layout' | 'asked';

export interface FileMoves {
  /** Why the page's file may move this cycle; null: it stays where it is. */
  cause(key: string): MoveCause | null;
  /** Main moved or renamed the page itself (not only a page above it, or its children). */
  movedByMain(key: string): boolean;
  /** Moving from folder `from` into folder `to` would leave other files than pages behind in a folder it leaves. */
  leavesOthers(from: string, to: string): boolean;
}

const dirOf = (path: string): string => {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
};

/**
 * `input`: the lay-out's input, and its result as far as it got (asked as the folders are laid out);
 * `parentOf`: a page's parent after this cycle (laid out, else placed, else as it was).
 */
export function fileMoves(input: LayOutInput & Paths, parentOf: (key: string) => string | null): FileMoves {
  const { view } = input;
  const nodeOf = (key: string) => input.tree.node(key);

  /** Main changed the page's place since the last sync (not the writer's own change request, merged). */
  const byMain = (key: string): boolean => {
    const p = input.placements.get(key);
    const R = view.remote.page(key);
    if (!p || p.placedLocally || !R) return false;
    const node = nodeOf(key);
    if (!node) return !isNewPageKey(key);
    const P = view.changeRequest === 'merged' ? view.pushed.get(key) : undefined;
    if (P?.moved && !P.deleted && P.parentId === R.parentId) return false;
    const B = view.base.page(key);
    if (!B) return R.parentId !== node.parentKey;
    return R.parentId !== B.parentId || R.slug !== B.slug || R.kind !== B.kind || (R.slug === null && R.title !== B.title);
  };
  const goneOnMain = (key: string): boolean => {
    const s = input.sides.get(key);
    return input.removed.has(key) && s?.base !== undefined && s.remote === undefined;
  };
  const changedOnMain = (key: string): boolean => byMain(key) || goneOnMain(key);

  /** Main gave the page children or took some (what turns `x.md` into `x/README.md`, or back). */
  const childrenByMain = (key: string): boolean => {
    const before = input.tree.children(key);
    const after = input.order.get(key);
    if (!after) return false;
    const was = new Set(before);
    const is = new Set(after);
    return [...before.filter((c) => !is.has(c)), ...after.filter((c) => !was.has(c))].some(changedOnMain);
  };
  const firstByMain = (key: string): boolean => {
    const { before, after } = input.firstPage;
    if (before === after || (key !== before && key !== after)) return false;
    if ((before !== null && changedOnMain(before)) || (after !== null && changedOnMain(after))) return true;
    for (const _ of view.remote.reordered()) return true;
    return false;
  };
  const folderMoves = (key: string): boolean => {
    const laid = input.laid.get(key);
    const before = nodeOf(key)?.folder ?? null;
    return laid !== undefined && before !== null && laid.folder !== before;
  };

  const causes = new Map<string, MoveCause | null>();
  const cause = (key: string, depth = 0): MoveCause | null => {
    const known = causes.get(key);
    if (known !== undefined) return known;
    let why: MoveCause | null = null;
    const node = nodeOf(key);
    const parent = parentOf(key);
    if (input.options.toGitbook?.has(key)) why = 'asked';
    else if (byMain(key) || childrenByMain(key) || firstByMain(key)) why = 'main';
    else if (parent !== null && depth < 256 && folderMoves(parent)) why = cause(parent, depth + 1);
    if (why === null && input.options.relayout && node && !node.pathKept) why = 'layout';
    const laid = input.laid.get(key);
    if (why === null && node && laid && laid.name !== node.name && !input.placements.get(key)?.movedNow && !node.pathKept) why = 'main';
    causes.set(key, why);
    return why;
  };

  const holds = new Map<string, boolean>();
  const holdsOthers = (dir: string): boolean => {
    let known = holds.get(dir);
    if (known === undefined) {
      known = view.folder.holdsOthers?.(dir) ?? false;
      holds.set(dir, known);
    }
    return known;
  };

  return {
    cause: (key) => cause(key),
    movedByMain: byMain,
    leavesOthers(from, to) {
      for (let d = from; d !== ''; d = dirOf(d)) {
        if (to === d || to.startsWith(`${d}/`)) return false;
        if (holdsOthers(d)) return true;
      }
      return false;
    },
  };
}

export function keepFiles(input: LayOutInput, laid: ReadonlyMap<string, Laid>, moves: FileMoves): void {
  const nowOf = (key: string): string | null => {
    const s = input.sides.get(key);
    return s ? (s.local?.path ?? null) : (input.tree.node(key)?.path ?? null);
  };
  for (const [key, l] of laid) {
    if (l.path === null) continue;
    const now = nowOf(key);
    if (now === null || now === l.path) {
      l.kept ??= false;
      continue;
    }
    const why = moves.cause(key);
    // (A page main moved goes; one that would only follow leaves no folder without its pages.)
    if (why === 'asked' || (why !== null && (moves.movedByMain(key) || !moves.leavesOthers(dirOf(now), dirOf(l.path))))) {
      if (why !== 'main') l.cause = why;
      l.kept = false;
      continue;
    }
    l.path = now;
    l.kept = true;
  }
}

/** A path wanted by a page but held by a file that stays gets `<name>-<short key>.md` instead. */
export function avoidStayingFiles(input: LayOutInput, laidOut: Map<string, Laid>): void {
  const { view, removed } = input;
  const finalPath = (key: string): string | null | undefined => {
    if (removed.has(key)) return undefined;
    const laid = laidOut.get(key);
    if (laid) return laid.path;
    return input.sides.get(key)?.local?.path ?? input.tree.node(key)?.path;
  };
  const blocked = new Set(view.local.unreadable.map((u) => u.path));
  // Paths compared as the volume compares them.
  const rules = input.options.names ?? PORTABLE_NAMES;
  const keyOf = (path: string): string => nameKey(path, rules);
  const claimed = new Map<string, string>();
  const now = (key: string) => input.sides.get(key)?.local?.path ?? input.tree.node(key)?.path ?? null;
  for (const [key, laid] of laidOut) if (laid.path !== null && now(key) === laid.path) claimed.set(keyOf(laid.path), key);
  for (const [key, laid] of laidOut) {
    if (laid.path === null || now(key) === laid.path) continue;
    const occupant = input.tree.byPath(laid.path);
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
      const holder = claimed.get(keyOf(path)) ?? input.tree.byPath(path);
      return blocked.has(path) || (holder !== undefined && holder !== key);
    };
    for (let n = 2; taken(candidate); n++) candidate = `${stem}-${short}-${n}.md`;
    // Only the file moves aside: the page keeps its name (and the folder it owns).
    laid.path = candidate;
    claimed.set(keyOf(candidate), key);
  }
}
