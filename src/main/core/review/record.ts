/**
 * What a sent action leaves in the mirror: the server's copy of what it created or changed, the
 * action marked done, and later actions pointed at the ids the server gave.
 */
import type { ActionRecord, Mirror, ReviewRecords } from '../mirror';
import { isLocalId } from './actions';
import type { SendOutcome } from './send';

/** Writes what the server answered, and points later actions at ids the server assigned (call inside a transaction). */
export function recordOutcome(mirror: Pick<Mirror, 'reviewActions' | 'reviewRecords' | 'reviewers'>, a: ActionRecord, outcome: SendOutcome): ActionRecord {
  const store = mirror.reviewRecords;
  const actions = mirror.reviewActions;
  switch (outcome.type) {
    case 'comment': {
      const comment = keepText(outcome.comment, store.serverComment(outcome.comment.id));
      actions.setActionState(a.id, 'done', { resultId: a.kind === 'postComment' ? comment.id : null, message: null });
      if (a.kind === 'postComment' && a.commentId && isLocalId(a.commentId)) {
        actions.retarget(a.commentId, comment.id);
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
      actions.setActionState(a.id, 'done', { resultId: a.kind === 'reply' ? reply.id : null, message: null });
      if (a.kind === 'reply' && a.replyId && isLocalId(a.replyId)) {
        const alreadyMirrored = store.serverReply(reply.id) !== null;
        actions.retarget(a.replyId, reply.id);
        store.renameReply(a.replyId);
        store.putReply(a.spaceId, commentId, reply);
        if (!alreadyMirrored) countReply(store, commentId, reply);
      } else {
        store.putReply(a.spaceId, commentId, reply);
      }
      store.materializeComment(commentId);
      break;
    }
    case 'deleted': {
      actions.setActionState(a.id, 'done', { message: null });
      if (a.kind === 'deleteReply' && a.replyId && a.commentId) {
        store.deleteReply(a.replyId);
        uncountReply(store, a.commentId);
      } else if (a.commentId) store.deleteComment(a.commentId);
      break;
    }
    case 'reviewers': {
      actions.setActionState(a.id, 'done', { message: null });
      const crId = a.changeRequestId!;
      const added = new Set(outcome.added.map((r) => r.user?.id));
      const kept = mirror.reviewers.serverReviewers(crId).filter((r) => r.user?.id !== outcome.removed && !added.has(r.user?.id));
      mirror.reviewers.setReviews(crId, null, [...kept, ...outcome.added]);
      store.materializeChangeRequest(crId);
      break;
    }
    case 'review': {
      const crId = a.changeRequestId!;
      actions.setActionState(a.id, 'done', { resultId: outcome.review.id, message: null });
      mirror.reviewers.addReview(crId, outcome.review);
      if (outcome.review.comment) store.putComment(a.spaceId, crId, outcome.review.comment);
      store.materializeChangeRequest(crId);
      break;
    }
    case 'changeRequest': {
      actions.setActionState(a.id, 'done', { message: outcome.note ?? null });
      const cr = outcome.changeRequest ?? { ...store.serverChangeRequest(a.changeRequestId!)!, ...outcome.patch };
      store.putChangeRequest(a.spaceId, cr);
      break;
    }
  }
  return actions.action(a.id)!;
}

/** Takes a reply we deleted off its comment's server copy, so counts are right before the next refresh. */
function uncountReply(store: ReviewRecords, commentId: string): void {
  const server = store.serverComment(commentId);
  const where = store.commentLocation(commentId);
  if (!server || !where) return;
  store.putComment(where.spaceId, where.changeRequestId, { ...server, replies: Math.max(0, (server.replies ?? 0) - 1) });
}

/** Adds a reply we posted to its comment's server copy, so counts are right before the next refresh. */
function countReply(store: ReviewRecords, commentId: string, reply: { postedAt: string; postedBy: { id: string } }): void {
  const server = store.serverComment(commentId);
  const where = store.commentLocation(commentId);
  if (!server || !where) return;
  const repliers = [...(server.repliers ?? [])];
  const mine = repliers.findIndex((r) => r.user.id === reply.postedBy.id);
  if (mine >= 0) repliers[mine] = { ...repliers[mine]!, count: repliers[mine]!.count + 1, updatedAt: reply.postedAt };
  else repliers.push({ user: reply.postedBy, count: 1, updatedAt: reply.postedAt });
  store.putComment(where.spaceId, where.changeRequestId, { ...server, replies: (server.replies ?? 0) + 1, repliers });
}

/**
 * An update's answer (a reaction, resolving, reopening) carries the body as a document, not as
 * markdown (the update takes no `format`): the mirror keeps the text it had.
 */
function keepText<T extends { body?: { markdown?: string } }>(answer: T, known: { body?: { markdown?: string } } | null): T {
  const text = known?.body?.markdown;
  return answer.body?.markdown === undefined && text !== undefined ? { ...answer, body: { ...(answer.body ?? {}), markdown: text } } : answer;
}
