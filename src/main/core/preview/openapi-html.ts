/**
 * An OpenAPI operation as GitBook's block shows it, from the local specification: the method
 * badge and path, summary, description, the file it comes from, then its parameters, request
 * body (each media type with its schema's properties) and responses. Every text comes from the
 * specification file and is escaped; descriptions are shown as plain text, paragraph by
 * paragraph. The block's own body follows (the caller closes the `gb-op-body` it opens).
 */
import type { ContentView, OperationView, ParameterView } from '../openapi';
import { escapeHtml } from './sanitize';

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace']);

/** The block's head: method badge and path (and the summary when known). */
export function operationHead(method: string, path: string, summary: string | null): string {
  const m = method.toLowerCase();
  const badge = `<span class="gb-method${METHODS.has(m) ? ` gb-method-${m}` : ''}">${escapeHtml(method.toUpperCase() || '?')}</span>`;
  const label = `API operation: ${method.toUpperCase()} ${path}`.trim();
  return `<section class="gb-openapi" aria-label="${escapeHtml(label)}"><header class="gb-op-head">${badge}<code class="gb-op-path">${escapeHtml(path)}</code></header>${summary ? `<p class="gb-op-summary">${escapeHtml(summary)}</p>` : ''}`;
}

function paragraphs(text: string | null, className: string): string {
  if (!text) return '';
  const parts = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return `<div class="${className}">${parts.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</div>`;
}

function field(name: string, type: string | null, required: boolean, description: string | null, extra = ''): string {
  const head = `<code>${escapeHtml(name)}</code>${extra}${type ? ` <span class="gb-op-type">${escapeHtml(type)}</span>` : ''}${required ? ' <span class="gb-op-required">required</span>' : ''}`;
  return `<div class="gb-op-param"><div class="gb-op-param-head">${head}</div>${description ? `<p>${escapeHtml(description)}</p>` : ''}</div>`;
}

function parameter(p: ParameterView): string {
  const deprecated = p.deprecated ? ' <span class="gb-op-deprecated">deprecated</span>' : '';
  return field(p.name, p.type, p.required, p.description, ` <span class="gb-op-in">${escapeHtml(p.in)}</span>${deprecated}`);
}

function content(c: ContentView): string {
  const schema = c.schema;
  const type = schema ? ` <span class="gb-op-type">${escapeHtml(schema.type)}</span>` : '';
  const props = schema?.properties.map((p) => field(p.name, p.type, p.required, p.description)).join('') ?? '';
  return `<div class="gb-op-content"><div class="gb-op-media"><code>${escapeHtml(c.mediaType)}</code>${type}</div>${props}</div>`;
}

/** The whole operation; `source` names the file it was read from. Ends inside the block's body. */
export function operationHtml(op: OperationView, source: string): string {
  const parts = [
    operationHead(op.method, op.path, op.summary),
    op.deprecated ? '<p class="gb-op-deprecated">Deprecated</p>' : '',
    paragraphs(op.description, 'gb-op-description'),
    `<p class="gb-op-source">From ${escapeHtml(source)}</p>`,
  ];
  if (op.parameters.length > 0) parts.push(`<h4 class="gb-op-section">Parameters</h4>${op.parameters.map(parameter).join('')}`);
  if (op.requestBody) {
    const b = op.requestBody;
    parts.push(
      `<h4 class="gb-op-section">Request body${b.required ? ' <span class="gb-op-required">required</span>' : ''}</h4>${b.description ? `<p>${escapeHtml(b.description)}</p>` : ''}${b.contents.map(content).join('')}`,
    );
  }
  if (op.responses.length > 0) {
    const responses = op.responses.map(
      (r) =>
        `<div class="gb-op-response"><div class="gb-op-param-head"><span class="gb-op-status">${escapeHtml(r.status)}</span>${r.description ? ` ${escapeHtml(r.description)}` : ''}</div>${r.contents.map(content).join('')}</div>`,
    );
    parts.push(`<h4 class="gb-op-section">Responses</h4>${responses.join('')}`);
  }
  return `${parts.join('')}<div class="gb-op-body">\n`;
}

/** The head of a block whose specification is here but says it cannot show it (what check says too). */
export function operationProblem(method: string, path: string, message: string): string {
  return `${operationHead(method, path, null)}<p class="gb-error" role="note">${escapeHtml(message)}</p><div class="gb-op-body">\n`;
}
