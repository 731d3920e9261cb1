import type { Migration } from './migration';

export const pendingReviews: Migration = {
  version: 23,
  name: 'pending reviews, and the pages of a change request a reviewer marked viewed',
  sql: `
    -- A review the user started on a change request and has not finished: the comments made on it
    -- meanwhile wait in review_actions (state 'draft', payload.review = id) and are sent, in
    -- order, with the verdict (core/review/pending-review.ts). One per change request.
    CREATE TABLE review_pending (
      change_request_id TEXT PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      space_id TEXT NOT NULL,
      started_at TEXT NOT NULL
    );

    -- Pages of a change request the user marked viewed, with what the page's change was then (a
    -- hash of it): a later revision that changes the page makes the mark stale (core/review/viewed.ts).
    CREATE TABLE review_viewed_pages (
      change_request_id TEXT NOT NULL,
      page_id TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      viewed_at TEXT NOT NULL,
      PRIMARY KEY (change_request_id, page_id)
    ) WITHOUT ROWID;
  `,
};
