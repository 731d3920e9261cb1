/**
 * Search and page history are derived data: the search index is made again from the folder and
 * the mirror's comments, and history only ever adds to what the files and the server hold. So
 * damage to either — an FTS5 shadow table with garbage in it, a history table gone — never stops
 * a sync and never sends the whole mirror aside: the damaged part is dropped and made again
 * (search: empty, refilled from the folder as a new space is; history: the versions kept if they
 * read fine, otherwise empty, saying what was lost), and the caller runs again.
 *
 * Finding where the damage is takes `PRAGMA quick_check` one table at a time and FTS5's own
 * check of its index against `search_docs`, run only when SQLite reported something that may be
 * damage (a corrupt page, a derived table missing, FTS5 failing): on the 20,000-page benchmark
 * mirror (254 MB) that is 2-4 s (a whole-file quick_check alone about 1 s), far more than a no-op
 * sync, so it is not run on every open. Opening for a sync only looks for missing tables (one read
 * of the schema: about 1 ms there).
 *
 * The tables' definitions repeat the latest migration that made them (v13-search-history.ts);
 * test/mirror/derived.test.ts checks that a rebuilt schema equals a migrated one.
 */
import type { Db } from './database';

export type DerivedPart = 'search' | 'history';

const SEARCH_TRIGGERS = ['search_docs_added', 'search_docs_removed', 'search_docs_changed'];
const SEARCH_TABLES = ['search_docs', 'search_fts', 'search_fts_data', 'search_fts_idx', 'search_fts_docsize', 'search_fts_config', 'search_spaces'];
const SEARCH_INDEXES = ['search_docs_by_key', 'search_docs_by_comment', 'search_docs_by_space', 'search_docs_by_path'];
const HISTORY_TABLES = ['history_blobs', 'history_versions', 'history_pages'];
const HISTORY_INDEXES = ['history_blobs_by_base', 'history_versions_by_blob', 'history_pages_by_path', 'history_pages_by_time'];

const OBJECTS: Record<DerivedPart, string[]> = {
  search: [...SEARCH_TABLES, ...SEARCH_INDEXES, ...SEARCH_TRIGGERS],
  history: [...HISTORY_TABLES, ...HISTORY_INDEXES],
};

const SEARCH_SCHEMA = `
  CREATE TABLE search_docs (
    rowid INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    space_id TEXT NOT NULL,
    key TEXT NOT NULL,
    path TEXT,
    comment_id TEXT,
    title TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    author TEXT NOT NULL DEFAULT '',
    scope TEXT NOT NULL
  );
  CREATE UNIQUE INDEX search_docs_by_key ON search_docs (kind, key, space_id);
  CREATE INDEX search_docs_by_comment ON search_docs (comment_id) WHERE comment_id IS NOT NULL;
  CREATE INDEX search_docs_by_space ON search_docs (space_id, kind);
  CREATE INDEX search_docs_by_path ON search_docs (space_id, path) WHERE path IS NOT NULL;

  CREATE VIRTUAL TABLE search_fts USING fts5(
    title, description, body, author, scope,
    content = 'search_docs', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  );
  INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(8.0, 4.0, 1.0, 2.0, 0.0)');

  CREATE TRIGGER search_docs_added AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_fts (rowid, title, description, body, author, scope) VALUES (new.rowid, new.title, new.description, new.body, new.author, new.scope);
  END;
  CREATE TRIGGER search_docs_removed AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_fts (search_fts, rowid, title, description, body, author, scope)
      VALUES ('delete', old.rowid, old.title, old.description, old.body, old.author, old.scope);
  END;
  CREATE TRIGGER search_docs_changed AFTER UPDATE ON search_docs
    WHEN old.title IS NOT new.title OR old.description IS NOT new.description OR old.body IS NOT new.body OR old.author IS NOT new.author
      OR old.scope IS NOT new.scope
  BEGIN
    INSERT INTO search_fts (search_fts, rowid, title, description, body, author, scope)
      VALUES ('delete', old.rowid, old.title, old.description, old.body, old.author, old.scope);
    INSERT INTO search_fts (rowid, title, description, body, author, scope) VALUES (new.rowid, new.title, new.description, new.body, new.author, new.scope);
  END;

  CREATE TABLE search_spaces (space_id TEXT PRIMARY KEY, indexed_at TEXT NOT NULL);

  INSERT INTO search_docs (kind, space_id, key, comment_id, body, author, scope)
    SELECT 'comment', c.space_id, c.id, c.id, c.body, COALESCE(u.display_name, ''), 'kcomment s' || lower(hex(c.space_id))
    FROM comments c LEFT JOIN review_users u ON u.id = c.author_id;
  INSERT INTO search_docs (kind, space_id, key, comment_id, body, author, scope)
    SELECT 'reply', r.space_id, r.id, r.comment_id, r.body, COALESCE(u.display_name, ''), 'kreply s' || lower(hex(r.space_id))
    FROM replies r LEFT JOIN review_users u ON u.id = r.author_id;
`;

const HISTORY_BLOBS = `
  CREATE TABLE history_blobs (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    base INTEGER REFERENCES history_blobs (id),
    data BLOB NOT NULL
  );
  CREATE INDEX history_blobs_by_base ON history_blobs (base) WHERE base IS NOT NULL;
`;
const HISTORY_VERSIONS = `
  CREATE TABLE history_versions (
    space_id TEXT NOT NULL,
    page_key TEXT NOT NULL,
    number INTEGER NOT NULL,
    path TEXT,
    title TEXT,
    blob INTEGER NOT NULL REFERENCES history_blobs (id),
    reason TEXT NOT NULL,
    detail TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (space_id, page_key, number)
  ) WITHOUT ROWID;
  CREATE INDEX history_versions_by_blob ON history_versions (blob);
`;
const HISTORY_PAGES = `
  CREATE TABLE history_pages (
    space_id TEXT NOT NULL,
    page_key TEXT NOT NULL,
    last_number INTEGER NOT NULL,
    path TEXT,
    title TEXT,
    last_reason TEXT NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (space_id, page_key)
  );
  CREATE INDEX history_pages_by_path ON history_pages (space_id, path);
  CREATE INDEX history_pages_by_time ON history_pages (last_at);
`;
/** The page list again from the versions kept: each page as of its latest version. */
const HISTORY_PAGES_FROM_VERSIONS = `
  INSERT INTO history_pages (space_id, page_key, last_number, path, title, last_reason, last_at)
    SELECT v.space_id, v.page_key, v.number, v.path,
      (SELECT t.title FROM history_versions t WHERE t.space_id = v.space_id AND t.page_key = v.page_key AND t.title IS NOT NULL ORDER BY t.number DESC LIMIT 1),
      v.reason, v.at
    FROM history_versions v
    WHERE v.number = (SELECT max(number) FROM history_versions m WHERE m.space_id = v.space_id AND m.page_key = v.page_key);
`;

/** Errors that may mean damage to search or history (anything else is not theirs to repair). */
export function mayBeDerivedDamage(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code !== 'string' || !e.code.startsWith('SQLITE_')) return false;
  if (e.code.startsWith('SQLITE_CORRUPT') || e.code === 'SQLITE_NOTADB') return true;
  // A table or the FTS5 index gone or garbled, or a transaction SQLite rolled back under a savepoint.
  const message = typeof e.message === 'string' ? e.message : '';
  return e.code === 'SQLITE_ERROR' && /\b(search_|history_)\w*|fts5|no such savepoint|vtable constructor failed/i.test(message);
}

/** Where a database is damaged: the derived parts, and the names of any other table (the mirror itself). */
export interface Damage {
  derived: Set<DerivedPart>;
  core: string[];
  /** SQLite's first words about it, for the line shown. */
  reason: string;
}

/** Looks for damage: derived objects missing, FTS5's index check, then quick_check table by table. */
export function findDamage(db: Db, options: { thorough: boolean }): Damage {
  const damage: Damage = { derived: new Set(), core: [], reason: '' };
  const note = (part: DerivedPart | null, table: string, reason: string) => {
    if (part) damage.derived.add(part);
    else damage.core.push(table);
    damage.reason ||= reason;
  };
  const present = new Set((db.prepare(`SELECT name FROM sqlite_schema`).all() as { name: string }[]).map((r) => r.name));
  for (const part of ['search', 'history'] as const) {
    const missing = OBJECTS[part].find((name) => !present.has(name));
    if (missing) note(part, missing, `${missing} is missing`);
  }
  if (!options.thorough) return damage;
  if (!damage.derived.has('search')) {
    try {
      db.prepare(`INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)`).run(); // 1: against search_docs too
      db.prepare(`SELECT rowid, rank FROM search_fts WHERE search_fts MATCH 'kpage OR kcomment OR kreply' LIMIT 1`).all();
    } catch (err) {
      if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err; // another writer, not damage
      note('search', 'search_fts', (err as Error).message);
    }
  }
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'search_fts' ORDER BY name`).all() as { name: string }[];
  for (const { name } of tables) {
    const part = partOf(name);
    if (part && damage.derived.has(part)) continue; // rebuilt whole anyway
    let problems: string[];
    try {
      problems = (db.prepare(`PRAGMA quick_check(${quoteName(name)})`).all() as { quick_check: string }[]).map((r) => r.quick_check);
    } catch (err) {
      problems = [(err as Error).message];
    }
    if (problems.length !== 1 || problems[0] !== 'ok') note(part, name, problems[0] ?? 'damaged');
  }
  return damage;
}

function partOf(table: string): DerivedPart | null {
  if (table.startsWith('search_')) return 'search';
  if (table.startsWith('history_')) return 'history';
  return null;
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Drops the search index and makes it again: comments and replies from the review tables; pages
 * are indexed from the folder by the next sync or search, as a space seen for the first time.
 */
export function rebuildSearch(db: Db): void {
  for (const t of SEARCH_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${t}`);
  dropFts(db);
  for (const t of SEARCH_TABLES.filter((t) => t !== 'search_fts')) db.exec(`DROP TABLE IF EXISTS ${t}`);
  db.transaction(() => db.exec(SEARCH_SCHEMA))();
}

/**
 * The FTS5 table cannot be dropped while FTS5 cannot open it (its config table gone or
 * garbled): the config is given back the one row FTS5 needs to open it, and then it drops.
 */
function dropFts(db: Db): void {
  try {
    db.exec(`DROP TABLE IF EXISTS search_fts`);
    return;
  } catch {
    // Repair below.
  }
  db.unsafeMode(true); // FTS5's shadow tables are writable only so
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS search_fts_config (k PRIMARY KEY, v) WITHOUT ROWID`);
    db.exec(`DELETE FROM search_fts_config`);
    db.exec(`INSERT INTO search_fts_config (k, v) VALUES ('version', 4)`);
  } finally {
    db.unsafeMode(false);
  }
  db.exec(`DROP TABLE IF EXISTS search_fts`);
}

/** What a history rebuild kept or lost. */
export interface HistoryRebuild {
  /** The versions were kept (only the page list was made again from them). */
  kept: boolean;
  /** Versions and pages lost, as far as they could still be counted. */
  lost: { versions: number | null; pages: number | null };
}

/**
 * Makes page history usable again: when its versions and texts read fine, only the page list is
 * made again from them; otherwise all of it starts again empty.
 */
export function rebuildHistory(db: Db): HistoryRebuild {
  const damaged = new Set(findHistoryTableDamage(db));
  if (!damaged.has('history_versions') && !damaged.has('history_blobs')) {
    db.transaction(() => {
      db.exec(`DROP TABLE IF EXISTS history_pages`);
      db.exec(HISTORY_PAGES);
      db.exec(HISTORY_PAGES_FROM_VERSIONS);
    })();
    return { kept: true, lost: { versions: 0, pages: 0 } };
  }
  const lost = count(db);
  for (const t of [...HISTORY_TABLES].reverse()) db.exec(`DROP TABLE IF EXISTS ${t}`);
  db.transaction(() => db.exec(HISTORY_BLOBS + HISTORY_VERSIONS + HISTORY_PAGES))();
  return { kept: false, lost };
}

/** History tables missing or failing quick_check (their indexes included). */
function findHistoryTableDamage(db: Db): string[] {
  const present = new Set((db.prepare(`SELECT name FROM sqlite_schema`).all() as { name: string }[]).map((r) => r.name));
  return HISTORY_TABLES.filter((t) => {
    if (!present.has(t) || HISTORY_INDEXES.some((i) => i.startsWith(t) && !present.has(i))) return true;
    try {
      const rows = db.prepare(`PRAGMA quick_check(${t})`).all() as { quick_check: string }[];
      return rows.length !== 1 || rows[0]!.quick_check !== 'ok';
    } catch {
      return true;
    }
  });
}

function count(db: Db): HistoryRebuild['lost'] {
  const one = (sql: string): number | null => {
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } catch {
      return null; // that table is what is damaged
    }
  };
  return {
    versions: one(`SELECT count(*) AS n FROM history_versions`),
    pages: one(`SELECT count(*) AS n FROM history_pages`) ?? one(`SELECT count(DISTINCT space_id || char(0) || page_key) AS n FROM history_versions`),
  };
}
