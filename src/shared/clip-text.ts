/**
 * Text shortened for display: at most `max` UTF-16 units, `…` included, cut between characters as
 * a reader sees them (grapheme clusters: an emoji with its modifiers, a letter with its accents),
 * never inside one. A cut inside a surrogate pair printed "�" in a terminal and sent a lone
 * surrogate to the server. A first character longer than the room left (a letter under hundreds
 * of combining marks) is cut between its code points.
 */
let segmenter: Intl.Segmenter | null = null;
const graphemes = (text: string): Intl.Segments => {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
};

export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - 1);
  let end = 0;
  for (const { index, segment } of graphemes(text)) {
    if (index + segment.length > room) break;
    end = index + segment.length;
  }
  if (end === 0) {
    // Between code points: never after a high surrogate.
    end = room;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
  }
  return `${text.slice(0, end)}…`;
}

/** Where the character (grapheme cluster) holding offset `i` starts: a window of a text cut there cuts none in two. */
export function characterStart(text: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= text.length) return text.length;
  return graphemes(text).containing(i)?.index ?? i;
}
