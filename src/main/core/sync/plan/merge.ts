/**
 * Three-way merge of page files, line by line, with node-diff3.
 *
 * Lines changed on one side only are taken from that side; the same change on both
 * sides is taken once. Any region changed differently on both sides is a clash, and
 * so are edits to adjacent lines (classic diff3 cannot order them safely). Merging
 * word by word is deliberately avoided: it can silently duplicate text.
 *
 * Blank lines travel with the line above them (one unit per line of text), so the
 * many identical blank lines of markdown do not blow up the diff. The diff is bounded:
 * units common to all three versions at both ends are set aside first, and if what
 * remains would cost too much to diff (huge files, or many repeated lines) the merge
 * gives up and reports a clash, which loses nothing: the caller keeps both versions.
 */
import { diff3 } from '../../diff3';

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

/** Splits into lines, each carrying the blank lines that follow it; join('\n') gives the text back. */
function splitUnits(text: string): string[] {
  const units: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (units.length > 0 && line.trim() === '') units[units.length - 1] += `\n${line}`;
    else units.push(line);
  }
  return units;
}

/** Merges `local` and `remote`, both derived from `base`. */
export function mergeText(local: string, base: string, remote: string, limits: MergeLimits = DEFAULT_MERGE_LIMITS): MergeOutcome {
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
  for (const region of diff3().diff3Merge(ma, mo, mb, { excludeFalseConflicts: true })) {
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
