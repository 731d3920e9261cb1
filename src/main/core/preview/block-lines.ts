/**
 * Where the preview reads a `{% %}` tag, by the rules `quire check` reads a page by
 * (content/markdown-lex.ts and line-syntax.ts: one rule set, so the preview never shows a block
 * broken that the check calls fine, nor the other way round):
 *
 * - a line holding only a tag is a block of its own (blocks-plugin.ts's block rule);
 * - such a line ends an HTML block of the kinds a blank line ends, as GitBook's export writes a
 *   block's end right after HTML (`</figure>` then `{% endcolumn %}`, `</table>` then `{% endtab %}`);
 * - a tag inside a paragraph (GitBook writes `{% tab title="A" %} Text {% endtab %}` on one
 *   line) splits the paragraph around it, as the check pairs it with the others.
 */
import type { StateBlock, StateCore, Token } from 'markdown-it';
import { endTagTarget } from '../content';
import { htmlBlockStart, isTagOnlyLine } from '../content';
import { lexMarkdown } from '../content';
import { parseTag, type TagSyntax } from '../content';
import type { TagMeta } from './blocks-plugin';

export const lineText = (state: StateBlock, line: number): string => state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!);

/** A tag as the renderer's token carries it (`line`: 1-based); null when it has no name. */
export function tagMetaOf(tag: TagSyntax, line: number): TagMeta | null {
  if (tag.name === '') return null;
  const target = endTagTarget(tag.name);
  const args: Record<string, string> = {};
  const values: string[] = [];
  for (const a of tag.args) {
    if (a.key === null) values.push(a.value);
    else args[a.key] = a.value;
  }
  return { name: target ?? tag.name, args, values, rest: tag.rest, role: target ? 'close' : 'open', line };
}

/** The tag of a line that holds only one (0-based `line`), else null. */
export function readTagLine(state: StateBlock, line: number): TagMeta | null {
  if (state.sCount[line]! - state.blkIndent >= 4) return null;
  const text = lineText(state, line);
  if (!isTagOnlyLine(text)) return null;
  const start = text.indexOf('{%');
  return tagMetaOf(parseTag(text, start, text.indexOf('%}', start + 2) + 2), line + 1);
}

/** An HTML block of the kinds a blank line ends, cut short at a line holding only a tag. Other HTML blocks are markdown-it's. */
export function htmlBlockUntilTag(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent || !state.md.options.html || state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const pos = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (htmlBlockStart(state.src, pos, state.eMarks[startLine]!, true, { steps: 0 })?.end !== '') return false;
  let line = startLine + 1;
  for (; line < endLine; line++) {
    if (state.isEmpty(line) || state.sCount[line]! < state.blkIndent) return false;
    if (state.sCount[line]! - state.blkIndent < 4 && isTagOnlyLine(lineText(state, line))) break;
  }
  if (line >= endLine) return false;
  const token = state.push('html_block', '', 0);
  token.map = [startLine, line];
  token.content = state.getLines(startLine, line, state.blkIndent, true);
  state.line = line;
  return true;
}

/** Splits each paragraph around the tags it holds (outside code spans): the text before, each tag as a block, the text after. */
export function splitParagraphTags(state: StateCore): void {
  const tokens = state.tokens;
  if (!tokens.some((t) => t.type === 'inline' && t.content.includes('{%'))) return;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    const inline = tokens[i + 1];
    const close = tokens[i + 2];
    const tags = open.type === 'paragraph_open' && inline?.type === 'inline' && inline.content.includes('{%') ? paragraphTags(inline.content) : [];
    if (tags.length === 0) {
      out.push(open);
      continue;
    }
    const firstLine = (open.map?.[0] ?? 0) + 1;
    let from = 0;
    const text = (to: number) => {
      const content = inline!.content.slice(from, to).trim();
      if (content === '') return;
      const p = new state.Token('inline', '', 0);
      p.content = content;
      p.level = inline!.level;
      p.children = [];
      out.push(paragraphToken(state, open, 'paragraph_open', 1), p, paragraphToken(state, open, 'paragraph_close', -1));
    };
    for (const tag of tags) {
      const meta = tagMetaOf(tag, firstLine + countLines(inline!.content, tag.start));
      if (!meta) continue;
      text(tag.start);
      const token = new state.Token('gitbook_tag', '', 0);
      token.meta = meta as unknown as Record<string, unknown>;
      token.block = true;
      token.level = open.level;
      out.push(token);
      from = tag.end;
    }
    text(inline!.content.length);
    i += close?.type === 'paragraph_close' ? 2 : 1;
  }
  state.tokens = out;
}

function paragraphTags(content: string): TagSyntax[] {
  return lexMarkdown(content).atoms.flatMap((a) => (a.type === 'tag' ? [a.tag] : []));
}

function paragraphToken(state: StateCore, like: Token, type: 'paragraph_open' | 'paragraph_close', nesting: 1 | -1): Token {
  const token = new state.Token(type, 'p', nesting);
  token.block = true;
  token.hidden = like.hidden;
  token.level = like.level;
  return token;
}

const countLines = (text: string, to: number): number => {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
};
