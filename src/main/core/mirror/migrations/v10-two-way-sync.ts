import type { Migration } from './migration';

export const twoWaySync: Migration = {
  version: 10,
  name: 'two-way sync: the change request Quire writes into, what it holds, the push outbox, watcher records, holds',
  sql: `
    -- The one change request per space that local edits go into.
    -- state: creating (the create request may have reached the server), open.
    CREATE TABLE sync_change_requests (
      space_id TEXT PRIMARY KEY,
      change_request_id TEXT,
      number INTEGER,
      marker TEXT NOT NULL,
      subject TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL
    );

    -- What that change request holds for each page Quire changed in it.
    CREATE TABLE sync_pushed_pages (
      space_id TEXT NOT NULL,
      page_id TEXT NOT NULL,
      path TEXT,
      parent_id TEXT,
      name TEXT,
      text TEXT,
      deleted INTEGER NOT NULL DEFAULT 0,
      -- the change request places the page (moved, renamed or inserted)
      moved INTEGER NOT NULL DEFAULT 0,
      pushed_at TEXT NOT NULL,
      PRIMARY KEY (space_id, page_id)
    );

    -- Assets uploaded into that change request.
    CREATE TABLE sync_pushed_files (
      space_id TEXT NOT NULL,
      path TEXT NOT NULL,
      name TEXT NOT NULL,
      size INTEGER NOT NULL,
      file_id TEXT,
      PRIMARY KEY (space_id, path)
    );

    -- Every content batch, recorded before it is sent, then what the server answered.
    -- state: sending (may have reached the server), applied, not-applied, refused, reconciled.
    CREATE TABLE sync_outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      space_id TEXT NOT NULL,
      change_request_id TEXT NOT NULL,
      changes TEXT NOT NULL,
      effects TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL,
      finished_at TEXT,
      response TEXT,
      error TEXT
    );
    CREATE INDEX sync_outbox_by_state ON sync_outbox (space_id, state);

    -- Edits the watcher saw and sync has not pushed yet.
    CREATE TABLE sync_local_edits (
      space_id TEXT NOT NULL,
      path TEXT NOT NULL,
      kind TEXT NOT NULL,
      seen_at TEXT NOT NULL,
      PRIMARY KEY (space_id, path)
    );

    -- Changes the server refused: not sent again until the file changes.
    CREATE TABLE sync_refused (
      space_id TEXT NOT NULL,
      page_key TEXT NOT NULL,
      path TEXT,
      text_hash TEXT NOT NULL,
      message TEXT NOT NULL,
      at TEXT NOT NULL,
      PRIMARY KEY (space_id, page_key)
    );

    -- The common ancestor of each open conflict, for a three-way view.
    CREATE TABLE sync_conflict_bases (
      space_id TEXT NOT NULL,
      path TEXT NOT NULL,
      base_text TEXT,
      PRIMARY KEY (space_id, path)
    );

    -- A space sync stopped for the user to decide (the mass-delete fail-safe).
    CREATE TABLE sync_holds (
      space_id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      message TEXT NOT NULL,
      at TEXT NOT NULL
    );
  `,
};
