import type { Migration } from './migration';

export const syncLogActivity: Migration = {
  version: 17,
  name: 'what each pull and push did, page by page, in the sync log',
  sql: `
    -- A pull's or a push's pages and files (titles, paths, page ids), the change request they
    -- went to and who made main's change where the API says, as JSON (log.ts LogActivity);
    -- NULL for other entries and for entries written before.
    ALTER TABLE sync_log ADD COLUMN activity TEXT;
  `,
};
