/**
 * Three-way merge of page files: the title, each frontmatter key and the body apart.
 *
 * - The title and every frontmatter key merge as values: changed on one side only, that side's
 *   value; the same value on both sides, once; two different values, a clash. So a writer's
 *   `description:` and the server's `icon:` on the next line never clash, nor a retitle with an
 *   edit to the body.
 * - The body merges line by line, with node-diff3. Lines changed on one side only are taken
 *   from that side; the same change on both sides is taken once. Any region changed differently
 *   on both sides is a clash, and so are edits to adjacent lines (classic diff3 cannot order them
 *   safely). Merging word by word is deliberately avoided: it can silently duplicate text.
 * - A file whose frontmatter cannot be read is merged line by line as a whole.
 *
 * Blank lines travel with the line below them (one unit per line of text), so the many identical
 * blank lines of markdown do not blow up the diff, and a line added after the last one leaves
 * that line's unit as it was. The diff is bounded: units common to all three versions at both
 * ends are set aside first, and if what remains would cost too much to diff (huge files, or many
 * repeated lines) the merge gives up and reports a clash, which loses nothing: the caller keeps
 * both versions.
 */
import { assemblePageFile, fitsHeading, frontmatterFor, type PageMeta, readPageFile, significantMeta } from '../../content';
import { diff3Merge } from 'node-diff3';

export type MergeOutcome = { kind: 'merged'; text: string } | { kind: 'conflict'; reason: 'overlap' | 'too-costly' };

export interface MergeLimits {
  /** Units (lines) left to diff per version after trimming the common ends. */
  maxLines: number;
  /**
   * Bound on the diff's work: pairs of equal units between a changed version and the
   * base, times the shorter length (the Hunt–McIlroy diff walks about that many steps).
   */
  maxCost: number;
}

/** About 150 ms of diffing in the worst case on a laptop; ordinary pages cost a thousandth of it. */
const DEFAULT_MERGE_LIMITS: MergeLimits = { maxLines: 20_000, maxCost: 20_000_000 };

/**
 * Splits into lines, each carrying the blank lines before it (blank lines at the end are a unit
 * of their own); join('\n') gives the text back.
 */
function splitUnits(text: string): string[] {
  const units: string[] = [];
  let blanks: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') blanks.push(line);
    else {
      units.push(blanks.length === 0 ? line : `${blanks.join('\n')}\n${line}`);
      blanks = [];
    }
  }
  if (blanks.length > 0) units.push(blanks.join('\n'));
  return units;
}

/** Merges `local` and `remote`, both derived from `base`. */
export function mergeText(local: string, base: string, remote: string, limits: MergeLimits = DEFAULT_MERGE_LIMITS): MergeOutcome {
  const l = readParts(local);
  const o = readParts(base);
  const r = readParts(remote);
  if (!l || !o || !r || local === remote || local === base || remote === base) return mergeLines(local, base, remote, limits);
  const title = mergeTitle(l.title, o.title, r.title);
  const meta = mergeMeta(l.meta, o.meta, r.meta);
  if (title === CLASH || meta === null) return { kind: 'conflict', reason: 'overlap' };
  const body = mergeLines(l.body, o.body, r.body, limits);
  if (body.kind === 'conflict') return body;
  // The writer's frontmatter and title stay as written when the server changed neither.
  if (title === l.title && sameValue(meta, l.meta)) {
    const written = local.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    return { kind: 'merged', text: written.slice(0, written.length - l.body.length) + body.text };
  }
  const yaml = frontmatterFor(l.frontmatter ?? r.frontmatter, meta, title ?? undefined);
  return { kind: 'merged', text: assemblePageFile(yaml, title !== null && fitsHeading(title) ? title : undefined, body.text) };
}

/** A page file's parts, or null when its frontmatter cannot be read. */
function readParts(text: string): ReturnType<typeof readPageFile> | null {
  try {
    return readPageFile(text);
  } catch {
    return null;
  }
}

const CLASH = Symbol('clash');

/** The title three ways: the side that changed it, the same change once, or a clash. */
function mergeTitle(local: string | null, base: string | null, remote: string | null): string | null | typeof CLASH {
  if (local === remote || remote === base) return local;
  return local === base ? remote : CLASH;
}

/**
 * The frontmatter key by key (a key's absence is a value), each value as the side that changed
 * it wrote it; null on a clash. Values compare as the server reads them (`hidden: false` is no
 * `hidden`).
 */
function mergeMeta(local: PageMeta, base: PageMeta, remote: PageMeta): PageMeta | null {
  const l = significantMeta(local);
  const o = significantMeta(base);
  const r = significantMeta(remote);
  const merged: PageMeta = {};
  for (const key of new Set([...Object.keys(local), ...Object.keys(remote), ...Object.keys(base)])) {
    let value: unknown;
    if (sameValue(l[key], r[key]) || sameValue(r[key], o[key])) value = local[key];
    else if (sameValue(l[key], o[key])) value = remote[key];
    else return null;
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}

/** Merges texts line by line. */
function mergeLines(local: string, base: string, remote: string, limits: MergeLimits): MergeOutcome {
  const a = splitUnits(local);
  const o = splitUnits(base);
  const b = splitUnits(remote);
  if (sameLines(a, b)) return { kind: 'merged', text: local.replace(/\r\n?/g, '\n') };
  if (sameLines(a, o)) return { kind: 'merged', text: remote.replace(/\r\n?/g, '\n') };
  if (sameLines(b, o)) return { kind: 'merged', text: local.replace(/\r\n?/g, '\n') };

  const { prefix, suffix } = commonEnds(a, o, b);
  const middle = (lines: string[]) => lines.slice(prefix, lines.length - suffix);
  const [ma, mo, mb] = [middle(a), middle(o), middle(b)];
  if (Math.max(ma.length, mo.length, mb.length) > limits.maxLines) return { kind: 'conflict', reason: 'too-costly' };
  const cost = matchingPairs(ma, mo) * Math.min(ma.length, mo.length) + matchingPairs(mb, mo) * Math.min(mb.length, mo.length);
  if (cost > limits.maxCost) return { kind: 'conflict', reason: 'too-costly' };

  const merged: string[] = a.slice(0, prefix);
  for (const region of diff3Merge(ma, mo, mb, { excludeFalseConflicts: true })) {
    if (region.conflict) return { kind: 'conflict', reason: 'overlap' };
    if (region.ok) merged.push(...region.ok);
  }
  merged.push(...a.slice(a.length - suffix));
  return { kind: 'merged', text: merged.join('\n') };
}

function sameLines(x: string[], y: string[]): boolean {
  return x.length === y.length && x.every((line, i) => line === y[i]);
}

/** Lines equal in all three versions at the start and at the end (never overlapping). */
function commonEnds(a: string[], o: string[], b: string[]): { prefix: number; suffix: number } {
  const shortest = Math.min(a.length, o.length, b.length);
  let prefix = 0;
  while (prefix < shortest && a[prefix] === o[prefix] && b[prefix] === o[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && a[a.length - 1 - suffix] === o[o.length - 1 - suffix] && b[b.length - 1 - suffix] === o[o.length - 1 - suffix]) {
    suffix++;
  }
  return { prefix, suffix };
}

/** Number of (i, j) with x[i] === y[j]: what the Hunt–McIlroy diff has to walk through. */
function matchingPairs(x: string[], y: string[]): number {
  const counts = new Map<string, number>();
  for (const line of y) counts.set(line, (counts.get(line) ?? 0) + 1);
  let pairs = 0;
  for (const line of x) pairs += counts.get(line) ?? 0;
  return pairs;
}
