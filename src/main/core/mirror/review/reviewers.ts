/**
 * Who reviews a change request: its reviews (approvals, requested changes) and requested reviewers
 * (migration 14: the server's lists in change_requests.reviews_json / reviewers_json), and the
 * members of each organization a reviewer is chosen from. Requested reviewers are shown as they
 * will be: the server's list with the review actions not sent yet folded in.
 */
import type { Db } from '../database';
import type { ReviewActionLog } from './action-log';
import { statementCache } from './statements';
import type { ReviewRecords } from './records';
import type { Person, RemoteRequestedReviewer, RemoteReview, RemoteUser, RequestedReviewerView, ReviewView } from './types';

export class ReviewerStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(
    db: Db,
    private readonly records: ReviewRecords,
    private readonly actions: ReviewActionLog,
  ) {
    this.sql = statementCache(db);
  }

  /** A change request's reviews and requested reviewers as just listed (null: leave that list as it was). */
  setReviews(changeRequestId: string, reviews: RemoteReview[] | null, reviewers: RemoteRequestedReviewer[] | null): void {
    for (const r of reviews ?? []) {
      this.records.rememberUser(r.reviewer);
      this.records.rememberUser(r.requestedBy);
    }
    for (const r of reviewers ?? []) {
      this.records.rememberUser(r.user);
      this.records.rememberUser(r.requestedBy);
    }
    this.sql(`UPDATE change_requests SET reviews_json = COALESCE(?, reviews_json), reviewers_json = COALESCE(?, reviewers_json) WHERE id = ?`).run(
      reviews ? JSON.stringify(reviews) : null,
      reviewers ? JSON.stringify(reviewers) : null,
      changeRequestId,
    );
  }

  /** Adds one review the server just took (before the next listing). */
  addReview(changeRequestId: string, review: RemoteReview): void {
    const list = this.serverReviews(changeRequestId).map((r) => (r.reviewer.id === review.reviewer.id ? { ...r, outdated: true } : r));
    const reviewers = this.serverReviewers(changeRequestId).filter((r) => r.user?.id !== review.reviewer.id);
    this.setReviews(changeRequestId, [...list.filter((r) => r.id !== review.id), review], reviewers);
  }

  serverReviews(changeRequestId: string): RemoteReview[] {
    const r = this.sql(`SELECT reviews_json FROM change_requests WHERE id = ?`).get(changeRequestId) as { reviews_json: string | null } | undefined;
    return r?.reviews_json ? (JSON.parse(r.reviews_json) as RemoteReview[]) : [];
  }

  serverReviewers(changeRequestId: string): RemoteRequestedReviewer[] {
    const r = this.sql(`SELECT reviewers_json FROM change_requests WHERE id = ?`).get(changeRequestId) as { reviewers_json: string | null } | undefined;
    return r?.reviewers_json ? (JSON.parse(r.reviewers_json) as RemoteRequestedReviewer[]) : [];
  }

  /** Whether the reviews of a change request were ever listed. */
  reviewsKnown(changeRequestId: string): boolean {
    const r = this.sql(`SELECT reviews_json FROM change_requests WHERE id = ?`).get(changeRequestId) as { reviews_json: string | null } | undefined;
    return !!r?.reviews_json;
  }

  /** Reviews, oldest first, current and outdated. */
  reviews(changeRequestId: string): ReviewView[] {
    return this.serverReviews(changeRequestId).map((r) => ({
      id: r.id,
      reviewer: this.person(r.reviewer),
      status: r.status === 'approved' ? 'approved' : 'changes-requested',
      outdated: r.outdated === true,
      comment: r.comment?.body?.markdown ?? null,
      at: r.updatedAt ?? r.createdAt,
    }));
  }

  /** Who is asked to review, as it will be once the actions not sent yet are: added ones flagged `add`, withdrawn ones `remove`. */
  requestedReviewers(changeRequestId: string): RequestedReviewerView[] {
    const out = new Map<string, RequestedReviewerView>();
    for (const r of this.serverReviewers(changeRequestId)) {
      const id = r.user?.id ?? (r.team ? `team:${r.team.id}` : null);
      if (!id) continue;
      const displayName = r.user ? this.person(r.user).displayName : (r.team?.title ?? id);
      out.set(id, { id, displayName, requestedBy: r.requestedBy ? this.person(r.requestedBy) : null, pending: null });
    }
    for (const a of this.actions.pendingFor('change_request_id', changeRequestId)) {
      const userId = a.payload.userId;
      if (!userId || (a.kind !== 'requestReviewer' && a.kind !== 'removeReviewer')) continue;
      const known = out.get(userId);
      if (a.kind === 'requestReviewer') {
        if (!known || known.pending === 'remove')
          out.set(userId, {
            id: userId,
            displayName: a.payload.displayName ?? this.nameOf(userId),
            requestedBy: this.person(this.records.me()),
            pending: 'add',
          });
      } else if (known) {
        if (known.pending === 'add') out.delete(userId);
        else out.set(userId, { ...known, pending: 'remove' });
      }
    }
    return [...out.values()];
  }

  /** The members of an organization, as just listed. */
  setMembers(organizationId: string, users: RemoteUser[]): void {
    this.sql(`DELETE FROM review_members WHERE organization_id = ?`).run(organizationId);
    for (const u of users) {
      this.records.rememberUser(u);
      this.sql(`INSERT OR IGNORE INTO review_members (organization_id, user_id) VALUES (?, ?)`).run(organizationId, u.id);
    }
  }

  /** Members of an organization as last listed, with their email when known; none when never listed. */
  members(organizationId: string): (Person & { email: string | null })[] {
    return this.sql(
      `SELECT u.id, u.display_name AS displayName, u.email FROM review_members m JOIN review_users u ON u.id = m.user_id
         WHERE m.organization_id = ? ORDER BY u.display_name, u.id`,
    ).all(organizationId) as (Person & { email: string | null })[];
  }

  /** People the mirror knows (authors, reviewers, members), for naming someone offline. */
  people(): (Person & { email: string | null })[] {
    return this.sql(`SELECT id, display_name AS displayName, email FROM review_users ORDER BY display_name, id`).all() as (Person & {
      email: string | null;
    })[];
  }

  private nameOf(id: string): string {
    const r = this.sql(`SELECT display_name FROM review_users WHERE id = ?`).get(id) as { display_name: string } | undefined;
    return r?.display_name ?? id;
  }

  private person(u: RemoteUser): Person {
    return { id: u.id, displayName: u.displayName ?? u.email ?? this.nameOf(u.id) };
  }
}
