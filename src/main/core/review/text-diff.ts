/**
 * Line and word differences between two texts, as a unified diff shows them: hunks of changed
 * lines with their context, each line numbered on its side. Pure; the LCS is node-diff3's.
 *
 *   const hunks = diffHunks(before, after);        // 3 lines of context, as `diff -u`
 *   for (const row of hunks[0].rows) row.kind;     // 'same' | 'removed' | 'added'
 *   wordDiff('a quick fox', 'a slow fox');         // [same 'a ', removed 'quick', added 'slow', same ' fox']
 */
import { diffComm, diffIndices } from 'node-diff3';

export interface DiffRow {
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** 1-based line in the text before (null for an added line). */
  oldLine: number | null;
  /** 1-based line in the text after (null for a removed line). */
  newLine: number | null;
}

export interface Hunk {
  /** First line of the hunk on each side (1-based; the line before it when the side has none). */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  rows: DiffRow[];
}

export interface Lines {
  lines: string[];
  /** False when the text's last line has no line break (a diff says so). */
  endsWithNewline: boolean;
}

/** A text's lines (null and '' have none). */
export function splitLines(text: string | null): Lines {
  if (text === null || text === '') return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith('\n');
  return { lines: (endsWithNewline ? text.slice(0, -1) : text).split('\n'), endsWithNewline };
}

/** Every line of both texts in order, each the same, removed or added. */
export function diffRows(before: string | null, after: string | null): DiffRow[] {
  const a = splitLines(before).lines;
  const b = splitLines(after).lines;
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  const same = (until: number) => {
    while (i < until) rows.push({ kind: 'same', text: a[i]!, oldLine: ++i, newLine: ++j });
  };
  for (const region of diffIndices(a, b)) {
    const [aStart, aLength] = region.buffer1;
    const [bStart, bLength] = region.buffer2;
    same(aStart);
    for (let k = 0; k < aLength; k++) rows.push({ kind: 'removed', text: a[aStart + k]!, oldLine: aStart + k + 1, newLine: null });
    for (let k = 0; k < bLength; k++) rows.push({ kind: 'added', text: b[bStart + k]!, oldLine: null, newLine: bStart + k + 1 });
    i = aStart + aLength;
    j = bStart + bLength;
  }
  same(a.length);
  return rows;
}

/** The changed lines with `context` lines around them, in hunks as `diff -u` cuts them. */
export function diffHunks(before: string | null, after: string | null, context = 3): Hunk[] {
  const rows = diffRows(before, after);
  const groups: [number, number][] = [];
  for (const [k, row] of rows.entries()) {
    if (row.kind === 'same') continue;
    const last = groups.at(-1);
    if (last && k - last[1] - 1 <= 2 * context) last[1] = k;
    else groups.push([k, k]);
  }
  return groups.map(([first, last]) => toHunk(rows, Math.max(0, first - context), Math.min(rows.length, last + context + 1)));
}

function toHunk(rows: DiffRow[], from: number, to: number): Hunk {
  const slice = rows.slice(from, to);
  // A side with no line in the hunk starts at its line before the hunk (`@@ -0,0 +1,3 @@` for a new file).
  const start = (side: 'oldLine' | 'newLine'): number => {
    const first = slice.find((r) => r[side] !== null);
    if (first) return first[side]!;
    for (let k = from - 1; k >= 0; k--) if (rows[k]![side] !== null) return rows[k]![side]!;
    return 0;
  };
  return {
    oldStart: start('oldLine'),
    oldCount: slice.filter((r) => r.oldLine !== null).length,
    newStart: start('newLine'),
    newCount: slice.filter((r) => r.newLine !== null).length,
    rows: slice,
  };
}

/** Lines added and removed between two texts. */
export function lineCounts(before: string | null, after: string | null): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const region of diffIndices(splitLines(before).lines, splitLines(after).lines)) {
    removed += region.buffer1[1];
    added += region.buffer2[1];
  }
  return { added, removed };
}

export interface WordRun {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Words, runs of spaces and single marks: what a word diff compares. */
const TOKENS = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

/** Two texts word by word: runs that both have, and what one removed and the other added, in order. */
export function wordDiff(before: string, after: string): WordRun[] {
  const a = before.match(TOKENS) ?? [];
  const b = after.match(TOKENS) ?? [];
  const runs: WordRun[] = [];
  const push = (kind: WordRun['kind'], text: string) => {
    if (text === '') return;
    const last = runs.at(-1);
    if (last?.kind === kind) last.text += text;
    else runs.push({ kind, text });
  };
  // node-diff3's typings leave out the common runs.
  const parts = diffComm(a, b) as unknown as ({ common: string[] } | { buffer1: string[]; buffer2: string[] })[];
  for (const part of parts) {
    if ('common' in part) push('same', part.common.join(''));
    else {
      push('removed', part.buffer1.join(''));
      push('added', part.buffer2.join(''));
    }
  }
  return runs;
}
