import type { Migration } from './migration';

export const reviewMirror: Migration = {
  version: 2,
  name: 'review mirror: change requests, comments, replies, sites and the offline action queue',
  // Review rows keep the server's object (server_json, or comment_sources /
  // reply_sources) beside effective columns = server state with queued actions applied.
  sql: `
    DROP TABLE IF EXISTS change_requests;
    DROP TABLE IF EXISTS comments;
    DROP TABLE IF EXISTS replies;
    DROP TABLE IF EXISTS sites;

    CREATE TABLE review_users (
      id TEXT PRIMARY KEY,
      display_name TEXT NOT NULL,
      email TEXT,
      photo_url TEXT
    );

    CREATE TABLE change_requests (
      id TEXT PRIMARY KEY,
      space_id TEXT NOT NULL,
      number INTEGER NOT NULL,
      status TEXT NOT NULL,
      subject TEXT NOT NULL,
      outdated INTEGER NOT NULL DEFAULT 0,
      author_id TEXT,
      created_at TEXT,
      updated_at TEXT,
      revision TEXT,
      revision_initial TEXT,
      revision_merged_ancestor TEXT,
      comments INTEGER NOT NULL DEFAULT 0,
      review_requested INTEGER NOT NULL DEFAULT 0,
      pending INTEGER NOT NULL DEFAULT 0,
      server_json TEXT,
      -- updatedAt|comments seen when its comments were last listed, and when
      comments_fingerprint TEXT,
      comments_listed_at TEXT,
      -- base..head revisions of the stored page diff
      diff_fingerprint TEXT
    );
    CREATE INDEX change_requests_by_space ON change_requests (space_id, status, number);

    -- Effective comment state, kept narrow so listing thousands stays fast; the
    -- server's objects live in comment_sources / reply_sources.
    CREATE TABLE comments (
      id TEXT PRIMARY KEY,
      space_id TEXT NOT NULL,
      change_request_id TEXT,
      page_id TEXT,
      node_id TEXT,
      author_id TEXT,
      body TEXT NOT NULL,
      resolved INTEGER NOT NULL DEFAULT 0,
      -- 1 when its change request is merged or archived
      closed INTEGER NOT NULL DEFAULT 0,
      posted_at TEXT NOT NULL,
      edited_at TEXT,
      resolved_at TEXT,
      resolved_by TEXT,
      reply_count INTEGER NOT NULL DEFAULT 0,
      reactions TEXT NOT NULL DEFAULT '[]',
      pending INTEGER NOT NULL DEFAULT 0,
      on_server INTEGER NOT NULL DEFAULT 0,
      -- replies|latest replier update seen when its replies were last listed
      replies_fingerprint TEXT
    );
    -- Covers the unresolved-across-spaces listing: answered from the index alone.
    CREATE INDEX comments_open_by_time ON comments (resolved, closed, posted_at, id, space_id, change_request_id, page_id,
      node_id, author_id, body, edited_at, resolved_at, reply_count, reactions, pending);
    CREATE INDEX comments_by_space ON comments (space_id, resolved, posted_at);
    CREATE INDEX comments_by_change_request ON comments (change_request_id, resolved, posted_at);
    CREATE INDEX comments_by_author ON comments (author_id, resolved, posted_at);
    CREATE INDEX comments_by_page ON comments (page_id, resolved, posted_at);
    CREATE TABLE comment_sources (id TEXT PRIMARY KEY, json TEXT NOT NULL);

    CREATE TABLE replies (
      id TEXT PRIMARY KEY,
      comment_id TEXT NOT NULL,
      space_id TEXT NOT NULL,
      author_id TEXT,
      body TEXT NOT NULL,
      posted_at TEXT NOT NULL,
      edited_at TEXT,
      reactions TEXT NOT NULL DEFAULT '[]',
      pending INTEGER NOT NULL DEFAULT 0,
      on_server INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX replies_by_comment ON replies (comment_id, posted_at);
    CREATE TABLE reply_sources (id TEXT PRIMARY KEY, json TEXT NOT NULL);

    -- Markdown of pages at a revision, for change request diffs.
    CREATE TABLE review_revision_pages (
      space_id TEXT NOT NULL,
      revision_id TEXT NOT NULL,
      page_id TEXT NOT NULL,
      parent_id TEXT,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      path TEXT,
      type TEXT NOT NULL,
      document_id TEXT,
      markdown TEXT,
      PRIMARY KEY (revision_id, page_id)
    );

    CREATE TABLE sites (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      title TEXT NOT NULL,
      visibility TEXT NOT NULL,
      published INTEGER NOT NULL,
      json TEXT NOT NULL
    );

    CREATE TABLE site_section_groups (
      id TEXT PRIMARY KEY,
      site_id TEXT NOT NULL,
      parent_group_id TEXT,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      json TEXT NOT NULL
    );

    CREATE TABLE site_sections (
      id TEXT PRIMARY KEY,
      site_id TEXT NOT NULL,
      group_id TEXT,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      path TEXT NOT NULL,
      is_default INTEGER NOT NULL DEFAULT 0,
      json TEXT NOT NULL
    );
    CREATE INDEX site_sections_by_site ON site_sections (site_id, position);

    CREATE TABLE site_spaces (
      id TEXT PRIMARY KEY,
      site_id TEXT NOT NULL,
      section_id TEXT,
      space_id TEXT,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      path TEXT NOT NULL,
      is_default INTEGER NOT NULL DEFAULT 0,
      hidden INTEGER NOT NULL DEFAULT 0,
      json TEXT NOT NULL
    );
    CREATE INDEX site_spaces_by_site ON site_spaces (site_id, position);

    CREATE TABLE share_links (
      id TEXT PRIMARY KEY,
      site_id TEXT NOT NULL,
      name TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      created_at TEXT NOT NULL,
      json TEXT NOT NULL
    );

    -- Review actions, queued in order. state: queued, sending (may have
    -- reached the server), done, refused, dismissed.
    CREATE TABLE review_actions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      space_id TEXT NOT NULL,
      change_request_id TEXT,
      comment_id TEXT,
      reply_id TEXT,
      payload TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL,
      sending_at TEXT,
      finished_at TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      message TEXT,
      result_id TEXT
    );
    CREATE INDEX review_actions_by_state ON review_actions (state, seq);
    CREATE INDEX review_actions_by_comment ON review_actions (comment_id, state);
    CREATE INDEX review_actions_by_reply ON review_actions (reply_id, state);
    CREATE INDEX review_actions_by_change_request ON review_actions (change_request_id, state);
  `,
};
