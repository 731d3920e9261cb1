/** Text shortened for display is cut between characters as a reader sees them (issue 27, item 21). */
import { describe, expect, it } from 'vitest';
import { characterStart, clipText } from '../../src/shared/clip-text';

const BOUNDARIES = (text: string): number[] => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.index);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('clipText', () => {
  it('leaves text that fits as it is, and cuts the rest to `max` units with the ellipsis', () => {
    expect(clipText('short', 5)).toBe('short');
    expect(clipText('abcdef', 5)).toBe('abcd…');
  });

  it('never cuts inside an emoji, a flag, a family or an accented letter', () => {
    for (const tail of ['🎉', '👍🏽', '🇫🇷', '👩‍👩‍👧', 'e\u0301', '한']) {
      for (let pad = 0; pad < 12; pad++) {
        const text = `${'a'.repeat(pad)}${tail}${tail}bbbbbbbbbbbb`;
        const out = clipText(text, 10);
        expect(out.length).toBeLessThanOrEqual(10);
        expect(out, `${pad} ${tail}`).not.toMatch(LONE_SURROGATE);
        const kept = out.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        expect(kept.length === 0 || BOUNDARIES(text).includes(kept.length)).toBe(true);
      }
    }
  });

  it('cuts a character longer than the room between its code points, never inside a surrogate pair', () => {
    const zalgo = `a${'\u0301'.repeat(300)}`;
    expect(clipText(zalgo, 10)).toBe(`${zalgo.slice(0, 9)}…`);
    const family = '👩‍👩‍👧‍👦'.repeat(3);
    const out = clipText(family, 4);
    expect(out).not.toMatch(LONE_SURROGATE);
    expect(out).toBe('👩\u200d…'); // a code point boundary: the joiner is one
  });
});

describe('characterStart', () => {
  it('gives the start of the character holding an offset', () => {
    expect(characterStart('ab🎉cd', 3)).toBe(2);
    expect(characterStart('ab🎉cd', 2)).toBe(2);
    expect(characterStart('ab🎉cd', 4)).toBe(4);
    expect(characterStart('abc', -5)).toBe(0);
    expect(characterStart('abc', 9)).toBe(3);
  });
});
