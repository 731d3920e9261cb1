/**
 * The offline search index: an SQLite FTS5 table over pages (title, description, body as the
 * folder has it, so unpushed edits are found) and over comments and replies (body, author).
 *
 * Why it looks like this:
 * - External content: the text lives once, in `search_docs`, keyed by what it belongs to; the
 *   FTS table holds only the inverted index, and triggers on `search_docs` keep it in step. A
 *   write that changes no indexed text (a page moved, a comment refreshed unchanged) costs one
 *   keyed row update and no re-indexing, so the sync engine can call `indexPage` for every page
 *   it touches inside its own transactions.
 * - Filters are words too: each entry's kind and space are indexed (the `scope` column), so a
 *   filtered search is one FTS5 query that ranks, stops at the limit and makes snippets for
 *   the rows it returns only. (Ranking every match in SQL and looking rows up again costs
 *   several times more on a large folder.) Prefix indexes make `ab*` and `abc*` cheap.
 * - Queries are FTS5 syntax (`"a phrase"`, `prefix*`, `title:word`, AND/OR/NOT); anything FTS5
 *   refuses is searched again as plain words, so a person never sees an SQLite error.
 * - `unicode61 remove_diacritics 2`: "cafe" finds "café", and the other way round.
 * - A query is bounded (MAX_QUERY_CHARS, MAX_QUERY_WORDS) before SQLite sees it: FTS5's cost
 *   grows faster than the number of terms (250 copies of a common word took a minute over
 *   2,000 pages), and a query it cannot be stopped in the middle of must stay short.
 */
import type { Db } from './database';
import type { StoredPaths } from './stored-paths';
import { statementCache } from './review/statements';

export type SearchKind = 'page' | 'comment' | 'reply';
export const SEARCH_KINDS: readonly SearchKind[] = ['page', 'comment', 'reply'];

/** A page as the folder has it: `key` is its page id, or `new:<path>` for a file that is not a page yet. */
export interface PageEntry {
  spaceId: string;
  key: string;
  /** The file, relative to the space folder. */
  path: string;
  title: string;
  description: string;
  body: string;
}

export interface CommentEntry {
  id: string;
  spaceId: string;
  /** Display name of who wrote it ('' when unknown). */
  author: string;
  body: string;
}

export interface ReplyEntry extends CommentEntry {
  commentId: string;
}

export interface SearchOptions {
  spaceId?: string;
  /** At most this many results (default 20, at most 200). */
  limit?: number;
  /** Which kinds of results (default all). */
  kinds?: readonly SearchKind[];
}

/** A stretch of a snippet; `match` marks the words the query found. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

interface HitBase {
  spaceId: string;
  /** The page's title; for a comment, the title of its page, else its change request's subject ('' when neither). */
  title: string;
  snippet: SnippetPart[];
  /** Relevance: higher is better (FTS5 bm25, negated). */
  score: number;
}

export interface PageHit extends HitBase {
  kind: 'page';
  key: string;
  /** Null for a file that is not a page on the server yet, and for reusable content. */
  pageId: string | null;
  /** Reusable content (`.gitbook/includes/`): no page, and never pushed. */
  reusable: boolean;
  path: string;
}

export interface CommentHit extends HitBase {
  kind: 'comment' | 'reply';
  /** The comment's or the reply's id. */
  id: string;
  /** The thread: the comment itself, or the reply's comment. */
  commentId: string;
  author: string;
  changeRequestId: string | null;
  changeRequestNumber: number | null;
  changeRequestSubject: string | null;
  pageId: string | null;
  pagePath: string | null;
  pageTitle: string | null;
}

export type SearchHit = PageHit | CommentHit;

/** The longest query searched, in characters, and the most words (runs of letters and digits, as the index splits text). */
export const MAX_QUERY_CHARS = 1000;
export const MAX_QUERY_WORDS = 32;

/** A query past MAX_QUERY_CHARS or MAX_QUERY_WORDS; its message says which, and what to do. */
export class SearchQueryTooLargeError extends RangeError {
  override name = 'SearchQueryTooLargeError';
}

const MARK_START = '\u0002';
const MARK_END = '\u0003';
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 200;
const SNIPPET_TOKENS = 14;

interface RankedRecord {
  id: number;
  score: number;
  body_snippet: string;
  description_snippet: string;
  title_snippet: string;
}

interface DocRecord {
  kind: SearchKind;
  space_id: string;
  key: string;
  path: string | null;
  comment_id: string | null;
  title: string;
  author: string;
  cr_id: string | null;
  cr_number: number | null;
  cr_subject: string | null;
  page_id: string | null;
  page_path: string | null;
  page_title: string | null;
}

/** A key that is no page id: a file not yet a page (`new:<path>`), reusable content (`include:<id>`, sync/extras-record.ts). */
/** The reusable content a search and history key names (`include:<id>`), or null for a page's key. */
export const reusableContentOfKey = (key: string): string | null => (key.startsWith('include:') ? key.slice('include:'.length) : null);
const isReusableKey = (key: string) => reusableContentOfKey(key) !== null;
const isNewKey = (key: string) => key.startsWith('new:') || isReusableKey(key);

/** The words an entry's kind and space are indexed as (hex keeps any id one token). */
const kindWord = (kind: SearchKind) => `k${kind}`;
const spaceWord = (spaceId: string) => `s${Buffer.from(spaceId, 'utf8').toString('hex')}`;
const scopeOf = (kind: SearchKind, spaceId: string) => `${kindWord(kind)} ${spaceWord(spaceId)}`;
/** A person's query searches the text columns only, never the scope words. */
const TEXT_COLUMNS = '{title description body author}';

/** Splits FTS5 snippet text at the match markers. */
export function snippetParts(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let start = 0;
  const flush = (end: number) => {
    const text = marked.slice(start, end).replace(/\s+/g, ' ');
    if (text !== '') parts.push({ text, match });
  };
  for (let i = 0; i < marked.length; i++) {
    const c = marked[i];
    if (c !== MARK_START && c !== MARK_END) continue;
    flush(i);
    match = c === MARK_START;
    start = i + 1;
  }
  flush(marked.length);
  const first = parts[0];
  const last = parts.at(-1);
  if (first) first.text = first.text.trimStart();
  if (last) last.text = last.text.trimEnd();
  return parts.filter((p) => p.text !== '');
}

/**
 * The query as plain words: each whitespace-separated word a quoted FTS5 string (so `e-mail`,
 * `C++` or `foo:bar` mean the words they contain), a trailing `*` kept as a prefix search.
 */
export function plainWordsQuery(query: string): string {
  return query
    .split(/\s+/)
    .map((word) => {
      const prefix = word.length > 1 && word.endsWith('*');
      const text = (prefix ? word.slice(0, -1) : word).replace(/"/g, '');
      return text === '' ? '' : `"${text}"${prefix ? '*' : ''}`;
    })
    .filter((w) => w !== '')
    .join(' ');
}

/** Throws SearchQueryTooLargeError past the limits; reads at most MAX_QUERY_CHARS characters of the query. */
export function checkQuerySize(query: string): void {
  const n = (x: number) => x.toLocaleString('en-US');
  if (query.length > MAX_QUERY_CHARS) {
    throw new SearchQueryTooLargeError(
      `The search is ${n(query.length)} characters long; at most ${n(MAX_QUERY_CHARS)} are searched. Search for a few distinctive words instead.`,
    );
  }
  const words = query.match(/[\p{L}\p{N}\p{Co}]+/gu)?.length ?? 0;
  if (words > MAX_QUERY_WORDS) {
    throw new SearchQueryTooLargeError(
      `The search has ${n(words)} words; at most ${MAX_QUERY_WORDS} are searched at a time. Search for a few distinctive words instead.`,
    );
  }
}

/** SQLite's words for a MATCH expression FTS5 cannot parse. */
function isQuerySyntaxError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (
    e?.code === 'SQLITE_ERROR' && typeof e.message === 'string' && /fts5|no such column|unterminated string|unknown special query|syntax error/i.test(e.message)
  );
}

export class SearchIndex {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(
    db: Db,
    private readonly paths: StoredPaths,
  ) {
    this.sql = statementCache(db);
    // An empty table with the same columns, to ask FTS5 whether a query parses on its own
    // before it is combined with the filters (so `a) OR (b` cannot escape them).
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_syntax USING fts5(title, description, body, author, scope)`);
  }

  // ---- pages (the sync engine calls these inside its transactions) -------------------------

  /** Inserts or replaces a page; costs no re-indexing when only its path changed. */
  indexPage(e: PageEntry): void {
    this.upsert('page', e.spaceId, e.key, { path: e.path, commentId: null, title: e.title, description: e.description, body: e.body, author: '' });
  }

  removePage(spaceId: string, key: string): void {
    this.sql(`DELETE FROM search_docs WHERE kind = 'page' AND key = ? AND space_id = ?`).run(key, spaceId);
  }

  /** A new page got its id (`fromKey` was `new:<path>`): its entry follows, replacing any entry under `toKey`. */
  renamePage(spaceId: string, fromKey: string, toKey: string): void {
    if (fromKey === toKey) return;
    const from = this.sql(`SELECT rowid FROM search_docs WHERE kind = 'page' AND key = ? AND space_id = ?`).get(fromKey, spaceId);
    if (!from) return;
    this.removePage(spaceId, toKey);
    this.sql(`UPDATE search_docs SET key = ? WHERE kind = 'page' AND key = ? AND space_id = ?`).run(toKey, fromKey, spaceId);
  }

  /** Keys and paths of a space's indexed pages (to reconcile with the folder). */
  indexedPages(spaceId: string): Map<string, string> {
    const rows = this.sql(`SELECT key, path FROM search_docs WHERE space_id = ? AND kind = 'page'`).all(spaceId) as { key: string; path: string }[];
    return new Map(this.paths.rowsInSpace(spaceId, rows, "a page's file").map((r) => [r.key, r.path]));
  }

  /** Where the index last saw the page's file. */
  indexedPath(spaceId: string, key: string): string | undefined {
    const r = this.sql(`SELECT path FROM search_docs WHERE kind = 'page' AND key = ? AND space_id = ?`).get(key, spaceId) as { path: string } | undefined;
    return r && this.paths.inSpace(spaceId, r.path, "a page's file");
  }

  /** The page whose file the index last saw at `path`. */
  indexedKeyAt(spaceId: string, path: string): string | undefined {
    const r = this.sql(`SELECT key FROM search_docs WHERE space_id = ? AND path = ? AND kind = 'page' LIMIT 1`).get(spaceId, path) as
      | { key: string }
      | undefined;
    return r?.key;
  }

  /** True once every page of the space was indexed (see markSpaceIndexed). */
  spaceIndexed(spaceId: string): boolean {
    return this.sql(`SELECT 1 FROM search_spaces WHERE space_id = ?`).get(spaceId) !== undefined;
  }

  /** Records that the space's pages were indexed whole; later changes come one page at a time. */
  markSpaceIndexed(spaceId: string, at = new Date().toISOString()): void {
    this.sql(`INSERT INTO search_spaces (space_id, indexed_at) VALUES (?, ?) ON CONFLICT (space_id) DO UPDATE SET indexed_at = excluded.indexed_at`).run(
      spaceId,
      at,
    );
  }

  /** Forgets a space's pages (it is no longer synced); its comments go with the review store's rows. */
  forgetSpacePages(spaceId: string): void {
    this.sql(`DELETE FROM search_docs WHERE space_id = ? AND kind = 'page'`).run(spaceId);
    this.sql(`DELETE FROM search_spaces WHERE space_id = ?`).run(spaceId);
  }

  // ---- comments and replies (the review store calls these) ---------------------------------

  indexComment(e: CommentEntry): void {
    this.upsert('comment', e.spaceId, e.id, { path: null, commentId: e.id, title: '', description: '', body: e.body, author: e.author });
  }

  /** Removes a comment and its replies. */
  removeComment(id: string): void {
    this.sql(`DELETE FROM search_docs WHERE comment_id = ? AND kind IN ('comment', 'reply')`).run(id);
  }

  indexReply(e: ReplyEntry): void {
    this.upsert('reply', e.spaceId, e.id, { path: null, commentId: e.commentId, title: '', description: '', body: e.body, author: e.author });
  }

  removeReply(id: string): void {
    this.sql(`DELETE FROM search_docs WHERE kind = 'reply' AND key = ?`).run(id);
  }

  /** A comment posted offline got its server id: its replies follow it. */
  moveReplies(fromCommentId: string, toCommentId: string): void {
    this.sql(`UPDATE search_docs SET comment_id = ? WHERE kind = 'reply' AND comment_id = ?`).run(toCommentId, fromCommentId);
  }

  private upsert(
    kind: SearchKind,
    spaceId: string,
    key: string,
    v: { path: string | null; commentId: string | null; title: string; description: string; body: string; author: string },
  ): void {
    this.sql(
      `INSERT INTO search_docs (kind, space_id, key, path, comment_id, title, description, body, author, scope)
         VALUES (@kind, @spaceId, @key, @path, @commentId, @title, @description, @body, @author, @scope)
         ON CONFLICT (kind, key, space_id) DO UPDATE SET path = excluded.path, comment_id = excluded.comment_id, title = excluded.title,
           description = excluded.description, body = excluded.body, author = excluded.author
         WHERE path IS NOT excluded.path OR comment_id IS NOT excluded.comment_id OR title IS NOT excluded.title
           OR description IS NOT excluded.description OR body IS NOT excluded.body OR author IS NOT excluded.author`,
    ).run({ kind, spaceId, key, ...v, scope: scopeOf(kind, spaceId) });
  }

  // ---- queries ----------------------------------------------------------------------------

  /**
   * Ranked results for a query in FTS5 syntax; a query FTS5 cannot parse is searched as
   * plain words. An empty query finds nothing.
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const trimmed = query.trim();
    if (trimmed === '') return [];
    checkQuerySize(trimmed);
    if (this.parses(trimmed)) return this.run(trimmed, options);
    const plain = plainWordsQuery(trimmed);
    if (plain === '') return [];
    return this.parses(plain) ? this.run(plain, options) : [];
  }

  private parses(query: string): boolean {
    try {
      this.sql(`SELECT 1 FROM temp.search_syntax WHERE search_syntax MATCH ?`).all(query);
      return true;
    } catch (err) {
      if (isQuerySyntaxError(err)) return false;
      throw err;
    }
  }

  private run(query: string, options: SearchOptions): SearchHit[] {
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? DEFAULT_LIMIT)));
    const kinds = (options.kinds ?? SEARCH_KINDS).filter((k) => SEARCH_KINDS.includes(k));
    if (kinds.length === 0) return [];
    const match = [
      `${TEXT_COLUMNS} : (${query})`,
      ...(options.spaceId !== undefined ? [`scope:${spaceWord(options.spaceId)}`] : []),
      ...(kinds.length < SEARCH_KINDS.length ? [`scope:(${kinds.map(kindWord).join(' OR ')})`] : []),
    ].join(' AND ');
    const ranked = this.sql(
      `SELECT rowid AS id, -rank AS score,
         snippet(search_fts, 2, '${MARK_START}', '${MARK_END}', '…', ${SNIPPET_TOKENS}) AS body_snippet,
         snippet(search_fts, 1, '${MARK_START}', '${MARK_END}', '…', ${SNIPPET_TOKENS}) AS description_snippet,
         snippet(search_fts, 0, '${MARK_START}', '${MARK_END}', '…', ${SNIPPET_TOKENS}) AS title_snippet
       FROM search_fts WHERE search_fts MATCH @match ORDER BY rank LIMIT @limit`,
    ).all({ match, limit }) as RankedRecord[];
    const doc = this.sql(
      `SELECT d.kind, d.space_id, d.key, d.path, d.comment_id, d.title, d.author,
         c.change_request_id AS cr_id, cr.number AS cr_number, cr.subject AS cr_subject, c.page_id AS page_id, p.path AS page_path, p.title AS page_title
       FROM search_docs d
         LEFT JOIN comments c ON d.kind <> 'page' AND c.id = d.comment_id
         LEFT JOIN change_requests cr ON cr.id = c.change_request_id
         LEFT JOIN pages p ON p.space_id = d.space_id AND p.id = c.page_id
       WHERE d.rowid = ?`,
    );
    const hits: SearchHit[] = [];
    for (const r of ranked) {
      const d = doc.get(r.id) as DocRecord | undefined;
      if (d) hits.push(toHit(r, d));
    }
    return hits;
  }
}

function bestSnippet(kind: SearchKind, r: RankedRecord): SnippetPart[] {
  const candidates = kind === 'page' ? [r.body_snippet, r.description_snippet, r.title_snippet] : [r.body_snippet];
  const marked = candidates.find((s) => s.includes(MARK_START)) ?? candidates.find((s) => s.trim() !== '') ?? '';
  return snippetParts(marked);
}

function toHit(ranked: RankedRecord, r: DocRecord): SearchHit {
  const base = { spaceId: r.space_id, snippet: bestSnippet(r.kind, ranked), score: ranked.score };
  if (r.kind === 'page') {
    return { ...base, kind: 'page', key: r.key, pageId: isNewKey(r.key) ? null : r.key, reusable: isReusableKey(r.key), path: r.path ?? '', title: r.title };
  }
  return {
    ...base,
    kind: r.kind,
    id: r.key,
    commentId: r.comment_id ?? r.key,
    title: r.page_title ?? r.cr_subject ?? '',
    author: r.author,
    changeRequestId: r.cr_id,
    changeRequestNumber: r.cr_number,
    changeRequestSubject: r.cr_subject,
    pageId: r.page_id,
    pagePath: r.page_path,
    pageTitle: r.page_title,
  };
}
