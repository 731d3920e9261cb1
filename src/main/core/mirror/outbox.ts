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

import type {
  ChangeRequestRow,
  ParkedChangeRequest,
  OutboxState,
  OutboxRow,
  PushedPageRow,
  PushedFile,
  RefusedChange,
  HoldRow,
  HeldDeletesRow,
  AttentionRow,
  LocalEditRow,
} from './outbox-rows';

/** The recorded pages of a stop; none when there are none, or what is there is not a list of ids. */
function heldDeletesOf(json: string | null): HeldDeletesRow {
  const ids = (v: unknown): string[] => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : []);
  try {
    const parsed = (json === null ? null : JSON.parse(json)) as { server?: unknown; here?: unknown } | null;
    return { server: ids(parsed?.server), here: ids(parsed?.here) };
  } catch {
    return { server: [], here: [] };
  }
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
    const r = this.sql(
      `SELECT space_id AS spaceId, change_request_id AS changeRequestId, number, subject, state, created_at AS createdAt,
           chosen, subject_by_user AS subjectByUser, status
         FROM sync_change_requests WHERE space_id = ?`,
    ).get(spaceId) as (Omit<ChangeRequestRow, 'chosen' | 'subjectByUser'> & { chosen: number; subjectByUser: number }) | undefined;
    return r && { ...r, chosen: r.chosen === 1, subjectByUser: r.subjectByUser === 1 };
  }

  /** The next push of the space opens a new change request (with the user's subject, if given). */
  planNew(spaceId: string, subject: string | null, at: string): void {
    this.sql(
      `INSERT INTO sync_change_requests (space_id, change_request_id, number, marker, subject, state, created_at, chosen, subject_by_user, status)
         VALUES (?, NULL, NULL, '', ?, 'new', ?, 1, ?, NULL)
         ON CONFLICT (space_id) DO UPDATE SET change_request_id = NULL, number = NULL, marker = '', subject = excluded.subject, state = 'new',
           created_at = excluded.created_at, chosen = 1, subject_by_user = excluded.subject_by_user, status = NULL`,
    ).run(spaceId, subject ?? '', at, subject === null ? 0 : 1);
  }

  /** The space's pushes go into this existing change request from now on. */
  pointAt(
    spaceId: string,
    cr: { id: string; number: number; subject: string; subjectByUser: boolean; chosen: boolean; status: string | null },
    at: string,
  ): void {
    this.sql(
      `INSERT INTO sync_change_requests (space_id, change_request_id, number, marker, subject, state, created_at, chosen, subject_by_user, status)
         VALUES (?, ?, ?, '', ?, 'open', ?, ?, ?, ?)
         ON CONFLICT (space_id) DO UPDATE SET change_request_id = excluded.change_request_id, number = excluded.number, marker = '',
           subject = excluded.subject, state = 'open', created_at = excluded.created_at, chosen = excluded.chosen,
           subject_by_user = excluded.subject_by_user, status = excluded.status`,
    ).run(spaceId, cr.id, cr.number, cr.subject, at, cr.chosen ? 1 : 0, cr.subjectByUser ? 1 : 0, cr.status);
  }

  /** The subject it has now, and whether it is the user's. */
  setSubject(spaceId: string, subject: string, byUser: boolean): void {
    this.sql(`UPDATE sync_change_requests SET subject = ?, subject_by_user = ? WHERE space_id = ?`).run(subject, byUser ? 1 : 0, spaceId);
  }

  setStatusSeen(spaceId: string, status: string): void {
    this.sql(`UPDATE sync_change_requests SET status = ? WHERE space_id = ?`).run(status, spaceId);
  }

  // ---- change requests set aside -------------------------------------------------------------

  /**
   * Sets the space's change request aside, with what it holds, so another one takes the pushes;
   * `pointAt` or `planNew` then names the next. Nothing happens to a row without a change request.
   */
  park(spaceId: string, at: string): ParkedChangeRequest | null {
    const row = this.changeRequest(spaceId);
    if (!row?.changeRequestId) return null;
    const parked: ParkedChangeRequest = {
      changeRequestId: row.changeRequestId,
      number: row.number,
      subject: row.subject,
      subjectByUser: row.subjectByUser,
      chosen: row.chosen,
      pages: [...this.pushedPages(spaceId).values()],
      files: this.pushedFiles(spaceId),
      parkedAt: at,
    };
    this.sql(
      `INSERT INTO sync_parked_change_requests (space_id, change_request_id, number, subject, subject_by_user, chosen, pages, files, parked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, change_request_id) DO UPDATE SET number = excluded.number, subject = excluded.subject,
           subject_by_user = excluded.subject_by_user, chosen = excluded.chosen, pages = excluded.pages, files = excluded.files,
           parked_at = excluded.parked_at`,
    ).run(
      spaceId,
      parked.changeRequestId,
      parked.number,
      parked.subject,
      parked.subjectByUser ? 1 : 0,
      parked.chosen ? 1 : 0,
      JSON.stringify(parked.pages),
      JSON.stringify(parked.files),
      at,
    );
    this.forgetChangeRequest(spaceId);
    return parked;
  }

  /** Takes a change request set aside back: what it holds becomes the space's record again (call after park, before pointAt). */
  unpark(spaceId: string, changeRequestId: string, at: string): ParkedChangeRequest | null {
    const parked = this.parkedChangeRequests(spaceId).find((p) => p.changeRequestId === changeRequestId) ?? null;
    if (!parked) return null;
    for (const p of parked.pages) this.upsertPushedPage(spaceId, p, at);
    for (const f of parked.files) this.upsertPushedFile(spaceId, f);
    this.dropParked(spaceId, changeRequestId);
    return parked;
  }

  parkedChangeRequests(spaceId: string): ParkedChangeRequest[] {
    const rows = this.sql(`SELECT * FROM sync_parked_change_requests WHERE space_id = ? ORDER BY parked_at`).all(spaceId) as {
      change_request_id: string;
      number: number | null;
      subject: string;
      subject_by_user: number;
      chosen: number;
      pages: string;
      files: string;
      parked_at: string;
    }[];
    return rows.map((r) => ({
      changeRequestId: r.change_request_id,
      number: r.number,
      subject: r.subject,
      subjectByUser: r.subject_by_user === 1,
      chosen: r.chosen === 1,
      pages: JSON.parse(r.pages) as PushedPageRow[],
      files: JSON.parse(r.files) as PushedFile[],
      parkedAt: r.parked_at,
    }));
  }

  /** The user gave a change request set aside a subject of their own. */
  setParkedSubject(spaceId: string, changeRequestId: string, subject: string): void {
    this.sql(`UPDATE sync_parked_change_requests SET subject = ?, subject_by_user = 1 WHERE space_id = ? AND change_request_id = ?`).run(
      subject,
      spaceId,
      changeRequestId,
    );
  }

  /** Forgets a change request set aside (merged or archived since). */
  dropParked(spaceId: string, changeRequestId: string): void {
    this.sql(`DELETE FROM sync_parked_change_requests WHERE space_id = ? AND change_request_id = ?`).run(spaceId, changeRequestId);
  }

  /** Recorded (and committed) before the create request goes out; a row `planNew` made keeps who chose it and whose subject it is. */
  beginCreate(spaceId: string, subject: string, at: string): void {
    this.sql(
      `INSERT INTO sync_change_requests (space_id, change_request_id, number, marker, subject, state, created_at)
         VALUES (?, NULL, NULL, '', ?, 'creating', ?)
         ON CONFLICT (space_id) DO UPDATE SET change_request_id = NULL, number = NULL, marker = '',
           subject = excluded.subject, state = 'creating', created_at = excluded.created_at`,
    ).run(spaceId, subject, at);
  }

  /** The change request's head after a batch Quire sent into it (its answer's revision). */
  setPushedRevision(spaceId: string, revision: string): void {
    this.sql(`UPDATE sync_change_requests SET pushed_revision = ? WHERE space_id = ?`).run(revision, spaceId);
  }

  /** The change request the space pushes into, and its head after Quire's last batch; null before one. */
  pushedHead(spaceId: string): { changeRequestId: string; revision: string } | null {
    const row = this.sql(
      `SELECT change_request_id AS changeRequestId, pushed_revision AS revision FROM sync_change_requests
         WHERE space_id = ? AND change_request_id IS NOT NULL AND pushed_revision IS NOT NULL`,
    ).get(spaceId) as { changeRequestId: string; revision: string } | undefined;
    return row ?? null;
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
    const row = this.sql(
      `SELECT kind, local_deletes AS localDeletes, remote_deletes AS remoteDeletes, pages, deletes, at FROM sync_holds WHERE space_id = ?`,
    ).get(spaceId) as (Omit<HoldRow, 'deletes'> & { deletes: string | null }) | undefined;
    return row && { ...row, deletes: heldDeletesOf(row.deletes) };
  }

  setHold(spaceId: string, hold: HoldRow): void {
    this.sql(
      `INSERT INTO sync_holds (space_id, kind, local_deletes, remote_deletes, pages, deletes, at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id) DO UPDATE SET kind = excluded.kind, local_deletes = excluded.local_deletes,
           remote_deletes = excluded.remote_deletes, pages = excluded.pages, deletes = excluded.deletes, at = excluded.at`,
    ).run(spaceId, hold.kind, hold.localDeletes, hold.remoteDeletes, hold.pages, JSON.stringify(hold.deletes), hold.at);
  }

  clearHold(spaceId: string): void {
    this.sql(`DELETE FROM sync_holds WHERE space_id = ?`).run(spaceId);
  }
}
