import type { Migration } from './migration';

export const pagesByType: Migration = {
  version: 26,
  name: 'pages counted by type from an index',
  sql: `
    -- The fail-safe counts a space's documents each cycle (content.ts, documentCount): from this
    -- index, not a read of every row (their base texts: ~80 MB over 20,000 pages, each cycle).
    CREATE INDEX pages_by_type ON pages (space_id, type);
  `,
};
