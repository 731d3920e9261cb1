/**
 * Quotes and lists nested deeper than markdown-it goes (its `maxNesting`, 100 levels: each level
 * a recursive call). Past it, markdown-it drops the lines without a word — for a list, the whole
 * rest of the page. Here they are rendered flat instead: their quote and list markers taken off,
 * as paragraphs of text (inline markdown still read), after a note, once a page, that says so.
 */
import type { MarkdownIt, StateBlock } from 'markdown-it';

/** Quote and list markers at the start of a line, however many. */
const MARKERS = /^(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*/;

export const TOO_DEEP_NOTE = (levels: number): string =>
  `This page nests quotes and lists more than ${levels} levels deep; the preview shows what lies deeper as plain paragraphs, without its quotes and lists.`;

export function flattenTooDeep(md: MarkdownIt): void {
  const tokenize = md.block.tokenize.bind(md.block);
  md.block.tokenize = (state, startLine, endLine) => {
    if (state.level < md.options.maxNesting) tokenize(state, startLine, endLine);
    else flatten(state, startLine, endLine);
  };
  md.renderer.rules.gitbook_too_deep = () => `<p class="gb-error" role="note">${TOO_DEEP_NOTE(md.options.maxNesting)}</p>\n`;
}

/** The lines markdown-it's tokenize would take here (up to one indented less than the block), as paragraphs. */
function flatten(state: StateBlock, startLine: number, endLine: number): void {
  const env = state.env as { tooDeepSaid?: boolean };
  if (!env.tooDeepSaid) {
    state.push('gitbook_too_deep', '', 0).block = true;
    env.tooDeepSaid = true;
  }
  let paragraph: string[] = [];
  let first = startLine;
  const flush = (end: number) => {
    if (paragraph.length > 0) {
      state.push('paragraph_open', 'p', 1).map = [first, end];
      const inline = state.push('inline', '', 0);
      inline.content = paragraph.join('\n');
      inline.map = [first, end];
      inline.children = [];
      state.push('paragraph_close', 'p', -1);
    }
    paragraph = [];
  };
  let line = startLine;
  for (; line < endLine; line++) {
    if (state.isEmpty(line)) {
      flush(line);
      continue;
    }
    if (state.sCount[line]! < state.blkIndent) break;
    const text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!).replace(MARKERS, '');
    if (text === '') {
      flush(line);
      continue;
    }
    if (paragraph.length === 0) first = line;
    paragraph.push(text);
  }
  flush(line);
  state.line = line;
}
