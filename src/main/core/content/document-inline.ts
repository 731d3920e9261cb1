/**
 * The inline half of writing a GitBook JSON document as GitBook markdown (document-markdown.ts
 * does the blocks): text with its marks, links, images, emoji, icons, expressions, math,
 * annotations (as footnotes), mentions and buttons, in the forms GitBook's Git Sync writes
 * (`**bold**`, `_italic_`, `<mark style="color:red;">`, `<code class="expression">`,
 * `<i class="fa-check">:check:</i>`, `$$x$$`). References are written in their stable form
 * (`/pages/<id>`, `/files/<id>`, `/reusable-content/<id>`): the sync turns them into relative
 * paths as it does a page's.
 *
 * The document comes from the server: nothing is assumed about its shape beyond what is checked
 * here, and text is escaped so that it reads back as the same text.
 */

/** A node of a JSON document, read loosely (the server's answer is checked as it is read). */
export interface DocNode {
  object?: unknown;
  type?: unknown;
  key?: unknown;
  data?: Record<string, unknown>;
  nodes?: unknown;
  leaves?: unknown;
  fragments?: unknown;
  fragment?: unknown;
  text?: unknown;
  marks?: unknown;
}

/** What one document's writing collects beside its text: footnotes, and how to name pages. */
export interface InlineContext {
  footnotes: string[];
  /** Writes the blocks of an annotation's body (document-markdown.ts). */
  blocks(nodes: readonly DocNode[]): string;
  /** A page's title, for a content-ref's link text; null when unknown. */
  pageTitle(pageId: string, spaceId: string | null): string | null;
}

export const asNodes = (value: unknown): DocNode[] => (Array.isArray(value) ? value.filter((n): n is DocNode => n !== null && typeof n === 'object') : []);
export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/** An attribute value in double quotes, as GitBook's tags and HTML hold it. */
export function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Markdown text that reads back as `text`: what could start markup is escaped; a line break is `<br>`. */
export function escapeText(text: string): string {
  return text
    .replace(/[\\`*_[\]<]/g, '\\$&')
    .replace(/\$\$|~~|\{%/g, (m) => `\\${m[0]}\\${m[1]}`)
    .replace(/\r?\n/g, '<br>');
}

/** A content reference as an href in stable form; null when it has none (a user, a tag). */
export function refHref(ref: unknown): string | null {
  const r = record(ref);
  const kind = str(r.kind);
  const space = str(r.space);
  const inSpace = space ? `/spaces/${space}` : '';
  switch (kind) {
    case 'url':
      return str(r.url);
    case 'page':
      return str(r.page) ? `${inSpace}/pages/${r.page}` : null;
    case 'anchor': {
      const anchor = str(r.anchor) ?? '';
      return str(r.page) ? `${inSpace}/pages/${r.page}#${anchor}` : `#${anchor}`;
    }
    case 'file':
      return str(r.file) ? `${inSpace}/files/${r.file}` : null;
    case 'reusable-content':
      return str(r.reusableContent) ? `${inSpace}/reusable-content/${r.reusableContent}` : null;
    case 'space':
      return space ? `/spaces/${space}` : null;
    case 'collection':
      return str(r.collection) ? `/collections/${r.collection}` : null;
    default:
      return null;
  }
}

/** What a reference names when it has no href: a user, a tag, a spec. */
function refLabel(ref: unknown): string {
  const r = record(ref);
  return str(r.user) ?? str(r.tag) ?? str(r.spec) ?? str(r.kind) ?? 'reference';
}

/** A link destination: in angle brackets when it holds what would end it. */
function destination(href: string): string {
  return /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : href;
}

const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'superscript', 'subscript', 'keyboard', 'color'];

/** One leaf's text with its marks (code first: nothing is escaped inside it). */
function leafText(leaf: DocNode): string {
  const text = str(leaf.text) ?? '';
  if (text === '') return '';
  const marks = asNodes(leaf.marks);
  const types = new Set(marks.map((m) => str(m.type)));
  let out = types.has('code') ? codeSpan(text) : escapeText(text);
  for (const type of MARK_ORDER) {
    if (!types.has(type)) continue;
    const mark = marks.find((m) => m.type === type)!;
    out = wrapMark(type, out, record(mark.data));
  }
  return out;
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function wrapMark(type: string, text: string, data: Record<string, unknown>): string {
  // Emphasis cannot start or end on a space: the spaces go outside it.
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? [];
  if (core === '') return text;
  const wrap = (open: string, close = open) => `${lead}${open}${core}${close}${trail}`;
  switch (type) {
    case 'bold':
      return wrap('**');
    case 'italic':
      return wrap('_');
    case 'strikethrough':
      return wrap('~~');
    case 'superscript':
      return wrap('<sup>', '</sup>');
    case 'subscript':
      return wrap('<sub>', '</sub>');
    case 'keyboard':
      return wrap('<kbd>', '</kbd>');
    case 'color': {
      const styles = [
        str(data.text) && data.text !== 'default' ? `color:${data.text};` : '',
        str(data.background) && data.background !== 'default' ? `background-color:${data.background};` : '',
      ].join('');
      return styles === '' ? text : wrap(`<mark style="${attr(styles)}">`, '</mark>');
    }
    default:
      return text;
  }
}

function emojiOf(code: string): string {
  if (!/^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i.test(code)) return code;
  try {
    return String.fromCodePoint(...code.split('-').map((h) => Number.parseInt(h, 16)));
  } catch {
    return code;
  }
}

function imageHtml(data: Record<string, unknown>): string {
  const src = refHref(data.ref) ?? '';
  const alt = str(data.alt) ?? str(data.caption) ?? '';
  if (data.size === 'line') return `<img src="${attr(src)}" alt="${attr(alt)}" data-size="line">`;
  return `![${escapeText(alt)}](${destination(src)})`;
}

/** The inline nodes of a paragraph, heading, link or code line as markdown. */
export function inlines(nodes: readonly DocNode[], ctx: InlineContext): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of asNodes(node.leaves)) out += leafText(leaf);
      continue;
    }
    out += inline(node, ctx);
  }
  return out;
}

function inline(node: DocNode, ctx: InlineContext): string {
  const data = record(node.data);
  switch (node.type) {
    case 'link': {
      const href = refHref(data.ref);
      const text = inlines(asNodes(node.nodes), ctx);
      return href === null ? text : `[${text}](${destination(href)})`;
    }
    case 'inline-image':
      return imageHtml(data);
    case 'emoji':
      return emojiOf(str(data.code) ?? '');
    case 'icon': {
      const icon = str(data.icon) ?? '';
      return `<i class="fa-${attr(icon)}">:${escapeHtml(icon)}:</i>`;
    }
    case 'expression':
      return `<code class="expression">${escapeHtml(str(data.expression) ?? '')}</code>`;
    case 'inline-math':
      return `$$${str(data.formula) ?? ''}$$`;
    case 'annotation': {
      const body = asNodes(node.fragments).flatMap((f) => asNodes(f.nodes));
      ctx.footnotes.push(ctx.blocks(body));
      return `${inlines(asNodes(node.nodes), ctx)}[^${ctx.footnotes.length}]`;
    }
    case 'mention': {
      const href = refHref(data.ref);
      const r = record(data.ref);
      if (href !== null && r.kind === 'page') return `[${escapeText(ctx.pageTitle(String(r.page), str(r.space)) ?? href)}](${destination(href)})`;
      return href === null ? `@${escapeText(refLabel(data.ref))}` : `[${escapeText(href)}](${destination(href)})`;
    }
    case 'button': {
      const kind = str(data.kind) ?? 'primary';
      const label = escapeHtml(str(data.label) ?? '');
      const icon = str(data.icon) ? ` data-icon="${attr(String(data.icon))}"` : '';
      const action = record(data.action);
      if (str(action.action)) {
        const query = str(action.query) ? ` data-query="${attr(String(action.query))}"` : '';
        return `<button type="button" class="button ${attr(kind)}" data-action="${attr(String(action.action))}"${query}${icon}>${label}</button>`;
      }
      return `<a href="${attr(refHref(data.ref) ?? '')}" class="button ${attr(kind)}"${icon}>${label}</a>`;
    }
    default:
      // An inline Quire does not know: its text, never nothing.
      return inlines(asNodes(node.nodes), ctx);
  }
}
