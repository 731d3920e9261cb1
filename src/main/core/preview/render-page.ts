/**
 * One page, rendered as GitBook shows it: the frontmatter applied (title, description, hidden,
 * icon), the title heading taken out of the body (GitBook shows the title above the page), the
 * body through markdown-it with GitBook's blocks, every link through the host's policy, and
 * includes rendered in place under the reusable content's title.
 *
 * The frontmatter and title lines are blanked rather than cut, so markdown-it's line numbers are
 * the file's: heading ids and block pairing line up with `quire check`'s findings.
 */
import { parsePageFile, type Scope, type Variables, variablesOf } from '../content';
import { expandableSummaries, pageHeadings } from '../check';
import type { RenderContext } from './context';
import { conditionHtml, expressionHtml } from './expressions';
import { previewMarkdown } from './markdown';
import { escapeHtml, isSafeUrl } from './sanitize';

export interface RenderedPage {
  /** From the frontmatter or the title heading; null when the file has neither. */
  title: string | null;
  description: string | null;
  hidden: boolean;
  /** GitBook's icon name (Font Awesome), or null. */
  icon: string | null;
  /** The page's emoji as text (the API stores a code point in hex), or null. */
  emoji: string | null;
  /** Why the frontmatter was not applied (it does not parse), or null. */
  frontmatterError: string | null;
  /** Git Sync's cover (`cover:`, `coverY:`, `layout.cover`): the image's href as written, its size, its vertical offset; null when none shows. */
  cover: { src: string; size: 'hero' | 'full'; y: number } | null;
  /** Git Sync's `layout`: whether GitBook shows the title and the description. */
  showTitle: boolean;
  showDescription: boolean;
  /** The body as HTML (safe to insert: see sanitize.ts). */
  html: string;
  /** The headings, with the ids the body gives them (for an outline). */
  headings: { level: number; text: string; id: string }[];
}

const MAX_INCLUDE_DEPTH = 3;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

function emojiOf(v: unknown): string | null {
  const hex = text(v);
  if (!hex) return null;
  if (!/^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i.test(hex)) return hex;
  try {
    return String.fromCodePoint(...hex.split('-').map((h) => Number.parseInt(h, 16)));
  } catch {
    return null;
  }
}

/** The file's lines with the frontmatter block and the title heading blanked (line numbers kept). */
function bodyLines(source: string, titleFromHeading: boolean): string {
  const lines = source.split('\n');
  let i = 0;
  if (/^\uFEFF?---[ \t]*\r?$/.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, k) => k > 0 && /^(?:---|\.\.\.)[ \t]*\r?$/.test(l));
    if (close > 0) {
      for (let k = 0; k <= close; k++) lines[k] = '';
      i = close + 1;
    }
  }
  if (titleFromHeading) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (/^#[ \t]/.test(lines[i] ?? '')) lines[i] = '';
  }
  return lines.join('\n');
}

export function renderPage(source: string, ctx: RenderContext): RenderedPage {
  return render(source, ctx, ctx.rootPath, [], 'p-', null);
}

/** `pageVars`: the variables of the page an include is rendered in (null: this file is the page). */
function render(
  source: string,
  ctx: RenderContext,
  rootPath: string,
  including: readonly string[],
  idPrefix: string,
  pageVars: Variables | null,
): RenderedPage {
  let title: string | null = null;
  let meta: Record<string, unknown> = {};
  let frontmatterError: string | null = null;
  let titleFromHeading = false;
  try {
    const parsed = parsePageFile(source);
    meta = parsed.meta;
    title = parsed.title;
    // parsePageFile moves a frontmatter `title:` out of meta; the heading is the title only when the frontmatter had none
    // (a top-level key with a value: `layout:` holds a `title:` of its own, and `title:` alone names none).
    titleFromHeading = parsed.title !== null && !/^title[ \t]*:[ \t]*[^\s#]/m.test(frontmatterOf(source));
  } catch (err) {
    frontmatterError = (err as Error).message;
  }
  const body = frontmatterError === null ? bodyLines(source, titleFromHeading) : source;
  // Reusable content shows the variables of the page it is included in.
  const scope: Scope = { space: ctx.variables?.(rootPath) ?? {}, page: pageVars ?? variablesOf(meta.vars) };
  const headings = pageHeadings(body);
  let includes = 0;
  const html = previewMarkdown().render(body, {
    idPrefix,
    // Comments are on lines of this file, not of the reusable content it includes.
    ...(including.length === 0 && ctx.commentLines ? { commentLines: ctx.commentLines } : {}),
    // A heading with its own anchor (`<a id>` inside it) keeps that one element holding the id.
    headingIds: new Map(headings.filter((h) => h.explicitId === null).map((h) => [h.line, h.id])),
    summaryIds: expandableSummaries(body).map((s) => s.id),
    link: (href: string, attribute: string, tag: string) => ctx.link(href, rootPath, attribute, tag),
    expression: (expression: string) => expressionHtml(expression, scope),
    rewriteUrl: (url: string, attribute: string, tag: string) => {
      if (!isSafeUrl(url, attribute)) return null;
      return ctx.link(url, rootPath, attribute, tag).href;
    },
    blockHooks: {
      contentRef: (url: string) => contentRefCard(ctx, url, rootPath),
      embed: (url: string) => embedLink(url),
      file: (src: string) => fileCard(ctx, src, rootPath),
      condition: (expression: string) => conditionHtml(expression, scope),
      openapi: (name: string, args: Readonly<Record<string, string>>) => ctx.openapi?.(name, args, rootPath) ?? null,
      include: (path: string) => {
        const found = ctx.include(path, rootPath);
        if (!found) return `<div class="gb-error" role="note">Reusable content ${escapeHtml(path)} is not in this folder.</div>\n`;
        if (including.includes(found.rootPath) || including.length >= MAX_INCLUDE_DEPTH) {
          return `<div class="gb-error" role="note">Reusable content ${escapeHtml(path)} includes itself; GitBook shows it once.</div>\n`;
        }
        const inner = render(found.text, ctx, found.rootPath, [...including, rootPath], `${idPrefix}i${includes++}-`, scope.page);
        const label = inner.title ?? found.rootPath.slice(found.rootPath.lastIndexOf('/') + 1);
        return `<section class="gb-include" aria-label="Reusable content: ${escapeHtml(label)}"><header class="gb-include-title">Reusable content · ${escapeHtml(label)}</header>${inner.html}</section>\n`;
      },
    },
  });
  return {
    title,
    description: text(meta.description),
    hidden: meta.hidden === true,
    icon: text(meta.icon),
    emoji: emojiOf(meta.emoji),
    frontmatterError,
    cover: coverOf(meta),
    showTitle: layoutVisible(meta, 'title'),
    showDescription: layoutVisible(meta, 'description'),
    html,
    headings: headings.map((h) => ({ level: h.level, text: h.text, id: h.id })),
  };
}

/** `layout.<part>.visible` of Git Sync's frontmatter (GitBook shows each part unless it says false). */
function layoutVisible(meta: Record<string, unknown>, part: string): boolean {
  const layout = meta.layout as Record<string, { visible?: unknown } | undefined> | undefined;
  return layout?.[part]?.visible !== false;
}

/** The cover GitBook shows above the page: `cover:` (a path from the page's file), unless `layout.cover.visible` is false. */
function coverOf(meta: Record<string, unknown>): RenderedPage['cover'] {
  const src = text(meta.cover);
  if (src === null || !layoutVisible(meta, 'cover')) return null;
  const size = (meta.layout as { cover?: { size?: unknown } } | undefined)?.cover?.size === 'full' ? 'full' : 'hero';
  const y = typeof meta.coverY === 'number' && Number.isFinite(meta.coverY) ? meta.coverY : 0;
  return { src: src.trim(), size, y };
}

function frontmatterOf(source: string): string {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*\r?(?:\n|$)/.exec(source);
  return m ? m[1]! : '';
}

function contentRefCard(ctx: RenderContext, url: string, from: string): string {
  const page = ctx.linkedPage(url, from);
  if (!page) {
    const outcome = ctx.link(url, from, 'href', 'a');
    const label = escapeHtml(url);
    if (outcome.href === null || outcome.broken)
      return `<div class="gb-card gb-broken" title="${escapeHtml(outcome.broken ?? 'Leads nowhere')}">${label}</div>\n`;
    return `<a class="gb-card" href="${escapeHtml(outcome.href)}"${outcome.external ? ' target="_blank" rel="noopener noreferrer nofollow"' : ''}><span class="gb-card-title">${label}</span></a>\n`;
  }
  const href = page.href === null ? '' : ` href="${escapeHtml(page.href)}"`;
  return `<a class="gb-card"${href}><span class="gb-card-icon" aria-hidden="true">▤</span><span class="gb-card-title">${escapeHtml(page.title)}</span><span class="gb-card-url">${escapeHtml(url)}</span></a>\n`;
}

function embedLink(url: string): string {
  if (!isSafeUrl(url, 'href') || !/^https?:/i.test(url.trim())) return `<span class="gb-broken">Embed of ${escapeHtml(url)}: not a web address</span>`;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // shown as written
  }
  return `<a class="gb-embed-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer nofollow"><span class="gb-embed-host">${escapeHtml(host)}</span> <span class="gb-embed-url">${escapeHtml(url)}</span></a>`;
}

function fileCard(ctx: RenderContext, src: string, from: string): string {
  const outcome = ctx.link(src, from, 'href', 'a');
  const name = escapeHtml(decodeURIComponentSafe(src.slice(src.lastIndexOf('/') + 1)) || src);
  if (outcome.href === null || outcome.broken) {
    return `<span class="gb-file-card gb-broken" title="${escapeHtml(outcome.broken ?? 'Leads nowhere')}"><span aria-hidden="true">⇩</span> ${name}</span>`;
  }
  return `<a class="gb-file-card" href="${escapeHtml(outcome.href)}" download><span aria-hidden="true">⇩</span> ${name}</a>`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
