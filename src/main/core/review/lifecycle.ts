/**
 * What can be done with a change request, and the actions that need the server's answer
 * (merge, update from main, a review): they are never queued, since their outcome is the
 * server's to decide. Each says why it cannot be done: first from what the mirror knows
 * (the space's permissions, the change request's status, its merge rules as last seen), then
 * from the server's answer, word for word.
 */
import type { ChangeRequestReviewStatus } from '@gitbook/api';
import type { ApiClient } from '../api';
import { ApiError, TokenRejectedError } from '../api';
import type { ChangeRequestView, Mirror, RemoteChangeRequest, RemoteRequestedReviewer, RemoteReview } from '../mirror';
import { documentText } from './document';

export type LifecycleAction = 'merge' | 'update' | 'archive' | 'reopen' | 'edit' | 'review' | 'reviewers' | 'comment';

export type BlockerCode = 'no-permission' | 'merged' | 'archived' | 'draft' | 'open' | 'up-to-date' | 'rule' | 'unknown';

/** Why an action is not possible now. `rule` blockers are the mirror's reading of the merge rules: the server has the last word. */
export interface Blocker {
  code: BlockerCode;
  message: string;
}

/** The mirror says the action cannot succeed; nothing was sent. */
export class ActionNotPossibleError extends Error {
  override name = 'ActionNotPossibleError';
  constructor(
    readonly action: LifecycleAction,
    readonly blockers: Blocker[],
  ) {
    super(blockers.map((b) => b.message).join('; '));
  }
}

/** The server looked at the request and refused it: its message, as it gave it. */
export class ServerRefusalError extends Error {
  override name = 'ServerRefusalError';
  constructor(
    readonly status: number,
    readonly serverMessage: string,
  ) {
    super(serverMessage);
  }
}

const RULE_WORDS: Record<string, (users: string) => string> = {
  require_at_least_one_review: () => 'the merge rules ask for at least one review',
  require_at_least_one_approved_review: () => 'the merge rules ask for at least one approving review',
  require_all_reviews_approved: () => 'the merge rules ask that every review approves',
  require_specific_reviewers: (users) => `the merge rules ask for approval from ${users}`,
  require_one_of_specific_reviewers: (users) => `the merge rules ask for approval from one of ${users}`,
  require_up_to_date_change_request: () => 'the merge rules ask that it is up to date with main: update it first',
  require_change_request_subject: () => 'the merge rules ask for a subject',
  require_change_request_description: () => 'the merge rules ask for a description',
  require_author_to_merge: () => 'the merge rules let only its author merge it',
};

/**
 * Whether main has what the change request lacks: the server said so when review data was last
 * refreshed, or a sync pulled a main other than the one the change request is based on since
 * (review data may be older than the last pull).
 */
export function behindMain(mirror: Pick<Mirror, 'catalog'>, cr: Pick<ChangeRequestView, 'spaceId' | 'outdated' | 'baseRevision'>): boolean {
  if (cr.outdated) return true;
  const main = mirror.catalog.space(cr.spaceId)?.syncedRevision ?? null;
  return main !== null && cr.baseRevision !== null && cr.baseRevision !== main;
}

/** Why `action` cannot be done on the change request now, as far as the mirror knows (empty: go ahead). */
export function blockersOf(
  mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewViews' | 'reviewers'>,
  changeRequestId: string,
  action: LifecycleAction,
): Blocker[] {
  const cr = mirror.reviewViews.changeRequest(changeRequestId);
  if (!cr) return [{ code: 'unknown', message: 'it is not in the mirror; refresh review data first' }];
  const perms = mirror.reviewRecords.spacePermissions(cr.spaceId) ?? {};
  const out: Blocker[] = [];
  const deny = (perm: string, what: string) => {
    if (perms[perm] === false) out.push({ code: 'no-permission', message: `you do not have permission to ${what} in this space` });
  };
  const closed = () => {
    if (cr.status === 'merged') out.push({ code: 'merged', message: 'it is already merged' });
    if (cr.status === 'archived') out.push({ code: 'archived', message: 'it is archived: reopen it first' });
  };
  switch (action) {
    case 'merge':
      deny('merge', 'merge change requests');
      closed();
      if (cr.status === 'draft') out.push({ code: 'draft', message: 'it is a draft: mark it ready for review (reopen it) first' });
      if (out.length === 0) out.push(...ruleBlockers(mirror, changeRequestId));
      break;
    case 'update':
      deny('edit', 'edit content');
      closed();
      if (out.length === 0 && !behindMain(mirror, cr)) out.push({ code: 'up-to-date', message: 'it already has everything main has' });
      break;
    case 'archive':
      closed();
      break;
    case 'reopen':
      if (cr.status === 'merged') out.push({ code: 'merged', message: 'it is already merged' });
      if (cr.status === 'open') out.push({ code: 'open', message: 'it is already open' });
      break;
    case 'edit':
      deny('edit', 'edit change requests');
      if (cr.status === 'merged') out.push({ code: 'merged', message: 'it is already merged' });
      break;
    case 'review':
      deny('review', 'review change requests');
      closed();
      break;
    case 'reviewers':
      closed();
      break;
    case 'comment':
      deny('comment', 'comment');
      break;
  }
  return out;
}

/** The space's merge rules read against what the mirror knows of the change request (reviews, state, subject, description). */
function ruleBlockers(mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewViews' | 'reviewers'>, changeRequestId: string): Blocker[] {
  const cr = mirror.reviewViews.changeRequest(changeRequestId)!;
  const config = mirror.reviewRecords.mergeRules(cr.spaceId);
  if (config?.type !== 'rules') return [];
  const me = mirror.reviewRecords.me().id;
  const rules = config.rules ?? [];
  if (rules.some((r) => r.rule === 'allow_bypass' && (r.users ?? []).includes(me))) return [];
  const current = mirror.reviewers.reviews(changeRequestId).filter((r) => !r.outdated && r.reviewer.id !== cr.createdBy?.id);
  const approved = new Set(current.filter((r) => r.status === 'approved').map((r) => r.reviewer.id));
  const server = mirror.reviewRecords.serverChangeRequest(changeRequestId);
  const names = (ids: string[]) => ids.map((id) => mirror.reviewers.people().find((p) => p.id === id)?.displayName ?? id).join(', ');
  const met: Record<string, (users: string[]) => boolean> = {
    require_at_least_one_review: () => current.length > 0,
    require_at_least_one_approved_review: () => approved.size > 0,
    require_all_reviews_approved: () => current.every((r) => r.status === 'approved'),
    require_specific_reviewers: (users) => users.every((u) => approved.has(u)),
    require_one_of_specific_reviewers: (users) => users.some((u) => approved.has(u)),
    require_up_to_date_change_request: () => !cr.outdated,
    require_change_request_subject: () => cr.subject.trim() !== '',
    require_change_request_description: () => documentText(server?.description) !== null,
    require_author_to_merge: () => cr.createdBy?.id === me,
  };
  return rules.flatMap((r) => {
    const check = met[r.rule];
    return check && !check(r.users ?? []) ? [{ code: 'rule' as const, message: RULE_WORDS[r.rule]!(names(r.users ?? [])) }] : [];
  });
}

/** The blockers that make sending pointless; `rule` ones are only the mirror's reading and are left to the server. */
function refuseEarly(
  mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewViews' | 'reviewers'>,
  changeRequestId: string,
  action: LifecycleAction,
): RemoteChangeRequest {
  const hard = blockersOf(mirror, changeRequestId, action).filter((b) => b.code !== 'rule' && b.code !== 'up-to-date');
  if (hard.length > 0) throw new ActionNotPossibleError(action, hard);
  return mirror.reviewRecords.serverChangeRequest(changeRequestId)!;
}

/** A 4xx the server gave as an answer (not a rejected token, not a rate limit): a refusal with its message. */
async function answered<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof ApiError && !(err instanceof TokenRejectedError) && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429) {
      throw new ServerRefusalError(err.status, err.apiMessage ?? err.message);
    }
    throw err;
  }
}

async function remember(
  api: ApiClient,
  mirror: Pick<Mirror, 'reviewRecords' | 'transaction'>,
  spaceId: string,
  id: string,
  fallback: RemoteChangeRequest,
): Promise<void> {
  const fresh = await api.call<RemoteChangeRequest>((c, p) => c.spaces.getChangeRequestById(spaceId, id, p)).catch(() => null);
  mirror.transaction(() => mirror.reviewRecords.putChangeRequest(spaceId, fresh ?? fallback));
}

export interface MergeOutcome {
  revision: string;
  /** The server merged with conflicts to resolve in the change request. */
  conflicts: boolean;
}

/** Merges a change request into main: only ever by this explicit call, never by sync. */
export async function mergeChangeRequest(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewViews' | 'reviewers' | 'transaction'>,
  changeRequestId: string,
  signal?: AbortSignal,
): Promise<MergeOutcome> {
  const cr = refuseEarly(mirror, changeRequestId, 'merge');
  const spaceId = cr.space ?? mirror.reviewViews.changeRequest(changeRequestId)!.spaceId;
  const result = await answered(() =>
    api.call<{ revision: string; result: string }>((c, p) => c.spaces.mergeChangeRequest(spaceId, changeRequestId, p), { signal }),
  );
  await remember(api, mirror, spaceId, changeRequestId, { ...cr, status: 'merged', revisionMerged: result.revision });
  return { revision: result.revision, conflicts: result.result === 'conflicts' };
}

/** Brings main's latest changes into the change request. */
export async function updateFromMain(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewViews' | 'reviewers' | 'transaction'>,
  changeRequestId: string,
  signal?: AbortSignal,
): Promise<MergeOutcome> {
  const cr = refuseEarly(mirror, changeRequestId, 'update');
  const spaceId = cr.space ?? mirror.reviewViews.changeRequest(changeRequestId)!.spaceId;
  const result = await answered(() =>
    api.call<{ revision: string; result: string }>((c, p) => c.spaces.updateChangeRequest(spaceId, changeRequestId, p), { signal }),
  );
  await remember(api, mirror, spaceId, changeRequestId, { ...cr, outdated: false, revision: result.revision });
  return { revision: result.revision, conflicts: result.result === 'conflicts' };
}

/** Approves or requests changes, with an optional comment (posted as a comment of the change request). */
export async function submitReview(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewViews' | 'reviewers' | 'transaction'>,
  changeRequestId: string,
  status: 'approved' | 'changes-requested',
  body?: string,
  signal?: AbortSignal,
): Promise<RemoteReview> {
  const cr = refuseEarly(mirror, changeRequestId, 'review');
  const spaceId = cr.space ?? mirror.reviewViews.changeRequest(changeRequestId)!.spaceId;
  const comment = body?.trim() ? { comment: { markdown: body } } : {};
  const review = await answered(() =>
    api.call<RemoteReview>(
      (c, p) => c.spaces.submitChangeRequestReview(spaceId, changeRequestId, { status: status as ChangeRequestReviewStatus, ...comment }, p),
      { signal },
    ),
  );
  const withText: RemoteReview = review.comment && body ? { ...review, comment: { ...review.comment, body: { markdown: body } } } : review;
  mirror.transaction(() => {
    mirror.reviewers.addReview(changeRequestId, withText);
    if (withText.comment) mirror.reviewRecords.putComment(spaceId, changeRequestId, withText.comment);
  });
  await remember(api, mirror, spaceId, changeRequestId, cr);
  return withText;
}

/** Lists one change request's reviews and requested reviewers into the mirror. */
export async function refreshReviewsOf(
  api: ApiClient,
  mirror: Pick<Mirror, 'reviewers' | 'transaction'>,
  spaceId: string,
  changeRequestId: string,
  signal?: AbortSignal,
): Promise<void> {
  const [reviews, reviewers] = await Promise.all([
    api.listAll<RemoteReview>((c, q, p) => c.spaces.getReviewsByChangeRequestId(spaceId, changeRequestId, { ...q, format: 'markdown' }, p), { signal }),
    api.listAll<RemoteRequestedReviewer>((c, q, p) => c.spaces.getRequestedReviewersByChangeRequestId(spaceId, changeRequestId, q, p), { signal }),
  ]);
  mirror.transaction(() => mirror.reviewers.setReviews(changeRequestId, reviews, reviewers));
}
