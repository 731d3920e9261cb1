import type { Migration } from './migration';

export const structuredHolds: Migration = {
  version: 11,
  name: 'holds record what the fail-safe counted, not a message: each host words it',
  // A hold is worked out again by every cycle, so dropping the old rows loses nothing: the
  // next cycle records the hold again if it still applies.
  sql: `
    DROP TABLE sync_holds;

    -- A space sync stopped for the user to decide (kind 'mass-delete': the fail-safe), with
    -- what the cycle would have deleted: page files here, pages on the server, out of how many.
    CREATE TABLE sync_holds (
      space_id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      local_deletes INTEGER NOT NULL,
      remote_deletes INTEGER NOT NULL,
      pages INTEGER NOT NULL,
      at TEXT NOT NULL
    );
  `,
};
