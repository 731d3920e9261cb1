/**
 * The markdown-it instance the preview renders with: CommonMark plus GitHub tables and
 * strikethrough (markdown-it's defaults), footnotes (markdown-it-footnote), GitBook's blocks,
 * task lists and math (our plugins), and three rules that need the page's context (env): every
 * link and image goes through the host's link policy, the writer's raw HTML through the
 * sanitiser, and headings get the ids `quire check` checks anchors against.
 *
 * Why markdown-it: it is CommonMark-compliant, fast enough to render a page in a few
 * milliseconds, has no dependencies beyond its own small helpers, and is extended through
 * token rules rather than by patching a grammar — GitBook's `{% %}` tags fit in as one block
 * rule plus one pass over the tokens.
 */
import markdownIt, { type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { type BlockRenderHooks, gitbookBlocks } from './blocks-plugin';
import type { LinkOutcome } from './context';
import { escapeHtml, sanitizeHtml, type UrlRewriter } from './sanitize';
import { gitbookExtras } from './small-plugins';

/** What one render needs (markdown-it's env). */
export interface PreviewEnv {
  blockHooks: BlockRenderHooks;
  /** For markdown links and images. */
  link(href: string, attribute: 'href' | 'src', tag: 'a' | 'img'): LinkOutcome;
  /** For URL attributes of the writer's HTML. */
  rewriteUrl: UrlRewriter;
  /** Heading ids by 1-based line. */
  headingIds: ReadonlyMap<number, string>;
  /** Prefix for generated ids (tab groups), unique per rendered fragment. */
  idPrefix: string;
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
  for (const token of state.tokens) {
    if (token.type === 'heading_open' && token.map) {
      const id = env.headingIds.get(token.map[0] + 1);
      if (id) token.attrSet('id', id);
    }
    visit(token);
  }
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

function createMarkdown(): MarkdownIt {
  const md = markdownIt({ html: true, linkify: false, typographer: false });
  md.use(footnote).use(gitbookBlocks).use(gitbookExtras);
  md.core.ruler.push('preview_links', applyLinks);
  md.renderer.rules.html_block = (tokens, idx, _o, env) => sanitizeHtml(tokens[idx]!.content, (env as unknown as PreviewEnv).rewriteUrl);
  md.renderer.rules.html_inline = (tokens, idx, _o, env) => {
    const token = tokens[idx]!;
    return token.meta?.trusted === true ? token.content : sanitizeHtml(token.content, (env as unknown as PreviewEnv).rewriteUrl);
  };
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const info = tokens[idx]!.info.trim();
    const html = fence(tokens, idx, options, env, self);
    return info ? `<div class="gb-fence" data-lang="${escapeHtml(info.split(/\s+/)[0]!)}">${html}</div>` : html;
  };
  return md;
}

let instance: MarkdownIt | null = null;

/** One shared instance: building the rule chains costs more than rendering a page. */
export function previewMarkdown(): MarkdownIt {
  instance ??= createMarkdown();
  return instance;
}
