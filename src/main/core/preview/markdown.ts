/**
 * The markdown-it instance the preview renders with: CommonMark plus GitHub tables and
 * strikethrough (markdown-it's defaults), footnotes (markdown-it-footnote), GitBook's blocks,
 * task lists and math (our plugins), GitBook's buttons (buttons.ts), code highlighted (highlight.ts) with a copy button and one
 * element per line (for `{% code lineNumbers="true" %}`), GitBook's cards tables (cards.ts) and
 * inline icons (`<i class="fa-github">`, icons.ts), quotes and lists past 100 levels shown flat
 * (too-deep.ts), and three rules that need the page's
 * context (env): every link and image goes through the host's link policy, the writer's raw
 * HTML through the sanitiser, and headings get the ids `quire check` checks anchors against.
 *
 * Why markdown-it: it is CommonMark-compliant, fast enough to render a page in a few
 * milliseconds, has no dependencies beyond its own small helpers, and is extended through
 * token rules rather than by patching a grammar — GitBook's `{% %}` tags fit in as one block
 * rule plus one pass over the tokens.
 */
import markdownIt, { type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { type BlockRenderHooks, gitbookBlocks } from './blocks-plugin';
import { gitbookButtons } from './buttons';
import { renderCards } from './cards';
import type { LinkOutcome } from './context';
import { highlightCode, splitHighlightedLines } from './highlight';
import { iconHtml } from './icons';
import { inlineExpressions } from './expressions';
import { escapeHtml, sanitizeHtml, type UrlRewriter, unescapeAll } from './sanitize';
import { gitbookExtras } from './small-plugins';
import { flattenTooDeep } from './too-deep';

/** What one render needs (markdown-it's env). */
export interface PreviewEnv {
  blockHooks: BlockRenderHooks;
  /** For markdown links and images. */
  link(href: string, attribute: 'href' | 'src', tag: 'a' | 'img'): LinkOutcome;
  /** For URL attributes of the writer's HTML. */
  rewriteUrl: UrlRewriter;
  /** Heading ids by 1-based line. */
  headingIds: ReadonlyMap<number, string>;
  /** The ids of the page's expandable blocks' `<summary>`s, in order (taken as they are rendered). */
  summaryIds: string[];
  /** Prefix for generated ids (tab groups), unique per rendered fragment. */
  idPrefix: string;
  /** GitBook's inline expressions, as their values (preview/expressions.ts); absent: shown as written. */
  expression?(source: string): string;
  /** Lines (1-based) a comment is on: the innermost block starting on each gets `data-comment-line`. */
  commentLines?: ReadonlySet<number>;
}

function applyLinks(state: StateCore): void {
  const env = state.env as unknown as PreviewEnv;
  const visit = (token: Token) => {
    if (token.type === 'link_open') {
      const href = String(token.attrGet('href') ?? '');
      if (href.startsWith('#fn')) return; // markdown-it-footnote's own links
      const outcome = env.link(href, 'href', 'a');
      setLink(token, 'href', outcome);
    } else if (token.type === 'image') {
      setLink(token, 'src', env.link(String(token.attrGet('src') ?? ''), 'src', 'img'));
    }
    for (const child of token.children ?? []) visit(child);
  };
  const commented = new Map<number, Token>();
  for (const token of state.tokens) {
    if (token.type === 'heading_open' && token.map) {
      const id = env.headingIds.get(token.map[0] + 1);
      if (id) token.attrSet('id', id);
    }
    if (token.nesting === 1 && !token.hidden && token.map && env.commentLines?.has(token.map[0] + 1)) commented.set(token.map[0] + 1, token);
    visit(token);
  }
  for (const [line, token] of commented) token.attrSet('data-comment-line', String(line));
}

function setLink(token: Token, attribute: 'href' | 'src', outcome: LinkOutcome): void {
  if (outcome.href === null) token.attrs = (token.attrs ?? []).filter(([name]) => name !== attribute);
  else token.attrSet(attribute, outcome.href);
  if (outcome.external) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer nofollow');
  }
  if (outcome.broken !== null) {
    token.attrJoin('class', 'gb-broken');
    token.attrSet('title', outcome.broken);
  }
}

const ICON_OPEN = /^<i\s+class\s*=\s*"([^"]*\bfa-[a-z0-9-]+[^"]*)"\s*>$/i;

/** GitBook's inline icon, `<i class="fa-github">:github:</i>`, as the icon itself (icons.ts). */
function inlineIcons(state: StateCore): void {
  for (const token of state.tokens) {
    const children = token.children;
    if (token.type !== 'inline' || !children) continue;
    for (let i = 0; i + 2 < children.length; i++) {
      const open = ICON_OPEN.exec(children[i]!.type === 'html_inline' ? children[i]!.content : '');
      const close = children[i + 2]!;
      if (!open || children[i + 1]!.type !== 'text' || close.type !== 'html_inline' || !/^<\/i\s*>$/i.test(close.content)) continue;
      const icon = new state.Token('html_inline', '', 0);
      icon.content = iconHtml(open[1]!, 'gb-icon gb-icon-inline');
      icon.meta = { trusted: true };
      children.splice(i, 3, icon);
    }
  }
}

/** A fenced code block: highlighted, one `gb-line` element per line, and a copy button the page behaviour shows. */
function fence(code: string, info: string): string {
  const lang = unescapeAll(info).trim().split(/\s+/)[0] ?? '';
  const text = code.replace(/\n$/, '');
  const highlighted = lang === '' ? null : highlightCode(text, lang);
  const lines = highlighted === null ? escapeHtml(text).split('\n') : splitHighlightedLines(highlighted);
  const langAttr = lang === '' ? '' : ` data-lang="${escapeHtml(lang)}"`;
  const codeClass = `hljs${lang === '' ? '' : ` language-${escapeHtml(lang)}`}`;
  return `<div class="gb-fence"${langAttr}><button type="button" class="gb-copy" aria-label="Copy the code" hidden>Copy</button><pre><code class="${codeClass}">${lines.map((l) => `<span class="gb-line">${l}</span>`).join('\n')}</code></pre></div>\n`;
}

/** The writer's HTML, sanitised, its buttons drawn as GitBook draws them, each expandable's summary given its anchor (check/anchors.ts). */
function writersHtml(html: string, env: PreviewEnv): string {
  const safe = gitbookButtons(sanitizeHtml(html, env.rewriteUrl));
  if (!safe.includes('<summary') || env.summaryIds.length === 0) return safe;
  return safe.replace(/<summary(?=[\s>])([^>]*)>/g, (tag, attributes: string) => {
    const id = / id="/.test(attributes) ? undefined : env.summaryIds.shift();
    return id === undefined ? tag : `<summary id="${escapeHtml(id)}"${attributes}>`;
  });
}

function createMarkdown(): MarkdownIt {
  const md = markdownIt({ html: true, linkify: false, typographer: false });
  md.use(footnote).use(gitbookBlocks).use(gitbookExtras).use(flattenTooDeep);
  md.core.ruler.push('preview_links', applyLinks);
  md.core.ruler.push('gitbook_icons', inlineIcons);
  md.core.ruler.push('gitbook_expressions', inlineExpressions);
  md.renderer.rules.html_block = (tokens, idx, _o, env) => {
    const { rewriteUrl } = env as unknown as PreviewEnv;
    const html = tokens[idx]!.content;
    return renderCards(html, rewriteUrl) ?? writersHtml(html, env as unknown as PreviewEnv);
  };
  md.renderer.rules.html_inline = (tokens, idx, _o, env) => {
    const token = tokens[idx]!;
    return token.meta?.trusted === true ? token.content : writersHtml(token.content, env as unknown as PreviewEnv);
  };
  md.renderer.rules.fence = (tokens, idx) => fence(tokens[idx]!.content, tokens[idx]!.info);
  return md;
}

let instance: MarkdownIt | null = null;

/** One shared instance: building the rule chains costs more than rendering a page. */
export function previewMarkdown(): MarkdownIt {
  instance ??= createMarkdown();
  return instance;
}
