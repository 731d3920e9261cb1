/**
 * GitBook's cards: an HTML table with `data-view="cards"` (GitBook's export of a cards block)
 * shown as a grid of cards, as GitBook shows it. The header row says what each column is:
 * `data-card-target` (the link a click on the card follows), `data-card-cover` and
 * `data-card-cover-dark` (the cover image, an `<a href>` to it), `data-hidden` (not shown); the
 * other columns are the card's text, the first one its title. `data-card-size="large"` makes two
 * cards a row instead of three.
 *
 * Every cell goes through the sanitiser and every URL through the page's link policy, as any
 * HTML of the writer's does.
 */
import { escapeHtml, sanitizeHtml, unescapeAll, type UrlRewriter } from './sanitize';

const CARDS_TABLE = /^\s*<table\b([^>]*)>([\s\S]*)<\/table>\s*$/i;

interface Column {
  hidden: boolean;
  target: boolean;
  cover: boolean;
  coverDark: boolean;
}

const has = (attributes: string, name: string): boolean => new RegExp(`\\s${name}(?:\\s*=|\\s|$)`, 'i').test(attributes);
const hrefIn = (cell: string): string | null => {
  const m = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(cell);
  return m ? unescapeAll(m[1] ?? m[2] ?? m[3] ?? '') : null;
};
const plain = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The cards table as a grid of cards; null when the block is not one. */
export function renderCards(html: string, rewrite: UrlRewriter): string | null {
  const m = CARDS_TABLE.exec(html);
  if (!m || !/\sdata-view\s*=\s*["']?cards\b/i.test(m[1]!)) return null;
  const [, attributes, inner] = m as unknown as [string, string, string];
  const head = /<thead\b[^>]*>([\s\S]*?)<\/thead>/i.exec(inner)?.[1] ?? '';
  const columns: Column[] = [...head.matchAll(/<th\b([^>]*)>/gi)].map(([, a]) => ({
    hidden: has(a!, 'data-hidden'),
    target: has(a!, 'data-card-target'),
    cover: has(a!, 'data-card-cover'),
    coverDark: has(a!, 'data-card-cover-dark'),
  }));
  const body = /<tbody\b[^>]*>([\s\S]*?)<\/tbody>/i.exec(inner)?.[1] ?? inner.replace(/<thead\b[\s\S]*?<\/thead>/i, '');
  const cards = [...body.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map(([, row]) => {
    const cells = [...row!.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/gi)].map((c) => c[1]!);
    let target: string | null = null;
    let cover: string | null = null;
    const text: string[] = [];
    cells.forEach((cell, i) => {
      const column = columns[i] ?? { hidden: false, target: false, cover: false, coverDark: false };
      if (column.target) target ??= hrefIn(cell);
      else if (column.cover && !column.coverDark) cover ??= hrefIn(cell);
      else if (!column.hidden && !column.coverDark && cell.trim() !== '') text.push(cell);
    });
    const title = plain(text[0] ?? '') || 'card';
    const coverSrc = cover === null ? null : rewrite(cover, 'src', 'img');
    const href = target === null ? null : rewrite(target, 'href', 'a');
    const external = href !== null && /^[a-z][a-z0-9+.-]*:/i.test(href);
    const parts = [
      coverSrc ? `<img class="gb-card-cover" src="${escapeHtml(coverSrc)}" alt="">` : '',
      `<div class="gb-card-body">${text.map((t, i) => `<div class="${i === 0 ? 'gb-card-heading' : 'gb-card-text'}">${sanitizeHtml(t, rewrite)}</div>`).join('')}</div>`,
      href
        ? `<a class="gb-card-target" href="${escapeHtml(href)}"${external ? ' target="_blank" rel="noopener noreferrer nofollow"' : ''} aria-label="Open “${escapeHtml(title)}”"></a>`
        : '',
    ];
    return `<div class="gb-card-item${href ? ' gb-card-linked' : ''}" role="listitem">${parts.join('')}</div>`;
  });
  const large = /\sdata-card-size\s*=\s*["']?large/i.test(attributes) ? ' gb-cards-large' : '';
  return `<div class="gb-cards${large}" role="list">${cards.join('')}</div>\n`;
}
