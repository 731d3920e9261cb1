/**
 * Two small markdown-it plugins for what GitBook pages hold and CommonMark does not: task list
 * items (`- [x] done`) shown as checkboxes, and `$$…$$` math as GitBook writes it — inline
 * within a line of text, or a block: lines between two `$$` lines, or a paragraph that is
 * nothing but one `$$…$$` (GitBook's export of a math block) — typeset by KaTeX (math.ts), the
 * TeX read before markdown's backslash escapes can touch it.
 */
import type { MarkdownIt, StateBlock, StateCore, StateInline } from 'markdown-it';
import { renderMath } from './math';

function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const m = /^\[([ xX])\][ \t]/.exec(inline.content);
    const first = inline.children?.[0];
    if (!m || !first || first.type !== 'text' || !first.content.startsWith(m[0])) continue;
    first.content = first.content.slice(m[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" class="gb-task" disabled${m[1] === ' ' ? '' : ' checked'}> `;
    box.meta = { trusted: true };
    inline.children!.unshift(box);
    tokens[i - 2]!.attrJoin('class', 'gb-task-item');
  }
}

function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (!src.startsWith('$$', state.pos)) return false;
  const end = src.indexOf('$$', state.pos + 2);
  if (end < 0 || end === state.pos + 2) return false;
  if (!silent) {
    const token = state.push('math_inline', 'span', 0);
    token.content = src.slice(state.pos + 2, end);
  }
  state.pos = end + 2;
  return true;
}

function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const lineText = (line: number) => state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!);
  if (state.sCount[startLine]! - state.blkIndent >= 4 || lineText(startLine).trim() !== '$$') return false;
  let last = startLine + 1;
  while (last < endLine && lineText(last).trim() !== '$$') last++;
  if (last >= endLine) return false;
  if (silent) return true;
  const token = state.push('math_block', 'div', 0);
  token.block = true;
  token.content = state.getLines(startLine + 1, last, state.blkIndent, false);
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/** A paragraph holding only one inline `$$…$$` is a math block, as GitBook exports one. */
function mathParagraphs(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 1; i + 1 < tokens.length; i++) {
    const inline = tokens[i]!;
    const children = inline.children ?? [];
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i + 1]!.type !== 'paragraph_close') continue;
    if (children.length !== 1 || children[0]!.type !== 'math_inline' || tokens[i - 1]!.hidden) continue;
    const block = new state.Token('math_block', 'div', 0);
    block.block = true;
    block.content = children[0]!.content;
    block.map = tokens[i - 1]!.map;
    tokens.splice(i - 1, 3, block);
  }
}

export function gitbookExtras(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'gitbook_math_paragraphs', mathParagraphs);
  md.core.ruler.after('inline', 'gitbook_task_lists', taskLists);
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.renderer.rules.math_inline = (tokens, idx) => `<span class="gb-math">${renderMath(tokens[idx]!.content, false)}</span>`;
  md.renderer.rules.math_block = (tokens, idx) => `<div class="gb-math-block">${renderMath(tokens[idx]!.content, true)}</div>\n`;
}
