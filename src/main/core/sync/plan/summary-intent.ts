/**
 * SUMMARY.md as the writer edited it, read against the folder's tree as the last cycle left it
 * (which is what SUMMARY.md said then): only what the writer changed there becomes an intent,
 * so what main changed meanwhile is never undone by an older line of SUMMARY.md.
 *
 * - An entry listed under another parent (a page, a `##` group, a bulleted group) moves there.
 * - Entries reordered under the same parent: the fewest pages that explain the new order move
 *   (those outside the longest run that kept its order), each right after its new neighbour.
 * - A group or link entry with a new title is retitled.
 * - A page entry with a title other than the one SUMMARY.md showed: the title the writer gives
 *   the page (place.ts weighs it against the title its file carries).
 * - A page listed twice: the entry the writer wrote wins over the one as Quire last wrote it
 *   (same parent, same title): a page Quire listed where it guessed, listed again by the writer.
 * - SUMMARY.md never deletes nor creates: the API cannot create groups or links, nor change a
 *   link's target, and a page goes away when its file does. Such lines are reported (held), and
 *   so is an entry for a file that is not there (yet): each stays in SUMMARY.md as the writer
 *   wrote it (`kept`, which summary-file.ts renders) until it is settled, so the writer's lines
 *   are never lost and the hold is said at every cycle.
 */
import type { SummaryEntry } from '../../content';
import { type Held, newPageKey, type SpaceView } from './types';

const SUMMARY = 'SUMMARY.md';

/** A line of SUMMARY.md Quire cannot take as it is, kept where the writer put it. */
export interface KeptEntry {
  /** `held:<line>`: this entry's own id. */
  id: string;
  kind: 'page' | 'group' | 'link';
  title: string;
  /** A link's destination, a page's file. */
  href: string | null;
  path: string | null;
  /** What it is listed under (a page, a group, another kept entry; null: the top), and right after (null: first). */
  parent: string | null;
  after: string | null;
  /** What the writer listed under it, in order: pages (kept there until it exists) and other kept entries. */
  children: string[];
}

/** What SUMMARY.md shows of the writer's held lines, beside the tree (summary-file.ts renders it). */
export interface SummaryKept {
  /** Pages listed under a title their file contradicts: the title the writer typed (place.ts fills it). */
  titles: Map<string, string>;
  /** Links the writer pointed elsewhere: where. */
  hrefs: Map<string, string>;
  /** Groups and links the writer no longer lists. */
  hidden: Set<string>;
  /** New groups and links, and entries for files not there: in the writer's order. */
  added: KeptEntry[];
}

export interface SummaryIntent {
  /** Pages the writer listed under another parent. */
  parent: Map<string, string | null>;
  /** The writer's order of each parent's children, for parents whose list the writer changed. */
  order: Map<string | null, string[]>;
  /** Pages the writer moved within their parent's list. */
  reordered: Set<string>;
  /** Groups and links the writer retitled. */
  titles: Map<string, string>;
  /** Pages the writer gave a title in SUMMARY.md (a new page listed by hand, or an entry retyped), with the line. */
  pageTitles: Map<string, { title: string; line: number }>;
  held: Held[];
  kept: SummaryKept;
}

/** What an entry of SUMMARY.md is: `key` for the intents (null: none to take from it), `shown` as kept (null: dropped). */
interface Resolved {
  key: string | null;
  shown: string | null;
  kept?: KeptEntry;
}

/** What the steps share while they read SUMMARY.md. */
interface Reading {
  tree: SpaceView['folder'];
  intent: SummaryIntent;
  /** Groups and links have no file: they are matched by title (groups) or target (links). */
  groups: string[];
  links: string[];
  /** Groups and links an entry stands for. */
  used: Set<string>;
  /** What each entry is. */
  resolved: Map<SummaryEntry, Resolved>;
}

/** `summaryWritten`: SUMMARY.md was last written by a cycle (LocalChanges.summaryWritten). */
export function readSummaryIntent(
  tree: SpaceView['folder'],
  entries: readonly SummaryEntry[],
  keyAtPath: (path: string) => string | null,
  summaryWritten: boolean,
): SummaryIntent {
  const kept: SummaryKept = { titles: new Map(), hrefs: new Map(), hidden: new Set(), added: [] };
  const intent: SummaryIntent = { parent: new Map(), order: new Map(), reordered: new Set(), titles: new Map(), pageTitles: new Map(), held: [], kept };
  const r: Reading = { tree, intent, groups: [], links: [], used: new Set(), resolved: new Map() };
  for (const key of tree.keys()) {
    const kind = tree.node(key)?.kind;
    if (kind === 'group') r.groups.push(key);
    else if (kind === 'link') r.links.push(key);
  }
  resolveEntries(r, entries, keyAtPath, summaryWritten, 0);
  renamedGroup(r);
  unlistedGroupsAndLinks(r);
  const chosen = chosenListings(r, entries);
  const { listed, listedParent } = writersTree(r, entries, chosen);
  intentsAgainstTree(r, listed, listedParent);
  return intent;
}

const titleOf = (r: Reading, key: string): string => r.tree.node(key)?.title ?? '';

/** The first group or link of `candidates` no other entry stands for that matches. */
function claim(r: Reading, candidates: string[], match: (key: string) => boolean): string | null {
  const key = candidates.find((k) => !r.used.has(k) && match(k)) ?? null;
  if (key !== null) r.used.add(key);
  return key;
}

function hold(r: Reading, e: SummaryEntry, reason: Held['reason']): void {
  r.intent.held.push({ key: null, path: SUMMARY, line: e.line, title: e.title, reason });
}

function keep(e: SummaryEntry, kind: KeptEntry['kind']): Resolved {
  const id = `held:${e.line}`;
  return { key: null, shown: id, kept: { id, kind, title: e.title, href: e.href, path: e.path, parent: null, after: null, children: [] } };
}

/** 1. What each entry is, in the writer's order. */
function resolveEntries(r: Reading, list: readonly SummaryEntry[], keyAtPath: (path: string) => string | null, summaryWritten: boolean, depth: number): void {
  const { tree, intent } = r;
  for (const e of list) {
    let res: Resolved;
    if (e.kind === 'page' && e.path !== null) {
      const key = keyAtPath(e.path);
      // A file not there that SUMMARY.md did not list before: the writer's line, kept until the file is.
      if (key === null && summaryWritten && tree.byPath(e.path) === undefined) {
        // About the page its file makes once there (key `new:<path>`, which names the file).
        intent.held.push({
          key: newPageKey(e.path),
          path: SUMMARY,
          line: e.line,
          title: e.title,
          file: { path: e.path, title: e.title },
          reason: 'page-missing',
        });
        res = keep(e, 'page');
      } else res = { key, shown: key };
    } else if (e.kind === 'group') {
      const key = claim(r, r.groups, (k) => titleOf(r, k) === e.title);
      if (key === null) hold(r, e, 'new-group');
      res = key === null ? keep(e, 'group') : { key, shown: key };
    } else if (e.kind === 'link') res = resolveLink(r, e);
    else res = { key: null, shown: null };
    r.resolved.set(e, res);
    if (depth < 256) resolveEntries(r, e.children, keyAtPath, summaryWritten, depth + 1);
  }
}

/** A link entry: the link with its target (retitled when its title changed), else one with its title (pointed elsewhere: held). */
function resolveLink(r: Reading, e: SummaryEntry): Resolved {
  const { tree, intent } = r;
  let key = claim(r, r.links, (k) => tree.node(k)?.href === e.href);
  if (key !== null && titleOf(r, key) !== e.title && e.title.trim() !== '') intent.titles.set(key, e.title);
  if (key !== null) return { key, shown: key };
  key = claim(r, r.links, (k) => titleOf(r, k) === e.title);
  hold(r, e, key === null ? 'new-link' : 'link-target');
  if (key === null) return keep(e, 'link');
  intent.kept.hrefs.set(key, e.href ?? '#');
  return { key: null, shown: key };
}

/** 2. A group heading renamed: the one group no longer listed, where one new heading is. */
function renamedGroup(r: Reading): void {
  const { intent } = r;
  const newGroups = intent.held.filter((h) => h.reason === 'new-group');
  const unlistedGroups = r.groups.filter((k) => !r.used.has(k));
  if (newGroups.length !== 1 || unlistedGroups.length !== 1) return;
  const [h] = newGroups;
  const key = unlistedGroups[0]!;
  const heading = [...r.resolved.keys()].find((e) => e.line === h!.line);
  if (!heading) return;
  intent.titles.set(key, h!.title!);
  intent.held = intent.held.filter((x) => x !== h);
  r.used.add(key);
  r.resolved.set(heading, { key, shown: key });
}

/** Groups and links no entry stands for: held (SUMMARY.md deletes nothing), hidden from it. */
function unlistedGroupsAndLinks(r: Reading): void {
  const { intent } = r;
  for (const key of r.groups) {
    if (r.used.has(key)) continue;
    intent.held.push({ key, path: SUMMARY, title: titleOf(r, key), reason: 'group-removed' });
    intent.kept.hidden.add(key);
  }
  for (const key of r.links) {
    if (r.used.has(key)) continue;
    intent.held.push({ key, path: SUMMARY, title: titleOf(r, key), reason: 'link-removed' });
    intent.kept.hidden.add(key);
  }
}

/** Every entry in the writer's order, with the key of what it is listed under and the kept line it shows under. */
function visit(
  r: Reading,
  entries: readonly SummaryEntry[],
  fn: (e: SummaryEntry, res: Resolved, parent: string | null | undefined, shownParent: string | null) => void,
): void {
  const go = (list: readonly SummaryEntry[], parent: string | null | undefined, shownParent: string | null, depth: number): void => {
    for (const e of list) {
      const res = r.resolved.get(e)!;
      fn(e, res, parent, shownParent);
      if (depth < 256) go(e.children, res.key ?? undefined, res.shown ?? shownParent, depth + 1);
    }
  };
  go(entries, null, null, 0);
}

/** 3. A page listed twice: the writer's entry wins over the one as Quire wrote it (its place and title then). */
function chosenListings(r: Reading, entries: readonly SummaryEntry[]): Set<SummaryEntry> {
  const listings = new Map<string, { e: SummaryEntry; parent: string | null | undefined }[]>();
  visit(r, entries, (e, res, parent) => {
    if (e.kind !== 'page' || res.key === null) return;
    listings.set(res.key, [...(listings.get(res.key) ?? []), { e, parent }]);
  });
  const chosen = new Set<SummaryEntry>();
  for (const [key, list] of listings) {
    const node = r.tree.node(key);
    const asQuireWrote = (l: (typeof list)[number]) => node !== undefined && l.parent === node.parentKey && sameTitle(l.e.title, node.title);
    chosen.add((list.find((l) => !asQuireWrote(l)) ?? list[0]!).e);
  }
  return chosen;
}

/** 4. The writer's tree by key (each parent's list, each page's parent), and the kept lines where they stand. */
function writersTree(
  r: Reading,
  entries: readonly SummaryEntry[],
  chosen: ReadonlySet<SummaryEntry>,
): { listed: Map<string | null, string[]>; listedParent: Map<string, string | null> } {
  const { intent } = r;
  const listed = new Map<string | null, string[]>();
  const listedParent = new Map<string, string | null>();
  const lastShown = new Map<string | null, string>();
  const keptById = new Map<string, KeptEntry>();
  visit(r, entries, (e, res, parent, shownParent) => {
    if (e.kind === 'page' && res.key !== null && !chosen.has(e)) return; // the other listing of a page listed twice
    const { key } = res;
    if (key !== null && e.kind === 'page') {
      const title = e.title.trim();
      if (title !== '' && !sameTitle(title, titleOf(r, key))) intent.pageTitles.set(key, { title, line: e.line });
    }
    if (key !== null && parent !== undefined && !listedParent.has(key)) {
      listedParent.set(key, parent);
      listed.set(parent, [...(listed.get(parent) ?? []), key]);
    }
    const under = shownParent === null ? undefined : keptById.get(shownParent);
    if (res.kept) {
      res.kept.parent = shownParent;
      res.kept.after = lastShown.get(shownParent) ?? null;
      intent.kept.added.push(res.kept);
      keptById.set(res.kept.id, res.kept);
    }
    // What the writer listed under a kept line stays under it (it is not on the server yet).
    if (under && res.shown !== null) under.children.push(res.shown);
    if (res.shown !== null) lastShown.set(shownParent, res.shown);
  });
  return { listed, listedParent };
}

/** 5. Intents: what differs from the tree as SUMMARY.md last showed it. */
function intentsAgainstTree(r: Reading, listed: ReadonlyMap<string | null, string[]>, listedParent: ReadonlyMap<string, string | null>): void {
  const { tree, intent } = r;
  for (const [key, parent] of listedParent) {
    const node = tree.node(key);
    if (!node || node.parentKey !== parent) intent.parent.set(key, parent);
  }
  for (const [parent, keys] of listed) {
    const before = tree.children(parent);
    const stayed = keys.filter((k) => tree.node(k)?.parentKey === parent);
    const index = new Map(before.map((k, i) => [k, i]));
    const keptOrder = longestIncreasing(stayed.map((k) => index.get(k)!));
    const moved = stayed.filter((_, i) => !keptOrder.has(i));
    for (const k of moved) intent.reordered.add(k);
    if (moved.length > 0 || keys.some((k) => intent.parent.has(k))) intent.order.set(parent, keys);
  }
}

/** Two titles as SUMMARY.md shows them (it writes a title on one line; tabs read back as spaces). */
export function sameTitle(a: string, b: string): boolean {
  const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
  return flat(a) === flat(b);
}

/** Indexes (into `values`) of one longest strictly increasing subsequence. */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]!]! < values[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) out.add(i);
  return out;
}
