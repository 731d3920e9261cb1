/**
 * A tokenizer for GitBook markdown that finds what references.ts and blocks.ts need and
 * nothing else: link, image and definition destinations, HTML start tags with their
 * attributes, and `{% … %}` tags, each with its offsets, in document order.
 *
 * This file does the lines, following CommonMark's block structure closely enough to tell
 * code and comments (where nothing counts) from text: YAML frontmatter, fenced code (also in
 * list items and block quotes), indented code (4 columns past the enclosing list item's
 * content, never inside a paragraph), HTML blocks (their lines hold tags but no markdown
 * links, as in CommonMark; comment blocks hold nothing; one ends with the list item or quote
 * holding it), and reference definitions. Each paragraph or HTML block then goes to
 * markdown-inline.ts; line-syntax.ts reads what a single line starts. A line holding only a
 * `{% %}` tag ends the paragraph or the HTML block (of the kinds a blank line ends) before it,
 * as GitBook's blocks do: its export writes a block's end right after HTML (`</figure>` then
 * `{% endcolumn %}`).
 *
 * Known simplifications: column arithmetic treats `>` quote markers as indentation, a
 * definition's destination must be on its label's line, and lazy continuation lines never
 * close a list item. The offsets are string (UTF-16) offsets; a leading BOM is skipped.
 */
import {
  definitionAt,
  HEADING,
  htmlBlockStart,
  isClosingFence,
  isThematicBreak,
  lineContains,
  listMarkerEnd,
  openingFence,
  startsTagLine,
} from './line-syntax';
import { type Atom, InlineScanner } from './markdown-inline';
import type { WorkMeter } from './work-meter';

export type { Atom, HtmlAttribute } from './markdown-inline';
export type { WorkMeter } from './work-meter';

export interface LexedMarkdown {
  /** Every link, image, definition, HTML start tag and `{% %}` tag outside code and comments, by offset. */
  atoms: Atom[];
  /** The 1-based line holding an offset. */
  lineAt(offset: number): number;
}

type LineClass = 'blank' | 'code' | 'raw' | 'html' | 'text';
type Previous = 'blank' | 'paragraph' | 'other';

interface Fence {
  char: number;
  length: number;
  quotes: number;
  /** Where the fence's container starts: the list item's content column, or just after its `>`. */
  column: number;
}

export function lexMarkdown(text: string, meter: WorkMeter = { steps: 0 }): LexedMarkdown {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  meter.steps += text.length;
  const atoms: Atom[] = [];
  new LineLexer(text, lineStarts, meter, atoms).run();
  atoms.sort((a, b) => a.at - b.at);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { atoms, lineAt };
}

class LineLexer {
  private readonly inline: InlineScanner;
  private previous: Previous = 'blank';
  private readonly lists: number[] = [];
  private fence: Fence | null = null;
  /** End marker of the open HTML block ('' ends at a blank line); `htmlRaw` when it holds nothing (a comment). */
  private htmlEnd: string | null = null;
  private htmlRaw = false;
  /** Where the open HTML block's container starts (its list item's content column, or just after its `>`) and how many `>` hold it. */
  private htmlContainer = { column: 0, quotes: 0 };
  private segment: { start: number; end: number; markdown: boolean } | null = null;

  constructor(
    private readonly text: string,
    private readonly lineStarts: number[],
    private readonly meter: WorkMeter,
    private readonly atoms: Atom[],
  ) {
    this.inline = new InlineScanner(text, meter, atoms);
  }

  run(): void {
    const frontmatterLines = this.frontmatterLineCount();
    for (let k = frontmatterLines; k < this.lineStarts.length; k++) {
      const start = k === 0 && this.text.charCodeAt(0) === 0xfeff ? 1 : this.lineStarts[k]!;
      const next = this.lineStarts[k + 1] ?? this.text.length + 1;
      let end = next - 1;
      if (end > start && this.text.charCodeAt(end - 1) === 0x0d) end--;
      this.addLine(start, end);
    }
    this.flush();
  }

  private addLine(start: number, end: number): void {
    const { cls, content, newBlock } = this.classify(start, end);
    if (cls !== 'text' && cls !== 'html') {
      this.flush();
      return;
    }
    const markdown = cls === 'text';
    if (this.segment && (newBlock || this.segment.markdown !== markdown)) this.flush();
    if (this.segment) this.segment.end = end;
    else this.segment = { start: content, end, markdown };
  }

  private flush(): void {
    if (this.segment) this.inline.scan(this.segment.start, this.segment.end, this.segment.markdown);
    this.segment = null;
  }

  /** Lines of a YAML frontmatter block at the top (`---` … `---` or `...`), or 0. */
  private frontmatterLineCount(): number {
    const text = this.text;
    const first = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (!/^---[ \t]*\r?(?:\n|$)/.test(text.slice(first, first + 8))) return 0;
    for (let k = 1; k < this.lineStarts.length; k++) {
      const start = this.lineStarts[k]!;
      this.meter.steps++;
      if (/^(?:---|\.\.\.)[ \t]*\r?(?:\n|$)/.test(text.slice(start, start + 8))) return k + 1;
    }
    return 0;
  }

  private classify(start: number, end: number): { cls: LineClass; content: number; newBlock: boolean } {
    const text = this.text;
    let { pos, col } = this.indent(start, end, 0);
    let quotes = 0;
    // Indentation inside a block quote counts from just after its `>` (and the one space it may take).
    let floor = 0;
    while (pos < end && text.charCodeAt(pos) === 0x3e /* > */ && col - Math.max(floor, this.containerColumn(col)) <= 3) {
      quotes++;
      floor = col + 1 + (text.charCodeAt(pos + 1) === 0x20 || text.charCodeAt(pos + 1) === 0x09 ? 1 : 0);
      ({ pos, col } = this.indent(pos + 1, end, col + 1, true));
    }
    const blank = pos >= end;

    if (this.htmlEnd !== null && !blank && this.endsHtmlBlock(pos, end, col, quotes)) this.htmlEnd = null;
    if (this.htmlEnd !== null) {
      const cls: LineClass = this.htmlRaw ? 'raw' : 'html';
      if (this.htmlEnd === '') {
        if (!blank) return { cls, content: start, newBlock: false };
        this.htmlEnd = null;
      } else {
        const closes = lineContains(this.text, start, end, this.htmlEnd, this.meter);
        if (closes) this.htmlEnd = null;
        this.previous = 'other';
        return { cls, content: start, newBlock: false };
      }
    }

    if (this.fence) {
      const fence = this.fence;
      if (quotes < fence.quotes || (!blank && col < fence.column)) this.fence = null;
      else {
        if (col - Math.max(fence.column, floor) <= 3 && isClosingFence(this.text, pos, end, fence)) {
          this.fence = null;
          this.previous = 'other';
        }
        return { cls: 'code', content: pos, newBlock: true };
      }
    }

    if (blank) {
      this.previous = 'blank';
      return { cls: 'blank', content: pos, newBlock: true };
    }
    const startsBlock = this.startsBlock(pos, end);
    if (this.previous === 'paragraph' && !startsBlock) return { cls: 'text', content: pos, newBlock: false };
    while (this.lists.length > 0 && col < this.lists[this.lists.length - 1]!) this.lists.pop();
    if (col - Math.max(floor, this.lists[this.lists.length - 1] ?? 0) >= 4) {
      if (this.previous === 'paragraph') return { cls: 'text', content: pos, newBlock: false };
      this.previous = 'other';
      return { cls: 'code', content: pos, newBlock: true };
    }

    const marker = listMarkerEnd(this.text, pos, end);
    let listItem = false;
    if (marker > 0 && !isThematicBreak(this.text, pos, end, this.meter)) {
      const after = this.indent(marker, end, col + (marker - pos));
      const spaces = after.col - (col + (marker - pos));
      const contentColumn = after.pos >= end || spaces > 4 ? col + (marker - pos) + 1 : after.col;
      this.lists.push(contentColumn);
      listItem = true;
      this.previous = 'other';
      if (after.pos >= end) return { cls: 'text', content: after.pos, newBlock: true };
      // Five or more spaces after the marker: the item starts with indented code.
      if (spaces > 4) return { cls: 'code', content: after.pos, newBlock: true };
      ({ pos, col } = after);
    }
    return this.leaf(pos, end, quotes, Math.max(floor, this.lists[this.lists.length - 1] ?? 0), listItem);
  }

  private leaf(pos: number, end: number, quotes: number, column: number, listItem: boolean): { cls: LineClass; content: number; newBlock: boolean } {
    const text = this.text;
    const c = text.charCodeAt(pos);
    const block = (cls: LineClass): { cls: LineClass; content: number; newBlock: boolean } => {
      this.previous = 'other';
      return { cls, content: pos, newBlock: true };
    };
    if (c === 0x60 || c === 0x7e) {
      const fence = openingFence(this.text, pos, end, this.meter);
      if (fence) {
        this.fence = { ...fence, quotes, column };
        return block('code');
      }
    }
    if (c === 0x23 && HEADING.test(text.slice(pos, pos + 8))) return block('text');
    if (isThematicBreak(this.text, pos, end, this.meter)) return block('text');
    if (c === 0x3c) {
      const html = htmlBlockStart(this.text, pos, end, listItem || this.previous !== 'paragraph', this.meter);
      if (html) {
        this.htmlRaw = html.raw;
        this.htmlContainer = { column, quotes };
        this.htmlEnd = html.end === '' || !lineContains(this.text, pos + 2, end, html.end, this.meter) ? html.end : null;
        return block(html.raw ? 'raw' : 'html');
      }
    }
    if (startsTagLine(this.text, pos, end, this.meter)) return block('text');
    if (c === 0x5b && this.previous !== 'paragraph') {
      const href = definitionAt(this.text, pos, end, this.meter);
      if (href) {
        this.atoms.push({ type: 'definition', at: href.start, href });
        return block('raw');
      }
    }
    const newBlock = this.previous !== 'paragraph';
    this.previous = 'paragraph';
    return { cls: 'text', content: pos, newBlock };
  }

  /**
   * Whether a line (not blank) ends the open HTML block before it: a line outside the list item
   * or quote holding the block closes them and the block with them (CommonMark), and a line
   * holding only a `{% %}` tag ends a block that would run to a blank line, as GitBook's export
   * writes a block's end right after HTML (`</figure>` then `{% endcolumn %}`).
   */
  private endsHtmlBlock(pos: number, end: number, col: number, quotes: number): boolean {
    const container = this.htmlContainer;
    if (quotes < container.quotes || col < container.column) return true;
    return this.htmlEnd === '' && quotes === container.quotes && col - container.column < 4 && startsTagLine(this.text, pos, end, this.meter);
  }

  /** Skips spaces and tabs from `pos` (tabs to the next multiple of 4); `oneSpace`: at most one column (after `>`). */
  private indent(pos: number, end: number, col: number, oneSpace = false): { pos: number; col: number } {
    const text = this.text;
    const limit = oneSpace ? col + 1 : Number.POSITIVE_INFINITY;
    while (pos < end && col < limit) {
      const c = text.charCodeAt(pos);
      if (c === 0x20) col++;
      else if (c === 0x09) col += 4 - (col % 4);
      else break;
      pos++;
      this.meter.steps++;
    }
    if (oneSpace) return this.indent(pos, end, col);
    return { pos, col };
  }

  /** The content column of the innermost list item a line indented to `col` is inside (0 if none). */
  private containerColumn(col: number): number {
    for (let k = this.lists.length - 1; k >= 0; k--) if (this.lists[k]! <= col) return this.lists[k]!;
    return 0;
  }

  private startsBlock(pos: number, end: number): boolean {
    const text = this.text;
    const c = text.charCodeAt(pos);
    if (c === 0x3e || listMarkerEnd(this.text, pos, end) > 0 || isThematicBreak(this.text, pos, end, this.meter)) return true;
    if (c === 0x23) return HEADING.test(text.slice(pos, pos + 8));
    if (c === 0x60 || c === 0x7e) return openingFence(this.text, pos, end, this.meter) !== null;
    if (c === 0x3c) return htmlBlockStart(this.text, pos, end, false, this.meter) !== null;
    return startsTagLine(this.text, pos, end, this.meter);
  }
}
