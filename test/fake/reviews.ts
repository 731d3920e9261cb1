/**
 * Reviews of change requests, the reviewers asked for, and the merge rules that gate a merge.
 *
 * - A review (`submitChangeRequestReview`) approves or requests changes, optionally with a
 *   comment: as on GitBook, that comment is a comment of the change request (the review's
 *   `comment` is a whole `Comment`). A reviewer's newer review or a newer review request makes
 *   their earlier reviews `outdated`; submitting a review answers the request (the reviewer
 *   leaves the requested list).
 * - Merge rules are the OpenAPI document's `mergeRules` of a space (`inherit` by default: the
 *   organization's, none unless seeded). The document lets `updateSpaceById` set them; the fake
 *   takes them as seed state (`setMergeRules`). `custom` and `require_agent_review` rules cannot
 *   be evaluated here and are ignored. An unmet rule refuses the merge with 400 and the
 *   document's error shape, its message naming the rule.
 */
import type { ChangeRequestRec, MergeRuleRec, MergeRulesRec, ReviewRec, ReviewRequestRec, ReviewStatus } from './model';
import type { FakeStore } from './store';
import { ApiError } from './errors';

/** What each rule asks for, in words: the server's message when it is not met. */
const RULE_WORDS: Record<string, (rule: MergeRuleRec, names: (ids: string[]) => string) => string> = {
  require_at_least_one_review: () => 'at least one review is required',
  require_at_least_one_approved_review: () => 'at least one approved review is required',
  require_all_reviews_approved: () => 'every review must approve the change request',
  require_specific_reviewers: (r, names) => `approval from ${names(r.users ?? [])} is required`,
  require_one_of_specific_reviewers: (r, names) => `approval from one of ${names(r.users ?? [])} is required`,
  require_up_to_date_change_request: () => 'the change request must be up to date with main',
  require_change_request_subject: () => 'the change request needs a subject',
  require_change_request_description: () => 'the change request needs a description',
  require_author_to_merge: () => 'only its author may merge it',
};

export class FakeReviews {
  /** Reviews by change request id, oldest first. */
  private readonly byChangeRequest = new Map<string, ReviewRec[]>();
  /** Who asked each requested reviewer: `${changeRequestId}/${userId}`. */
  private readonly requests = new Map<string, ReviewRequestRec>();

  constructor(private readonly store: FakeStore) {}

  reviewsOf(changeRequestId: string): ReviewRec[] {
    return this.byChangeRequest.get(changeRequestId) ?? [];
  }

  review(changeRequestId: string, reviewId: string): ReviewRec {
    const found = this.reviewsOf(changeRequestId).find((r) => r.id === reviewId);
    if (!found) throw new ApiError(404, `review "${reviewId}" does not exist`);
    return found;
  }

  /** The requested reviewers of a change request, each with who asked and when. */
  requestedOf(cr: ChangeRequestRec): { userId: string; request: ReviewRequestRec }[] {
    return (cr.requestedReviewers ?? []).map((userId) => ({
      userId,
      request: this.requests.get(`${cr.id}/${userId}`) ?? { requestedBy: cr.createdBy, revision: cr.revisionId, createdAt: cr.createdAt },
    }));
  }

  /** Approves or requests changes, as `by` (default: the token's user). */
  submit(spaceId: string, idOrNumber: string | number, input: { status: ReviewStatus; by?: string; comment?: string }): ReviewRec {
    const cr = this.store.changeRequest(spaceId, idOrNumber);
    if (cr.status === 'merged' || cr.status === 'archived')
      throw new ApiError(400, `change request #${cr.number} is ${cr.status}; it can no longer be reviewed`);
    const by = input.by ?? this.store.currentUser.id;
    this.store.user(by);
    if (by === this.store.currentUser.id && this.permission(spaceId, 'review') === false)
      throw new ApiError(403, 'you do not have permission to review change requests in this space');
    const now = this.store.now();
    const list = this.reviewsOf(cr.id);
    for (const earlier of list) if (earlier.reviewer === by) earlier.outdated = true;
    const asked = this.requests.get(`${cr.id}/${by}`);
    let commentId: string | undefined;
    if (input.comment !== undefined && input.comment.trim() !== '') {
      commentId = this.store.addComment(spaceId, { body: input.comment, changeRequest: cr.id, by }).id;
    }
    const review: ReviewRec = {
      id: this.store.newId('review'),
      spaceId,
      changeRequestId: cr.id,
      reviewer: by,
      status: input.status,
      revision: cr.revisionId,
      outdated: false,
      createdAt: now,
      updatedAt: now,
      ...(asked || cr.requestedReviewers?.includes(by) ? { requestedBy: asked?.requestedBy ?? cr.createdBy } : {}),
      ...(commentId !== undefined ? { comment: commentId } : {}),
    };
    this.byChangeRequest.set(cr.id, [...list, review]);
    cr.requestedReviewers = (cr.requestedReviewers ?? []).filter((u) => u !== by);
    this.requests.delete(`${cr.id}/${by}`);
    cr.updatedAt = now;
    return review;
  }

  /** Asks users (organization members) to review; returns the requests made. */
  request(
    spaceId: string,
    idOrNumber: string | number,
    userIds: string[],
    by: string = this.store.currentUser.id,
  ): { userId: string; request: ReviewRequestRec }[] {
    const cr = this.store.changeRequest(spaceId, idOrNumber);
    if (cr.status === 'merged' || cr.status === 'archived')
      throw new ApiError(400, `change request #${cr.number} is ${cr.status}; reviewers can no longer be asked`);
    const org = this.store.org(this.store.space(spaceId).orgId);
    for (const id of userIds) {
      if (!this.store.users.has(id) || !org.memberIds.includes(id)) throw new ApiError(400, `user "${id}" is not a member of the organization`);
    }
    const now = this.store.now();
    const made: { userId: string; request: ReviewRequestRec }[] = [];
    for (const userId of new Set(userIds)) {
      const request: ReviewRequestRec = { requestedBy: by, revision: cr.revisionId, createdAt: now };
      this.requests.set(`${cr.id}/${userId}`, request);
      if (!(cr.requestedReviewers ?? []).includes(userId)) cr.requestedReviewers = [...(cr.requestedReviewers ?? []), userId];
      for (const r of this.reviewsOf(cr.id)) if (r.reviewer === userId) r.outdated = true;
      made.push({ userId, request });
    }
    cr.updatedAt = now;
    return made;
  }

  /** Withdraws a review request; false when that user was not asked. */
  remove(spaceId: string, idOrNumber: string | number, userId: string): boolean {
    const cr = this.store.changeRequest(spaceId, idOrNumber);
    if (!(cr.requestedReviewers ?? []).includes(userId)) return false;
    cr.requestedReviewers = (cr.requestedReviewers ?? []).filter((u) => u !== userId);
    this.requests.delete(`${cr.id}/${userId}`);
    cr.updatedAt = this.store.now();
    return true;
  }

  /** Seeds merge rules on a space (`{ type: 'inherit' }` to follow the organization's) or on an organization. */
  setMergeRules(target: { space: string } | { org: string }, rules: MergeRulesRec | { type: 'inherit' }): void {
    if ('space' in target) this.store.space(target.space).mergeRules = rules;
    else if (rules.type !== 'inherit') this.store.org(target.org).mergeRules = rules;
  }

  /** The rules that apply to a space's change requests. */
  rulesOf(spaceId: string): MergeRulesRec {
    const space = this.store.space(spaceId);
    if (space.mergeRules && space.mergeRules.type !== 'inherit') return space.mergeRules;
    return this.store.org(space.orgId).mergeRules ?? { type: 'none' };
  }

  /** Why `actor` may not merge the change request now (empty: it may). */
  mergeBlockers(cr: ChangeRequestRec, actor: string): string[] {
    const rules = this.rulesOf(cr.spaceId);
    if (rules.type === 'none') return [];
    if (rules.rules.some((r) => r.rule === 'allow_bypass' && (r.users ?? []).includes(actor))) return [];
    const current = this.reviewsOf(cr.id).filter((r) => !r.outdated && r.reviewer !== cr.createdBy);
    const approvedBy = new Set(current.filter((r) => r.status === 'approved').map((r) => r.reviewer));
    const names = (ids: string[]) => ids.map((id) => this.store.users.get(id)?.displayName ?? id).join(', ');
    const met: Record<string, (rule: MergeRuleRec) => boolean> = {
      require_at_least_one_review: () => current.length > 0,
      require_at_least_one_approved_review: () => approvedBy.size > 0,
      require_all_reviews_approved: () => current.every((r) => r.status === 'approved'),
      require_specific_reviewers: (r) => (r.users ?? []).every((u) => approvedBy.has(u)),
      require_one_of_specific_reviewers: (r) => (r.users ?? []).some((u) => approvedBy.has(u)),
      require_up_to_date_change_request: () => !this.store.isOutdated(cr),
      require_change_request_subject: () => cr.subject.trim() !== '',
      require_change_request_description: () => documentHasText(cr.description),
      require_author_to_merge: () => actor === cr.createdBy,
    };
    return rules.rules.flatMap((r) => {
      const check = met[r.rule];
      return check && !check(r) ? [RULE_WORDS[r.rule]!(r, names)] : [];
    });
  }

  /** A space permission of the token's user (undefined: granted). */
  permission(spaceId: string, name: 'edit' | 'comment' | 'merge' | 'review' | 'admin'): boolean | undefined {
    return this.store.space(spaceId).permissions?.[name];
  }
}

function documentHasText(doc: unknown): boolean {
  if (doc === null || typeof doc !== 'object') return false;
  return /"text":"[^"]*\S/.test(JSON.stringify(doc));
}
