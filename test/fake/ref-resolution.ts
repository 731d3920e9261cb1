/**
 * The write side of GitBook's reference model: the links of markdown submitted through the
 * content batch are resolved to stable references before the body is stored, following the
 * spec of `POST …/change-requests/{id}/content`:
 *
 * - kept as they are: `/pages/<id>` of an existing page, `/files/<id>`, `/reusable-content/<id>`
 *   and every `/spaces/<spaceId>/…` form, external URLs, `#anchor`s;
 * - `./<ref>.md` → `/pages/<id>` and `./<ref>` → `/files/<id>` for pages and files the same
 *   batch inserts with that `ref`, whatever the order of the operations;
 * - `/pages/<slug path>`, `/pages/<path>.md`, `/pages/<path>/README.md`, `/pages/README.md`
 *   (the space's root page) → `/pages/<id>`;
 * - relative paths (`setup.md`, `./setup.md#install`, `../guides/`, `../README.md`, `./guides`)
 *   resolved against the page's place in Git Sync's layout (see PageIndex), anchors kept.
 *
 * A page link that resolves to nothing is kept as written, or replaced by its text when the
 * settings ask for it (markdown links only). Paths that do not look like pages (images under
 * `.gitbook/assets/`, …) are always kept as written.
 */
import type { PageIndex } from './page-index';
import { type RefRewrite, type RefSite, rewriteReferences } from './ref-scanner';
import { parseStableRef } from './stable-refs';

export interface ResolutionContext {
  index: PageIndex;
  /** The page being written, already at its final place in `index`. */
  pageId: string;
  /** `ref` → id of the pages and files inserted by the batch. */
  pageRefs: ReadonlyMap<string, string>;
  fileRefs: ReadonlyMap<string, string>;
  unresolvedLinks: 'keep' | 'text';
}

/** Sites that may point at a page; images, files and includes only take batch file refs. */
const PAGE_SITES = new Set<RefSite['kind']>(['link', 'definition', 'html', 'content-ref', 'embed']);

export function resolveSubmittedRefs(markdown: string, ctx: ResolutionContext): string {
  return rewriteReferences(markdown, (site) => resolveSite(site, ctx));
}

function resolveSite(site: RefSite, ctx: ResolutionContext): RefRewrite {
  const target = site.target.trim();
  if (target === '' || target.startsWith('#') || /^[A-Za-z][A-Za-z0-9+.-]*:|^\/\//.test(target)) return undefined;
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? '' : target.slice(hash);

  const fileRef = path.startsWith('./') ? ctx.fileRefs.get(path.slice(2)) : undefined;
  if (fileRef !== undefined) return `/files/${fileRef}`;
  if (!PAGE_SITES.has(site.kind)) return undefined;
  const pageRef = /^\.\/(.+)\.md$/.exec(path)?.[1];
  const refId = pageRef !== undefined ? ctx.pageRefs.get(pageRef) : undefined;
  if (refId !== undefined) return `/pages/${refId}${anchor}`;

  const stable = parseStableRef(target);
  if (stable && (stable.kind !== 'page' || stable.space !== undefined || ctx.index.page(stable.page))) return undefined;

  let pageId: string | undefined;
  if (path.startsWith('/pages/')) pageId = ctx.index.resolveFromRoot(decode(path.slice('/pages/'.length)));
  else if (!path.startsWith('/')) pageId = ctx.index.resolveRelative(ctx.pageId, decode(path));
  if (pageId !== undefined) return `/pages/${pageId}${anchor}`;
  return looksLikePage(path) && ctx.unresolvedLinks === 'text' && site.kind === 'link' ? { drop: true } : undefined;
}

/** `/pages/…`, a `.md` file, or a relative path without extension (a folder). */
function looksLikePage(path: string): boolean {
  if (path.startsWith('/pages/') || path.endsWith('.md') || path.endsWith('/')) return true;
  return !path.startsWith('/') && !/\.[A-Za-z0-9]+$/.test(path.split('/').pop() ?? '');
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
