import type { Migration } from './migration';

export const spaceCommentLists: Migration = {
  version: 28,
  name: "when each space's own comments were last listed",
  sql: `
    -- A review refresh lists a space's own comments only where the server counts an open one, or
    -- the mirror still holds one open; the others a few at a time, those listed longest ago
    -- first, so a comment resolved before it was ever seen still arrives (review/refresh.ts).
    CREATE TABLE space_comment_lists (
      space_id TEXT PRIMARY KEY,
      listed_at TEXT NOT NULL
    );
  `,
};
