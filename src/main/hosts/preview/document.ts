/**
 * The HTML documents `quire preview` serves: a page as GitBook lays it out (the space's table of
 * contents, the page with its frontmatter applied, previous/next links) with `quire check`'s
 * problems for that page beside it, and the home page listing the spaces. Scripts are external
 * (`<base>_quire/live.js`) so the strict CSP holds; every link carries the site's base.
 */
import { checkPage, type Problem } from '../../core/check';
import { escapeHtml, folderRenderContext, iconHtml, pageTitle, type RenderedPage, renderPage } from '../../core/preview';
import { plural } from '../../../shared/plural';
import type { PreviewSite, SiteUrls } from './site';
import { summaryEntryOrder } from './summary-order';

function shell(urls: SiteUrls, title: string, version: number, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(urls.own('katex/katex.min.css'))}">
<link rel="stylesheet" href="${escapeHtml(urls.own('page.css'))}">
<link rel="stylesheet" href="${escapeHtml(urls.own('preview.css'))}">
<script type="module" src="${escapeHtml(urls.own('live.js'))}"></script>
</head>
<body data-version="${version}">
<div id="pv-root">${body}</div>
</body>
</html>
`;
}

function problemList(problems: readonly Problem[]): string {
  if (problems.length === 0) return '<p class="pv-ok">No problems on this page.</p>';
  const items = problems.map(
    (p) =>
      `<li class="pv-problem pv-${p.severity}" data-code="${escapeHtml(p.code)}"><span class="pv-severity">${p.severity}</span>${p.line === null ? '' : ` <span class="pv-line">line ${p.line}</span>`}<p>${escapeHtml(p.message)}</p><p class="pv-fix">${escapeHtml(p.fix)}</p></li>`,
  );
  return `<ul class="pv-problem-list">${items.join('')}</ul>`;
}

/** The search box (shown by live.js: without script it could not answer). */
const SEARCH_BOX =
  '<div class="pv-search-wrap" role="search"><input id="pv-search" type="search" placeholder="Search this folder  /" aria-label="Search the pages" autocomplete="off" aria-controls="pv-search-results" hidden><ul id="pv-search-results" class="pv-search-results" aria-live="polite" hidden></ul></div>';

/** GitBook's page outline: the page's headings of its two top levels (`##` and `###` in the file), linked. */
function outline(page: RenderedPage | null): string {
  const headings = page?.headings.filter((h) => h.level === 2 || h.level === 3) ?? [];
  if (headings.length === 0) return '';
  const items = headings.map((h) => `<li class="pv-outline-${h.level}"><a href="#${escapeHtml(encodeURIComponent(h.id))}">${escapeHtml(h.text)}</a></li>`);
  return `<nav class="pv-outline" aria-label="On this page"><h2>On this page</h2><ul>${items.join('')}</ul></nav>`;
}

/** The page's cover as GitBook shows it above the title (`coverY` moves the image up or down in its frame). */
function coverHtml(site: PreviewSite, rootPath: string, page: RenderedPage): string {
  if (!page.cover) return '';
  const { href } = folderRenderContext(site.index, rootPath, site.urls).link(page.cover.src, rootPath, 'src', 'img');
  if (href === null) return '';
  const offset = page.cover.y === 0 ? '' : ` data-gb-style="object-position: center calc(50% + ${page.cover.y}px)"`;
  return `<figure class="gb-cover gb-cover-${page.cover.size}"><img src="${escapeHtml(href)}" alt=""${offset}></figure>`;
}

/** `bar`: HTML shown under the header (a checkout's before and after, compare.ts). */
export function pageDocument(site: PreviewSite, rootPath: string, bar = ''): string {
  const found = site.index.get(rootPath)!;
  const space = found.space;
  const text = found.file.text;
  const page = text === null ? null : renderPage(text, folderRenderContext(site.index, rootPath, site.urls));
  const problems = checkPage(site.index, rootPath);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const p of problems) counts[p.severity]++;
  const title = page?.title ?? pageTitle(site.index, rootPath);

  const order = summaryEntryOrder(space).map((p) => (space.folder === '' ? p : `${space.folder}/${p}`));
  const at = order.indexOf(rootPath);
  const neighbour = (i: number, label: string) => {
    const target = order[i];
    return target && site.index.get(target)
      ? `<a class="pv-${label.toLowerCase()}" href="${escapeHtml(site.urls.of(target))}"><span>${label}</span> ${escapeHtml(pageTitle(site.index, target))}</a>`
      : '<span></span>';
  };

  const pills = page?.hidden ? '<span class="gb-pill" title="GitBook leaves hidden pages out of the table of contents">Hidden page</span>' : '';
  // GitBook shows the page's icon (or, without one, its emoji) before the title.
  const mark = page?.icon ? iconHtml(page.icon, 'gb-icon gb-title-icon') : page?.emoji ? `<span class="gb-emoji">${escapeHtml(page.emoji)}</span>` : '';
  const article =
    text === null
      ? `<h1 class="gb-title">${escapeHtml(title)}</h1><p class="gb-error">Quire cannot show this file: ${found.file.unreadable?.reason === 'too-large' ? 'it is too large to push' : 'it is not UTF-8 text'}.</p>`
      : `${page!.frontmatterError ? `<p class="gb-error" role="alert">${escapeHtml(page!.frontmatterError)}</p>` : ''}${coverHtml(site, rootPath, page!)}${page!.showTitle ? `<h1 class="gb-title">${mark}${escapeHtml(title)}</h1>` : ''}${page!.description && page!.showDescription ? `<p class="gb-description">${escapeHtml(page!.description)}</p>` : ''}${pills ? `<div class="gb-meta">${pills}</div>` : ''}${page!.html}`;
  const summary =
    counts.error + counts.warning + counts.info === 0
      ? 'no problems'
      : `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}${counts.info ? `, ${counts.info} info` : ''}`;
  const body = `<header class="pv-top"><a class="pv-brand" href="${escapeHtml(site.urls.home)}">Quire preview</a><span class="pv-space">${escapeHtml(space.title)}</span><span class="pv-path">${escapeHtml(rootPath)}</span>${SEARCH_BOX}<a class="pv-count${counts.error ? ' pv-has-errors' : ''}" href="#pv-problems">${summary}</a></header>${bar}
<div class="pv-body">
<nav class="pv-nav" aria-label="Table of contents"><details class="pv-nav-details" open><summary>Contents</summary>${site.navigation(space, rootPath)}</details></nav>
<main class="pv-main"><article class="gb-page" id="pv-page">${article}</article><footer class="pv-pager">${neighbour(at - 1, 'Previous')}${neighbour(at + 1, 'Next')}</footer></main>
<aside class="pv-side">${outline(page)}<section class="pv-problems" id="pv-problems" aria-label="Problems on this page"><h2>Problems <small>(quire check)</small></h2>${problemList(problems)}</section></aside>
</div>`;
  return shell(site.urls, `${title} · ${space.title} · Quire preview`, site.version, body);
}

export function homeDocument(site: PreviewSite): string {
  const items = site.spaces.map((s) => {
    const first = site.firstPage(s);
    const pages = s.files.filter((f) => f.kind === 'page').length;
    return `<li>${first ? `<a href="${escapeHtml(site.urls.of(first))}">${escapeHtml(s.title)}</a>` : escapeHtml(s.title)} <span class="pv-path">${escapeHtml(s.folder || '.')}/ · ${plural(pages, 'page')}</span></li>`;
  });
  return shell(
    site.urls,
    'Quire preview',
    site.version,
    `<header class="pv-top"><span class="pv-brand">Quire preview</span>${SEARCH_BOX}</header><main class="pv-home"><h1>Spaces</h1><ul>${items.join('')}</ul></main>`,
  );
}

/** `pathname`: the path asked for below the base (never the secret). */
export function notFoundDocument(site: PreviewSite, pathname: string): string {
  const home = escapeHtml(site.urls.home);
  return shell(
    site.urls,
    'Not found · Quire preview',
    site.version,
    `<header class="pv-top"><a class="pv-brand" href="${home}">Quire preview</a></header><main class="pv-home"><h1>Not found</h1><p>${escapeHtml(pathname)} is not a file of this folder. <a href="${home}">See the spaces</a>.</p></main>`,
  );
}
