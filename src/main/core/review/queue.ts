/**
 * The offline action queue. An action is stored (with a client-generated id)
 * and its effect shown before anything is sent; replay sends actions in the
 * order they were taken. Before each request the action is marked `sending`
 * and committed, so after a crash or a lost answer the next replay first looks
 * for it on the server rather than sending it twice. A refusal (4xx) is kept
 * with the server's message and the queue moves on; an unreachable or failing
 * server stops the replay with everything left queued.
 */
import { ApiError, isUnreachable, NetworkError, TokenRejectedError } from '../api/errors';
import type { ApiClient } from '../api/client';
import type { ActionPayload, ActionRecord, Mirror, RemoteUser, ReviewActionLog, ReviewStore } from '../mirror';
import { actionIdOfLocal, CREATES, describeKind, isLocalId, localId, validateInput, type ActionInput } from './actions';
import { reconcile, send, type SendOutcome } from './send';

type ResolvedInput = Pick<ActionRecord, 'kind' | 'spaceId' | 'changeRequestId' | 'commentId' | 'replyId' | 'payload'>;

export interface ReplayReport {
  /** Actions the server accepted during this replay. */
  sent: ActionRecord[];
  /** Actions the server refused during this replay (each with its message). */
  refused: ActionRecord[];
  /** Actions still waiting. */
  remaining: number;
  /** Why replay stopped early (server unreachable, token rejected, ...); null when the queue drained. */
  stoppedBy: string | null;
  /** It stopped because the API could not be reached (offline). */
  unreachable?: boolean;
}

/** A status that means the server looked at the request and will not take it. */
function isRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && !(err instanceof TokenRejectedError) && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
}

function refusalMessage(err: ApiError): string {
  return err.apiMessage ? `${err.apiMessage} (${err.status})` : err.message;
}

export class ActionQueue {
  private running: Promise<ReplayReport> | null = null;

  private readonly store: ReviewStore;
  private readonly actions: ReviewActionLog;

  constructor(private readonly mirror: Mirror) {
    this.store = mirror.review;
    this.actions = mirror.reviewActions;
  }

  /** Stores an action and applies its effect to the mirror at once. */
  enqueue(input: ActionInput, now = new Date().toISOString()): ActionRecord {
    validateInput(input);
    return this.mirror.transaction(() => {
      const id = process.getBuiltinModule('node:crypto').randomUUID();
      const stored = this.actions.insertAction({
        id,
        ...this.resolve(input, id),
        state: 'queued',
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
        const payload = { body: input.body, pageId: input.pageId ?? null };
        return { kind: input.kind, spaceId: input.spaceId, changeRequestId: cr, commentId: localId(actionId), replyId: null, payload };
      }
      case 'editChangeRequest':
      case 'updateFromMain':
      case 'merge':
      case 'requestReviewer':
      case 'removeReviewer':
        return this.resolveChangeRequestAction(input, cannot);
      default:
        return this.resolveCommentAction(input, actionId, cannot);
    }
  }

  private resolveChangeRequestAction(
    input: Extract<ActionInput, { kind: 'editChangeRequest' | 'updateFromMain' | 'merge' | 'requestReviewer' | 'removeReviewer' }>,
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
    if (input.kind === 'editChangeRequest') {
      if (input.subject !== undefined) payload.subject = input.subject;
      if (input.description !== undefined) payload.description = input.description;
      if (input.status !== undefined) payload.status = input.status;
    }
    return { kind: input.kind, spaceId, changeRequestId: cr.id, commentId: null, replyId: null, payload };
  }

  private resolveCommentAction(
    input: Exclude<ActionInput, { kind: 'postComment' | 'editChangeRequest' | 'updateFromMain' | 'merge' | 'requestReviewer' | 'removeReviewer' }>,
    actionId: string,
    cannot: (why: string) => Error,
  ): ResolvedInput {
    const commentId = this.currentId(input.commentId);
    const where = this.store.commentLocation(commentId);
    if (!where) throw cannot(`comment ${input.commentId} is not in the mirror (deleted, or not refreshed yet)`);
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
    if (creator?.state !== 'queued') return false;
    this.dismiss(creator.id);
    return true;
  }

  /** Withdraws a refused action from view, or cancels one not sent yet (and what depends on it). */
  dismiss(actionId: string): void {
    this.mirror.transaction(() => {
      const a = this.actions.action(actionId);
      if (!a) throw new Error(`No review action ${actionId}.`);
      if (a.state === 'sending') throw new Error(`Action ${actionId} may already have reached the server; it cannot be cancelled now.`);
      if (a.state !== 'queued' && a.state !== 'refused') return;
      this.actions.setActionState(a.id, 'dismissed');
      this.store.materializeTargetsOf(a);
      if (a.state === 'queued' && CREATES.has(a.kind)) {
        const created = localId(a.id);
        for (const d of this.actions.actions(['queued'])) {
          if (d.commentId === created || d.replyId === created) {
            this.actions.setActionState(d.id, 'dismissed', { message: 'Cancelled with the action it depended on.' });
            this.store.materializeTargetsOf(d);
          }
        }
      }
    });
  }

  /** Sends queued actions in order. Concurrent calls share one replay. */
  replay(api: ApiClient, signal?: AbortSignal): Promise<ReplayReport> {
    if (!this.running) {
      this.running = this.drain(api, signal).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async drain(api: ApiClient, signal?: AbortSignal): Promise<ReplayReport> {
    const report: ReplayReport = { sent: [], refused: [], remaining: 0, stoppedBy: null };
    if (!this.store.knowsMe() && this.actions.actions(['queued', 'sending']).length > 0) {
      // Who "me" is decides what a reconciliation may claim as ours: learn it before anything is sent.
      try {
        const me = await api.call<RemoteUser>((c, params) => c.user.getAuthenticatedUser(params), { signal });
        this.mirror.transaction(() => {
          this.store.setMe(me);
          for (const a of this.actions.actions(['queued', 'sending'])) this.store.materializeTargetsOf(a);
        });
      } catch (err) {
        report.stoppedBy = err instanceof Error ? err.message : String(err);
        report.unreachable = isUnreachable(err);
        report.remaining = this.actions.actions(['queued', 'sending']).length;
        return report;
      }
    }
    for (;;) {
      signal?.throwIfAborted();
      const next = this.actions.actions(['queued', 'sending'])[0];
      if (!next) break;
      const broken = this.brokenDependency(next);
      if (broken) {
        report.refused.push(this.refuse(next, broken));
        continue;
      }
      let sending = false;
      try {
        let outcome = next.state === 'sending' ? await reconcile(api, next, this.store.me(), this.actions.claimedIds(), this.store.mirroredIds()) : null;
        if (!outcome) {
          this.mirror.transaction(() => this.actions.setActionState(next.id, 'sending'));
          sending = true;
          outcome = await send(api, next);
        }
        report.sent.push(this.mirror.transaction(() => this.record(next, outcome)));
      } catch (err) {
        if (isRefusal(err)) {
          report.refused.push(this.refuse(next, refusalMessage(err)));
          continue;
        }
        // If this attempt's request certainly never reached the server, the action is plainly queued
        // again; otherwise it stays `sending` and the next replay looks for it on the server first.
        const untouched =
          sending && ((err instanceof NetworkError && !err.mayHaveBeenApplied) || (err instanceof ApiError && (err.status === 401 || err.status === 429)));
        const message = err instanceof Error ? err.message : String(err);
        this.mirror.transaction(() => this.actions.noteFailure(next.id, message, untouched));
        report.stoppedBy = message;
        report.unreachable = isUnreachable(err);
        break;
      }
    }
    report.remaining = this.actions.actions(['queued', 'sending']).length;
    return report;
  }

  /** Why an action can never be sent: it acts on something whose creation was refused or cancelled. */
  private brokenDependency(a: ActionRecord): string | null {
    for (const target of [a.commentId, a.replyId]) {
      if (!isLocalId(target) || (a.kind === 'reply' && target === a.replyId) || (a.kind === 'postComment' && target === a.commentId)) continue;
      const creator = this.actions.action(actionIdOfLocal(target));
      if (!creator || creator.state === 'refused' || creator.state === 'dismissed') {
        const why = creator?.message ? `: ${creator.message}` : '';
        return `It depends on a ${creator?.kind === 'reply' ? 'reply' : 'comment'} that was never posted${why}`;
      }
    }
    return null;
  }

  private refuse(a: ActionRecord, message: string): ActionRecord {
    return this.mirror.transaction(() => {
      this.actions.setActionState(a.id, 'refused', { message });
      this.store.materializeTargetsOf(a);
      return this.actions.action(a.id)!;
    });
  }

  /** Writes what the server answered, and points later actions at ids the server assigned. */
  private record(a: ActionRecord, outcome: SendOutcome): ActionRecord {
    const { store } = this;
    switch (outcome.type) {
      case 'comment': {
        const comment = keepText(outcome.comment, store.serverComment(outcome.comment.id));
        this.actions.setActionState(a.id, 'done', { resultId: a.kind === 'postComment' ? comment.id : null, message: null });
        if (a.kind === 'postComment' && a.commentId && isLocalId(a.commentId)) {
          this.actions.retarget(a.commentId, comment.id);
          store.putComment(a.spaceId, a.changeRequestId, comment);
          store.renameComment(a.commentId, comment.id);
        } else {
          store.putComment(a.spaceId, a.changeRequestId, comment);
        }
        break;
      }
      case 'reply': {
        const reply = keepText(outcome.reply, store.serverReply(outcome.reply.id));
        const commentId = a.commentId!;
        this.actions.setActionState(a.id, 'done', { resultId: a.kind === 'reply' ? reply.id : null, message: null });
        if (a.kind === 'reply' && a.replyId && isLocalId(a.replyId)) {
          const alreadyMirrored = store.serverReply(reply.id) !== null;
          this.actions.retarget(a.replyId, reply.id);
          store.renameReply(a.replyId);
          store.putReply(a.spaceId, commentId, reply);
          if (!alreadyMirrored) this.countReply(commentId, reply);
        } else {
          store.putReply(a.spaceId, commentId, reply);
        }
        store.materializeComment(commentId);
        break;
      }
      case 'deleted': {
        this.actions.setActionState(a.id, 'done', { message: null });
        if (a.kind === 'deleteReply' && a.replyId && a.commentId) {
          store.deleteReply(a.replyId);
          this.uncountReply(a.commentId);
        } else if (a.commentId) store.deleteComment(a.commentId);
        break;
      }
      case 'reviewers': {
        this.actions.setActionState(a.id, 'done', { message: null });
        const crId = a.changeRequestId!;
        const added = new Set(outcome.added.map((r) => r.user?.id));
        const kept = this.mirror.reviews.serverReviewers(crId).filter((r) => r.user?.id !== outcome.removed && !added.has(r.user?.id));
        this.mirror.reviews.setReviews(crId, null, [...kept, ...outcome.added]);
        store.materializeChangeRequest(crId);
        break;
      }
      case 'changeRequest': {
        this.actions.setActionState(a.id, 'done', { message: outcome.note ?? null });
        const cr = outcome.changeRequest ?? { ...store.serverChangeRequest(a.changeRequestId!)!, ...outcome.patch };
        store.putChangeRequest(a.spaceId, cr);
        break;
      }
    }
    return this.actions.action(a.id)!;
  }

  /** Takes a reply we deleted off its comment's server copy, so counts are right before the next refresh. */
  private uncountReply(commentId: string): void {
    const server = this.store.serverComment(commentId);
    const where = this.store.commentLocation(commentId);
    if (!server || !where) return;
    this.store.putComment(where.spaceId, where.changeRequestId, { ...server, replies: Math.max(0, (server.replies ?? 0) - 1) });
  }

  /** Adds a reply we posted to its comment's server copy, so counts are right before the next refresh. */
  private countReply(commentId: string, reply: { postedAt: string; postedBy: { id: string } }): void {
    const server = this.store.serverComment(commentId);
    const where = this.store.commentLocation(commentId);
    if (!server || !where) return;
    const repliers = [...(server.repliers ?? [])];
    const mine = repliers.findIndex((r) => r.user.id === reply.postedBy.id);
    if (mine >= 0) repliers[mine] = { ...repliers[mine]!, count: repliers[mine]!.count + 1, updatedAt: reply.postedAt };
    else repliers.push({ user: reply.postedBy, count: 1, updatedAt: reply.postedAt });
    this.store.putComment(where.spaceId, where.changeRequestId, { ...server, replies: (server.replies ?? 0) + 1, repliers });
  }
}

/**
 * An update's answer (a reaction, resolving, reopening) carries the body as a document, not as
 * markdown (the update takes no `format`): the mirror keeps the text it had.
 */
function keepText<T extends { body?: { markdown?: string } }>(answer: T, known: { body?: { markdown?: string } } | null): T {
  const text = known?.body?.markdown;
  return answer.body?.markdown === undefined && text !== undefined ? { ...answer, body: { ...(answer.body ?? {}), markdown: text } } : answer;
}
