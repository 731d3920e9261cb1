/**
 * The review service hosts call: mirrors change requests, comments and sites,
 * takes review actions (online or queued offline) and answers the UI's
 * questions from the mirror.
 *
 *   const review = new ReviewService(mirror);
 *   await review.sync(api);                       // replay queued actions, then refresh
 *   review.unresolvedComments({ spaceId });       // from the mirror, no network
 *   await review.act({ kind: 'resolve', commentId }, api);   // sent, or queued when offline
 *   await review.merge(api, changeRequestId);     // needs the server's answer: never queued
 *   review.inbox();                               // what asks something of the user, unread first
 */
import type { ApiClient } from '../api/client';
import { withRequestCount } from '../api/request-count';
import { isUnreachable } from '../api/errors';
import type {
  ActionRecord,
  ActionState,
  ChangeRequestDiff,
  ChangeRequestView,
  CommentFilter,
  CommentView,
  Mirror,
  NeedingUser,
  ReplyView,
  RequestedReviewerView,
  ReviewView,
  SiteTree,
} from '../mirror';
import { documentText } from './document';
import type { ActionInput } from './actions';
import { refreshDiff } from './diff-fetch';
import { buildInbox, type InboxItem, markInboxRead, markItemsRead } from './inbox';
import {
  type Blocker,
  blockersOf,
  type LifecycleAction,
  type MergeOutcome,
  mergeChangeRequest,
  refreshReviewsOf,
  submitReview,
  updateFromMain,
} from './lifecycle';
import { findMember, type Member, membersOf } from './people';
import { ActionQueue, type ReplayReport } from './queue';
import { refreshReview, type RefreshOptions, type RefreshReport } from './refresh';

export type { ActionInput } from './actions';
export { type CadenceReport, ReviewCadence } from './cadence';
export { documentText, markdownToDocument } from './document';
export type { InboxItem, InboxReason } from './inbox';
export { ActionNotPossibleError, type Blocker, type BlockerCode, type LifecycleAction, type MergeOutcome, ServerRefusalError } from './lifecycle';
export { type Member, pickPerson, UnknownPersonError } from './people';
/** The mirror's review records and views, as hosts see them. */
export type { ActionRecord, ChangeRequestView, CommentView, ReplyView, RequestedReviewerView, ReviewView, SiteTree } from '../mirror';

export interface ActResult {
  /**
   * sent: the server took it; queued: kept for later (offline or server unavailable); refused: the
   * server said no; withdrawn: it undid something not sent yet (deleting a comment posted offline).
   */
  outcome: 'sent' | 'queued' | 'refused' | 'withdrawn';
  action: ActionRecord;
  /** Id of the comment or reply this action created or changed, current (server id once sent). */
  targetId: string | null;
  /** The server's refusal, or why it was queued. */
  message: string | null;
  /** Queued because the API could not be reached (the message then is that request's error, maybe another action's). */
  offline?: boolean;
}

export interface SyncReport {
  replay: ReplayReport;
  /** Null when the replay stopped because the server is unavailable. */
  refresh: RefreshReport | null;
}

export class ReviewService {
  private readonly queue: ActionQueue;
  private lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly mirror: Mirror) {
    this.queue = new ActionQueue(mirror);
  }

  /** Network work runs one piece at a time, so a refresh never writes over an action being recorded. */
  /** One at a time; its requests counted for itself, not for a sync cycle it runs beside. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const own = () => withRequestCount(fn);
    const run = this.lock.then(own, own);
    this.lock = run.catch(() => undefined);
    return run;
  }

  // ---- network ---------------------------------------------------------------

  /** Mirrors review and site state of the synced spaces; incremental unless `full`. */
  refresh(api: ApiClient, options: RefreshOptions = {}): Promise<RefreshReport> {
    return this.exclusive(() => refreshReview(api, this.mirror, options));
  }

  /** Sends queued actions in order; stops (keeping the rest) when the server is unavailable. */
  replay(api: ApiClient, signal?: AbortSignal): Promise<ReplayReport> {
    return this.exclusive(() => this.queue.replay(api, signal));
  }

  /** Replays the queue, then refreshes. */
  async sync(api: ApiClient, options: RefreshOptions = {}): Promise<SyncReport> {
    const replay = await this.replay(api, options.signal);
    if (replay.stoppedBy !== null) return { replay, refresh: null };
    return { replay, refresh: await this.refresh(api, options) };
  }

  /** Fetches a change request's page diff if the mirror lacks it, then answers from the mirror. */
  loadChangeRequestDiff(api: ApiClient, changeRequestId: string): Promise<ChangeRequestDiff | null> {
    return this.exclusive(async () => {
      const cr = this.mirror.review.serverChangeRequest(changeRequestId);
      if (!cr) throw new Error(`Change request ${changeRequestId} is not in the mirror; refresh review data first.`);
      const view = this.mirror.reviewQueries.changeRequest(changeRequestId)!;
      await refreshDiff(api, this.mirror, view.spaceId, cr);
      return this.mirror.reviewQueries.changeRequestDiff(changeRequestId);
    });
  }

  // ---- actions ---------------------------------------------------------------

  /** Queues an action (its effect shows at once) without sending it; a deletion of something not sent yet withdraws it instead. */
  enqueue(input: ActionInput): ActionRecord {
    return this.withdraw(input)?.action ?? this.queue.enqueue(input);
  }

  /** Deleting a comment or reply posted offline and not sent yet takes back its creation. */
  private withdraw(input: ActionInput): ActResult | null {
    if (input.kind !== 'deleteComment' && input.kind !== 'deleteReply') return null;
    const target = input.kind === 'deleteReply' ? input.replyId : input.commentId;
    const creatorId = this.queue.currentId(target).replace(/^local:/, '');
    if (!this.queue.withdrawCreation(target)) return null;
    const action = this.mirror.reviewActions.action(creatorId)!;
    return { outcome: 'withdrawn', action, targetId: null, message: 'It had not been sent yet: it is withdrawn, nothing reaches the server.' };
  }

  // ---- actions that need the server's answer (never queued) -----------------------------

  /** Merges the change request: only by this explicit call. Throws ActionNotPossibleError, ServerRefusalError, or the network's error. */
  merge(api: ApiClient, changeRequestId: string, signal?: AbortSignal): Promise<MergeOutcome> {
    return this.exclusive(() => mergeChangeRequest(api, this.mirror, changeRequestId, signal));
  }

  /** Brings main's latest changes into the change request. */
  updateFromMain(api: ApiClient, changeRequestId: string, signal?: AbortSignal): Promise<MergeOutcome> {
    return this.exclusive(() => updateFromMain(api, this.mirror, changeRequestId, signal));
  }

  /** Approves or requests changes, with an optional comment. */
  review(api: ApiClient, changeRequestId: string, status: 'approved' | 'changes-requested', body?: string, signal?: AbortSignal): Promise<ReviewView> {
    return this.exclusive(async () => {
      await submitReview(api, this.mirror, changeRequestId, status, body, signal);
      return this.mirror.reviews.reviews(changeRequestId).at(-1)!;
    });
  }

  /** Lists one change request's reviews and requested reviewers again. */
  refreshReviews(api: ApiClient, changeRequestId: string, signal?: AbortSignal): Promise<void> {
    const cr = this.mirror.reviewQueries.changeRequest(changeRequestId);
    if (!cr) return Promise.resolve();
    return this.exclusive(() => refreshReviewsOf(api, this.mirror, cr.spaceId, changeRequestId, signal));
  }

  /** The member of the space's organization a name, email or id names (members listed first when online). */
  findMember(api: ApiClient | null, spaceId: string, query: string, signal?: AbortSignal): Promise<Member> {
    return findMember(api, this.mirror, spaceId, query, signal);
  }

  /** Members of the space's organization: listed now given a client (when the API answers), else as last listed. */
  members(api: ApiClient | null, spaceId: string, signal?: AbortSignal): Promise<Member[]> {
    return membersOf(api, this.mirror, spaceId, signal);
  }

  /**
   * Takes an action: queued first, then, given an API, sent together with
   * anything queued before it. Without an API, or with the server unreachable,
   * it stays queued for the next replay.
   */
  async act(input: ActionInput, api?: ApiClient | null, signal?: AbortSignal): Promise<ActResult> {
    const withdrawn = this.withdraw(input);
    if (withdrawn) return withdrawn;
    const queued = this.queue.enqueue(input);
    let stoppedBy: string | null = api ? null : 'No connection to the API; it will be sent on the next sync.';
    let offline = false;
    if (api) {
      try {
        const replay = await this.replay(api, signal);
        stoppedBy = replay.stoppedBy;
        offline = replay.unreachable === true;
      } catch (err) {
        stoppedBy = err instanceof Error ? err.message : String(err);
        offline = isUnreachable(err);
      }
    }
    const action = this.mirror.reviewActions.action(queued.id)!;
    const targetId = this.targetOf(action);
    if (action.state === 'done') return { outcome: 'sent', action, targetId, message: action.message };
    if (action.state === 'refused') return { outcome: 'refused', action, targetId, message: action.message };
    return { outcome: 'queued', action, targetId, message: action.message ?? stoppedBy, offline };
  }

  /** The id of the comment, reply or change request an action created or changed, current (the server's once sent). */
  targetOf(a: ActionRecord): string | null {
    if (a.resultId) return a.resultId;
    if (a.replyId) return this.queue.currentId(a.replyId);
    if (a.commentId) return this.queue.currentId(a.commentId);
    return a.changeRequestId;
  }

  /** Hides a refused action, or cancels one not sent yet. */
  dismiss(actionId: string): void {
    this.queue.dismiss(actionId);
  }

  /** Actions in the given states (default: waiting to be sent), oldest first. */
  actions(states: ActionState[] = ['queued', 'sending']): ActionRecord[] {
    return this.mirror.reviewActions.actions(states);
  }

  /** Refused actions the user has not dismissed, each with the server's message. */
  refusedActions(): ActionRecord[] {
    return this.mirror.reviewActions.actions(['refused']);
  }

  // ---- queries (mirror only) -----------------------------------------------

  unresolvedComments(filter: CommentFilter = {}): CommentView[] {
    return this.mirror.reviewQueries.unresolvedComments(filter);
  }

  comments(filter: CommentFilter & { status?: 'open' | 'resolved' | 'all' } = {}): CommentView[] {
    return this.mirror.reviewQueries.comments(filter);
  }

  comment(id: string): CommentView | undefined {
    return this.mirror.reviewQueries.comment(this.queue.currentId(id));
  }

  /** What an id names: a comment, or a reply (with its comment); null when the mirror has neither. */
  findPost(id: string): { commentId: string; replyId: string | null } | null {
    const current = this.queue.currentId(id);
    if (this.mirror.reviewQueries.comment(current)) return { commentId: current, replyId: null };
    const commentId = this.mirror.review.replyComment(current);
    return commentId ? { commentId, replyId: current } : null;
  }

  replies(commentId: string): ReplyView[] {
    return this.mirror.reviewQueries.replies(this.queue.currentId(commentId));
  }

  repliesFor(commentIds: string[]): Map<string, ReplyView[]> {
    return this.mirror.reviewQueries.repliesFor(commentIds);
  }

  changeRequests(filter: { spaceId?: string; statuses?: string[] } = {}): ChangeRequestView[] {
    return this.mirror.reviewQueries.changeRequests(filter);
  }

  changeRequest(id: string): ChangeRequestView | undefined {
    return this.mirror.reviewQueries.changeRequest(id);
  }

  needingUser(): NeedingUser[] {
    return this.mirror.reviewQueries.needingUser();
  }

  changeRequestDiff(changeRequestId: string): ChangeRequestDiff | null {
    return this.mirror.reviewQueries.changeRequestDiff(changeRequestId);
  }

  reviews(changeRequestId: string): ReviewView[] {
    return this.mirror.reviews.reviews(changeRequestId);
  }

  requestedReviewers(changeRequestId: string): RequestedReviewerView[] {
    return this.mirror.reviews.requestedReviewers(changeRequestId);
  }

  /** Why an action cannot be done on the change request now, as far as the mirror knows (empty: go ahead). */
  blockers(changeRequestId: string, action: LifecycleAction): Blocker[] {
    return blockersOf(this.mirror, changeRequestId, action);
  }

  /** The description as text (null when it has none), an edit not sent yet included. */
  description(changeRequestId: string): string | null {
    return documentText(this.mirror.review.effectiveChangeRequest(changeRequestId)?.description);
  }

  /** What asks something of the user, unread first. */
  inbox(): InboxItem[] {
    return buildInbox(this.mirror);
  }

  /** Marks inbox items read (all of them, or the keys given); returns how many. */
  markRead(keys: 'all' | readonly string[]): number {
    return markInboxRead(this.mirror, keys);
  }

  /** Marks the items of an inbox just read (and shown) read, without building it again. */
  markShownRead(items: readonly InboxItem[]): number {
    return markItemsRead(this.mirror, items);
  }

  /** When review state was last refreshed from the server, or null. */
  refreshedAt(): string | null {
    return this.mirror.review.refreshedAt();
  }

  siteTrees(organizationId?: string): SiteTree[] {
    return this.mirror.reviewQueries.siteTrees(organizationId);
  }

  /** The signed-in user as of the last refresh, or null before the first. */
  me(): { id: string; displayName: string } | null {
    if (!this.mirror.review.knowsMe()) return null;
    const me = this.mirror.review.me();
    return { id: me.id, displayName: me.displayName ?? me.id };
  }
}
