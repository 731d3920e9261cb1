import type { Migration } from './migration';

export const reviewLifecycle: Migration = {
  version: 14,
  name: "reviews and requested reviewers, organization members, the inbox's read marks, and the writer's change requests by topic",
  sql: `
    -- A change request's reviews and requested reviewers as last listed (the server's objects),
    -- listed again with its comments when its updatedAt moves.
    ALTER TABLE change_requests ADD COLUMN reviews_json TEXT;
    ALTER TABLE change_requests ADD COLUMN reviewers_json TEXT;

    -- Members of each organization (names in review_users), to name a reviewer by name or email.
    CREATE TABLE review_members (
      organization_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      PRIMARY KEY (organization_id, user_id)
    ) WITHOUT ROWID;

    -- The inbox: for each item the user has looked at (cr:<id>, thread:<comment id>), the activity time it had then.
    CREATE TABLE review_inbox_seen (
      item TEXT PRIMARY KEY,
      seen_at TEXT NOT NULL
    ) WITHOUT ROWID;

    -- The change request a space's pushes go to: chosen by the user (quire cr new / cr use) or Quire's own;
    -- a subject the user set is never replaced by a generated one; the status last seen (draft, open).
    ALTER TABLE sync_change_requests ADD COLUMN chosen INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_change_requests ADD COLUMN subject_by_user INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_change_requests ADD COLUMN status TEXT;

    -- Change requests a space's pushes went to before another one took over: what each holds
    -- (sync_pushed_pages and sync_pushed_files rows, as JSON), so going back to one restores it.
    CREATE TABLE sync_parked_change_requests (
      space_id TEXT NOT NULL,
      change_request_id TEXT NOT NULL,
      number INTEGER,
      subject TEXT NOT NULL,
      subject_by_user INTEGER NOT NULL DEFAULT 0,
      chosen INTEGER NOT NULL DEFAULT 0,
      pages TEXT NOT NULL,
      files TEXT NOT NULL,
      parked_at TEXT NOT NULL,
      PRIMARY KEY (space_id, change_request_id)
    );
  `,
};
