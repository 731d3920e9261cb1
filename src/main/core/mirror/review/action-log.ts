/**
 * The review action queue's table (migrations 2 and 19): every action a user took, in order, with
 * its state (queued, sending — may have reached the server —, done, refused, dismissed; draft:
 * a comment of a pending review, queued when the review is finished), the
 * process sending it right now (its claim), and when one the server failed on is tried again.
 * What the actions do is core/review's (queue.ts, send.ts); their effect on the mirrored
 * objects is folded in by ReviewRecords (records.ts).
 */
import { redactOptional, redactSecrets } from '../../secrets';
import type { Db } from '../database';
import { statementCache } from './statements';
import type { ActionClaim, ActionKind, ActionPayload, ActionRecord, ActionState } from './types';

interface ActionRow {
  seq: number;
  id: string;
  kind: ActionKind;
  space_id: string;
  change_request_id: string | null;
  comment_id: string | null;
  reply_id: string | null;
  payload: string;
  state: ActionState;
  created_at: string;
  sending_at: string | null;
  finished_at: string | null;
  attempts: number;
  message: string | null;
  result_id: string | null;
  claim: string | null;
  retry_at: string | null;
}

const toAction = (r: ActionRow): ActionRecord => ({
  seq: r.seq,
  id: r.id,
  kind: r.kind,
  spaceId: r.space_id,
  changeRequestId: r.change_request_id,
  commentId: r.comment_id,
  replyId: r.reply_id,
  payload: JSON.parse(r.payload) as ActionPayload,
  state: r.state,
  createdAt: r.created_at,
  sendingAt: r.sending_at,
  finishedAt: r.finished_at,
  attempts: r.attempts,
  message: r.message,
  resultId: r.result_id,
  claim: r.claim === null ? null : (JSON.parse(r.claim) as ActionClaim),
  retryAt: r.retry_at,
});

export class ReviewActionLog {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  action(id: string): ActionRecord | undefined {
    const r = this.sql(`SELECT * FROM review_actions WHERE id = ?`).get(id) as ActionRow | undefined;
    return r && toAction(r);
  }

  /** By its number (`seq`), as hosts show it to name an action. */
  actionBySeq(seq: number): ActionRecord | undefined {
    const r = this.sql(`SELECT * FROM review_actions WHERE seq = ?`).get(seq) as ActionRow | undefined;
    return r && toAction(r);
  }

  actions(states?: ActionState[]): ActionRecord[] {
    const where = states ? `WHERE state IN (${states.map(() => '?').join(',')})` : '';
    return (this.sql(`SELECT * FROM review_actions ${where} ORDER BY seq`).all(...(states ?? [])) as ActionRow[]).map(toAction);
  }

  /** Actions still to send (queued, sending, or kept in a pending review) that touch one comment, reply or change request, in order. */
  pendingFor(column: 'comment_id' | 'reply_id' | 'change_request_id', id: string): ActionRecord[] {
    return (this.sql(`SELECT * FROM review_actions WHERE ${column} = ? AND state IN ('queued', 'sending', 'draft') ORDER BY seq`).all(id) as ActionRow[]).map(
      toAction,
    );
  }

  /** The actions of a pending review (its comments, then its verdict), in order, whatever their state. */
  ofReview(reviewId: string): ActionRecord[] {
    return (this.sql(`SELECT * FROM review_actions WHERE json_extract(payload, '$.review') = ? ORDER BY seq`).all(reviewId) as ActionRow[]).map(toAction);
  }

  /** A kept comment's new text (a pending review's comments are edited in place, never sent twice). */
  setPayload(id: string, payload: ActionPayload): void {
    this.sql(`UPDATE review_actions SET payload = ? WHERE id = ?`).run(JSON.stringify(payload), id);
  }

  insertAction(a: Omit<ActionRecord, 'seq' | 'claim' | 'retryAt'>): ActionRecord {
    const info = this.sql(
      `INSERT INTO review_actions (id, kind, space_id, change_request_id, comment_id, reply_id, payload, state, created_at,
           sending_at, finished_at, attempts, message, result_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      a.id,
      a.kind,
      a.spaceId,
      a.changeRequestId,
      a.commentId,
      a.replyId,
      JSON.stringify(a.payload),
      a.state,
      a.createdAt,
      a.sendingAt,
      a.finishedAt,
      a.attempts,
      redactOptional(a.message),
      a.resultId,
    );
    return { ...a, seq: Number(info.lastInsertRowid), claim: null, retryAt: null };
  }

  /**
   * Takes the action for one process to send (the caller's transaction checked nobody else
   * holds it). `sendingNow`: its request goes out next (it was queued, or the server was found
   * not to have it), so it is `sending` from now; otherwise it keeps when it was last sent, for
   * the look on the server that comes first.
   */
  claim(id: string, claim: ActionClaim, sendingNow: boolean): void {
    this.sql(
      `UPDATE review_actions SET claim = ?, state = 'sending',
           sending_at = CASE WHEN ? THEN ? ELSE sending_at END,
           attempts = attempts + ?
         WHERE id = ?`,
    ).run(JSON.stringify(claim), sendingNow ? 1 : 0, claim.at, sendingNow ? 1 : 0, id);
  }

  /** The server was found not to have a claimed action: its request goes out again now. */
  sendingAgain(id: string, at: string): void {
    this.sql(`UPDATE review_actions SET sending_at = ?, attempts = attempts + 1 WHERE id = ?`).run(at, id);
  }

  setActionState(id: string, state: ActionState, fields: { message?: string | null; resultId?: string | null; at?: string } = {}): void {
    const at = fields.at ?? new Date().toISOString();
    const finished = state === 'done' || state === 'refused' || state === 'dismissed';
    this.sql(
      `UPDATE review_actions SET state = ?,
           sending_at = CASE WHEN ? = 'sending' THEN ? ELSE sending_at END,
           attempts = attempts + CASE WHEN ? = 'sending' THEN 1 ELSE 0 END,
           finished_at = CASE WHEN ? THEN ? ELSE finished_at END,
           message = CASE WHEN ? THEN ? ELSE message END,
           result_id = COALESCE(?, result_id),
           claim = CASE WHEN ? = 'sending' THEN claim ELSE NULL END,
           retry_at = CASE WHEN ? = 'sending' THEN retry_at ELSE NULL END
         WHERE id = ?`,
    ).run(
      state,
      state,
      at,
      state,
      finished ? 1 : 0,
      at,
      fields.message !== undefined ? 1 : 0,
      redactOptional(fields.message ?? null),
      fields.resultId ?? null,
      state,
      state,
      id,
    );
  }

  /**
   * Records why a send did not complete, and lets the action go (its claim released);
   * `requeue` when the request certainly never reached the server, `retryAt` when it waits
   * before it is tried again.
   */
  noteFailure(id: string, message: string, requeue: boolean, retryAt: string | null = null): void {
    this.sql(`UPDATE review_actions SET message = ?, state = CASE WHEN ? THEN 'queued' ELSE state END, claim = NULL, retry_at = ? WHERE id = ?`).run(
      redactSecrets(message),
      requeue ? 1 : 0,
      retryAt,
      id,
    );
  }

  /** Forgets finished actions older than `before` (refused ones stay until dismissed). */
  pruneFinishedActions(before: string): void {
    this.sql(`DELETE FROM review_actions WHERE state IN ('done', 'dismissed') AND finished_at < ?`).run(before);
  }

  /** Points later actions at the id the server gave to something created offline. */
  retarget(localId: string, serverId: string): void {
    this.sql(`UPDATE review_actions SET comment_id = ? WHERE comment_id = ?`).run(serverId, localId);
    this.sql(`UPDATE review_actions SET reply_id = ? WHERE reply_id = ?`).run(serverId, localId);
  }

  /** Ids of comments and replies already accounted for as the result of an action. */
  claimedIds(): Set<string> {
    const rows = this.sql(`SELECT result_id AS id FROM review_actions WHERE result_id IS NOT NULL`).all() as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }
}
