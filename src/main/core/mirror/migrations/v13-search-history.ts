import type { Migration } from './migration';

export const searchAndHistory: Migration = {
  version: 13,
  name: 'offline full-text search over pages and comments; every version of a page Quire saw',
  sql: `
    -- What search finds. kind: page (key: page id, or new:<path> for a file not yet a page),
    -- comment or reply (key: its id; comment_id: the comment itself, or the reply's comment).
    -- The text lives here once; search_fts indexes it without a copy (external content).
    -- scope: words for the kind and the space (k<kind> s<hex of the space id>), indexed so
    -- FTS5 filters by them itself and can rank and cut at the limit on its own.
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
    -- Titles weigh most, then descriptions and authors, then bodies; scope not at all.
    INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(8.0, 4.0, 1.0, 2.0, 0.0)');

    CREATE TRIGGER search_docs_added AFTER INSERT ON search_docs BEGIN
      INSERT INTO search_fts (rowid, title, description, body, author, scope) VALUES (new.rowid, new.title, new.description, new.body, new.author, new.scope);
    END;
    CREATE TRIGGER search_docs_removed AFTER DELETE ON search_docs BEGIN
      INSERT INTO search_fts (search_fts, rowid, title, description, body, author, scope)
        VALUES ('delete', old.rowid, old.title, old.description, old.body, old.author, old.scope);
    END;
    -- Only a change of the indexed text costs a re-index (a move changes the path alone).
    CREATE TRIGGER search_docs_changed AFTER UPDATE ON search_docs
      WHEN old.title IS NOT new.title OR old.description IS NOT new.description OR old.body IS NOT new.body OR old.author IS NOT new.author
        OR old.scope IS NOT new.scope
    BEGIN
      INSERT INTO search_fts (search_fts, rowid, title, description, body, author, scope)
        VALUES ('delete', old.rowid, old.title, old.description, old.body, old.author, old.scope);
      INSERT INTO search_fts (rowid, title, description, body, author, scope) VALUES (new.rowid, new.title, new.description, new.body, new.author, new.scope);
    END;

    -- Spaces whose pages were all indexed once (later changes arrive one page at a time).
    CREATE TABLE search_spaces (space_id TEXT PRIMARY KEY, indexed_at TEXT NOT NULL);

    -- Comments and replies already in the mirror: indexed here, as the review store keeps them from now on.
    INSERT INTO search_docs (kind, space_id, key, comment_id, body, author, scope)
      SELECT 'comment', c.space_id, c.id, c.id, c.body, COALESCE(u.display_name, ''), 'kcomment s' || lower(hex(c.space_id))
      FROM comments c LEFT JOIN review_users u ON u.id = c.author_id;
    INSERT INTO search_docs (kind, space_id, key, comment_id, body, author, scope)
      SELECT 'reply', r.space_id, r.id, r.comment_id, r.body, COALESCE(u.display_name, ''), 'kreply s' || lower(hex(r.space_id))
      FROM replies r LEFT JOIN review_users u ON u.id = r.author_id;

    -- Page texts, once each: hash = sha256 of the text; data = raw deflate of it, with the text
    -- of base (a blob stored whole) as the preset dictionary when that makes it much smaller,
    -- so ten versions of a page cost little more than one.
    CREATE TABLE history_blobs (
      id INTEGER PRIMARY KEY,
      hash BLOB NOT NULL UNIQUE,
      size INTEGER NOT NULL,
      base INTEGER REFERENCES history_blobs (id),
      data BLOB NOT NULL
    );
    CREATE INDEX history_blobs_by_base ON history_blobs (base) WHERE base IS NOT NULL;

    -- Every version of a page Quire pulled, merged, pushed, deleted, restored or saw overwritten.
    -- page_key: the page id, or new:<path> until the page has one. number: 1, 2, ... per page,
    -- never reused, so a version keeps its number when older ones are pruned.
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

    -- One row per page with history: its latest version, for listings and lookups by path.
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
  `,
};
