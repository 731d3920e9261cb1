import type { Mirror } from '../../../core/mirror';
import {
  checkQuerySize,
  type FolderSearchHit,
  indexNewSpaces,
  SEARCH_KINDS,
  type SearchKind,
  SearchQueryTooLargeError,
  searchFolder,
  type SnippetPart,
} from '../../../core/search';
import { prefixLastWord } from '../../../../shared/search-query';
import { countFlag, dirFlag, has, spaceFlags, UsageError, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { plural } from '../../../../shared/plural';
import { safeField, safeLine } from '../terminal-text';

export interface SearchJson {
  query: string;
  results: {
    kind: SearchKind;
    spaceId: string;
    spaceTitle: string;
    /** The page's file (a comment's: its page's) relative to the sync folder, or null. */
    file: string | null;
    /** Page results: the page id (null for a file not yet a page); comment results: the page commented on. */
    pageId: string | null;
    title: string;
    /** Comment and reply results. */
    commentId?: string;
    replyId?: string;
    author?: string;
    changeRequest?: { id: string; number: number | null } | null;
    snippet: string;
    /** [start, end) offsets of the matched words in `snippet`. */
    highlights: [number, number][];
  }[];
}

const DEFAULT_LIMIT = 20;

/**
 * `quire search <terms> --dir <folder> [--space <id>] [--kind page|comment|reply]... [--limit <n>] [--json]`:
 * pages and comments of the folder, offline. Terms are FTS5 syntax ("a phrase", prefix*,
 * title:word, OR, NOT); anything else is searched as plain words. A bare last word is also a
 * prefix, as in the app's search box (one rule: shared/search-query.ts).
 */
export async function search(args: ParsedArgs, io: CliIo, ctx: Pick<CliContext, 'openMirror'>): Promise<number> {
  const dir = dirFlag(args);
  const query = args.positionals.join(' ').trim();
  if (query === '') throw new UsageError('say what to search for: quire search <terms> --dir <folder>');
  const limit = countFlag(args, 'limit', { min: 1, max: 200, example: 50 }) ?? DEFAULT_LIMIT;
  const kinds = (args.flags.get('kind') ?? []).map((k) => {
    if (!(SEARCH_KINDS as readonly string[]).includes(k)) throw new UsageError(`--kind must be one of ${SEARCH_KINDS.join(', ')} (got "${k}")`);
    return k as SearchKind;
  });
  const spaceId = spaceFlags(args).at(-1);
  const mirror = ctx.openMirror(dir);
  try {
    if (spaceId !== undefined && !mirror.catalog.space(spaceId)) {
      throw new UsageError(`no space ${spaceId} in ${dir}; \`quire status --dir ${dir}\` lists the synced spaces`);
    }
    const hits = await mirror.withRepair(async () => {
      await catchUp(mirror, dir, io);
      return find(mirror, query, { spaceId, limit, ...(kinds.length > 0 ? { kinds } : {}) });
    }, io.stderr);
    if (has(args, 'json')) {
      io.stdout(JSON.stringify({ query, results: hits.map(toJson) } satisfies SearchJson, null, 2));
    } else {
      io.stdout(formatText(query, hits, limit));
    }
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

/** The folder's results for what was typed; a query too large to search is a usage error (one line: what was too large). */
function find(mirror: Pick<Mirror, 'catalog' | 'search'>, query: string, options: Parameters<typeof searchFolder>[2]): FolderSearchHit[] {
  try {
    checkQuerySize(query); // as typed: the size said is the size given
    return searchFolder(mirror, prefixLastWord(query), options);
  } catch (err) {
    if (err instanceof SearchQueryTooLargeError) throw new UsageError(err.message, { usage: false });
    throw err;
  }
}

/** Spaces synced before search existed are indexed from their files once (a long read on a large folder: it says so first). */
async function catchUp(mirror: Pick<Mirror, 'catalog' | 'content' | 'search' | 'transaction'>, dir: string, io: CliIo): Promise<void> {
  const spaces = mirror.catalog.selectedSpaces().filter((s) => s.folder && !mirror.search.spaceIndexed(s.id));
  if (spaces.length === 0) return;
  io.stderr(`Indexing ${plural(spaces.length, 'space')} for search (once per space)…`);
  const pages = await indexNewSpaces(mirror, dir);
  io.stderr(`Indexed ${plural(pages, 'page')} for search.`);
}

function flatten(parts: SnippetPart[]): { snippet: string; highlights: [number, number][] } {
  let snippet = '';
  const highlights: [number, number][] = [];
  for (const p of parts) {
    if (p.match) highlights.push([snippet.length, snippet.length + p.text.length]);
    snippet += p.text;
  }
  return { snippet, highlights };
}

function toJson(h: FolderSearchHit): SearchJson['results'][number] {
  const base = { kind: h.kind, spaceId: h.spaceId, spaceTitle: h.spaceTitle, file: h.file, title: h.title, ...flatten(h.snippet) };
  if (h.kind === 'page') return { ...base, pageId: h.pageId };
  return {
    ...base,
    pageId: h.pageId,
    commentId: h.commentId,
    ...(h.kind === 'reply' ? { replyId: h.id } : {}),
    author: h.author,
    changeRequest: h.changeRequestId ? { id: h.changeRequestId, number: h.changeRequestNumber } : null,
  };
}

/** Matches between brackets: `…run the [installer] first…`. */
const marked = (parts: SnippetPart[]) => parts.map((p) => (p.match ? `[${safeLine(p.text)}]` : safeLine(p.text))).join('');

function formatText(query: string, hits: FolderSearchHit[], limit: number): string {
  if (hits.length === 0) return `Nothing found for ${safeLine(query)}. Try fewer words, or a prefix such as inst*.`;
  const found = plural(hits.length, 'result');
  const lines = [`${hits.length === limit ? `First ${found}` : found} for ${safeLine(query)}:`];
  for (const h of hits) {
    if (h.kind === 'page') {
      const what = h.reusable ? ' (reusable content)' : h.pageId === null ? ' (new, not pushed yet)' : '';
      lines.push(`  ${safeField(h.file ?? h.path)} — ${safeField(h.title || '(untitled)')}${what}`);
    } else {
      const where = [
        h.changeRequestId ? `change request #${h.changeRequestNumber ?? '?'}` : 'main content',
        h.file ? safeField(h.file) : h.pageTitle ? safeField(h.pageTitle) : null,
      ].filter(Boolean);
      const what = h.kind === 'reply' ? `reply in comment ${h.commentId}` : `comment ${h.commentId}`;
      lines.push(`  ${what} by ${safeField(h.author || 'unknown')} on ${where.join(', ')}`);
    }
    if (h.snippet.length > 0) lines.push(`      ${marked(h.snippet)}`);
  }
  return lines.join('\n');
}
