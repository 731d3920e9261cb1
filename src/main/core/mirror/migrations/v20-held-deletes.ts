import type { Migration } from './migration';

export const heldDeletes: Migration = {
  version: 20,
  name: 'a mass-delete stop records the pages it stopped before deleting',
  // A stop recorded before this has none: it is worked out again by count, as it was, and
  // records its pages the next time it stops.
  sql: `
    -- The pages the stop holds, as JSON { server: [page ids it would delete on the server],
    -- here: [page ids whose files it would delete here] }: held until their files are back, the
    -- server deleted them too, or the writer lets the deletes through (core/sync/plan/fail-safe.ts).
    ALTER TABLE sync_holds ADD COLUMN deletes TEXT;
  `,
};
