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
 * - SUMMARY.md never deletes nor creates: the API cannot create groups or links, nor change a
 *   link's target, and a page goes away when its file does. Such lines are reported (held).
 */
import type { SummaryEntry } from '../../content';
import type { PlanContext } from './context';
import type { Held } from './types';

const SUMMARY = 'SUMMARY.md';

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
}

export function readSummaryIntent(ctx: PlanContext, entries: readonly SummaryEntry[], keyAtPath: (path: string) => string | null): SummaryIntent {
  const { tree } = ctx;
  const intent: SummaryIntent = { parent: new Map(), order: new Map(), reordered: new Set(), titles: new Map(), pageTitles: new Map(), held: [] };

  // Groups and links have no file: they are matched by title (groups) or target (links).
  const groups: string[] = [];
  const links: string[] = [];
  for (const key of tree.keys()) {
    const kind = tree.node(key)?.kind;
    if (kind === 'group') groups.push(key);
    else if (kind === 'link') links.push(key);
  }
  const used = new Set<string>();
  const claim = (candidates: string[], match: (key: string) => boolean): string | null => {
    const key = candidates.find((k) => !used.has(k) && match(k)) ?? null;
    if (key !== null) used.add(key);
    return key;
  };
  const titleOf = (key: string) => tree.node(key)?.title ?? '';
  const hold = (e: SummaryEntry, reason: Held['reason']) => intent.held.push({ key: null, path: SUMMARY, line: e.line, title: e.title, reason });

  // The writer's tree, by key (undefined: an entry Quire cannot place; its children stay put).
  const listed = new Map<string | null, string[]>();
  const listedParent = new Map<string, string | null>();
  const walk = (list: readonly SummaryEntry[], parent: string | null | undefined, depth: number): void => {
    for (const e of list) {
      let key: string | null = null;
      if (e.kind === 'page' && e.path !== null) {
        key = keyAtPath(e.path);
        const title = e.title.trim();
        if (key !== null && title !== '' && !sameTitle(title, titleOf(key)) && !intent.pageTitles.has(key)) intent.pageTitles.set(key, { title, line: e.line });
      } else if (e.kind === 'group') {
        key = claim(groups, (k) => titleOf(k) === e.title);
        if (key === null) hold(e, 'new-group');
      } else if (e.kind === 'link') {
        key = claim(links, (k) => tree.node(k)?.href === e.href);
        if (key !== null && titleOf(key) !== e.title && e.title.trim() !== '') intent.titles.set(key, e.title);
        if (key === null) {
          key = claim(links, (k) => titleOf(k) === e.title);
          hold(e, key === null ? 'new-link' : 'link-target');
          key = null;
        }
      }
      if (key !== null && parent !== undefined && !listedParent.has(key)) {
        listedParent.set(key, parent);
        listed.set(parent, [...(listed.get(parent) ?? []), key]);
      }
      if (depth < 256) walk(e.children, key === null ? undefined : key, depth + 1);
    }
  };
  walk(entries, null, 0);

  // A group heading renamed: the one group no longer listed, where one new heading is.
  const newGroups = intent.held.filter((h) => h.reason === 'new-group');
  const unlistedGroups = groups.filter((k) => !used.has(k));
  if (newGroups.length === 1 && unlistedGroups.length === 1) {
    const [h] = newGroups;
    const key = unlistedGroups[0]!;
    intent.titles.set(key, h!.title!);
    intent.held = intent.held.filter((x) => x !== h);
    used.add(key);
    relist(entries, h!.line!, key);
  }
  for (const key of groups) if (!used.has(key)) intent.held.push({ key, path: SUMMARY, title: titleOf(key), reason: 'group-removed' });
  for (const key of links) if (!used.has(key)) intent.held.push({ key, path: SUMMARY, title: titleOf(key), reason: 'link-removed' });

  /** Lists what a renamed group heading owns under the group it is. */
  function relist(list: readonly SummaryEntry[], line: number, key: string): void {
    const heading = list.find((e) => e.line === line);
    if (!heading) return;
    listedParent.set(key, null);
    listed.set(null, insertAt(listed.get(null) ?? [], key, list, heading));
    walk(heading.children, key, 1);
  }
  function insertAt(keys: string[], key: string, list: readonly SummaryEntry[], heading: SummaryEntry): string[] {
    const before = list.filter((e) => e.line < heading.line).length;
    const out = [...keys];
    out.splice(Math.min(before, out.length), 0, key);
    return out;
  }

  // Intents: what differs from the tree as SUMMARY.md last showed it.
  for (const [key, parent] of listedParent) {
    const node = tree.node(key);
    if (!node || node.parentKey !== parent) intent.parent.set(key, parent);
  }
  for (const [parent, keys] of listed) {
    const before = tree.children(parent);
    const stayed = keys.filter((k) => tree.node(k)?.parentKey === parent);
    const index = new Map(before.map((k, i) => [k, i]));
    const kept = longestIncreasing(stayed.map((k) => index.get(k)!));
    const moved = stayed.filter((_, i) => !kept.has(i));
    for (const k of moved) intent.reordered.add(k);
    if (moved.length > 0 || keys.some((k) => intent.parent.has(k))) intent.order.set(parent, keys);
  }
  return intent;
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
