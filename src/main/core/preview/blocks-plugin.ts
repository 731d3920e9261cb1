/**
 * A markdown-it plugin for GitBook's `{% … %}` blocks. A line holding one tag becomes a token
 * (a block rule, so markdown-it parses everything between tags as ordinary markdown; where else
 * a tag is read, as `quire check` reads it, is block-lines.ts's); a core
 * rule then pairs the tags the way content/blocks.ts's scanner does (`embed` and `file` may end
 * themselves, `include` never has an end, an unknown block ends itself unless its end tag is in
 * the page, an unclosed block is closed at the end of the page), and the render rules turn each
 * block into the HTML GitBook shows: hints, tabs (a tablist: page-behaviour.js switches them,
 * with the arrow keys too), steppers, columns, titled code, content-ref cards, embeds as links,
 * files as cards, includes with their title, OpenAPI and swagger blocks as the operation from
 * the local specification when the host has it (openapi-html.ts; else a card with the method,
 * path and summary, the details being GitBook's to fetch), updates as a timeline (each entry's
 * date and tags beside it), and an integration's block as a card
 * naming it and its parameters.
 */
import type { MarkdownIt, StateBlock, StateCore, Token } from 'markdown-it';
import { BLOCKS_BY_NAME, isIntegrationBlock } from '../content';
import { htmlBlockUntilTag, readTagLine, splitParagraphTags } from './block-lines';
import { iconHtml } from './icons';
import { operationHead } from './openapi-html';
import { escapeHtml, isSafeUrl } from './sanitize';

export interface TagMeta {
  name: string;
  /** key="value" arguments. */
  args: Record<string, string>;
  /** Positional values (include's path). */
  values: string[];
  /** Everything after the name (an `if` condition). */
  rest: string;
  /** open: has content and a close; void: stands alone; close: ends a block; stray: an end tag that closes nothing. */
  role: 'open' | 'void' | 'close' | 'stray';
  /** The open tag's meta, for a close. */
  opener?: TagMeta;
  /** Closed at the end of the page because its end tag is missing. */
  unclosed?: boolean;
  /** Tabs: the titles of its tabs; a tab: its place among them and its group's id. */
  tabs?: string[];
  tabIndex?: number;
  group?: string;
  parent?: TagMeta | null;
  /** Filled by the host's render hooks (include, content-ref). */
  line: number;
}

/** markdown-it types `meta` as a record; these tokens carry a TagMeta. */
export const tagMeta = (token: Token): TagMeta => token.meta as unknown as TagMeta;
const setMeta = (token: Token, meta: TagMeta): void => {
  token.meta = meta as unknown as Record<string, unknown>;
};

function tagRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const meta = readTagLine(state, startLine);
  if (!meta) return false;
  if (silent) return true;
  const token = state.push('gitbook_tag', '', 0);
  setMeta(token, meta);
  token.map = [startLine, startLine + 1];
  token.block = true;
  state.line = startLine + 1;
  return true;
}

const endsItself = (meta: TagMeta, endNames: ReadonlySet<string>): boolean => {
  const spec = BLOCKS_BY_NAME.get(meta.name);
  return spec ? spec.end === 'optional' : !endNames.has(meta.name);
};

/** Pairs the tag tokens of the block level (see the module comment), then gives tabs their titles. */
function pairTags(state: StateCore): void {
  const tokens = state.tokens;
  const tags = tokens.filter((t) => t.type === 'gitbook_tag').map(tagMeta);
  const endNames = new Set(tags.filter((m) => m.role === 'close').map((m) => m.name));
  const stack: TagMeta[] = [];
  const popEndingItself = (except: string | null) => {
    for (let top = stack.at(-1); top && top.name !== except && endsItself(top, endNames); top = stack.at(-1)) {
      top.role = 'void';
      stack.pop();
    }
  };
  const out: Token[] = [];
  for (const token of tokens) {
    if (token.type !== 'gitbook_tag') {
      out.push(token);
      continue;
    }
    const meta = tagMeta(token);
    if (meta.role === 'open') {
      popEndingItself(null);
      meta.parent = stack.at(-1) ?? null;
      if (BLOCKS_BY_NAME.get(meta.name)?.end === 'none' || isIntegrationBlock(meta.name)) meta.role = 'void';
      else stack.push(meta);
      out.push(token);
      continue;
    }
    popEndingItself(meta.name);
    const at = stack.map((m) => m.name).lastIndexOf(meta.name);
    if (at < 0) {
      meta.role = 'stray';
      out.push(token);
      continue;
    }
    // Blocks opened inside and never closed end here, before their parent.
    for (const inner of stack.splice(at + 1).reverse()) out.push(closing(state, inner, true));
    const opener = stack.pop()!;
    meta.opener = opener;
    out.push(token);
  }
  popEndingItself(null);
  for (const inner of stack.reverse()) out.push(closing(state, inner, true));
  state.tokens = dropContentRefBodies(out);
  let groups = 0;
  for (const t of state.tokens) {
    if (t.type !== 'gitbook_tag') continue;
    const meta = tagMeta(t);
    if (meta.role !== 'open') continue;
    if (meta.name === 'tabs') {
      meta.tabs = [];
      meta.group = `${String(state.env.idPrefix ?? '')}gb-tabs-${groups++}`;
    } else if (meta.name === 'tab' && meta.parent?.name === 'tabs') {
      meta.tabIndex = meta.parent.tabs!.push(meta.args.title ?? `Tab ${meta.parent.tabs!.length + 1}`) - 1;
      meta.group = meta.parent.group;
    }
  }
}

function closing(state: StateCore, opener: TagMeta, unclosed: boolean): Token {
  const token = new state.Token('gitbook_tag', '', 0);
  token.block = true;
  opener.unclosed = unclosed;
  setMeta(token, { name: opener.name, args: {}, values: [], rest: '', role: 'close', opener, line: opener.line });
  return token;
}

/** A content-ref's body is the link GitBook writes for editors without block support: the card replaces it. */
function dropContentRefBodies(tokens: Token[]): Token[] {
  const out: Token[] = [];
  let inside = 0;
  for (const t of tokens) {
    const meta = t.type === 'gitbook_tag' ? tagMeta(t) : null;
    const isRef = meta !== null && (meta.name === 'content-ref' || meta.opener?.name === 'content-ref');
    if (isRef && meta?.role === 'open') inside++;
    if (isRef && meta?.role === 'close') inside--;
    if (inside === 0 || isRef) out.push(t);
  }
  return out;
}

/** Render hooks the page renderer gives (they need the page's context). */
export interface BlockRenderHooks {
  contentRef(url: string): string;
  embed(url: string): string;
  file(src: string): string;
  include(path: string): string;
  /** An `{% if %}` block's label, and whether a reader would not see it (null: cannot tell); absent: the condition as written. */
  condition?(expression: string): { label: string; hidden: boolean | null };
  /** An OpenAPI block from its local specification (the head, up to its open body), or null to show the card alone. */
  openapi?(name: string, args: Readonly<Record<string, string>>): string | null;
}

const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);
const HINT_LABEL: Record<string, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' };

function openHtml(meta: TagMeta, hooks: BlockRenderHooks): string {
  const a = meta.args;
  switch (meta.name) {
    case 'hint': {
      const style = HINT_STYLES.has(a.style ?? '') ? a.style! : 'info';
      return `<div class="gb-hint gb-hint-${style}" role="note" aria-label="${HINT_LABEL[style]}"><div class="gb-hint-body">\n`;
    }
    case 'tabs': {
      const tabs = meta.tabs!.map(
        (t, i) =>
          `<button type="button" role="tab" class="gb-tab" id="${meta.group}-tab-${i}" aria-controls="${meta.group}-panel-${i}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${escapeHtml(t)}</button>`,
      );
      return `<div class="gb-tabs"><div class="gb-tab-bar" role="tablist">${tabs.join('')}</div><div class="gb-tab-panels">\n`;
    }
    case 'tab': {
      if (meta.group === undefined || meta.tabIndex === undefined) return `<div class="gb-tab-panel">\n`;
      const id = `${meta.group}-panel-${meta.tabIndex}`;
      return `<div class="gb-tab-panel" role="tabpanel" id="${id}" aria-labelledby="${meta.group}-tab-${meta.tabIndex}" tabindex="0"${meta.tabIndex > 0 ? ' hidden' : ''}>\n`;
    }
    case 'stepper':
      return '<ol class="gb-stepper">\n';
    case 'step':
      return '<li class="gb-step">\n';
    case 'columns':
      return '<div class="gb-columns">\n';
    case 'column':
      return '<div class="gb-column">\n';
    case 'code':
      return `<figure class="gb-code${a.lineNumbers === 'true' ? ' gb-line-numbers' : ''}${a.overflow === 'wrap' ? ' gb-wrap' : ''}">${a.title ? `<figcaption>${escapeHtml(a.title)}</figcaption>` : ''}\n`;
    case 'content-ref':
      return hooks.contentRef(a.url ?? '');
    case 'embed':
      return `<div class="gb-embed">${hooks.embed(a.url ?? '')}<div class="gb-caption">\n`;
    case 'file':
      return `<div class="gb-file">${hooks.file(a.src ?? '')}<div class="gb-caption">\n`;
    case 'if': {
      const shown = hooks.condition?.(meta.rest);
      if (!shown) return `<div class="gb-if"><div class="gb-if-label">Shown when <code>${escapeHtml(meta.rest)}</code></div>\n`;
      return `<div class="gb-if${shown.hidden ? ' gb-if-hidden' : ''}"><div class="gb-if-label">${shown.label}</div>\n`;
    }
    case 'updates':
      return '<ol class="gb-updates" aria-label="Updates">\n';
    case 'openapi':
    case 'openapi-operation':
    case 'swagger':
    case 'api-method':
      return (
        hooks.openapi?.(meta.name, a) ??
        operationCard(a.method ?? '', `${a.baseUrl ?? a.host ?? ''}${a.path ?? ''}`, a.summary ?? null, a.src ?? a.spec ?? null)
      );
    case 'openapi-webhook':
      return hooks.openapi?.(meta.name, a) ?? operationCard(a.method ?? '', a.name ?? '', 'Webhook', a.spec ?? null);
    case 'openapi-schemas':
      return (
        hooks.openapi?.(meta.name, a) ??
        `<section class="gb-openapi gb-openapi-schemas" aria-label="API schemas"><header class="gb-op-head"><span class="gb-method">Schemas</span><code class="gb-op-path">${escapeHtml(a.schemas ?? '')}</code></header>${a.spec ? `<p class="gb-op-source">From the OpenAPI specification <code>${escapeHtml(a.spec)}</code></p>` : ''}<div class="gb-op-body">\n`
      );
    case 'swagger-description':
    case 'api-method-description':
      return '<div class="gb-op-description">\n';
    case 'api-method-summary':
      return '<div class="gb-op-summary">\n';
    case 'swagger-parameter':
    case 'api-method-parameter':
      return `<div class="gb-op-param"><div class="gb-op-param-head"><code>${escapeHtml(a.name ?? '')}</code>${a.in ? ` <span class="gb-op-in">${escapeHtml(a.in)}</span>` : ''}${a.type ? ` <span class="gb-op-type">${escapeHtml(a.type)}</span>` : ''}${a.required === 'true' ? ' <span class="gb-op-required">required</span>' : ''}</div>\n`;
    case 'swagger-response':
    case 'api-method-response':
      return `<div class="gb-op-response"><div class="gb-op-param-head"><span class="gb-op-status">${escapeHtml(a.status ?? a.httpCode ?? '')}</span>${a.description ? ` ${escapeHtml(a.description)}` : ''}</div>\n`;
    case 'update':
      return updateHead(a.date ?? '', a.tags ?? '', meta.parent?.args.format ?? 'full');
    default:
      return `<div class="gb-block gb-${escapeHtml(meta.name)}">\n`;
  }
}

function closeHtml(meta: TagMeta): string {
  const name = meta.opener?.name ?? meta.name;
  const marker = meta.opener?.unclosed ? `<p class="gb-error">{% ${escapeHtml(name)} %} is never closed: it ends here, at the end of the page.</p>` : '';
  switch (name) {
    case 'hint':
    case 'embed':
    case 'file':
      return `${marker}</div></div>\n`;
    case 'tabs':
      return `${marker}</div></div>\n`;
    case 'stepper':
      return `${marker}</ol>\n`;
    case 'openapi':
    case 'openapi-operation':
    case 'openapi-webhook':
    case 'openapi-schemas':
    case 'swagger':
    case 'api-method':
      return `${marker}</div></section>\n`;
    case 'swagger-parameter':
    case 'api-method-parameter':
    case 'swagger-response':
    case 'api-method-response':
      return `${marker}</div>\n`;
    case 'step':
      return `${marker}</li>\n`;
    case 'code':
      return `${marker}</figure>\n`;
    case 'content-ref':
      return marker;
    case 'update':
      return `${marker}</div></li>\n`;
    case 'updates':
      return `${marker}</ol>\n`;
    default:
      return `${marker}</div>\n`;
  }
}

function voidHtml(meta: TagMeta, hooks: BlockRenderHooks): string {
  const a = meta.args;
  switch (meta.name) {
    case 'include':
      return hooks.include(meta.values[0] ?? '');
    case 'embed':
      return `<div class="gb-embed">${hooks.embed(a.url ?? '')}</div>\n`;
    case 'file':
      return `<div class="gb-file">${hooks.file(a.src ?? '')}</div>\n`;
    case 'page-ref':
      return hooks.contentRef(a.page ?? '');
    default: {
      if (isIntegrationBlock(meta.name)) return integrationCard(meta);
      const known = BLOCKS_BY_NAME.has(meta.name);
      if (known) return `<div class="gb-block gb-${escapeHtml(meta.name)}">${escapeHtml(meta.name)}</div>\n`;
      return `<div class="gb-unknown-block" role="note">Block “${escapeHtml(meta.name)}”: not one GitBook documents; Quire keeps it as written.</div>\n`;
    }
  }
}

/** An entry of GitBook's updates timeline: its date (long, as `format="full"` shows it) and tags beside its text. */
function updateHead(date: string, tags: string, format: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
  const shown =
    day && !Number.isNaN(day.getTime()) && format === 'full'
      ? day.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
      : date;
  const tagList = tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => `<span class="gb-update-tag">${escapeHtml(t)}</span>`)
    .join('');
  return `<li class="gb-update"><div class="gb-update-aside">${date ? `<time datetime="${escapeHtml(date)}">${escapeHtml(shown)}</time>` : ''}${tagList ? `<div class="gb-update-tags">${tagList}</div>` : ''}</div><div class="gb-update-body">\n`;
}

/**
 * The head of an OpenAPI or swagger block whose specification is not here: method badge, path,
 * summary when given, the spec it comes from (GitBook shows the rest); the block's body follows.
 */
function operationCard(method: string, path: string, summary: string | null, spec: string | null): string {
  const source = spec
    ? `<p class="gb-op-source">From the OpenAPI specification <code>${escapeHtml(spec)}</code>; GitBook shows its parameters and responses${/^[A-Za-z0-9-]+$/.test(spec) ? ' (<code>quire openapi pull</code> brings it here)' : ''}.</p>`
    : '';
  return `${operationHead(method, path, summary)}${source}<div class="gb-op-body">\n`;
}

/**
 * An integration's block (`{% @github-files/github-code-block url="…" %}`): GitBook renders it
 * with the integration's own code, which the preview does not run; it shows a card naming the
 * integration, the block and its parameters (a web address as a link that opens outside).
 */
function integrationCard(meta: TagMeta): string {
  const [integration, block] = meta.name.slice(1).split('/') as [string, string];
  const value = (v: string) =>
    /^https?:\/\//i.test(v) && isSafeUrl(v, 'href')
      ? `<a href="${escapeHtml(v)}" target="_blank" rel="noopener noreferrer nofollow">${escapeHtml(v)}</a>`
      : escapeHtml(v);
  const params = [...Object.entries(meta.args), ...meta.values.map((v) => ['', v] as const)];
  const list = params.length
    ? `<dl class="gb-integration-params">${params.map(([k, v]) => `<dt>${escapeHtml(k || 'value')}</dt><dd>${value(v)}</dd>`).join('')}</dl>`
    : '';
  return `<div class="gb-integration" role="group" aria-label="Integration block: ${escapeHtml(integration)}"><div class="gb-integration-head">${iconHtml('puzzle-piece', 'gb-icon gb-integration-badge')}<span class="gb-integration-name">${escapeHtml(integration)}</span><span class="gb-integration-block">${escapeHtml(block)}</span></div>${list}<p class="gb-integration-note">Rendered by the ${escapeHtml(integration)} integration on GitBook.</p></div>\n`;
}

export function gitbookBlocks(md: MarkdownIt): void {
  md.block.ruler.before('fence', 'gitbook_tag', tagRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.block.ruler.before('html_block', 'gitbook_html_block', htmlBlockUntilTag);
  md.core.ruler.after('block', 'gitbook_pair', pairTags);
  md.core.ruler.before('gitbook_pair', 'gitbook_paragraph_tags', splitParagraphTags);
  md.renderer.rules.gitbook_tag = (tokens, idx, _options, env) => {
    const meta = tagMeta(tokens[idx]!);
    const hooks = (env as { blockHooks: BlockRenderHooks }).blockHooks;
    if (meta.role === 'open') return openHtml(meta, hooks);
    if (meta.role === 'void') return voidHtml(meta, hooks);
    if (meta.role === 'close') return closeHtml(meta);
    return `<p class="gb-error">{% end${escapeHtml(meta.name)} %} closes nothing.</p>\n`;
  };
}
