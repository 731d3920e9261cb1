/**
 * The push side of the mirror (migration 10): the change request sync writes into per space,
 * what it holds, the outbox of content batches, changes the server refused, the watcher's
 * records of edits, and holds.
 *
 * Storage only. A batch's changes and effects are kept as the push code handed them over
 * (JSON); what they mean, and the durability rule around them, is core/sync/outbox.ts's. The
 * type parameters name their shapes for that code (`OutboxStore<ApiChange, PushEffect>`).
 */
import { redactSecrets } from '../secrets';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { statementCache } from './review/statements';

export type ChangeRequestRowState = 'creating' | 'open';

export interface ChangeRequestRow {
  spaceId: string;
  changeRequestId: string | null;
  number: number | null;
  marker: string;
  subject: string;
  state: ChangeRequestRowState;
  createdAt: string;
}

export type OutboxState = 'sending' | 'applied' | 'not-applied' | 'refused' | 'reconciled';

export interface OutboxRow<Change = unknown, Effect = unknown> {
  seq: number;
  spaceId: string;
  changeRequestId: string;
  changes: Change[];
  effects: Effect[];
  state: OutboxState;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

/** What the open change request holds for a page sync changed in it (sync's PushedPage fits). */
export interface PushedPageRow {
  id: string;
  /** The page's file when it was pushed. */
  path: string | null;
  parentId: string | null;
  name: string | null;
  /** The file text pushed; null when the page was deleted in the change request. */
  text: string | null;
  deleted: boolean;
  /** The change request places the page (a move, a rename or an insert), rather than main. */
  moved: boolean;
  /** The change request sets its place among its siblings: after `after` (null: first). */
  ordered: boolean;
  after: string | null;
}

export interface PushedFile {
  path: string;
  name: string;
  size: number;
  fileId: string | null;
}

export interface RefusedChange {
  pageKey: string;
  path: string | null;
  textHash: string;
  message: string;
  at: string;
}

/** A space sync stopped for the user to decide: the mass-delete fail-safe, with what it counted. */
export interface HoldRow {
  kind: 'mass-delete';
  /** Pages the cycle would delete on the server (their files are gone here). */
  localDeletes: number;
  /** Page files the cycle would delete here (their pages are gone on the server). */
  remoteDeletes: number;
  /** Pages the space has. */
  pages: number;
  at: string;
}

/** Something the last completed cycle of a space did not push and left for the writer (sync's Held fits). */
export interface AttentionRow {
  reason: string;
  path: string;
  line?: number;
  title?: string;
  /** The page it is about, when there is one. */
  key: string | null;
}

export interface LocalEditRow {
  spaceId: string;
  path: string;
  kind: string;
  seenAt: string;
}

interface OutboxRecord {
  seq: number;
  space_id: string;
  change_request_id: string;
  changes: string;
  effects: string;
  state: OutboxState;
  created_at: string;
  finished_at: string | null;
  error: string | null;
}

type PushedPageRecord = Omit<PushedPageRow, 'deleted' | 'moved' | 'ordered'> & { deleted: number; moved: number; ordered: number };

const toPushedPage = (r: PushedPageRecord): PushedPageRow => ({ ...r, deleted: r.deleted === 1, moved: r.moved === 1, ordered: r.ordered === 1 });

const PUSHED_PAGE_COLUMNS = `page_id AS id, path, parent_id AS parentId, name, text, deleted, moved, ordered, after_id AS after`;

export class OutboxStore<Change = unknown, Effect = unknown> {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- the change request ------------------------------------------------------------

  changeRequest(spaceId: string): ChangeRequestRow | undefined {
    return this.sql(
      `SELECT space_id AS spaceId, change_request_id AS changeRequestId, number, marker, subject, state, created_at AS createdAt
         FROM sync_change_requests WHERE space_id = ?`,
    ).get(spaceId) as ChangeRequestRow | undefined;
  }

  /** Recorded (and committed) before the create request goes out. */
  beginCreate(spaceId: string, marker: string, subject: string, at: string): void {
    this.sql(
      `INSERT INTO sync_change_requests (space_id, change_request_id, number, marker, subject, state, created_at)
         VALUES (?, NULL, NULL, ?, ?, 'creating', ?)
         ON CONFLICT (space_id) DO UPDATE SET change_request_id = NULL, number = NULL, marker = excluded.marker,
           subject = excluded.subject, state = 'creating', created_at = excluded.created_at`,
    ).run(spaceId, marker, subject, at);
  }

  markOpen(spaceId: string, id: string, number: number): void {
    this.sql(`UPDATE sync_change_requests SET change_request_id = ?, number = ?, state = 'open' WHERE space_id = ?`).run(id, number, spaceId);
  }

  /** The change request was merged or closed (or never got created): start afresh next push. */
  forgetChangeRequest(spaceId: string): void {
    this.sql(`DELETE FROM sync_change_requests WHERE space_id = ?`).run(spaceId);
    this.sql(`DELETE FROM sync_pushed_pages WHERE space_id = ?`).run(spaceId);
    this.sql(`DELETE FROM sync_pushed_files WHERE space_id = ?`).run(spaceId);
    this.sql(`DELETE FROM sync_refused WHERE space_id = ?`).run(spaceId);
  }

  // ---- what it holds -------------------------------------------------------------------

  pushedPages(spaceId: string): Map<string, PushedPageRow> {
    const rows = this.sql(`SELECT ${PUSHED_PAGE_COLUMNS} FROM sync_pushed_pages WHERE space_id = ?`).all(spaceId) as PushedPageRecord[];
    return new Map(rows.map((r) => [r.id, toPushedPage(r)]));
  }

  pushedPage(spaceId: string, id: string): PushedPageRow | undefined {
    const r = this.sql(`SELECT ${PUSHED_PAGE_COLUMNS} FROM sync_pushed_pages WHERE space_id = ? AND page_id = ?`).get(spaceId, id) as
      | PushedPageRecord
      | undefined;
    return r && toPushedPage(r);
  }

  /** The pages the change request holds at this path, newest record first (several when one moved away and a new one came). */
  pushedPageIdsAt(spaceId: string, path: string): string[] {
    const rows = this.sql(`SELECT page_id AS id FROM sync_pushed_pages WHERE space_id = ? AND path = ? AND deleted = 0 ORDER BY rowid DESC`).all(
      spaceId,
      path,
    ) as { id: string }[];
    return rows.map((r) => r.id);
  }

  upsertPushedPage(spaceId: string, p: PushedPageRow, at: string): void {
    this.sql(
      `INSERT INTO sync_pushed_pages (space_id, page_id, path, parent_id, name, text, deleted, moved, ordered, after_id, pushed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, page_id) DO UPDATE SET path = excluded.path, parent_id = excluded.parent_id, name = excluded.name,
           text = excluded.text, deleted = excluded.deleted, moved = excluded.moved, ordered = excluded.ordered,
           after_id = excluded.after_id, pushed_at = excluded.pushed_at`,
    ).run(spaceId, p.id, p.path, p.parentId, p.name, p.text, p.deleted ? 1 : 0, p.moved ? 1 : 0, p.ordered ? 1 : 0, p.after, at);
  }

  /** Where the file of a page only the change request has moved to. */
  setPushedPath(spaceId: string, pageId: string, path: string): void {
    this.sql(`UPDATE sync_pushed_pages SET path = ? WHERE space_id = ? AND page_id = ?`).run(path, spaceId, pageId);
  }

  pushedFiles(spaceId: string): PushedFile[] {
    return this.sql(`SELECT path, name, size, file_id AS fileId FROM sync_pushed_files WHERE space_id = ? ORDER BY path`).all(spaceId) as PushedFile[];
  }

  /** The id the server gave an asset uploaded into the change request, by its path. */
  pushedFileIdAt(spaceId: string, path: string): string | null {
    const r = this.sql(`SELECT file_id AS id FROM sync_pushed_files WHERE space_id = ? AND path = ?`).get(spaceId, path) as { id: string | null } | undefined;
    return r?.id ?? null;
  }

  upsertPushedFile(spaceId: string, f: PushedFile): void {
    this.sql(
      `INSERT INTO sync_pushed_files (space_id, path, name, size, file_id) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (space_id, path) DO UPDATE SET name = excluded.name, size = excluded.size, file_id = excluded.file_id`,
    ).run(spaceId, f.path, f.name, f.size, f.fileId);
  }

  // ---- the outbox ------------------------------------------------------------------------

  /** Recorded (and committed) before the batch goes out. */
  recordSending(spaceId: string, changeRequestId: string, changes: readonly Change[], effects: readonly Effect[], at: string): number {
    const info = this.sql(`INSERT INTO sync_outbox (space_id, change_request_id, changes, effects, state, created_at) VALUES (?, ?, ?, ?, 'sending', ?)`).run(
      spaceId,
      changeRequestId,
      JSON.stringify(changes),
      JSON.stringify(effects),
      at,
    );
    return Number(info.lastInsertRowid);
  }

  finish(seq: number, state: Exclude<OutboxState, 'sending'>, at: string, detail: { response?: unknown; error?: string } = {}): void {
    this.sql(`UPDATE sync_outbox SET state = ?, finished_at = ?, response = ?, error = ? WHERE seq = ?`).run(
      state,
      at,
      detail.response === undefined ? null : JSON.stringify(detail.response),
      detail.error ?? null,
      seq,
    );
  }

  inFlight(spaceId: string): OutboxRow<Change, Effect>[] {
    const rows = this.sql(`SELECT * FROM sync_outbox WHERE space_id = ? AND state = 'sending' ORDER BY seq`).all(spaceId) as OutboxRecord[];
    return rows.map((r) => this.toOutbox(r));
  }

  /** The latest batches, newest first. */
  outbox(spaceId: string, limit = 100): OutboxRow<Change, Effect>[] {
    const rows = this.sql(`SELECT * FROM sync_outbox WHERE space_id = ? ORDER BY seq DESC LIMIT ?`).all(spaceId, limit) as OutboxRecord[];
    return rows.map((r) => this.toOutbox(r));
  }

  private toOutbox(r: OutboxRecord): OutboxRow<Change, Effect> {
    return {
      seq: r.seq,
      spaceId: r.space_id,
      changeRequestId: r.change_request_id,
      changes: JSON.parse(r.changes) as Change[],
      effects: JSON.parse(r.effects) as Effect[],
      state: r.state,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      error: r.error,
    };
  }

  // ---- refused changes -----------------------------------------------------------------

  refused(spaceId: string): Map<string, RefusedChange> {
    const rows = this.sql(`SELECT page_key AS pageKey, path, text_hash AS textHash, message, at FROM sync_refused WHERE space_id = ?`).all(
      spaceId,
    ) as RefusedChange[];
    return new Map(rows.map((r) => [r.pageKey, r]));
  }

  recordRefused(spaceId: string, r: RefusedChange): void {
    this.sql(
      `INSERT INTO sync_refused (space_id, page_key, path, text_hash, message, at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, page_key) DO UPDATE SET path = excluded.path, text_hash = excluded.text_hash,
           message = excluded.message, at = excluded.at`,
    ).run(spaceId, r.pageKey, r.path, r.textHash, redactSecrets(r.message), r.at);
  }

  clearAllRefused(spaceId: string): void {
    this.sql(`DELETE FROM sync_refused WHERE space_id = ?`).run(spaceId);
  }

  clearRefused(spaceId: string, pageKey: string): void {
    this.sql(`DELETE FROM sync_refused WHERE space_id = ? AND page_key = ?`).run(spaceId, pageKey);
  }

  // ---- watcher records and holds ---------------------------------------------------------

  recordLocalEdit(spaceId: string, path: string, kind: string, at: string): void {
    this.sql(
      `INSERT INTO sync_local_edits (space_id, path, kind, seen_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (space_id, path) DO UPDATE SET kind = excluded.kind, seen_at = excluded.seen_at`,
    ).run(spaceId, path, kind, at);
  }

  localEdits(spaceId?: string): LocalEditRow[] {
    const sql = `SELECT space_id AS spaceId, path, kind, seen_at AS seenAt FROM sync_local_edits ${spaceId ? 'WHERE space_id = ?' : ''} ORDER BY seen_at`;
    const stmt = this.sql(sql);
    return (spaceId ? stmt.all(spaceId) : stmt.all()) as LocalEditRow[];
  }

  /** Clears the watcher's records seen at or before `upTo` (they were handled by a cycle that started later). */
  clearLocalEdits(spaceId: string, upTo: string): void {
    this.sql(`DELETE FROM sync_local_edits WHERE space_id = ? AND seen_at <= ?`).run(spaceId, upTo);
  }

  // ---- what a completed cycle left for the writer ----------------------------------------

  /** Replaces what the space's cycles left for the writer with what the last completed one left. */
  setAttention(spaceId: string, rows: readonly AttentionRow[], at: string): void {
    this.sql(`DELETE FROM sync_attention WHERE space_id = ?`).run(spaceId);
    const insert = this.sql(`INSERT INTO sync_attention (space_id, seq, reason, path, line, title, page_key, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const [seq, r] of rows.entries()) insert.run(spaceId, seq, r.reason, r.path, r.line ?? null, r.title ?? null, r.key, at);
  }

  attention(spaceId: string): AttentionRow[] {
    const rows = this.sql(`SELECT reason, path, line, title, page_key AS key FROM sync_attention WHERE space_id = ? ORDER BY seq`).all(spaceId) as {
      reason: string;
      path: string;
      line: number | null;
      title: string | null;
      key: string | null;
    }[];
    return rows.map((r) => ({
      reason: r.reason,
      path: r.path,
      key: r.key,
      ...(r.line !== null ? { line: r.line } : {}),
      ...(r.title !== null ? { title: r.title } : {}),
    }));
  }

  hold(spaceId: string): HoldRow | undefined {
    return this.sql(`SELECT kind, local_deletes AS localDeletes, remote_deletes AS remoteDeletes, pages, at FROM sync_holds WHERE space_id = ?`).get(spaceId) as
      | HoldRow
      | undefined;
  }

  setHold(spaceId: string, hold: HoldRow): void {
    this.sql(
      `INSERT INTO sync_holds (space_id, kind, local_deletes, remote_deletes, pages, at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id) DO UPDATE SET kind = excluded.kind, local_deletes = excluded.local_deletes,
           remote_deletes = excluded.remote_deletes, pages = excluded.pages, at = excluded.at`,
    ).run(spaceId, hold.kind, hold.localDeletes, hold.remoteDeletes, hold.pages, hold.at);
  }

  clearHold(spaceId: string): void {
    this.sql(`DELETE FROM sync_holds WHERE space_id = ?`).run(spaceId);
  }
}
