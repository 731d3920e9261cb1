import type { Migration } from './migration';

export const syncState: Migration = {
  version: 16,
  name: 'what the sync state needs after the cycle is over: when each space last reached the server, its failed attempts, and what a cycle left for the writer',
  sql: `
    -- The last cycle of the space that reached the server and completed ("last sync" in every host),
    -- and, since then, the first and the last attempt that failed, with what kind of failure
    -- (offline: the API could not be reached; token-rejected; error: anything else).
    ALTER TABLE spaces ADD COLUMN reached_at TEXT;
    ALTER TABLE spaces ADD COLUMN failing_since TEXT;
    ALTER TABLE spaces ADD COLUMN failed_at TEXT;
    ALTER TABLE spaces ADD COLUMN failure_kind TEXT;
    -- A mirror synced before this step: its last clean sync is the best record of the last one.
    UPDATE spaces SET reached_at = last_sync_at;

    -- What the last completed cycle of a space did not push and left for the writer: pages the push
    -- guard held, SUMMARY.md lines the API cannot carry, deleted assets a page still shows, paths
    -- Quire cannot read. reason: the cycle's (a Held reason); replaced whole by each completed cycle.
    CREATE TABLE sync_attention (
      space_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      reason TEXT NOT NULL,
      path TEXT NOT NULL,
      line INTEGER,
      title TEXT,
      page_key TEXT,
      at TEXT NOT NULL,
      PRIMARY KEY (space_id, seq)
    );
  `,
};
