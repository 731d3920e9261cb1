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
import type { ApiClient } from '../api';
import { withRequestCount } from '../api';
import { isUnreachable } from '../api';
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
import { authorship, confirmAuthorship, readChangeRequest, readMergeRules } from './current';
import { documentText } from './document';
import type { ActionInput } from './actions';
import { refreshDiff } from './diff-fetch';
import type { BlockSpan } from './blocks';
import { type ChangeRequestFiles, changeRequestFiles } from './page-files';
import { ensureAnchors, headBlocks, type LineTarget, lineTarget, type ThreadPlace, threadPlaces } from './anchors';
import { buildInbox, type InboxItem, markItemsRead } from './inbox';
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
import { type FinishedReview, type PendingReview, PendingReviews, type Verdict } from './pending-review';
import { findMember, type Member, membersOf } from './people';
import { ActionQueue, type ReplayReport } from './queue';
import { refreshReview, type RefreshOptions, type RefreshReport } from './refresh';
import { markViewed, type ViewedSummary, viewedPages } from './viewed';
import { pinItem, snoozeItem, triage, type TriageItem, unsnoozeItem } from './triage';
import { describeAction } from './words';

export type { ActionInput } from './actions';
export { type CadenceReport, ReviewCadence } from './cadence';
export { LineCommentError, type LineTarget, type ThreadPlace } from './anchors';
export { blockAt, blockForLine, type BlockSpan, blockSpans } from './blocks';
export { type AppliedSuggestion, applySuggestion, SuggestionError, suggestionOf } from './suggestion';
export { type ChangeRequestFiles, changeRequestFiles, type PageFileChange, type PageFileDiff } from './page-files';
export { diffHunks, type DiffRow, diffRows, type Hunk, lineCounts, splitLines, wordDiff, type WordRun } from './text-diff';
export { documentText, markdownToDocument } from './document';
export {
  BEFORE_DIR,
  CHECKOUT_DIR,
  CheckoutRefusedError,
  type CheckoutReport,
  checkOut,
  type FollowReport,
  followCheckouts,
  type Manifest as CheckoutManifest,
  MANIFEST_PATH,
  readManifest as readCheckout,
} from './checkout';
export type { InboxItem, InboxReason } from './inbox';
export { type ChangeRequestSummary, changeRequestSummary } from './summary';
export { NotInInboxError, TRIAGE_GROUPS, type TriageGroup, type TriageItem } from './triage';
export { ActionNotPossibleError, type Blocker, type BlockerCode, type LifecycleAction, type MergeOutcome, ServerRefusalError } from './lifecycle';
export { type Member, pickPerson, UnknownPersonError } from './people';
export type { FinishedReview, PendingReview, Verdict } from './pending-review';
export type { ViewedPage, ViewedSummary } from './viewed';
/** The mirror's review records and views, as hosts see them. */
export type { ActionRecord, ChangeRequestView, CommentView, ReplyView, RequestedReviewerView, ReviewView, SiteTree } from '../mirror';

export interface ActResult {
  /**
   * sent: the server took it; queued: kept for later (offline or server unavailable); refused: the
   * server said no; withdrawn: it undid something not sent yet (deleting a comment posted offline);
   * pending: kept in the user's pending review of the change request, sent with the verdict.
   */
  outcome: 'sent' | 'queued' | 'refused' | 'withdrawn' | 'pending';
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
  private readonly pending: PendingReviews;
  private lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly mirror: Mirror) {
    this.queue = new ActionQueue(mirror);
    this.pending = new PendingReviews(mirror, this.queue);
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
      const cr = this.mirror.reviewRecords.serverChangeRequest(changeRequestId);
      if (!cr) throw new Error(`Change request ${changeRequestId} is not in the mirror; refresh review data first.`);
      const view = this.mirror.reviewViews.changeRequest(changeRequestId)!;
      await refreshDiff(api, this.mirror, view.spaceId, cr);
      return this.mirror.reviewViews.changeRequestDiff(changeRequestId);
    });
  }

  /** Reads the change request from the server into the mirror (archived, renamed or merged since the last refresh). */
  readChangeRequest(api: ApiClient, changeRequestId: string, signal?: AbortSignal): Promise<void> {
    return this.exclusive(async () => {
      await readChangeRequest(api, this.mirror, changeRequestId, signal);
    });
  }

  /** Reads the merge rules of a space from the server (and the names of whom they ask for). */
  readMergeRules(api: ApiClient, spaceId: string, signal?: AbortSignal): Promise<void> {
    return this.exclusive(() => readMergeRules(api, this.mirror, spaceId, signal));
  }

  /**
   * Whether a change request is the user's before pushes go into it: asked of the server given a
   * client (who the user is, and its author, read now); otherwise as far as the mirror knows, which
   * may be `unknown`.
   */
  authorship(api: ApiClient | null, changeRequestId: string, signal?: AbortSignal): Promise<'mine' | 'theirs' | 'unknown'> {
    if (!api) return Promise.resolve(authorship(this.mirror, changeRequestId));
    return this.exclusive(() => confirmAuthorship(api, this.mirror, changeRequestId, signal));
  }

  // ---- actions ---------------------------------------------------------------

  /**
   * Queues an action (its effect shows at once) without sending it; a deletion of something not
   * sent yet withdraws it instead, and an edit of a comment kept in a pending review edits it there.
   */
  enqueue(input: ActionInput): ActionRecord {
    return this.withdraw(input)?.action ?? this.queue.amendKept(input) ?? this.queue.enqueue(input);
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
      return this.mirror.reviewers.reviews(changeRequestId).at(-1)!;
    });
  }

  // ---- a pending review, and viewed pages (kept here until sent; marks never sent) ---------

  /** Opens a pending review of the change request (or answers the one open): comments on it are kept until it is finished. */
  startReview(changeRequestId: string): PendingReview {
    return this.pending.start(changeRequestId);
  }

  pendingReview(changeRequestId: string): PendingReview | null {
    return this.pending.of(changeRequestId);
  }

  /** Drops the pending review and its comments (how many; null when none was open). */
  discardReview(changeRequestId: string): number | null {
    return this.pending.discard(changeRequestId);
  }

  /** Sends the pending review's comments in order, then the verdict; what the connection did not carry waits for the next replay. */
  finishReview(api: ApiClient, changeRequestId: string, verdict: Verdict, body?: string, signal?: AbortSignal): Promise<FinishedReview> {
    return this.exclusive(() => this.pending.finish(api, changeRequestId, verdict, body, signal));
  }

  /** The change request's pages with the reviewer's viewed marks; null while its pages were never fetched. */
  viewedPages(changeRequestId: string): ViewedSummary | null {
    return viewedPages(this.mirror, changeRequestId);
  }

  markViewed(changeRequestId: string, pageId: string, viewed: boolean): ViewedSummary {
    return markViewed(this.mirror, changeRequestId, pageId, viewed);
  }

  /** Lists one change request's reviews and requested reviewers again. */
  refreshReviews(api: ApiClient, changeRequestId: string, signal?: AbortSignal): Promise<void> {
    const cr = this.mirror.reviewViews.changeRequest(changeRequestId);
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
    const queued = this.queue.amendKept(input) ?? this.queue.enqueue(input);
    if (queued.state === 'draft') return { outcome: 'pending', action: queued, targetId: this.targetOf(queued), message: null };
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

  /** Actions the server failed on (5xx), each waiting until its `retryAt` while the rest are sent. */
  failingActions(): ActionRecord[] {
    return this.actions().filter((a) => a.retryAt !== null);
  }

  /** The action a user names: by the number hosts show (`seq`), or by its id. */
  findAction(handle: string): ActionRecord | undefined {
    const h = handle.trim();
    return /^[0-9]{1,15}$/.test(h) ? this.mirror.reviewActions.actionBySeq(Number(h)) : this.mirror.reviewActions.action(h);
  }

  /** An action in the user's words: what it does, on what. */
  describeAction(a: ActionRecord): string {
    return describeAction(this.mirror, a);
  }

  // ---- queries (mirror only) -----------------------------------------------

  unresolvedComments(filter: CommentFilter = {}): CommentView[] {
    return this.mirror.reviewViews.unresolvedComments(filter);
  }

  comments(filter: CommentFilter & { status?: 'open' | 'resolved' | 'all' } = {}): CommentView[] {
    return this.mirror.reviewViews.comments(filter);
  }

  comment(id: string): CommentView | undefined {
    return this.mirror.reviewViews.comment(this.queue.currentId(id));
  }

  /** What an id names: a comment, or a reply (with its comment); null when the mirror has neither. */
  findPost(id: string): { commentId: string; replyId: string | null } | null {
    const current = this.queue.currentId(id);
    if (this.mirror.reviewViews.comment(current)) return { commentId: current, replyId: null };
    const commentId = this.mirror.reviewRecords.replyComment(current);
    return commentId ? { commentId, replyId: current } : null;
  }

  replies(commentId: string): ReplyView[] {
    return this.mirror.reviewViews.replies(this.queue.currentId(commentId));
  }

  repliesFor(commentIds: string[]): Map<string, ReplyView[]> {
    return this.mirror.reviewViews.repliesFor(commentIds);
  }

  changeRequests(filter: { spaceId?: string; statuses?: string[] } = {}): ChangeRequestView[] {
    return this.mirror.reviewViews.changeRequests(filter);
  }

  changeRequest(id: string): ChangeRequestView | undefined {
    return this.mirror.reviewViews.changeRequest(id);
  }

  needingUser(): NeedingUser[] {
    return this.mirror.reviewViews.needingUser();
  }

  changeRequestDiff(changeRequestId: string): ChangeRequestDiff | null {
    return this.mirror.reviewViews.changeRequestDiff(changeRequestId);
  }

  /** The change request's changed pages as the folder's files, before and after (page-files.ts); null when its content was never fetched. */
  changeRequestFiles(changeRequestId: string): ChangeRequestFiles | null {
    return changeRequestFiles(this.mirror, changeRequestId);
  }

  /**
   * The block a comment on `line` of a page of the change request names (anchors.ts); with an
   * API, what the mirror lacks of that page is fetched first. Throws LineCommentError.
   */
  lineTarget(api: ApiClient | null, changeRequestId: string, pageId: string, line: number): Promise<LineTarget> {
    const run = () => lineTarget(api, this.mirror, changeRequestId, pageId, line);
    return api ? this.exclusive(run) : run();
  }

  /** Reads where the change request's threads on a block were made (from the mirror when it can; else from the server, given an API). */
  ensureAnchors(api: ApiClient | null, changeRequestId: string, signal?: AbortSignal): Promise<number> {
    const run = () => ensureAnchors(api, this.mirror, changeRequestId, signal);
    return api ? this.exclusive(run) : run();
  }

  /** The blocks of pages of the change request with their lines in their files there (mirror only; none for a page not read yet). */
  pageBlocks(changeRequestId: string, pageIds: readonly string[]): Map<string, BlockSpan[]> {
    return headBlocks(this.mirror, changeRequestId, pageIds);
  }

  /** Where each thread on a block of the change request shows now, and whether it is outdated (mirror only). */
  threadPlaces(changeRequestId: string): Map<string, ThreadPlace> {
    return threadPlaces(this.mirror, changeRequestId);
  }

  reviews(changeRequestId: string): ReviewView[] {
    return this.mirror.reviewers.reviews(changeRequestId);
  }

  requestedReviewers(changeRequestId: string): RequestedReviewerView[] {
    return this.mirror.reviewers.requestedReviewers(changeRequestId);
  }

  /** Why an action cannot be done on the change request now, as far as the mirror knows (empty: go ahead). */
  blockers(changeRequestId: string, action: LifecycleAction): Blocker[] {
    return blockersOf(this.mirror, changeRequestId, action);
  }

  /** The description as text (null when it has none), an edit not sent yet included. */
  description(changeRequestId: string): string | null {
    return documentText(this.mirror.reviewRecords.effectiveChangeRequest(changeRequestId)?.description);
  }

  /** What asks something of the user, unread first. */
  inbox(): InboxItem[] {
    return buildInbox(this.mirror);
  }

  /** The inbox sorted into groups (triage.ts), with pins and snoozes: snoozed items last. */
  triage(now?: Date): TriageItem[] {
    return triage(this.mirror, now);
  }

  /** Pins an inbox item (by its key) to the top of its group, or unpins it. Throws NotInInboxError. */
  pin(key: string, pinned: boolean): TriageItem {
    return pinItem(this.mirror, key, pinned);
  }

  /** Snoozes an inbox item until `until` (ISO), or, without one, until it changes; `off` brings it back now. */
  snooze(key: string, until: string | null, off = false): TriageItem {
    return off ? unsnoozeItem(this.mirror, key) : snoozeItem(this.mirror, key, until);
  }

  /** Marks inbox items read (all of them, or the keys given); returns how many. */
  markRead(keys: 'all' | readonly string[]): number {
    // Over the sorted inbox: it also holds your change requests that are ready or blocked.
    const wanted = keys === 'all' ? null : new Set(keys);
    return markItemsRead(
      this.mirror,
      triage(this.mirror).filter((i) => wanted === null || wanted.has(i.key)),
    );
  }

  /** Marks the items of an inbox just read (and shown) read, without building it again. */
  markShownRead(items: readonly InboxItem[]): number {
    return markItemsRead(this.mirror, items);
  }

  /** When review state was last refreshed from the server, or null. */
  refreshedAt(): string | null {
    return this.mirror.reviewRecords.refreshedAt();
  }

  siteTrees(organizationId?: string): SiteTree[] {
    return this.mirror.reviewViews.siteTrees(organizationId);
  }

  /** The signed-in user as of the last refresh, or null before the first. */
  me(): { id: string; displayName: string } | null {
    if (!this.mirror.reviewRecords.knowsMe()) return null;
    const me = this.mirror.reviewRecords.me();
    return { id: me.id, displayName: me.displayName ?? me.id };
  }
}
export { describeAction } from './words';
