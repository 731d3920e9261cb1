/**
 * A GitBook JSON document (what the API sends for reusable content: `getReusableContentDocument…`
 * has no markdown form) written as the GitBook markdown its Git Sync writes: every block the
 * preview renders — headings (with their own anchor), paragraphs, lists and task lists, quotes,
 * code (`{% code %}` when it has a title or options), hints, math, dividers, images and figures,
 * files, drawings, embeds, tabs, steppers, columns, updates, expandables, content references,
 * includes, conditions, tables (markdown when plain, HTML otherwise), OpenAPI blocks, prompts
 * and integration blocks — with references in stable form (document-inline.ts).
 *
 * A block Quire does not know is never dropped: it is kept as a fenced `gitbook-block` holding
 * its JSON, which the preview shows as code and `quire check` leaves alone.
 */
import { asNodes, attr, type DocNode, escapeHtml, escapeText, type InlineContext, inlines, refHref, str } from './document-inline';

export interface DocumentMarkdownOptions {
  /** A page's title (for a content reference's link text); null or absent: its href stands in. */
  pageTitle?(pageId: string, spaceId: string | null): string | null;
}

/** The markdown of a document (its text ends with one newline; '' for an empty document). */
export function documentToMarkdown(document: unknown, options: DocumentMarkdownOptions = {}): string {
  const ctx: InlineContext = {
    footnotes: [],
    blocks: (nodes) => blocks(nodes, ctx),
    pageTitle: (page, space) => options.pageTitle?.(page, space) ?? null,
  };
  const doc = document !== null && typeof document === 'object' ? (document as DocNode) : {};
  let out = blocks(asNodes(doc.nodes), ctx);
  if (ctx.footnotes.length > 0) out += `\n\n${ctx.footnotes.map((f, i) => `[^${i + 1}]: ${indent(f, '    ').trimStart()}`).join('\n\n')}`;
  return out === '' ? '' : `${out}\n`;
}

const data = (node: DocNode): Record<string, unknown> => node.data ?? {};

function blocks(nodes: readonly DocNode[], ctx: InlineContext): string {
  return nodes
    .map((n) => block(n, ctx))
    .filter((b) => b !== '')
    .join('\n\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : prefix + l))
    .join('\n');
}

/** `{% name args %}` … `{% endname %}` around blocks. */
function tagged(name: string, args: string, inner: string): string {
  return `{% ${name}${args} %}\n${inner}${inner === '' ? '' : '\n'}{% end${name} %}`;
}

const arg = (name: string, value: unknown): string =>
  value === undefined || value === null || value === '' ? '' : ` ${name}="${attr(typeof value === 'string' ? value : JSON.stringify(value))}"`;

/** What starts a line and would read as markup in a paragraph's first word. */
function escapeLineStart(text: string): string {
  return text.replace(/^([#>+=-]|\d+[.)](?=\s|$))/, '\\$1');
}

function block(node: DocNode, ctx: InlineContext): string {
  const d = data(node);
  const children = asNodes(node.nodes);
  switch (node.type) {
    case 'paragraph':
      return escapeLineStart(inlines(children, ctx));
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = Number(String(node.type).slice(-1));
      const id = str(d.id);
      const anchor = id ? ` <a href="#${attr(id)}" id="${attr(id)}"></a>` : '';
      return `${'#'.repeat(level)} ${inlines(children, ctx)}${anchor}`;
    }
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return list(node, ctx);
    case 'blockquote':
      return blocks(children, ctx)
        .split('\n')
        .map((l) => (l === '' ? '>' : `> ${l}`))
        .join('\n');
    case 'divider':
      return '***';
    case 'hint':
      return tagged('hint', `${arg('style', str(d.style) ?? 'info')}${arg('icon', d.icon)}`, blocks(children, ctx));
    case 'code':
      return code(node, ctx);
    case 'prompt':
      return tagged('prompt', '', blocks(children, ctx));
    case 'math':
      return `$$\n${str(d.formula) ?? ''}\n$$`;
    case 'images':
      return images(node, ctx);
    case 'image':
      return figure(node, ctx);
    case 'file':
      return `{% file src="${attr(refHref(d.ref) ?? '')}" %}`;
    case 'drawing':
      return `<img src="${attr(refHref(d.ref) ?? '')}" alt="" class="gitbook-drawing">`;
    case 'embed':
      return `{% embed url="${attr(str(d.url) ?? '')}"${d.fullWidth === true ? ' fullWidth="true"' : ''} %}`;
    case 'content-ref':
      return contentRef(d.ref, ctx);
    case 'reusable-content':
      return `{% include "${attr(refHref(d.ref) ?? '')}" %}`;
    case 'if':
      return `{% if ${str(d.expression) ?? ''} %}\n${blocks(children, ctx)}\n{% endif %}`;
    case 'tabs':
      return tagged(
        'tabs',
        '',
        children.map((t) => tagged('tab', arg('title', str(data(t).title) ?? '') + arg('icon', data(t).icon), blocks(asNodes(t.nodes), ctx))).join('\n\n'),
      );
    case 'stepper':
      return tagged('stepper', '', children.map((s) => tagged('step', '', blocks(asNodes(s.nodes), ctx))).join('\n\n'));
    case 'columns':
      return tagged(
        'columns',
        d.fullWidth === true ? ' fullWidth="true"' : '',
        children
          .map((c) => tagged('column', arg('width', length(data(c).width)) + arg('valign', data(c).verticalAlignment), blocks(asNodes(c.nodes), ctx)))
          .join('\n\n'),
      );
    case 'updates':
      return tagged(
        'updates',
        arg('format', d.format),
        children.map((u) => tagged('update', arg('date', data(u).date), blocks(asNodes(u.nodes), ctx))).join('\n\n'),
      );
    case 'expandable':
      return expandable(node, ctx);
    case 'table':
      return table(node, ctx);
    case 'swagger':
      return tagged('openapi', `${arg('src', refHref(d.ref))}${arg('path', d.path)}${arg('method', d.method)}`, openapiLink(refHref(d.ref)));
    case 'openapi-operation':
      return tagged('openapi-operation', `${arg('spec', specOf(d))}${arg('path', d.path)}${arg('method', d.method)}`, '');
    case 'openapi-schemas':
      return tagged(
        'openapi-schemas',
        `${arg('spec', specOf(d))}${arg('schemas', Array.isArray(d.schemas) ? d.schemas.join(',') : '')}${arg('grouped', d.grouped === false ? 'false' : '')}`,
        '',
      );
    case 'openapi-webhook':
      return tagged('openapi-webhook', `${arg('spec', specOf(d))}${arg('name', d.name)}${arg('method', d.method)}`, '');
    case 'integration':
      return integration(d);
    default:
      return unknownBlock(node);
  }
}

/** A block Quire cannot write as markdown, kept whole and marked. */
function unknownBlock(node: DocNode): string {
  const json = JSON.stringify(node, null, 2);
  const longest = Math.max(2, ...(json.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}gitbook-block ${String(node.type ?? 'unknown').replace(/\s/g, '')}\n${json}\n${fence}`;
}

function specOf(d: Record<string, unknown>): string | null {
  const ref = d.ref as { spec?: unknown } | undefined;
  return str(ref?.spec);
}

function openapiLink(href: string | null): string {
  return href === null ? '' : `[${escapeText(href)}](${href})`;
}

function length(value: unknown): string | null {
  if (typeof value === 'number') return `${value}%`;
  const v = value as { value?: unknown; unit?: unknown } | null | undefined;
  return typeof v?.value === 'number' ? `${v.value}${typeof v.unit === 'string' ? v.unit : ''}` : null;
}

function list(node: DocNode, ctx: InlineContext): string {
  const items = asNodes(node.nodes);
  const start = typeof data(node).start === 'number' ? (data(node).start as number) : 1;
  return items
    .map((item, i) => {
      const marker = node.type === 'list-ordered' ? `${start + i}. ` : node.type === 'list-tasks' ? `* [${data(item).checked === true ? 'x' : ' '}] ` : '* ';
      const parts = asNodes(item.nodes);
      // A tight item (paragraphs and lists) keeps its lines together, as GitBook writes them.
      const tight = parts.every((p) => p.type === 'paragraph' || String(p.type).startsWith('list-'));
      const body = parts
        .map((p) => block(p, ctx))
        .filter((b) => b !== '')
        .join(tight ? '\n' : '\n\n');
      const pad = ' '.repeat(node.type === 'list-tasks' ? 2 : marker.length);
      return marker + indent(body, pad).trimStart();
    })
    .join('\n');
}

function code(node: DocNode, ctx: InlineContext): string {
  const d = data(node);
  const lines = asNodes(node.nodes).map((line) =>
    asNodes(line.nodes)
      .map((n) =>
        n.object === 'text'
          ? asNodes(n.leaves)
              .map((l) => str(l.text) ?? '')
              .join('')
          : inlines([n], ctx),
      )
      .join(''),
  );
  const text = lines.join('\n');
  const longest = Math.max(2, ...(text.match(/^`+/gm) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const fenced = `${fence}${str(d.syntax) ?? ''}\n${text}\n${fence}`;
  const options =
    arg('title', d.title) +
    (d.overflow === 'wrap' ? ' overflow="wrap"' : '') +
    (d.lineNumbers === true ? ' lineNumbers="true"' : '') +
    (d.fullWidth === true ? ' fullWidth="true"' : '') +
    (d.expandable === true ? ' expandable="true"' : '');
  return options === '' ? fenced : tagged('code', options, fenced);
}

function captionOf(node: DocNode, ctx: InlineContext): string {
  const fragment = asNodes(node.fragments).find((f) => f.fragment === 'caption');
  return fragment
    ? asNodes(fragment.nodes)
        .map((p) => inlines(asNodes(p.nodes), ctx))
        .join(' ')
    : '';
}

function figure(node: DocNode, ctx: InlineContext): string {
  const d = data(node);
  const src = refHref(d.ref) ?? '';
  const alt = str(d.alt) ?? '';
  const caption = captionOf(node, ctx);
  return `<figure><img src="${attr(src)}" alt="${attr(alt)}"><figcaption>${caption === '' ? '' : `<p>${caption}</p>`}</figcaption></figure>`;
}

function images(node: DocNode, ctx: InlineContext): string {
  const list = asNodes(node.nodes).filter((n) => n.type === 'image');
  if (list.length === 1) {
    const only = list[0]!;
    const d = data(only);
    // A plain image without caption is a markdown image, as GitBook writes it.
    if (captionOf(only, ctx) === '' && data(node).align === undefined)
      return `![${escapeText(str(d.alt) ?? '')}](${(refHref(d.ref) ?? '').replace(/[\s()]/g, encodeURIComponent)})`;
    return figure(only, ctx);
  }
  return `<div>${list.map((i) => figure(i, ctx)).join(' ')}</div>`;
}

function contentRef(ref: unknown, ctx: InlineContext): string {
  const href = refHref(ref) ?? '';
  const r = (ref ?? {}) as { kind?: unknown; page?: unknown; space?: unknown };
  const title = r.kind === 'page' && typeof r.page === 'string' ? (ctx.pageTitle(r.page, str(r.space)) ?? href) : href;
  return tagged('content-ref', arg('url', href), `[${escapeText(title)}](${href})`);
}

function expandable(node: DocNode, ctx: InlineContext): string {
  const fragments = asNodes(node.fragments);
  const title = fragments.find((f) => f.fragment === 'expandable-title' || f.type === 'expandable-title');
  const body = fragments.find((f) => f.fragment === 'expandable-body' || f.type === 'expandable-body');
  const summary = title
    ? asNodes(title.nodes)
        .map((p) => inlines(asNodes(p.nodes), ctx))
        .join(' ')
    : '';
  const open = data(node).defaultExpanded === true ? ' open' : '';
  return `<details${open}>\n\n<summary>${summary}</summary>\n\n${body ? blocks(asNodes(body.nodes), ctx) : ''}\n\n</details>`;
}

function integration(d: Record<string, unknown>): string {
  const props = d.props !== null && typeof d.props === 'object' ? (d.props as Record<string, unknown>) : {};
  const args = Object.entries(props)
    .map(([k, v]) => (/^[A-Za-z_][\w-]*$/.test(k) ? arg(k, v) : ''))
    .join('');
  return `{% @${str(d.integration) ?? 'integration'}/${str(d.block) ?? 'block'}${arg('url', d.url)}${args} %}`;
}

interface TableColumn {
  id: string;
  title: string;
  type: string;
}

/** A table: a markdown table when it is a plain grid of text, else GitBook's HTML table. */
function table(node: DocNode, ctx: InlineContext): string {
  const d = data(node);
  const view = (d.view ?? {}) as { type?: unknown; columns?: unknown; hideHeader?: unknown };
  const definition = (d.definition ?? {}) as Record<string, { title?: unknown; type?: unknown }>;
  const columns: TableColumn[] = (Array.isArray(view.columns) ? view.columns : Object.keys(definition))
    .filter((id): id is string => typeof id === 'string')
    .map((id) => ({ id, title: str(definition[id]?.title) ?? '', type: str(definition[id]?.type) ?? 'text' }));
  const records = Object.values((d.records ?? {}) as Record<string, { orderIndex?: unknown; values?: Record<string, unknown> }>).sort((a, b) =>
    String(a.orderIndex ?? '') < String(b.orderIndex ?? '') ? -1 : 1,
  );
  const fragments = new Map(asNodes(node.fragments).map((f) => [String(f.fragment ?? ''), f]));
  const cell = (value: unknown, column: TableColumn): string => {
    if (value === null || value === undefined) return '';
    if (column.type === 'text' && typeof value === 'string') {
      const fragment = fragments.get(value);
      return fragment
        ? asNodes(fragment.nodes)
            .map((p) => inlines(asNodes(p.nodes), ctx))
            .join('<br>')
        : escapeText(value);
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return escapeText(String(value));
    if (Array.isArray(value)) return value.map((v) => cell(v, { ...column, type: 'value' })).join(', ');
    const href = refHref((value as { ref?: unknown }).ref ?? value);
    return href === null ? '' : `<a href="${attr(href)}">${escapeHtml(href)}</a>`;
  };
  const rows = records.map((r) => columns.map((c) => cell(r.values?.[c.id], c)));
  const plain =
    view.type === 'grid' && view.hideHeader !== true && !Array.isArray(d.cellMerges) && columns.every((c) => c.type === 'text' || c.type === 'number');
  if (plain) {
    const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
    return [line(columns.map((c) => escapeText(c.title))), line(columns.map(() => '---')), ...rows.map(line)].join('\n');
  }
  const cards = view.type === 'cards' ? ' data-view="cards"' : '';
  const head = `<thead><tr>${columns.map((c) => `<th>${escapeHtml(c.title)}</th>`).join('')}</tr></thead>`;
  const body = `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody>`;
  return `<table${cards}>${head}${body}</table>`;
}
