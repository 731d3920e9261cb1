/**
 * Versioned schema migrations. Each entry runs once, in order, inside one
 * transaction; `PRAGMA user_version` records how far a database has come.
 * Never edit a released migration: append a new one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'catalog, content and review mirror',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        json TEXT NOT NULL,
        refreshed_at TEXT NOT NULL
      );

      CREATE TABLE collections (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL,
        parent_id TEXT,
        title TEXT NOT NULL,
        json TEXT NOT NULL
      );

      CREATE TABLE spaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL,
        collection_id TEXT,
        title TEXT NOT NULL,
        emoji TEXT,
        visibility TEXT,
        remote_revision TEXT NOT NULL,
        json TEXT NOT NULL,
        -- local sync state
        selected INTEGER NOT NULL DEFAULT 0,
        folder TEXT UNIQUE,
        synced_revision TEXT,
        last_sync_at TEXT,
        last_error TEXT
      );

      CREATE TABLE revisions (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL,
        parents TEXT NOT NULL,
        created_at TEXT,
        pulled_at TEXT NOT NULL
      );

      -- One row per page of the synced revision. base_content is the exact
      -- file text last written or pushed: the common ancestor for merges.
      CREATE TABLE pages (
        space_id TEXT NOT NULL,
        id TEXT NOT NULL,
        parent_id TEXT,
        position INTEGER NOT NULL,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        slug TEXT,
        -- the name the page owns in its parent folder (kept stable across pulls)
        name TEXT,
        path TEXT,
        meta TEXT NOT NULL,
        document_id TEXT,
        updated_at TEXT,
        remote_hash TEXT,
        base_content TEXT,
        local_size INTEGER,
        local_mtime_ms REAL,
        PRIMARY KEY (space_id, id)
      );
      CREATE INDEX pages_by_path ON pages (space_id, path);

      CREATE TABLE files (
        space_id TEXT NOT NULL,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        path TEXT NOT NULL,
        remote_hash TEXT,
        PRIMARY KEY (space_id, id)
      );

      CREATE TABLE conflicts (
        space_id TEXT NOT NULL,
        path TEXT NOT NULL,
        page_id TEXT,
        kind TEXT NOT NULL,
        remote_path TEXT,
        detected_at TEXT NOT NULL,
        PRIMARY KEY (space_id, path)
      );

      CREATE TABLE change_requests (
        space_id TEXT NOT NULL,
        id TEXT NOT NULL,
        number INTEGER NOT NULL,
        status TEXT NOT NULL,
        subject TEXT NOT NULL,
        outdated INTEGER NOT NULL DEFAULT 0,
        created_by TEXT,
        updated_at TEXT,
        json TEXT NOT NULL,
        PRIMARY KEY (space_id, id)
      );

      CREATE TABLE comments (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL,
        change_request_id TEXT,
        page_id TEXT,
        author_id TEXT,
        body TEXT NOT NULL,
        status TEXT,
        posted_at TEXT,
        json TEXT NOT NULL
      );

      CREATE TABLE replies (
        id TEXT PRIMARY KEY,
        comment_id TEXT NOT NULL,
        author_id TEXT,
        body TEXT NOT NULL,
        posted_at TEXT,
        json TEXT NOT NULL
      );

      CREATE TABLE sites (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL,
        title TEXT NOT NULL,
        visibility TEXT NOT NULL,
        published INTEGER NOT NULL,
        json TEXT NOT NULL
      );

      CREATE TABLE sync_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        space_id TEXT,
        kind TEXT NOT NULL,
        message TEXT NOT NULL
      );
    `,
  },
  {
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
  },
  {
    version: 10,
    name: 'two-way sync: the change request Quire writes into, what it holds, the push outbox, watcher records, holds',
    sql: `
      -- The one change request per space that local edits go into.
      -- state: creating (the create request may have reached the server), open.
      CREATE TABLE sync_change_requests (
        space_id TEXT PRIMARY KEY,
        change_request_id TEXT,
        number INTEGER,
        marker TEXT NOT NULL,
        subject TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      -- What that change request holds for each page Quire changed in it.
      CREATE TABLE sync_pushed_pages (
        space_id TEXT NOT NULL,
        page_id TEXT NOT NULL,
        path TEXT,
        parent_id TEXT,
        name TEXT,
        text TEXT,
        deleted INTEGER NOT NULL DEFAULT 0,
        -- the change request places the page (moved, renamed or inserted)
        moved INTEGER NOT NULL DEFAULT 0,
        pushed_at TEXT NOT NULL,
        PRIMARY KEY (space_id, page_id)
      );

      -- Assets uploaded into that change request.
      CREATE TABLE sync_pushed_files (
        space_id TEXT NOT NULL,
        path TEXT NOT NULL,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        file_id TEXT,
        PRIMARY KEY (space_id, path)
      );

      -- Every content batch, recorded before it is sent, then what the server answered.
      -- state: sending (may have reached the server), applied, not-applied, refused, reconciled.
      CREATE TABLE sync_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id TEXT NOT NULL,
        change_request_id TEXT NOT NULL,
        changes TEXT NOT NULL,
        effects TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        response TEXT,
        error TEXT
      );
      CREATE INDEX sync_outbox_by_state ON sync_outbox (space_id, state);

      -- Edits the watcher saw and sync has not pushed yet.
      CREATE TABLE sync_local_edits (
        space_id TEXT NOT NULL,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (space_id, path)
      );

      -- Changes the server refused: not sent again until the file changes.
      CREATE TABLE sync_refused (
        space_id TEXT NOT NULL,
        page_key TEXT NOT NULL,
        path TEXT,
        text_hash TEXT NOT NULL,
        message TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (space_id, page_key)
      );

      -- The common ancestor of each open conflict, for a three-way view.
      CREATE TABLE sync_conflict_bases (
        space_id TEXT NOT NULL,
        path TEXT NOT NULL,
        base_text TEXT,
        PRIMARY KEY (space_id, path)
      );

      -- A space sync stopped for the user to decide (the mass-delete fail-safe).
      CREATE TABLE sync_holds (
        space_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        at TEXT NOT NULL
      );
    `,
  },
];
