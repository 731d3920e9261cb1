import type { Migration } from './migration';

export const pushedRevision: Migration = {
  version: 27,
  name: "the revision Quire's own last push made in its change request",
  sql: `
    -- The change request's head after the last batch Quire sent into it. The review refresh does
    -- not fetch that head's page list (a whole tree, 15 MB over 20,000 pages) for the diff: the
    -- writer's own edit moved it, and the diff is fetched when opened (review/refresh.ts).
    ALTER TABLE sync_change_requests ADD COLUMN pushed_revision TEXT;
  `,
};
