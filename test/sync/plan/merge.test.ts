/** The three-way merge of page texts (diff3) that the planner uses when both sides edited a page. */
import { describe, expect, it } from 'vitest';
import { mergeText } from '../../../src/main/core/sync/plan/merge';

describe('three-way merge', () => {
  const base = 'one\n\ntwo\n\nthree\n\nfour\n\nfive\n';

  it('merges edits to different parts, and the same edit made twice once', () => {
    expect(mergeText(base.replace('one', 'ONE'), base, base.replace('five', 'FIVE'))).toEqual({
      kind: 'merged',
      text: 'ONE\n\ntwo\n\nthree\n\nfour\n\nFIVE\n',
    });
    expect(mergeText(base.replace('two', 'TWO'), base, base.replace('two', 'TWO'))).toEqual({ kind: 'merged', text: base.replace('two', 'TWO') });
  });

  it('reports a clash for the same line edited differently, and for adjacent lines (classic diff3)', () => {
    expect(mergeText(base.replace('three', 'mine'), base, base.replace('three', 'theirs'))).toEqual({ kind: 'conflict', reason: 'overlap' });
    const tight = 'a\nb\nc\nd\n';
    expect(mergeText('a\nB\nc\nd\n', tight, 'a\nb\nC\nd\n').kind).toBe('conflict');
  });

  it('gives up with a clash, not a long stall, when the diff would cost too much', () => {
    const big = Array.from({ length: 2500 }, (_, i) => `line ${i}`).join('\n');
    const started = performance.now();
    const outcome = mergeText(big.replace('line 1\n', 'LINE 1\n'), big, big.replace('line 2490', 'LINE 2490'), { maxLines: 20_000, maxCost: 1_000_000 });
    expect(outcome).toEqual({ kind: 'conflict', reason: 'too-costly' });
    expect(performance.now() - started).toBeLessThan(500);
    expect(mergeText(big.replace('line 1\n', 'LINE 1\n'), big, big.replace('line 2490', 'LINE 2490')).kind).toBe('merged');
  });
});
