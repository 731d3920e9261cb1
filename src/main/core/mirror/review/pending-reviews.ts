/**
 * Pending reviews (migration 23): a review the user started on a change request and has not
 * finished, one per change request. Its comments are review actions in state `draft` whose
 * payload names the review (action-log.ts); core/review/pending-review.ts sends them with the verdict.
 */
import type { Db } from '../database';
import { statementCache } from './statements';

export interface PendingReviewRow {
  id: string;
  spaceId: string;
  changeRequestId: string;
  startedAt: string;
}

export class PendingReviewStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** The pending review of a change request, or null. */
  of(changeRequestId: string): PendingReviewRow | null {
    const r = this.sql(
      `SELECT id, space_id AS spaceId, change_request_id AS changeRequestId, started_at AS startedAt FROM review_pending WHERE change_request_id = ?`,
    ).get(changeRequestId) as PendingReviewRow | undefined;
    return r ?? null;
  }

  open(row: PendingReviewRow): void {
    this.sql(`INSERT INTO review_pending (change_request_id, id, space_id, started_at) VALUES (?, ?, ?, ?)`).run(
      row.changeRequestId,
      row.id,
      row.spaceId,
      row.startedAt,
    );
  }

  close(changeRequestId: string): void {
    this.sql(`DELETE FROM review_pending WHERE change_request_id = ?`).run(changeRequestId);
  }
}
