/**
 * The table of contents GitBook shows beside a page, from the space's SUMMARY.md: groups as
 * headings, pages nested as listed, link pages pointing outside, hidden pages marked (GitBook
 * leaves them out of the published navigation; the preview shows them, dimmed, so the writer
 * can reach them). Without a SUMMARY.md, the page files in path order.
 */
import type { SummaryEntry } from '../content';
import { type CheckedSpace, joinRoot, summaryEntries, summaryEntryFile } from '../check';
import type { PreviewUrls } from './folder-context';
import { escapeHtml, isSafeUrl } from './sanitize';

const hiddenCache = new WeakMap<object, boolean>();

/** Whether a page's frontmatter says `hidden: true` (read without a YAML parse: the nav asks for every page). */
function isHidden(file: { text: string | null }): boolean {
  const cached = hiddenCache.get(file);
  if (cached !== undefined) return cached;
  const m = file.text === null ? null : /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---/.exec(file.text);
  const hidden = m !== null && /^hidden:[ \t]*true[ \t]*\r?$/m.test(m[1]!);
  hiddenCache.set(file, hidden);
  return hidden;
}

export function renderNavigation(space: CheckedSpace, currentRootPath: string | null, urls: PreviewUrls): string {
  const files = new Map(space.files.map((f) => [f.path, f]));
  const summaryFile = space.files.find((f) => f.kind === 'summary');
  const summary = summaryFile?.text;
  const item = (entry: SummaryEntry): string => {
    const children = entry.children.length > 0 ? `<ul>${entry.children.map(item).join('')}</ul>` : '';
    const title = escapeHtml(entry.title || '(untitled)');
    if (entry.kind === 'group') return `<li class="nav-group-inline"><span>${title}</span>${children}</li>`;
    if (entry.kind === 'link') {
      const href = entry.href ?? '';
      const link =
        isSafeUrl(href, 'href') && /^[a-z][a-z0-9+.-]*:/i.test(href) ? ` href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow"` : '';
      return `<li class="nav-link"><a${link}>${title} <span aria-label="external link">↗</span></a>${children}</li>`;
    }
    const path = summaryEntryFile(entry.path ?? '', summaryFile?.path);
    const file = files.get(path);
    const rootPath = joinRoot(space.folder, path);
    const current = rootPath === currentRootPath;
    const classes = [file ? '' : 'nav-missing', file && isHidden(file) ? 'nav-hidden' : ''].filter(Boolean).join(' ');
    const badge = !file ? ' <span class="nav-badge">missing</span>' : isHidden(file) ? ' <span class="nav-badge">hidden</span>' : '';
    const link = file ? ` href="${escapeHtml(urls.page(rootPath, null))}"` : '';
    return `<li${classes ? ` class="${classes}"` : ''}><a${link}${current ? ' aria-current="page"' : ''}>${title}${badge}</a>${children}</li>`;
  };
  if (summary === undefined || summary === null) {
    const pages = space.files.filter((f) => f.kind === 'page');
    const entries: SummaryEntry[] = pages.map((f) => ({ kind: 'page', title: f.path.replace(/\.md$/i, ''), path: f.path, href: null, line: 0, children: [] }));
    return `<ul class="nav-list">${entries.map(item).join('')}</ul>`;
  }
  const sections: string[] = [];
  let loose: SummaryEntry[] = [];
  const flush = () => {
    if (loose.length > 0) sections.push(`<ul class="nav-list">${loose.map(item).join('')}</ul>`);
    loose = [];
  };
  for (const entry of summaryEntries(summaryFile!)) {
    if (entry.kind !== 'group') {
      loose.push(entry);
      continue;
    }
    flush();
    sections.push(`<section class="nav-group"><h2>${escapeHtml(entry.title)}</h2><ul class="nav-list">${entry.children.map(item).join('')}</ul></section>`);
  }
  flush();
  return sections.join('');
}
