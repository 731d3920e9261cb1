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

  it('merges the frontmatter key by key: a key each side changed, on adjacent lines, is no clash', () => {
    const page = (description: string, icon: string) => `---\ndescription: ${description}\nicon: ${icon}\n---\n\n# Install\n\nBody.\n`;
    expect(mergeText(page('Mine', 'book'), page('Old', 'book'), page('Old', 'rocket'))).toEqual({ kind: 'merged', text: page('Mine', 'rocket') });
    // The same key changed alike on both sides is taken once; changed otherwise, it clashes.
    expect(mergeText(page('Same', 'book'), page('Old', 'book'), page('Same', 'rocket'))).toEqual({ kind: 'merged', text: page('Same', 'rocket') });
    expect(mergeText(page('Mine', 'book'), page('Old', 'book'), page('Theirs', 'book'))).toEqual({ kind: 'conflict', reason: 'overlap' });
  });

  it('merges a key added or removed on one side, and keeps the writer’s way of writing the block', () => {
    const base = '---\ndescription: Old\n---\n\n# Install\n\nBody.\n';
    const mine = "---\n# the writer's note\ndescription: 'Old'\n---\n\n# Install\n\nBody.\n";
    const theirs = '---\ndescription: Old\nhidden: true\n---\n\n# Install\n\nBody, edited there.\n';
    expect(mergeText(mine, base, theirs)).toEqual({
      kind: 'merged',
      text: "---\n# the writer's note\ndescription: 'Old'\nhidden: true\n---\n\n# Install\n\nBody, edited there.\n",
    });
    // A key removed here and left alone there goes; removed here and changed there, it clashes.
    expect(mergeText('# Install\n\nBody.\n', base, base.replace('Body.', 'Body!'))).toEqual({ kind: 'merged', text: '# Install\n\nBody!\n' });
    expect(mergeText('# Install\n\nBody.\n', base, base.replace('Old', 'New'))).toEqual({ kind: 'conflict', reason: 'overlap' });
  });

  it('merges the title apart from the body: a retitle there and a line added at the end here', () => {
    const base = '# Install\n\nLine one.\n';
    expect(mergeText(`${base}Line two.\n`, base, '# Installing\n\nLine one.\n')).toEqual({ kind: 'merged', text: '# Installing\n\nLine one.\nLine two.\n' });
    expect(mergeText('# Setup\n\nLine one.\n', base, '# Installing\n\nLine one.\n')).toEqual({ kind: 'conflict', reason: 'overlap' });
  });

  it('keeps a line apart from the blank lines after it: a line added after the last one does not touch it', () => {
    const base = 'one\ntwo\nthree\n';
    expect(mergeText('one\ntwo\nthree\nfour\n', base, 'one\nTWO\nthree\n')).toEqual({ kind: 'merged', text: 'one\nTWO\nthree\nfour\n' });
    const spaced = 'one\n\ntwo\n\nthree\n';
    expect(mergeText('one\n\ntwo\n\nthree\n\nfour\n', spaced, spaced.replace('one', 'ONE'))).toEqual({ kind: 'merged', text: 'ONE\n\ntwo\n\nthree\n\nfour\n' });
  });

  it('merges a file whose frontmatter cannot be read line by line, as a whole', () => {
    const base = '---\nkey: [unclosed\n---\n\none\n\ntwo\n\nthree\n';
    expect(mergeText(base.replace('one', 'ONE'), base, base.replace('three', 'THREE'))).toEqual({
      kind: 'merged',
      text: base.replace('one', 'ONE').replace('three', 'THREE'),
    });
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
