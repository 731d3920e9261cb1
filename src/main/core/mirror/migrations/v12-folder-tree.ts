import type { Migration } from './migration';

export const folderTree: Migration = {
  version: 12,
  name: "the folder's own tree, what its files hold, and where their links point; places in the change request",
  // A mirror from before this step has no folder tree: the engine rebuilds it from the server
  // and the folder on the next cycle (as it does for a lost mirror), so no rows are carried over.
  sql: `
    -- The folder's tree as the last cycle left it: a node per page with a file, group, link, or
    -- file not yet a page (key new:<path>). What its file holds: the hash of its text in stable
    -- form (references by id), and the file's own size, mtime, inode and hash when last seen.
    CREATE TABLE folder_nodes (
      space_id TEXT NOT NULL,
      key TEXT NOT NULL,
      kind TEXT NOT NULL,
      parent_key TEXT,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      name TEXT,
      path TEXT,
      folder TEXT,
      href TEXT,
      placed_locally INTEGER NOT NULL DEFAULT 0,
      pending INTEGER NOT NULL DEFAULT 0,
      text_hash TEXT,
      size INTEGER,
      mtime_ms REAL,
      ino TEXT,
      file_hash TEXT,
      -- local href -> stable href, for every link this file was last written with
      link_map TEXT,
      PRIMARY KEY (space_id, key)
    );
    CREATE INDEX folder_nodes_by_path ON folder_nodes (space_id, path);
    CREATE INDEX folder_nodes_by_folder ON folder_nodes (space_id, folder);
    CREATE INDEX folder_nodes_by_parent ON folder_nodes (space_id, parent_key, position);
    CREATE INDEX folder_nodes_pending ON folder_nodes (space_id) WHERE pending = 1;

    -- Which files link to which pages and files (from the stable text they hold), to write
    -- their links again when a target moves, appears or goes away.
    CREATE TABLE folder_links (
      space_id TEXT NOT NULL,
      key TEXT NOT NULL,
      target_space TEXT NOT NULL,
      target TEXT NOT NULL,
      PRIMARY KEY (space_id, key, target_space, target)
    );
    CREATE INDEX folder_links_by_target ON folder_links (target_space, target);

    -- The assets under .gitbook/assets/ as last seen: stat and hash, to find changed ones.
    CREATE TABLE folder_assets (
      space_id TEXT NOT NULL,
      path TEXT NOT NULL,
      file_id TEXT,
      size INTEGER NOT NULL,
      mtime_ms REAL NOT NULL,
      ino TEXT,
      hash TEXT NOT NULL,
      PRIMARY KEY (space_id, path)
    );

    -- The change request's own order for a page it placed: after which sibling.
    ALTER TABLE sync_pushed_pages ADD COLUMN ordered INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_pushed_pages ADD COLUMN after_id TEXT;
  `,
};
