import type { Migration } from './migration';

export const triageAndCheckouts: Migration = {
  version: 24,
  name: 'inbox items pinned or snoozed, and change requests checked out as folders',
  sql: `
    -- An inbox item (its key: cr:<id> or thread:<id>) the user pinned, or snoozed until a time
    -- (ISO) and/or until it changes: snoozed_activity is the activity it showed when snoozed.
    CREATE TABLE review_inbox_marks (
      item TEXT PRIMARY KEY,
      pinned INTEGER NOT NULL DEFAULT 0,
      snoozed_until TEXT,
      snoozed_activity TEXT
    );
    -- A change request written out as a read-only folder (core/review/checkout): the folder
    -- (absolute), and the revision it holds, so \`quire sync\` brings it to the latest one.
    CREATE TABLE review_checkouts (
      folder TEXT PRIMARY KEY,
      space_id TEXT NOT NULL,
      change_request_id TEXT NOT NULL,
      revision TEXT,
      written_at TEXT
    );
    -- Page markdown in stable form by document, per checkout: a new revision fetches only the
    -- documents it has not seen (before and after share the pages the change request leaves alone).
    CREATE TABLE review_checkout_documents (
      folder TEXT NOT NULL REFERENCES review_checkouts (folder) ON DELETE CASCADE,
      document_id TEXT NOT NULL,
      markdown TEXT NOT NULL,
      PRIMARY KEY (folder, document_id)
    );
  `,
};
