/**
 * The folder's own tree (migration 12), as the last sync cycle left it: where each page's file
 * is, the name it owns, its place among its siblings, what its file holds (the hash of its text
 * in stable form, and the file's size, mtime, inode and hash when last seen), the links it was
 * written with, and which pages and files it links to. Also the assets as last seen.
 *
 * Storage only: a node is the planner's `FolderNode` (content/folder-node.ts); what it means for
 * a sync cycle is core/sync's.
 */
import type { Statement } from 'better-sqlite3';
import type { FolderNode } from '../content';
import type { Db } from './database';
import { statementCache } from './review/statements';
import type { StoredPaths } from './stored-paths';

/** A node as stored: with what its file held when last seen. */
export interface FolderNodeRow extends FolderNode {
  /** Hash of the stable text the file holds (null: no file, or not known). */
  textHash: string | null;
  size: number | null;
  mtimeMs: number | null;
  ino: string | null;
  fileHash: string | null;
  /** Local href -> the stable href it stands for, for the links the file was last written with. */
  linkMap: Record<string, string> | null;
}

/** A node as SUMMARY.md lists it. */
export interface OutlineRow {
  key: string;
  kind: FolderNodeRow['kind'];
  parentKey: string | null;
  position: number;
  title: string;
  path: string | null;
  href: string | null;
}

/** What the scan compares a file with. */
export interface FileStatRow {
  key: string;
  path: string;
  size: number | null;
  mtimeMs: number | null;
  ino: string | null;
  fileHash: string | null;
}

export interface AssetRow {
  path: string;
  fileId: string | null;
  size: number;
  mtimeMs: number;
  ino: string | null;
  hash: string;
}

interface NodeRecord {
  key: string;
  kind: FolderNodeRow['kind'];
  parent_key: string | null;
  position: number;
  title: string;
  name: string | null;
  path: string | null;
  folder: string | null;
  href: string | null;
  placed_locally: number;
  pending: number;
  path_kept: number;
  text_hash: string | null;
  size: number | null;
  mtime_ms: number | null;
  ino: string | null;
  file_hash: string | null;
  link_map: string | null;
}

const toNode = (r: NodeRecord): FolderNodeRow => ({
  key: r.key,
  kind: r.kind,
  parentKey: r.parent_key,
  position: r.position,
  title: r.title,
  name: r.name,
  path: r.path,
  folder: r.folder,
  href: r.href,
  placedLocally: r.placed_locally === 1,
  pending: r.pending === 1,
  pathKept: r.path_kept === 1,
  textHash: r.text_hash,
  size: r.size,
  mtimeMs: r.mtime_ms,
  ino: r.ino,
  fileHash: r.file_hash,
  linkMap: r.link_map === null ? null : (JSON.parse(r.link_map) as Record<string, string>),
});

export class FolderStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Db,
    private readonly paths: StoredPaths,
  ) {
    this.sql = statementCache(db);
  }

  /** A node as read: its file and folder checked to stay inside the space's folder (stored-paths.ts). */
  private checked<R extends Pick<NodeRecord, 'path' | 'folder'>>(spaceId: string, r: R): R {
    this.paths.inSpace(spaceId, r.path, "a page's file");
    this.paths.inSpace(spaceId, r.folder, "a page's folder");
    return r;
  }

  node(spaceId: string, key: string): FolderNodeRow | undefined {
    const r = this.sql(`SELECT * FROM folder_nodes WHERE space_id = ? AND key = ?`).get(spaceId, key) as NodeRecord | undefined;
    return r && toNode(this.checked(spaceId, r));
  }

  /** Keys of a node's children, in order. */
  children(spaceId: string, parentKey: string | null): string[] {
    const rows =
      parentKey === null
        ? this.sql(`SELECT key FROM folder_nodes WHERE space_id = ? AND parent_key IS NULL ORDER BY position, key`).all(spaceId)
        : this.sql(`SELECT key FROM folder_nodes WHERE space_id = ? AND parent_key = ? ORDER BY position, key`).all(spaceId, parentKey);
    return (rows as { key: string }[]).map((r) => r.key);
  }

  byPath(spaceId: string, path: string): string | undefined {
    const r = this.sql(`SELECT key FROM folder_nodes WHERE space_id = ? AND path = ?`).get(spaceId, path) as { key: string } | undefined;
    return r?.key;
  }

  byFolder(spaceId: string, folder: string): string | undefined {
    const r = this.sql(`SELECT key FROM folder_nodes WHERE space_id = ? AND folder = ?`).get(spaceId, folder) as { key: string } | undefined;
    return r?.key;
  }

  /**
   * Nodes of files not yet pages (`new:<path>` keys), with where their file is. A range of the
   * key (`;` follows `:`), which the primary key answers; a LIKE (case-insensitive) read every node.
   */
  newNodes(spaceId: string): { key: string; path: string | null }[] {
    const rows = this.sql(`SELECT key, path FROM folder_nodes WHERE space_id = ? AND key >= 'new:' AND key < 'new;'`).all(spaceId) as {
      key: string;
      path: string | null;
    }[];
    return this.paths.rowsInSpace(spaceId, rows, "a page's file");
  }

  pending(spaceId: string): string[] {
    return (this.sql(`SELECT key FROM folder_nodes WHERE space_id = ? AND pending = 1`).all(spaceId) as { key: string }[]).map((r) => r.key);
  }

  keys(spaceId: string): string[] {
    return (this.sql(`SELECT key FROM folder_nodes WHERE space_id = ?`).all(spaceId) as { key: string }[]).map((r) => r.key);
  }

  /**
   * Throws UnsafeStatePathError when a node's file or folder, or an asset, leaves the space's
   * folder: for a reader that reports on the whole space (`quire status`) and must not vouch
   * for one whose state cannot be trusted. One small row per node; with `scanned` (the reader
   * scans the folder next, which checks every file and asset it reads: scan.ts), only the folders.
   */
  checkPaths(spaceId: string, options: { scanned?: boolean } = {}): void {
    if (options.scanned) {
      const folders = this.sql(`SELECT folder FROM folder_nodes WHERE space_id = ? AND folder IS NOT NULL`).all(spaceId) as { folder: string }[];
      for (const r of folders) this.paths.inSpace(spaceId, r.folder, "a page's folder");
      return;
    }
    const rows = this.sql(`SELECT path, folder FROM folder_nodes WHERE space_id = ? AND (path IS NOT NULL OR folder IS NOT NULL)`).all(spaceId) as {
      path: string | null;
      folder: string | null;
    }[];
    for (const r of rows) this.checked(spaceId, r);
    this.assets(spaceId);
  }

  /** Whether the space has a tree recorded at all (one row looked at, not counted). */
  hasTree(spaceId: string): boolean {
    return this.sql(`SELECT 1 FROM folder_nodes WHERE space_id = ? LIMIT 1`).get(spaceId) !== undefined;
  }

  count(spaceId: string): number {
    return (this.sql(`SELECT count(*) AS n FROM folder_nodes WHERE space_id = ?`).get(spaceId) as { n: number }).n;
  }

  /** Every node, without what its file holds: the tree SUMMARY.md is written from. */
  tree(spaceId: string): Omit<FolderNodeRow, 'textHash' | 'size' | 'mtimeMs' | 'ino' | 'fileHash' | 'linkMap'>[] {
    const rows = this.sql(
      `SELECT key, kind, parent_key, position, title, name, path, folder, href, placed_locally, pending, path_kept,
           NULL AS text_hash, NULL AS size, NULL AS mtime_ms, NULL AS ino, NULL AS file_hash, NULL AS link_map
         FROM folder_nodes WHERE space_id = ? ORDER BY parent_key, position, key`,
    ).all(spaceId) as NodeRecord[];
    return rows.map((r) => toNode(this.checked(spaceId, r)));
  }

  /**
   * The tree as SUMMARY.md lists it: every node but the new pages not written yet, with only
   * what the list shows (a large space has tens of thousands of nodes), in no order.
   */
  outline(spaceId: string): OutlineRow[] {
    const rows = this.sql(
      `SELECT key, kind, parent_key AS parentKey, position, title, path, href FROM folder_nodes
         WHERE space_id = ? AND NOT (pending = 1 AND path IS NULL AND kind = 'document')`,
    ).all(spaceId) as OutlineRow[];
    return this.paths.rowsInSpace(spaceId, rows, "a page's file");
  }

  /**
   * The space's path deviations as last worked out, with the name rules and the pages waiting
   * (JSON, all three) they were worked out with; none once main's tree or the folder's changed
   * since (migration 18's triggers delete the row).
   */
  keptDeviations(spaceId: string): { rules: string; pending: string; deviations: string } | undefined {
    return this.sql(`SELECT rules, pending, deviations FROM path_deviations WHERE space_id = ?`).get(spaceId) as
      | { rules: string; pending: string; deviations: string }
      | undefined;
  }

  keepDeviations(spaceId: string, kept: { rules: string; pending: string; deviations: string }): void {
    this.sql(`INSERT OR REPLACE INTO path_deviations (space_id, rules, pending, deviations) VALUES (?, ?, ?, ?)`).run(
      spaceId,
      kept.rules,
      kept.pending,
      kept.deviations,
    );
  }

  /** Every file node's path and what its file was when last seen: one small row each, for the scan. */
  files(spaceId: string): FileStatRow[] {
    const rows = this.sql(
      `SELECT key, path, size, mtime_ms AS mtimeMs, ino, file_hash AS fileHash FROM folder_nodes
         WHERE space_id = ? AND path IS NOT NULL`,
    ).all(spaceId) as FileStatRow[];
    return this.paths.rowsInSpace(spaceId, rows, "a page's file");
  }

  fileAt(spaceId: string, path: string): FileStatRow | undefined {
    return this.sql(`SELECT key, path, size, mtime_ms AS mtimeMs, ino, file_hash AS fileHash FROM folder_nodes WHERE space_id = ? AND path = ?`).get(
      spaceId,
      path,
    ) as FileStatRow | undefined; // at the path asked for: the caller's, not one the mirror names
  }

  upsert(spaceId: string, n: FolderNodeRow): void {
    this.sql(
      `INSERT INTO folder_nodes (space_id, key, kind, parent_key, position, title, name, path, folder, href, placed_locally, pending,
           path_kept, text_hash, size, mtime_ms, ino, file_hash, link_map)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, key) DO UPDATE SET kind = excluded.kind, parent_key = excluded.parent_key, position = excluded.position,
           title = excluded.title, name = excluded.name, path = excluded.path, folder = excluded.folder, href = excluded.href,
           placed_locally = excluded.placed_locally, pending = excluded.pending, path_kept = excluded.path_kept, text_hash = excluded.text_hash, size = excluded.size,
           mtime_ms = excluded.mtime_ms, ino = excluded.ino, file_hash = excluded.file_hash, link_map = excluded.link_map`,
    ).run(
      spaceId,
      n.key,
      n.kind,
      n.parentKey,
      n.position,
      n.title,
      n.name,
      n.path,
      n.folder,
      n.href,
      n.placedLocally ? 1 : 0,
      n.pending ? 1 : 0,
      n.pathKept ? 1 : 0,
      n.textHash,
      n.size,
      n.mtimeMs,
      n.ino,
      n.fileHash,
      n.linkMap === null ? null : JSON.stringify(n.linkMap),
    );
  }

  /** Records the file as seen now (same content as recorded: only its stat changed). */
  setStat(spaceId: string, key: string, stat: { size: number; mtimeMs: number; ino: string | null }): void {
    this.sql(`UPDATE folder_nodes SET size = ?, mtime_ms = ?, ino = ? WHERE space_id = ? AND key = ?`).run(stat.size, stat.mtimeMs, stat.ino, spaceId, key);
  }

  setPending(spaceId: string, key: string, pending: boolean): void {
    this.sql(`UPDATE folder_nodes SET pending = ? WHERE space_id = ? AND key = ?`).run(pending ? 1 : 0, spaceId, key);
  }

  remove(spaceId: string, key: string): void {
    this.sql(`DELETE FROM folder_nodes WHERE space_id = ? AND key = ?`).run(spaceId, key);
    this.sql(`DELETE FROM folder_links WHERE space_id = ? AND key = ?`).run(spaceId, key);
  }

  /** A file not yet a page became one (`new:<path>` -> its id): the node, its children and its links follow. */
  rekey(spaceId: string, from: string, to: string): void {
    this.sql(`UPDATE folder_nodes SET key = ? WHERE space_id = ? AND key = ?`).run(to, spaceId, from);
    this.sql(`UPDATE folder_nodes SET parent_key = ? WHERE space_id = ? AND parent_key = ?`).run(to, spaceId, from);
    this.sql(`UPDATE OR REPLACE folder_links SET key = ? WHERE space_id = ? AND key = ?`).run(to, spaceId, from);
    this.sql(`UPDATE OR REPLACE folder_links SET target = ? WHERE target_space = ? AND target = ?`).run(to, spaceId, from);
  }

  /** Replaces what a node's file links to. */
  setLinks(spaceId: string, key: string, targets: readonly { space: string; id: string }[]): void {
    this.sql(`DELETE FROM folder_links WHERE space_id = ? AND key = ?`).run(spaceId, key);
    const insert = this.sql(`INSERT OR IGNORE INTO folder_links (space_id, key, target_space, target) VALUES (?, ?, ?, ?)`);
    for (const t of targets) insert.run(spaceId, key, t.space, t.id);
  }

  /** Nodes (in any space) whose file links to one of these pages or files of `targetSpace`. */
  linking(targetSpace: string, targets: readonly string[]): { spaceId: string; key: string }[] {
    const out = new Map<string, { spaceId: string; key: string }>();
    const query = this.sql(`SELECT space_id AS spaceId, key FROM folder_links WHERE target_space = ? AND target = ?`);
    for (const t of targets) {
      for (const r of query.all(targetSpace, t) as { spaceId: string; key: string }[]) out.set(`${r.spaceId}\u0000${r.key}`, r);
    }
    return [...out.values()];
  }

  /** Nodes (in other spaces) whose file links to anything of `targetSpace`. */
  linkingSpace(targetSpace: string): { spaceId: string; key: string }[] {
    return this.sql(`SELECT DISTINCT space_id AS spaceId, key FROM folder_links WHERE target_space = ? AND space_id <> ?`).all(targetSpace, targetSpace) as {
      spaceId: string;
      key: string;
    }[];
  }

  // ---- assets ------------------------------------------------------------------------------

  assets(spaceId: string): AssetRow[] {
    const rows = this.sql(`SELECT path, file_id AS fileId, size, mtime_ms AS mtimeMs, ino, hash FROM folder_assets WHERE space_id = ? ORDER BY path`).all(
      spaceId,
    ) as AssetRow[];
    return this.paths.rowsInSpace(spaceId, rows, 'an asset');
  }

  upsertAsset(spaceId: string, a: AssetRow): void {
    this.sql(
      `INSERT INTO folder_assets (space_id, path, file_id, size, mtime_ms, ino, hash) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, path) DO UPDATE SET file_id = excluded.file_id, size = excluded.size, mtime_ms = excluded.mtime_ms,
           ino = excluded.ino, hash = excluded.hash`,
    ).run(spaceId, a.path, a.fileId, a.size, a.mtimeMs, a.ino, a.hash);
  }

  removeAsset(spaceId: string, path: string): void {
    this.sql(`DELETE FROM folder_assets WHERE space_id = ? AND path = ?`).run(spaceId, path);
  }
}
