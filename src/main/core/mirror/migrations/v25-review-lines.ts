import type { Migration } from './migration';

export const reviewLines: Migration = {
  version: 25,
  name: 'change request pages as files (slug and fields), page documents, and comments anchored to a line',
  sql: `
    -- A revision's page as its file is written (core/review/page-files.ts): its slug places it in
    -- the folder's layout, its fields (JSON) make its frontmatter, its markdown now holds stable
    -- references (links are written for the folder when shown), and its document (JSON, fetched
    -- for changed pages) gives the blocks a line comment names.
    ALTER TABLE review_revision_pages ADD COLUMN slug TEXT;
    ALTER TABLE review_revision_pages ADD COLUMN fields TEXT;
    ALTER TABLE review_revision_pages ADD COLUMN document TEXT;
    -- What was stored before holds relative links and no fields: fetched again.
    DELETE FROM review_revision_pages;
    UPDATE change_requests SET diff_fingerprint = NULL;

    -- Where a comment on a block was made (core/review/anchors.ts): the block's lines in its
    -- page's file at the comment's revision, and a fingerprint of the block, which tells
    -- whether it changed since (an outdated thread).
    CREATE TABLE comment_anchors (
      comment_id TEXT PRIMARY KEY,
      revision_id TEXT NOT NULL,
      page_id TEXT NOT NULL,
      node_id TEXT NOT NULL,
      -- NULL when the block was not found in the page at that revision
      fingerprint TEXT,
      line INTEGER,
      lines TEXT
    );
  `,
};
