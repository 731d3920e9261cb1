/**
 * Which block of a page a line is in, from the blocks' lines (core/review/blocks.ts finds
 * them): what a comment on that line names. Shared by the core, which sends the comment, and
 * the renderer, which shows the lines it will be on.
 */
export interface LineSpan {
  /** First and last line (1-based, inclusive). */
  start: number;
  end: number;
  /** 0 for a block of the page, 1 for one inside it (a list item, a code line), … */
  depth: number;
}

/**
 * The innermost block holding a line, or null (the frontmatter, the title, a blank line between
 * blocks). Of blocks on the same lines (a list item and its paragraph), the outer one: it is the
 * block a reader sees.
 */
export function blockAt<S extends LineSpan>(spans: readonly S[], line: number): S | null {
  let best: S | null = null;
  for (const s of spans) {
    if (s.start > line || line > s.end) continue;
    const size = s.end - s.start;
    if (best === null || size < best.end - best.start || (size === best.end - best.start && s.depth < best.depth)) best = s;
  }
  return best;
}

/** The block a comment on `line` names: the one holding it, else (a blank line) the one just above, else the first below; null above the body. */
export function blockForLine<S extends LineSpan>(spans: readonly S[], line: number): S | null {
  const holding = blockAt(spans, line);
  if (holding) return holding;
  const top = spans.filter((s) => s.depth === 0);
  const first = top.reduce<S | null>((a, s) => (a === null || s.start < a.start ? s : a), null);
  if (!first || line < first.start - 1) return null; // above the body: frontmatter or title
  const above = top.filter((s) => s.end < line).sort((a, b) => b.end - a.end)[0];
  const below = top.filter((s) => s.start > line).sort((a, b) => a.start - b.start)[0];
  return above ?? below ?? null;
}
