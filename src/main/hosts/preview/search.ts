/**
 * The preview's search box, answered at `<base>_quire/search?q=…`: from the mirror's full-text
 * index (core/search, the same ranking and query syntax as `quire search`) when the folder is a
 * sync folder; a folder without a mirror (a Git Sync repository) has no index, so its pages as
 * the preview holds them are scanned for every word of the query (titles first). Pages only,
 * each with the preview's URL and a snippet whose matched words are marked.
 */
import type { Mirror } from '../../core/mirror';
import { pageTitle } from '../../core/preview';
import { searchFolder, type SnippetPart } from '../../core/search';
import type { PreviewSite } from './site';
import { characterStart, clipText } from '../../../shared/clip-text';

export interface PreviewSearchResult {
  title: string;
  /** The page's file, relative to the previewed folder. */
  path: string;
  url: string;
  snippet: SnippetPart[];
}

const LIMIT = 20;
/** A query past this is refused in one line (the index's cost grows with the words). */
export const MAX_QUERY_CHARS = 200;

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function searchPreview(site: PreviewSite, mirror: Pick<Mirror, 'catalog' | 'search'> | null, query: string): PreviewSearchResult[] {
  const q = query.trim();
  if (q === '') return [];
  if (mirror) {
    let hits: ReturnType<typeof searchFolder>;
    try {
      hits = searchFolder(mirror, q, { kinds: ['page'], limit: LIMIT });
    } catch {
      hits = [];
    }
    return hits.flatMap((h) =>
      h.file !== null && site.index.get(h.file)
        ? [{ title: h.title || pageTitle(site.index, h.file), path: h.file, url: site.urls.page(h.file, null), snippet: h.snippet }]
        : [],
    );
  }
  return scan(site, q);
}

/** Every word of the query in the page's title or text, accents and case aside; title matches first. */
function scan(site: PreviewSite, query: string): PreviewSearchResult[] {
  const words = fold(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  if (words.length === 0) return [];
  const found: (PreviewSearchResult & { rank: number })[] = [];
  for (const space of site.spaces) {
    for (const file of space.files) {
      if (file.kind !== 'page' || file.text === null) continue;
      const path = space.folder === '' ? file.path : `${space.folder}/${file.path}`;
      const title = pageTitle(site.index, path);
      const foldedTitle = fold(title);
      const foldedText = fold(file.text);
      if (!words.every((w) => foldedTitle.includes(w) || foldedText.includes(w))) continue;
      const inTitle = words.filter((w) => foldedTitle.includes(w)).length;
      found.push({ title, path, url: site.urls.page(path, null), snippet: snippetOf(file.text, foldedText, words[0]!), rank: inTitle });
      if (found.length >= 500) break;
    }
  }
  return found
    .sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : 1))
    .slice(0, LIMIT)
    .map(({ rank: _rank, ...r }) => r);
}

/** About 120 characters around the first match of `word` (folding keeps offsets for the text GitBook pages hold, bar rare ligatures). */
function snippetOf(text: string, folded: string, word: string): SnippetPart[] {
  const at = folded.indexOf(word);
  if (at < 0 || folded.length !== text.length) return [{ text: clipText(text, 121).replace(/\s+/g, ' '), match: false }];
  // Cut between characters, never inside an emoji or an accented letter.
  const start = characterStart(text, at - 50);
  const end = characterStart(text, at + word.length + 70);
  const clean = (s: string) => s.replace(/\s+/g, ' ');
  return [
    { text: `${start > 0 ? '…' : ''}${clean(text.slice(start, at))}`, match: false },
    { text: text.slice(at, at + word.length), match: true },
    { text: `${clean(text.slice(at + word.length, end))}${end < text.length ? '…' : ''}`, match: false },
  ];
}
