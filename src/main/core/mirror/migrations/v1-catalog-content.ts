import type { Migration } from './migration';

export const catalogAndContent: Migration = {
  version: 1,
  name: 'catalog, content and review mirror',
  sql: `
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE organizations (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      json TEXT NOT NULL,
      refreshed_at TEXT NOT NULL
    );

    CREATE TABLE collections (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      parent_id TEXT,
      title TEXT NOT NULL,
      json TEXT NOT NULL
    );

    CREATE TABLE spaces (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      collection_id TEXT,
      title TEXT NOT NULL,
      emoji TEXT,
      visibility TEXT,
      remote_revision TEXT NOT NULL,
      json TEXT NOT NULL,
      -- local sync state
      selected INTEGER NOT NULL DEFAULT 0,
      folder TEXT UNIQUE,
      synced_revision TEXT,
      last_sync_at TEXT,
      last_error TEXT
    );

    CREATE TABLE revisions (
      id TEXT PRIMARY KEY,
      space_id TEXT NOT NULL,
      parents TEXT NOT NULL,
      created_at TEXT,
      pulled_at TEXT NOT NULL
    );

    -- One row per page of the synced revision. base_content is the exact
    -- file text last written or pushed: the common ancestor for merges.
    CREATE TABLE pages (
      space_id TEXT NOT NULL,
      id TEXT NOT NULL,
      parent_id TEXT,
      position INTEGER NOT NULL,
      type TEXT NOT NULL,
      title TEXT NOT NULL,
      slug TEXT,
      -- the name the page owns in its parent folder (kept stable across pulls)
      name TEXT,
      path TEXT,
      meta TEXT NOT NULL,
      document_id TEXT,
      updated_at TEXT,
      remote_hash TEXT,
      base_content TEXT,
      local_size INTEGER,
      local_mtime_ms REAL,
      PRIMARY KEY (space_id, id)
    );
    CREATE INDEX pages_by_path ON pages (space_id, path);

    CREATE TABLE files (
      space_id TEXT NOT NULL,
      id TEXT NOT NULL,
      name TEXT NOT NULL,
      content_type TEXT NOT NULL,
      size INTEGER NOT NULL,
      path TEXT NOT NULL,
      remote_hash TEXT,
      PRIMARY KEY (space_id, id)
    );

    CREATE TABLE conflicts (
      space_id TEXT NOT NULL,
      path TEXT NOT NULL,
      page_id TEXT,
      kind TEXT NOT NULL,
      remote_path TEXT,
      detected_at TEXT NOT NULL,
      PRIMARY KEY (space_id, path)
    );

    CREATE TABLE change_requests (
      space_id TEXT NOT NULL,
      id TEXT NOT NULL,
      number INTEGER NOT NULL,
      status TEXT NOT NULL,
      subject TEXT NOT NULL,
      outdated INTEGER NOT NULL DEFAULT 0,
      created_by TEXT,
      updated_at TEXT,
      json TEXT NOT NULL,
      PRIMARY KEY (space_id, id)
    );

    CREATE TABLE comments (
      id TEXT PRIMARY KEY,
      space_id TEXT NOT NULL,
      change_request_id TEXT,
      page_id TEXT,
      author_id TEXT,
      body TEXT NOT NULL,
      status TEXT,
      posted_at TEXT,
      json TEXT NOT NULL
    );

    CREATE TABLE replies (
      id TEXT PRIMARY KEY,
      comment_id TEXT NOT NULL,
      author_id TEXT,
      body TEXT NOT NULL,
      posted_at TEXT,
      json TEXT NOT NULL
    );

    CREATE TABLE sites (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      title TEXT NOT NULL,
      visibility TEXT NOT NULL,
      published INTEGER NOT NULL,
      json TEXT NOT NULL
    );

    CREATE TABLE sync_log (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      space_id TEXT,
      kind TEXT NOT NULL,
      message TEXT NOT NULL
    );
  `,
};
