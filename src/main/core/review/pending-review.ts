/**
 * A pending review, as GitHub's "Start a review": comments made on a change request while it is
 * open are kept in the folder (queue.ts stores them as `draft` actions naming the review), listed,
 * edited and deleted there, and sent only when the review is finished — then, in one transaction,
 * they are queued in the order they were written, followed by the verdict, and the queue sends
 * them: each claimed before it is sent, and looked for on the server after a lost answer, so
 * nothing is sent twice when the connection drops half-way (the rest waits for the next replay).
 *
 * The API takes a review (`submitChangeRequestReview`) as a status — approved or
 * changes-requested — with at most one comment, so a review's comments are posted first, as
 * comments of the change request, then the review. There is no comment-only review: finishing
 * with "comment" posts the comments (and the summary, as one more comment) and no review.
 */
import type { ApiClient } from '../api';
import type { ActionRecord, CommentView, Mirror } from '../mirror';
import { readChangeRequest } from './current';
import { ActionNotPossibleError, blockersOf } from './lifecycle';
import type { ActionQueue, ReplayReport } from './queue';

export type Verdict = 'approved' | 'changes-requested' | 'comment';

export interface PendingReview {
  id: string;
  changeRequestId: string;
  startedAt: string;
  /** Its comments, in the order they were written (ids `local:…`), as they will be posted. */
  comments: CommentView[];
}

export interface FinishedReview {
  verdict: Verdict;
  /** How many of the review's comments (the summary of a comment-only review included) the server has now, of how many. */
  commentsSent: number;
  comments: number;
  /** The verdict's action (null for a comment-only review). */
  verdictAction: ActionRecord | null;
  /** What the server refused, each with its message. */
  refused: ActionRecord[];
  /** Why the replay stopped before everything was sent (what is left waits for the next replay), or null. */
  stoppedBy: string | null;
}

export class PendingReviews {
  constructor(
    private readonly mirror: Pick<Mirror, 'catalog' | 'pendingReviews' | 'reviewActions' | 'reviewRecords' | 'reviewViews' | 'reviewers' | 'transaction'>,
    private readonly queue: ActionQueue,
  ) {}

  /** The change request's pending review, or null. */
  of(changeRequestId: string): PendingReview | null {
    const row = this.mirror.pendingReviews.of(changeRequestId);
    if (!row) return null;
    const comments = this.kept(row.id)
      .map((a) => (a.commentId ? this.mirror.reviewViews.comment(a.commentId) : undefined))
      .filter((c): c is CommentView => c !== undefined);
    return { id: row.id, changeRequestId, startedAt: row.startedAt, comments };
  }

  /** Opens a pending review (or answers the one open); from now on comments on the change request are kept in it. */
  start(changeRequestId: string, now = new Date().toISOString()): PendingReview {
    return this.mirror.transaction(() => {
      if (!this.mirror.pendingReviews.of(changeRequestId)) {
        const cr = this.mirror.reviewViews.changeRequest(changeRequestId);
        if (!cr) throw new Error(`Change request ${changeRequestId} is not in the mirror; refresh review data first.`);
        const blockers = blockersOf(this.mirror, changeRequestId, 'review');
        if (blockers.length > 0) throw new ActionNotPossibleError('review', blockers);
        const id = process.getBuiltinModule('node:crypto').randomUUID();
        this.mirror.pendingReviews.open({ id, spaceId: cr.spaceId, changeRequestId, startedAt: now });
      }
      return this.of(changeRequestId)!;
    });
  }

  /** Drops the pending review and its comments; nothing of it was sent. Returns how many comments went with it (null: none was open). */
  discard(changeRequestId: string): number | null {
    return this.mirror.transaction(() => {
      const row = this.mirror.pendingReviews.of(changeRequestId);
      if (!row) return null;
      const kept = this.kept(row.id);
      for (const a of kept) this.queue.dismiss(a.id);
      this.mirror.pendingReviews.close(changeRequestId);
      return kept.length;
    });
  }

  /**
   * Finishes the pending review: asks the server first (the change request as it is now: a
   * review needs its answer, so the review is kept as it is when the server cannot be reached or
   * the change request can no longer be reviewed), then queues its comments and the verdict in
   * one transaction and sends them.
   */
  async finish(api: ApiClient, changeRequestId: string, verdict: Verdict, body: string | undefined, signal?: AbortSignal): Promise<FinishedReview> {
    const row = this.mirror.pendingReviews.of(changeRequestId);
    if (!row) throw new Error(`No pending review of change request ${changeRequestId}.`);
    await readChangeRequest(api, this.mirror, changeRequestId, signal);
    const blockers = blockersOf(this.mirror, changeRequestId, verdict === 'comment' ? 'comment' : 'review');
    if (blockers.length > 0) throw new ActionNotPossibleError(verdict === 'comment' ? 'comment' : 'review', blockers);
    const summary = body?.trim() ? body : undefined;
    this.mirror.transaction(() => {
      // A comment-only review's summary is its last comment (taken while the review is open, it is kept in it).
      if (verdict === 'comment' && summary) this.queue.enqueue({ kind: 'postComment', spaceId: row.spaceId, changeRequestId, body: summary });
      for (const a of this.kept(row.id)) this.mirror.reviewActions.setActionState(a.id, 'queued');
      if (verdict !== 'comment') {
        this.queue.enqueue({ kind: 'submitReview', spaceId: row.spaceId, changeRequestId, verdict, review: row.id, ...(summary ? { body: summary } : {}) });
      }
      this.mirror.pendingReviews.close(changeRequestId);
    });
    let report: ReplayReport | null = null;
    try {
      report = await this.queue.replay(api, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      return this.outcome(row.id, verdict, err instanceof Error ? err.message : String(err));
    }
    return this.outcome(row.id, verdict, report.stoppedBy);
  }

  private outcome(reviewId: string, verdict: Verdict, stoppedBy: string | null): FinishedReview {
    const actions = this.mirror.reviewActions.ofReview(reviewId);
    const comments = actions.filter((a) => a.kind === 'postComment');
    return {
      verdict,
      commentsSent: comments.filter((a) => a.state === 'done').length,
      comments: comments.length,
      verdictAction: actions.find((a) => a.kind === 'submitReview') ?? null,
      refused: actions.filter((a) => a.state === 'refused'),
      stoppedBy,
    };
  }

  /** The comments kept in a review, in order. */
  private kept(reviewId: string): ActionRecord[] {
    return this.mirror.reviewActions.ofReview(reviewId).filter((a) => a.state === 'draft');
  }
}
