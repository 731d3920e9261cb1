import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { statementCache } from './review/statements';
import type { StoredPaths } from './stored-paths';

/** A page of the synced revision, as the mirror remembers it. */
export interface PageRow {
  spaceId: string;
  id: string;
  parentId: string | null;
  position: number;
  type: string;
  title: string;
  slug: string | null;
  /** Name the page owns in its parent folder. */
  name: string | null;
  /** Path of the page's file relative to the space folder; null for link pages. */
  path: string | null;
  meta: Record<string, unknown>;
  documentId: string | null;
  updatedAt: string | null;
  /** Hash of the page file text as built from the remote revision. */
  remoteHash: string | null;
  /** Exact file text last synced: the merge base. */
  baseContent: string | null;
  localSize: number | null;
  localMtimeMs: number | null;
}

export interface FileRow {
  spaceId: string;
  id: string;
  name: string;
  contentType: string;
  size: number;
  path: string;
  remoteHash: string | null;
}

export interface ConflictRow {
  spaceId: string;
  path: string;
  pageId: string | null;
  kind: string;
  remotePath: string | null;
  detectedAt: string;
}

/** A page of main as last synced, without its text. */
export interface BaseRow {
  id: string;
  parentId: string | null;
  position: number;
  type: string;
  title: string;
  slug: string | null;
  meta: Record<string, unknown>;
  documentId: string | null;
  updatedAt: string | null;
}

export interface BaseOutlineRow extends Pick<BaseRow, 'id' | 'parentId' | 'position' | 'type' | 'title' | 'slug'> {
  /** Its meta holds the key asked about (1), or not (0). */
  flagged: 0 | 1;
}

interface BaseRecord {
  id: string;
  parent_id: string | null;
  position: number;
  type: string;
  title: string;
  slug: string | null;
  meta: string;
  document_id: string | null;
  updated_at: string | null;
}

const BASE_COLUMNS = 'id, parent_id, position, type, title, slug, meta, document_id, updated_at';

const toBase = (r: BaseRecord): BaseRow => ({
  id: r.id,
  parentId: r.parent_id,
  position: r.position,
  type: r.type,
  title: r.title,
  slug: r.slug,
  meta: JSON.parse(r.meta) as Record<string, unknown>,
  documentId: r.document_id,
  updatedAt: r.updated_at,
});

interface PageRecord {
  space_id: string;
  id: string;
  parent_id: string | null;
  position: number;
  type: string;
  title: string;
  slug: string | null;
  name: string | null;
  path: string | null;
  meta: string;
  document_id: string | null;
  updated_at: string | null;
  remote_hash: string | null;
  base_content: string | null;
  local_size: number | null;
  local_mtime_ms: number | null;
}

const toPage = (r: PageRecord): PageRow => ({
  spaceId: r.space_id,
  id: r.id,
  parentId: r.parent_id,
  position: r.position,
  type: r.type,
  title: r.title,
  slug: r.slug,
  name: r.name,
  path: r.path,
  meta: JSON.parse(r.meta) as Record<string, unknown>,
  documentId: r.document_id,
  updatedAt: r.updated_at,
  remoteHash: r.remote_hash,
  baseContent: r.base_content,
  localSize: r.local_size,
  localMtimeMs: r.local_mtime_ms,
});

/** Pages, files, revisions and conflicts of the synced spaces. */
export class ContentStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Db,
    private readonly paths: StoredPaths,
  ) {
    this.sql = statementCache(db);
  }

  /** A page as read, its file checked to stay inside the space's folder (stored-paths.ts). */
  private toPage(r: PageRecord): PageRow {
    this.paths.inSpace(r.space_id, r.path, "a page's file");
    return toPage(r);
  }

  pages(spaceId: string): PageRow[] {
    return (this.sql(`SELECT * FROM pages WHERE space_id = ? ORDER BY parent_id, position`).all(spaceId) as PageRecord[]).map((r) => this.toPage(r));
  }

  page(spaceId: string, id: string): PageRow | undefined {
    const r = this.sql(`SELECT * FROM pages WHERE space_id = ? AND id = ?`).get(spaceId, id) as PageRecord | undefined;
    return r && this.toPage(r);
  }

  /** The page whose file is at `path`, if one has it there. */
  pageAt(spaceId: string, path: string): PageRow | undefined {
    const r = this.sql(`SELECT * FROM pages WHERE space_id = ? AND path = ?`).get(spaceId, path) as PageRecord | undefined;
    return r && this.toPage(r);
  }

  /** Main as last synced, without texts: one small row per page (for comparing a new revision). */
  baseIndex(spaceId: string): BaseRow[] {
    return (this.sql(`SELECT ${BASE_COLUMNS} FROM pages WHERE space_id = ?`).all(spaceId) as BaseRecord[]).map(toBase);
  }

  /** Main's tree as last synced, lean: each page's place, type, title and slug, and whether its meta holds the key named (no meta read). */
  baseOutline(spaceId: string, metaField: string): BaseOutlineRow[] {
    return this.sql(`SELECT id, parent_id AS parentId, position, type, title, slug, instr(meta, ?) > 0 AS flagged FROM pages WHERE space_id = ?`).all(
      JSON.stringify(metaField),
      spaceId,
    ) as BaseOutlineRow[];
  }

  basePage(spaceId: string, id: string): BaseRow | undefined {
    const r = this.sql(`SELECT ${BASE_COLUMNS} FROM pages WHERE space_id = ? AND id = ?`).get(spaceId, id) as BaseRecord | undefined;
    return r && toBase(r);
  }

  /** The page's text as last synced (stable form), or null. */
  baseText(spaceId: string, id: string): string | null {
    const r = this.sql(`SELECT base_content AS text FROM pages WHERE space_id = ? AND id = ?`).get(spaceId, id) as { text: string | null } | undefined;
    return r?.text ?? null;
  }

  /** Ids of a page's children in main as last synced, in order. */
  baseChildren(spaceId: string, parentId: string | null): string[] {
    const rows =
      parentId === null
        ? this.sql(`SELECT id FROM pages WHERE space_id = ? AND parent_id IS NULL ORDER BY position, id`).all(spaceId)
        : this.sql(`SELECT id FROM pages WHERE space_id = ? AND parent_id = ? ORDER BY position, id`).all(spaceId, parentId);
    return (rows as { id: string }[]).map((r) => r.id);
  }

  baseIds(spaceId: string): string[] {
    return (this.sql(`SELECT id FROM pages WHERE space_id = ?`).all(spaceId) as { id: string }[]).map((r) => r.id);
  }

  documentCount(spaceId: string): number {
    return (this.sql(`SELECT count(*) AS n FROM pages WHERE space_id = ? AND type NOT IN ('group', 'link')`).get(spaceId) as { n: number }).n;
  }

  /** Writes a page of main as last synced; its text only when `text` is given (else it keeps the one it has). */
  upsertBase(spaceId: string, row: BaseRow, text?: { value: string | null }, path?: string | null): void {
    this.sql(
      `INSERT INTO pages (space_id, id, parent_id, position, type, title, slug, name, path, meta, document_id, updated_at, remote_hash, base_content)
         VALUES (@spaceId, @id, @parentId, @position, @type, @title, @slug, NULL, @path, @meta, @documentId, @updatedAt, NULL, @text)
         ON CONFLICT (space_id, id) DO UPDATE SET parent_id = excluded.parent_id, position = excluded.position, type = excluded.type,
           title = excluded.title, slug = excluded.slug, meta = excluded.meta, document_id = excluded.document_id,
           updated_at = excluded.updated_at,
           path = CASE WHEN @setPath THEN excluded.path ELSE path END,
           base_content = CASE WHEN @setText THEN excluded.base_content ELSE base_content END`,
    ).run({
      spaceId,
      id: row.id,
      parentId: row.parentId,
      position: row.position,
      type: row.type,
      title: row.title,
      slug: row.slug,
      path: path ?? null,
      meta: JSON.stringify(row.meta),
      documentId: row.documentId,
      updatedAt: row.updatedAt,
      text: text?.value ?? null,
      setText: text === undefined ? 0 : 1,
      setPath: path === undefined ? 0 : 1,
    });
  }

  /**
   * Holds a page's server text fetched during a cycle until the cycle records it (spooledText),
   * so a large pull need not keep every text in memory. The spool is a temporary table: this
   * connection's own, never written to the mirror's file, gone when the mirror closes.
   */
  spoolText(spaceId: string, id: string, text: string): void {
    this.spool();
    this.sql(`INSERT OR REPLACE INTO temp.sync_spool (space_id, id, text) VALUES (?, ?, ?)`).run(spaceId, id, text);
  }

  spooledText(spaceId: string, id: string): string | null {
    this.spool();
    const r = this.sql(`SELECT text FROM temp.sync_spool WHERE space_id = ? AND id = ?`).get(spaceId, id) as { text: string } | undefined;
    return r?.text ?? null;
  }

  clearSpool(spaceId: string): void {
    this.spool();
    this.sql(`DELETE FROM temp.sync_spool WHERE space_id = ?`).run(spaceId);
  }

  private spooling = false;
  private spool(): void {
    if (this.spooling) return;
    this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS sync_spool (space_id TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (space_id, id))`);
    this.spooling = true;
  }

  deletePage(spaceId: string, id: string): void {
    this.sql(`DELETE FROM pages WHERE space_id = ? AND id = ?`).run(spaceId, id);
  }

  files(spaceId: string): FileRow[] {
    const rows = this.sql(
      `SELECT space_id AS spaceId, id, name, content_type AS contentType, size, path, remote_hash AS remoteHash
         FROM files WHERE space_id = ? ORDER BY path`,
    ).all(spaceId) as FileRow[];
    return this.paths.rowsInSpace(spaceId, rows, 'a file of main');
  }

  /** Where a file (asset) of main is in the space folder. */
  filePath(spaceId: string, fileId: string): string | null {
    const r = this.sql(`SELECT path FROM files WHERE space_id = ? AND id = ?`).get(spaceId, fileId) as { path: string } | undefined;
    return this.paths.inSpace(spaceId, r?.path ?? null, 'a file of main');
  }

  /** Which file of main is at `path`. */
  fileIdAt(spaceId: string, path: string): string | null {
    const r = this.sql(`SELECT id FROM files WHERE space_id = ? AND path = ?`).get(spaceId, path) as { id: string } | undefined;
    return r?.id ?? null;
  }

  upsertFile(f: FileRow): void {
    this.sql(
      `INSERT INTO files (space_id, id, name, content_type, size, path, remote_hash)
         VALUES (@spaceId, @id, @name, @contentType, @size, @path, @remoteHash)
         ON CONFLICT (space_id, id) DO UPDATE SET name = excluded.name, content_type = excluded.content_type,
           size = excluded.size, path = excluded.path, remote_hash = excluded.remote_hash`,
    ).run(f);
  }

  deleteFile(spaceId: string, id: string): void {
    this.sql(`DELETE FROM files WHERE space_id = ? AND id = ?`).run(spaceId, id);
  }

  recordRevision(r: { id: string; spaceId: string; parents: string[]; createdAt?: string }, at: string): void {
    this.sql(`INSERT OR IGNORE INTO revisions (id, space_id, parents, created_at, pulled_at) VALUES (?, ?, ?, ?, ?)`).run(
      r.id,
      r.spaceId,
      JSON.stringify(r.parents),
      r.createdAt ?? null,
      at,
    );
  }

  conflicts(spaceId?: string): ConflictRow[] {
    const sql = `SELECT space_id AS spaceId, path, page_id AS pageId, kind, remote_path AS remotePath, detected_at AS detectedAt
                 FROM conflicts ${spaceId ? 'WHERE space_id = ?' : ''} ORDER BY space_id, path`;
    const stmt = this.sql(sql);
    const rows = (spaceId ? stmt.all(spaceId) : stmt.all()) as ConflictRow[];
    for (const r of rows) {
      this.paths.inSpace(r.spaceId, r.path, "a page's file");
      this.paths.inSpace(r.spaceId, r.remotePath, 'a conflict copy');
    }
    return rows;
  }

  /** Records a conflict with its common ancestor (for a three-way view), when known. */
  addConflict(c: ConflictRow, baseText: string | null): void {
    this.sql(
      `INSERT INTO conflicts (space_id, path, page_id, kind, remote_path, detected_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, path) DO UPDATE SET page_id = excluded.page_id, kind = excluded.kind,
           remote_path = excluded.remote_path`,
    ).run(c.spaceId, c.path, c.pageId, c.kind, c.remotePath, c.detectedAt);
    this.sql(
      `INSERT INTO sync_conflict_bases (space_id, path, base_text) VALUES (?, ?, ?)
         ON CONFLICT (space_id, path) DO UPDATE SET base_text = excluded.base_text`,
    ).run(c.spaceId, c.path, baseText);
  }

  /** The common ancestor recorded with a conflict, or null. */
  conflictBase(spaceId: string, path: string): string | null {
    const r = this.sql(`SELECT base_text AS text FROM sync_conflict_bases WHERE space_id = ? AND path = ?`).get(spaceId, path) as
      | { text: string | null }
      | undefined;
    return r?.text ?? null;
  }

  /** The writer moved a conflicted file: the conflict (and its base) follows it. */
  relocateConflict(spaceId: string, from: string, to: string): void {
    this.sql(`UPDATE conflicts SET path = ? WHERE space_id = ? AND path = ?`).run(to, spaceId, from);
    this.sql(`UPDATE sync_conflict_bases SET path = ? WHERE space_id = ? AND path = ?`).run(to, spaceId, from);
  }

  removeConflict(spaceId: string, path: string): void {
    this.sql(`DELETE FROM conflicts WHERE space_id = ? AND path = ?`).run(spaceId, path);
    this.sql(`DELETE FROM sync_conflict_bases WHERE space_id = ? AND path = ?`).run(spaceId, path);
  }
}
