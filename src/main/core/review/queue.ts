/**
 * The offline action queue. An action is stored (with a client-generated id)
 * and its effect shown before anything is sent; replay (replay.ts) sends
 * actions in the order they were taken, each claimed first so that only one
 * process sends it, and looked for on the server first when it may have
 * reached it already (after a crash or a lost answer).
 */
import type { ApiClient } from '../api';
import type { ActionPayload, ActionRecord, Mirror, ReviewActionLog, ReviewRecords } from '../mirror';
import { actionIdOfLocal, CREATES, describeKind, isLocalId, localId, validateInput, type ActionInput } from './actions';
import { oneLineSubject } from '../../../shared/subject';
import { describeClaimant, heldElsewhere } from './claims';
import { Replay, type ReplayReport } from './replay';

export type { ReplayReport } from './replay';

type ResolvedInput = Pick<ActionRecord, 'kind' | 'spaceId' | 'changeRequestId' | 'commentId' | 'replyId' | 'payload'>;

export class ActionQueue {
  private running: Promise<ReplayReport> | null = null;
  /** This queue's id in the claims it takes (claims.ts). */
  private readonly run = process.getBuiltinModule('node:crypto').randomUUID();

  private readonly store: ReviewRecords;
  private readonly actions: ReviewActionLog;

  constructor(private readonly mirror: Pick<Mirror, 'pendingReviews' | 'reviewActions' | 'reviewRecords' | 'reviewers' | 'transaction'>) {
    this.store = mirror.reviewRecords;
    this.actions = mirror.reviewActions;
  }

  /**
   * Stores an action and applies its effect to the mirror at once. A comment on a change request
   * with a pending review open is kept in it (state `draft`) until the review is finished.
   */
  enqueue(input: ActionInput, now = new Date().toISOString()): ActionRecord {
    validateInput(input);
    return this.mirror.transaction(() => {
      const id = process.getBuiltinModule('node:crypto').randomUUID();
      const resolved = this.resolve(input, id);
      const review = input.kind === 'postComment' && resolved.changeRequestId ? this.mirror.pendingReviews.of(resolved.changeRequestId) : null;
      const stored = this.actions.insertAction({
        id,
        ...resolved,
        ...(review ? { payload: { ...resolved.payload, review: review.id } } : {}),
        state: review ? 'draft' : 'queued',
        createdAt: now,
        sendingAt: null,
        finishedAt: null,
        attempts: 0,
        message: null,
        resultId: null,
      });
      this.store.materializeTargetsOf(stored);
      return stored;
    });
  }

  /** The id a comment or reply has now: one posted offline and since sent has a server id. */
  currentId(id: string): string {
    if (!isLocalId(id)) return id;
    return this.actions.action(actionIdOfLocal(id))?.resultId ?? id;
  }

  /** Fills in every id the action touches from the mirror, and refuses at once what cannot succeed. */
  private resolve(input: ActionInput, actionId: string): ResolvedInput {
    const cannot = (why: string): Error => new Error(`Cannot ${describeKind(input.kind)}: ${why}.`);
    switch (input.kind) {
      case 'postComment': {
        const cr = input.changeRequestId ?? null;
        if (cr && !this.store.serverChangeRequest(cr)) throw cannot(`change request ${cr} is not in the mirror; refresh review data first`);
        const payload: ActionPayload = { body: input.body, pageId: input.pageId ?? null };
        // On a block (a line): the block, and the revision its line was read at.
        if (input.nodeId) Object.assign(payload, { nodeId: input.nodeId, revisionId: input.revisionId ?? null });
        return { kind: input.kind, spaceId: input.spaceId, changeRequestId: cr, commentId: localId(actionId), replyId: null, payload };
      }
      case 'editChangeRequest':
      case 'updateFromMain':
      case 'merge':
      case 'requestReviewer':
      case 'removeReviewer':
      case 'submitReview':
        return this.resolveChangeRequestAction(input, cannot);
      default:
        return this.resolveCommentAction(input, actionId, cannot);
    }
  }

  private resolveChangeRequestAction(
    input: Extract<ActionInput, { kind: 'editChangeRequest' | 'updateFromMain' | 'merge' | 'requestReviewer' | 'removeReviewer' | 'submitReview' }>,
    cannot: (why: string) => Error,
  ): ResolvedInput {
    const cr = this.store.serverChangeRequest(input.changeRequestId);
    if (!cr) throw cannot(`change request ${input.changeRequestId} is not in the mirror; refresh review data first`);
    const spaceId = cr.space ?? input.spaceId;
    if (input.kind === 'merge') {
      if (this.store.spacePermissions(spaceId)?.merge === false) throw cannot('you do not have permission to merge in this space');
      if (cr.status === 'merged') throw cannot('it is already merged');
    }
    if ((input.kind === 'requestReviewer' || input.kind === 'removeReviewer') && (cr.status === 'merged' || cr.status === 'archived')) {
      throw cannot(`change request #${cr.number} is ${cr.status}`);
    }
    if (input.kind === 'editChangeRequest' && input.status !== undefined && cr.status === 'merged') throw cannot('it is already merged');
    const payload: ActionPayload = {};
    if (input.kind === 'requestReviewer' || input.kind === 'removeReviewer') {
      payload.userId = input.userId;
      if (input.displayName !== undefined) payload.displayName = input.displayName;
    }
    if (input.kind === 'submitReview') {
      payload.verdict = input.verdict;
      payload.review = input.review;
      if (input.body?.trim()) payload.body = input.body;
    }
    if (input.kind === 'editChangeRequest') {
      if (input.subject !== undefined) payload.subject = oneLineSubject(input.subject);
      if (input.description !== undefined) payload.description = input.description;
      if (input.status !== undefined) payload.status = input.status;
    }
    return { kind: input.kind, spaceId, changeRequestId: cr.id, commentId: null, replyId: null, payload };
  }

  private resolveCommentAction(
    input: Exclude<
      ActionInput,
      { kind: 'postComment' | 'editChangeRequest' | 'updateFromMain' | 'merge' | 'requestReviewer' | 'removeReviewer' | 'submitReview' }
    >,
    actionId: string,
    cannot: (why: string) => Error,
  ): ResolvedInput {
    const commentId = this.currentId(input.commentId);
    const where = this.store.commentLocation(commentId);
    if (!where) throw cannot(`comment ${input.commentId} is not in the mirror (deleted, or not refreshed yet)`);
    // A comment kept in a pending review is not on the server yet: it can only be edited or deleted until then.
    if (this.keptInReview(commentId)) throw cannot('it is in your pending review: it is posted with your verdict, and can be edited or deleted until then');
    let replyId: string | null = null;
    if (input.kind === 'reply') replyId = localId(actionId);
    else if ('replyId' in input && input.replyId) {
      replyId = this.currentId(input.replyId);
      if (!this.store.replyExists(replyId)) throw cannot(`reply ${input.replyId} is not in the mirror`);
    }
    // The server says what the user may do: refuse now rather than queue something bound to fail.
    const comment = this.store.serverComment(commentId);
    const edited = (input.kind === 'editReply' || input.kind === 'deleteReply') && replyId !== null ? this.store.serverReply(replyId) : comment;
    if ((input.kind === 'editComment' || input.kind === 'editReply') && edited?.permissions?.edit === false) {
      throw cannot('you may only edit your own comments and replies');
    }
    if ((input.kind === 'deleteComment' || input.kind === 'deleteReply') && edited?.permissions?.delete === false) {
      throw cannot('you may only delete your own comments and replies');
    }
    if (input.kind === 'reply' && comment?.permissions?.reply === false) throw cannot('you may not reply to this comment');
    const payload: ActionPayload = {};
    if ('body' in input) payload.body = input.body;
    if ('emoji' in input) payload.emoji = input.emoji;
    return { kind: input.kind, spaceId: where.spaceId, changeRequestId: where.changeRequestId, commentId, replyId, payload };
  }

  /**
   * A comment or reply created offline and not sent yet: deleting it withdraws its creation
   * (and what was queued on it) instead of queueing a deletion. True when that is what happened.
   */
  withdrawCreation(id: string): boolean {
    const current = this.currentId(id);
    if (!isLocalId(current)) return false;
    const creator = this.actions.action(actionIdOfLocal(current));
    if (creator?.state !== 'queued' && creator?.state !== 'draft') return false;
    this.mirror.transaction(() => {
      // Out of its pending review too: a review's verdict waits for the comments still in it.
      if (creator.payload.review) this.actions.setPayload(creator.id, { ...creator.payload, review: undefined });
      this.dismiss(creator.id);
    });
    return true;
  }

  /**
   * Withdraws a refused action from view, cancels one not sent yet, or gives up on one the
   * server failed on (it may have reached the server: the next refresh shows what it holds);
   * what depends on it goes with it. One being sent right now cannot be.
   */
  dismiss(actionId: string): void {
    this.mirror.transaction(() => {
      const a = this.actions.action(actionId);
      if (!a) throw new Error(`No review action ${actionId}.`);
      if (a.claim && (a.claim.run === this.run || heldElsewhere(a.claim, this.run, Date.now()))) {
        throw new Error(`It is being sent right now (by ${describeClaimant(a.claim)}): it cannot be cancelled now.`);
      }
      if (a.state !== 'queued' && a.state !== 'sending' && a.state !== 'refused' && a.state !== 'draft') return;
      this.actions.setActionState(a.id, 'dismissed');
      this.store.materializeTargetsOf(a);
      if (a.state !== 'refused' && CREATES.has(a.kind)) {
        const created = localId(a.id);
        for (const d of this.actions.actions(['queued', 'sending'])) {
          if (d.commentId === created || d.replyId === created) {
            this.actions.setActionState(d.id, 'dismissed', { message: 'Cancelled with the action it depended on.' });
            this.store.materializeTargetsOf(d);
          }
        }
      }
    });
  }

  /** The action that created a comment kept in a pending review (not sent until the review is finished), or null. */
  keptInReview(commentId: string): ActionRecord | null {
    const current = this.currentId(commentId);
    const creator = isLocalId(current) ? this.actions.action(actionIdOfLocal(current)) : undefined;
    return creator?.state === 'draft' ? creator : null;
  }

  /** Edits a comment kept in a pending review in place (it is sent once, as last written); null when the input is not that. */
  amendKept(input: ActionInput): ActionRecord | null {
    if (input.kind !== 'editComment') return null;
    const creator = this.keptInReview(input.commentId);
    if (!creator) return null;
    validateInput(input);
    return this.mirror.transaction(() => {
      this.actions.setPayload(creator.id, { ...creator.payload, body: input.body });
      const edited = this.actions.action(creator.id)!;
      this.store.materializeTargetsOf(edited);
      return edited;
    });
  }

  /** Sends queued actions in order. Concurrent calls share one replay. */
  replay(api: ApiClient, signal?: AbortSignal): Promise<ReplayReport> {
    if (!this.running) {
      this.running = new Replay(this.mirror, this.run).drain(api, signal).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }
}
