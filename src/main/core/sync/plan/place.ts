/**
 * Place: where each page in scope goes in the folder's tree this cycle.
 *
 * - A page the writer moved, renamed or created this cycle goes where its file now is (under
 *   the page that owns its folder) and keeps the name its file has; it is pushed as a move.
 * - A page the writer placed earlier, which main has not caught up with, stays where it is.
 * - Every other page goes where main has it (the server's tree places it).
 * - A page a conflict holds (or whose file cannot be read) stays where its file is; moved there
 *   by the writer while held, it takes that place, pushed once the conflict is settled.
 * - A page whose parent is gone (deleted on either side) moves up to the nearest one that stays;
 *   a move here and a move there that would make a loop is cut at the page main placed.
 *
 * A page's title is the one its file carries after this cycle (its `# heading`, else its
 * frontmatter `title:`), else the one the writer typed for it in SUMMARY.md, else main's, else
 * its file name: SUMMARY.md lists a new page by its title at once, not when it is merged.
 *
 * Folder ownership, as a writer sees it: `<dir>/README.md` is the page of folder `<dir>`; any
 * other file belongs to the page of its folder — the page whose README is there, else the page
 * that owned that folder (groups, the first page), else the page of the folder above.
 */
import { pageTitleOf } from '../../content';
import { nameFromPath, README_FILE } from '../../naming';
import { type Decision, keepsFile, type PageSides } from './decide';
import type { PlaceInput, Placement, Placements } from './stages';
import { readSummaryIntent, sameTitle } from './summary-intent';
import type { FolderNode, Held, SpaceView } from './types';

const dirOf = (path: string): string => {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
};

/** The stage's result, as its steps build it. */
interface Placing {
  placements: Map<string, Placement>;
  removed: Set<string>;
  retitled: Map<string, string>;
  summaryOrder: ReadonlyMap<string | null, readonly string[]>;
  held: Held[];
  summaryKept: Placements['summaryKept'];
}

export function place(input: PlaceInput): Placements {
  const out: Placing = {
    placements: new Map(),
    removed: new Set(input.rekeyed.keys()),
    retitled: new Map(),
    summaryOrder: new Map(),
    held: [],
    summaryKept: null,
  };
  const keyAtPath = filesAfterThisCycle(input);
  placeEach(input, keyAtPath, out);
  if (input.view.local.summary) followSummary(input, input.view.local.summary, keyAtPath, out);
  reattachOrphans(input, out);
  cutLoops(input, out);
  return out;
}

/** Which node's file is at a path after this cycle's local changes (null: none). */
function filesAfterThisCycle({ view, sides, tree }: PlaceInput): (path: string) => string | null {
  const fileAt = new Map<string, string>();
  const gone = new Set<string>();
  for (const [key, path] of view.local.vanished) {
    gone.add(path);
    fileAt.set(`-${key}`, path);
  }
  for (const [key, m] of view.local.moved) {
    gone.add(m.from);
    fileAt.set(m.to, key);
  }
  for (const [key, s] of sides) if (s.local && !tree.node(key)) fileAt.set(s.local.path, key);
  return (path) => {
    const here = fileAt.get(path);
    if (here !== undefined) return here;
    if (gone.has(path)) return null;
    return tree.byPath(path) ?? null;
  };
}

/** Each page in scope: gone from the tree, or placed where the writer, main or its conflict puts it. */
function placeEach(input: PlaceInput, keyAtPath: (path: string) => string | null, out: Placing): void {
  const { view, tree, sides, decisions } = input;
  const { removed } = out;
  // The change request that carried the writer's placement was merged: main places it now. Not
  // once the writer placed it elsewhere since (a rename the push did not carry, the change
  // request merged under it): that place is theirs, for the next change request.
  const mergedMove = (key: string): boolean => {
    const pushed = view.changeRequest === 'merged' ? view.pushed.get(key) : undefined;
    const node = tree.node(key);
    return pushed?.moved === true && (!node || (pushed.name === node.name && pushed.parentId === node.parentKey));
  };
  const ownerOf = (dir: string, self: string): string | null => {
    for (let d = dir; d !== ''; d = dirOf(d)) {
      const readme = keyAtPath(`${d}/${README_FILE}`);
      if (readme !== null && readme !== self && stays(readme)) return readme;
      const owner = tree.byFolder(d);
      if (owner !== undefined && owner !== self && stays(owner)) return owner;
    }
    return null;
  };
  const stays = (key: string): boolean => {
    if (removed.has(key)) return false;
    const d = decisions.get(key);
    if (!d) return true;
    const s = sides.get(key)!;
    const kind = s.remote?.kind ?? s.base?.kind ?? tree.node(key)?.kind ?? 'document';
    if (kind !== 'document') return s.remote !== undefined;
    return keepsFile(d, s.local !== undefined) || d.kind === 'held';
  };

  for (const [key, s] of sides) {
    if (!stays(key)) {
      removed.add(key);
      continue;
    }
    const node: FolderNode | undefined = tree.node(key);
    const d = decisions.get(key)!;
    const R = s.remote;
    const kind = R?.kind ?? s.base?.kind ?? node?.kind ?? 'document';
    const title = kind === 'document' ? documentTitle(s, d, node) : (R?.title ?? node?.title ?? (s.local ? nameFromPath(s.local.path) : key));
    const href = R?.href ?? node?.href ?? null;
    const held = d.kind === 'held' || d.kind === 'unreadable';
    // Its file is not where its node has it: the writer moved it (this cycle; or, for a page kept
    // under a new key once its conflict is settled, in the cycle that settles it).
    const movedHere = s.local !== undefined && (!node || view.local.moved.has(key) || s.local.path !== node.path);
    const fromNode = (placedLocally: boolean): Placement => ({
      key,
      kind,
      parentKey: node!.parentKey,
      placedLocally,
      movedNow: false,
      slug: node!.name,
      title,
      href,
      held,
    });
    let p: Placement;
    // A held page stays where its file is: moved there by the writer, it is placed there too
    // (nothing is pushed while it is held; its new place is once the conflict is settled).
    if (held && node && !(movedHere && d.kind === 'held')) p = fromNode(node.placedLocally);
    else if (movedHere && s.local) {
      const path = s.local.path;
      const parentKey = path === README_FILE ? null : /\/README\.md$/i.test(path) ? ownerOf(dirOf(dirOf(path)), key) : ownerOf(dirOf(path), key);
      p = { key, kind, parentKey, placedLocally: true, movedNow: true, slug: nameFromPath(path), title, href, held };
    } else if (node?.placedLocally && !mergedMove(key)) p = fromNode(true);
    else if (R) p = { key, kind, parentKey: R.parentId, placedLocally: false, movedNow: false, slug: R.slug, title, href, held: false };
    else if (node) p = fromNode(true);
    else continue;
    out.placements.set(key, p);
  }
}

/** A placement for a node this cycle did not otherwise look at: where it is. */
function fromFolder(tree: SpaceView['folder'], key: string): Placement | undefined {
  const node = tree.node(key);
  if (!node) return undefined;
  return {
    key,
    kind: node.kind,
    parentKey: node.parentKey,
    placedLocally: node.placedLocally,
    movedNow: false,
    slug: node.name,
    title: node.title,
    href: node.href,
    held: false,
  };
}

/** SUMMARY.md: what the writer moved, reordered or retitled there (a file moved wins). */
function followSummary(input: PlaceInput, entries: NonNullable<SpaceView['local']['summary']>, keyAtPath: (path: string) => string | null, out: Placing): void {
  const { view, tree, sides } = input;
  const { placements, removed } = out;
  const intent = readSummaryIntent(tree, entries, keyAtPath, view.local.summaryWritten === true);
  const moveByList = (key: string, parentKey: string | null) => {
    if (removed.has(key) || view.local.moved.has(key)) return;
    const p = placements.get(key) ?? fromFolder(tree, key);
    if (!p || p.held) return;
    placements.set(key, { ...p, parentKey, placedLocally: true, movedNow: true });
  };
  for (const [key, parentKey] of intent.parent) moveByList(key, parentKey);
  for (const key of intent.reordered) moveByList(key, placements.get(key)?.parentKey ?? tree.node(key)?.parentKey ?? null);
  for (const [key, title] of intent.titles) {
    const p = placements.get(key) ?? fromFolder(tree, key);
    if (!p || p.held || removed.has(key)) continue;
    placements.set(key, { ...p, title });
    out.retitled.set(key, title);
  }
  // A page's title typed in SUMMARY.md: its title where its file carries none (sent as the
  // page's title), else reported when it says otherwise than the file.
  for (const [key, { title, line }] of intent.pageTitles) {
    const p = placements.get(key) ?? fromFolder(tree, key);
    if (!p || p.held || removed.has(key) || p.kind !== 'document') continue;
    const own = ownTitle(input, key);
    if (own === null) {
      placements.set(key, { ...p, title });
      out.retitled.set(key, title);
    } else if (!sameTitle(own, title)) {
      // Held, its line kept as typed: until the heading or the line changes, SUMMARY.md and the page disagree.
      const path = sides.get(key)?.local?.path ?? tree.node(key)?.path ?? '';
      out.held.push({ key, path: 'SUMMARY.md', line, title, reason: 'page-title', file: { path, title: own } });
      intent.kept.titles.set(key, title);
    }
  }
  out.summaryOrder = intent.order;
  out.held.push(...intent.held);
  out.summaryKept = intent.kept;
}

/** The title a page's file carries after this cycle (null: none, or not known). */
function ownTitle({ decisions, sides, tree }: PlaceInput, key: string): string | null {
  const d = decisions.get(key);
  if (d?.kind === 'pull-unseen') return sides.get(key)?.remote?.title ?? null;
  const text = d?.kind === 'text' || d?.kind === 'held' ? d.text : d ? null : tree.text(key);
  return text === null ? null : pageTitleOf(text);
}

/** Parents gone from the tree: their children move up (placed here from now on: the change request carries the move until main has it). */
function reattachOrphans(input: PlaceInput, out: Placing): void {
  const { view, tree, rekeyed } = input;
  const { placements, removed } = out;
  const inTree = (key: string): boolean => !removed.has(key) && (placements.has(key) || tree.node(key) !== undefined);
  const upFrom = (key: string): string | null => {
    let p: string | null = key;
    for (let n = 0; p !== null && !inTree(p) && n < 256; n++) {
      const r = view.remote.page(p);
      p = r ? r.parentId : (tree.node(p)?.parentKey ?? null);
    }
    return p !== null && inTree(p) ? p : null;
  };
  for (const p of placements.values()) {
    if (p.parentKey !== null && !inTree(p.parentKey)) {
      p.parentKey = upFrom(p.parentKey);
      p.placedLocally = true;
    }
  }
  for (const key of removed) {
    for (const child of tree.children(key)) {
      if (placements.has(child) || removed.has(child)) continue;
      const p = fromFolder(tree, child)!;
      placements.set(child, { ...p, parentKey: upFrom(key), placedLocally: true });
    }
  }
  // The children of a page kept under a new key follow it (their rows name the old key).
  for (const now of rekeyed.values()) {
    if (!inTree(now)) continue;
    for (const child of tree.children(now))
      if (!placements.has(child) && !removed.has(child)) placements.set(child, { ...fromFolder(tree, child)!, placedLocally: true });
  }
}

/** A move here and a move there can make a loop (each page under the other): the move made here wins, the page main placed goes to the root. */
function cutLoops({ tree }: PlaceInput, { placements, removed }: Placing): void {
  const parentOf = (key: string): string | null | undefined => {
    if (removed.has(key)) return undefined;
    const p = placements.get(key);
    if (p) return p.parentKey;
    const node = tree.node(key);
    return node ? node.parentKey : undefined;
  };
  for (const p of placements.values()) {
    const loop: string[] = [p.key];
    for (let q = parentOf(p.key) ?? null; q !== null; q = parentOf(q) ?? null) {
      if (q === p.key) {
        const byKey = (keys: string[]) => [...keys].sort()[0];
        const cut = byKey(loop.filter((k) => !placements.get(k)?.movedNow)) ?? byKey(loop)!;
        const at = placements.get(cut) ?? fromFolder(tree, cut);
        if (at) {
          at.parentKey = null;
          at.placedLocally = true;
          placements.set(cut, at);
        }
        break;
      }
      if (loop.includes(q) || loop.length > 512) break;
      loop.push(q);
    }
  }
}

/**
 * A document's title after this cycle: the one its file carries (main's when it takes main's
 * text), else the one it had here (a title the writer typed in SUMMARY.md) unless main retitled
 * it, else main's, else its file name.
 */
function documentTitle(s: PageSides, d: Decision, node: FolderNode | undefined): string {
  const R = s.remote;
  if (R && (d.kind === 'pull-unseen' || (d.kind === 'text' && d.change === 'pulled'))) return R.title;
  const text = d.kind === 'text' || d.kind === 'held' ? d.text : null;
  const own = text === null ? null : pageTitleOf(text);
  if (own !== null) return own;
  const retitledOnMain = R !== undefined && s.base !== undefined && R.title !== s.base.title;
  return (retitledOnMain ? R.title : (node?.title ?? R?.title)) ?? (s.local ? nameFromPath(s.local.path) : s.id);
}
