/**
 * How each action reaches the server, and how an action that may already have
 * reached it (state `sending` after a crash or a lost answer) is recognised
 * there instead of being sent a second time.
 */
import type { ChangeRequestReviewStatus } from '@gitbook/api';
import type { ApiClient } from '../api';
import { ApiError } from '../api';
import type { ActionRecord, RemoteChangeRequest, RemoteComment, RemoteReply, RemoteRequestedReviewer, RemoteReview, RemoteUser } from '../mirror';

export type SendOutcome =
  | { type: 'comment'; comment: RemoteComment }
  | { type: 'reply'; reply: RemoteReply }
  | { type: 'changeRequest'; changeRequest: RemoteChangeRequest | null; patch: Partial<RemoteChangeRequest>; note?: string }
  /** The comment or reply is gone from the server (deleted now, or already). */
  | { type: 'deleted' }
  /** Reviewers asked (the server's answer), or the one withdrawn. */
  | { type: 'reviewers'; added: RemoteRequestedReviewer[]; removed: string | null }
  /** A review's verdict, as the server took it. */
  | { type: 'review'; review: RemoteReview };

const gone = (err: unknown): boolean => err instanceof ApiError && err.status === 404;

/** How far back a reply or comment found on the server may predate our send (clock skew). */
const SKEW_MS = 10 * 60_000;

const markdownOf = (o: { body?: { markdown?: string } }): string | undefined => o.body?.markdown;

/** Fills in the markdown when the server answered in document format. */
function withBody<T extends { body?: { markdown?: string } }>(o: T, markdown: string | undefined): T {
  return markdownOf(o) === undefined && markdown !== undefined ? { ...o, body: { ...(o.body ?? {}), markdown } } : o;
}

function ids(a: ActionRecord): { spaceId: string; cr: string | null; comment: string; reply: string | null } {
  if (!a.commentId) throw new Error(`Action ${a.id} (${a.kind}) names no comment.`);
  return { spaceId: a.spaceId, cr: a.changeRequestId, comment: a.commentId, reply: a.replyId };
}

function commentUpdate(a: ActionRecord): { resolved?: boolean; body?: { markdown: string }; addedReactions?: string[]; removedReactions?: string[] } {
  switch (a.kind) {
    case 'editComment':
    case 'editReply':
      return { body: { markdown: a.payload.body ?? '' } };
    case 'resolve':
      return { resolved: true };
    case 'reopen':
      return { resolved: false };
    case 'addReaction':
      return { addedReactions: [a.payload.emoji ?? ''] };
    case 'removeReaction':
      return { removedReactions: [a.payload.emoji ?? ''] };
    default:
      throw new Error(`Action kind ${a.kind} is not a comment update.`);
  }
}

async function getChangeRequest(api: ApiClient, spaceId: string, id: string): Promise<RemoteChangeRequest> {
  return api.call<RemoteChangeRequest>((c, params) => c.spaces.getChangeRequestById(spaceId, id, params));
}

/** Sends one action; throws the API's error when the server refuses or cannot be reached. */
export async function send(api: ApiClient, a: ActionRecord): Promise<SendOutcome> {
  switch (a.kind) {
    case 'reply': {
      const { spaceId, cr, comment } = ids(a);
      const data = { body: { markdown: a.payload.body ?? '' } };
      const reply = await api.call<RemoteReply>((c, params) =>
        cr
          ? c.spaces.postCommentReplyInChangeRequest(spaceId, cr, comment, data, { format: 'markdown' }, params)
          : c.spaces.postCommentReplyInSpace(spaceId, comment, data, params),
      );
      return { type: 'reply', reply: withBody(reply, a.payload.body) };
    }
    case 'postComment': {
      const data = {
        body: { markdown: a.payload.body ?? '' },
        ...(a.payload.pageId ? { page: a.payload.pageId } : {}),
        ...(a.payload.nodeId ? { node: a.payload.nodeId } : {}),
      };
      const cr = a.changeRequestId;
      const comment = await api.call<RemoteComment>((c, params) =>
        cr ? c.spaces.postCommentInChangeRequest(a.spaceId, cr, data, params) : c.spaces.postCommentInSpace(a.spaceId, data, params),
      );
      return { type: 'comment', comment: withBody(comment, a.payload.body) };
    }
    case 'editReply':
    case 'addReaction':
    case 'removeReaction':
    case 'editComment':
    case 'resolve':
    case 'reopen': {
      const { spaceId, cr, comment, reply } = ids(a);
      const data = commentUpdate(a);
      const known = a.kind === 'editComment' || a.kind === 'editReply' ? a.payload.body : undefined;
      if (reply) {
        const updated = await api.call<RemoteReply>((c, params) =>
          cr
            ? c.spaces.updateCommentReplyInChangeRequest(spaceId, cr, comment, reply, data, params)
            : c.spaces.updateCommentReplyInSpace(spaceId, comment, reply, data, params),
        );
        return { type: 'reply', reply: withBody(updated, known) };
      }
      const updated = await api.call<RemoteComment>((c, params) =>
        cr ? c.spaces.updateCommentInChangeRequest(spaceId, cr, comment, data, params) : c.spaces.updateCommentInSpace(spaceId, comment, data, params),
      );
      return { type: 'comment', comment: withBody(updated, known) };
    }
    case 'editChangeRequest': {
      const cr = requireChangeRequest(a);
      const data: { subject?: string; description?: never; status?: 'draft' | 'open' | 'archived' } = {};
      if (a.payload.subject !== undefined) data.subject = a.payload.subject;
      if (a.payload.description !== undefined) data.description = a.payload.description as never;
      if (a.payload.status !== undefined) data.status = a.payload.status;
      const updated = await api.call<RemoteChangeRequest>((c, params) => c.spaces.updateChangeRequestById(a.spaceId, cr, data, params));
      return { type: 'changeRequest', changeRequest: updated, patch: {} };
    }
    case 'deleteComment':
    case 'deleteReply': {
      const { spaceId, cr, comment, reply } = ids(a);
      try {
        await api.call((c, params) => {
          if (a.kind === 'deleteReply' && reply)
            return cr
              ? c.spaces.deleteCommentReplyInChangeRequest(spaceId, cr, comment, reply, params)
              : c.spaces.deleteCommentReplyInSpace(spaceId, comment, reply, params);
          return cr ? c.spaces.deleteCommentInChangeRequest(spaceId, cr, comment, params) : c.spaces.deleteCommentInSpace(spaceId, comment, params);
        });
      } catch (err) {
        // Already gone (deleted by an earlier attempt whose answer was lost, or by someone else): done.
        if (!gone(err)) throw err;
      }
      return { type: 'deleted' };
    }
    case 'requestReviewer': {
      const cr = requireChangeRequest(a);
      const answer = await api.call<{ users?: RemoteRequestedReviewer[] }>((c, params) =>
        c.spaces.requestReviewersForChangeRequest(a.spaceId, cr, { users: [a.payload.userId ?? ''] }, params),
      );
      return { type: 'reviewers', added: answer?.users ?? [], removed: null };
    }
    case 'removeReviewer': {
      const cr = requireChangeRequest(a);
      await api.call((c, params) => c.spaces.removeRequestedReviewerFromChangeRequest(a.spaceId, cr, a.payload.userId ?? '', params));
      return { type: 'reviewers', added: [], removed: a.payload.userId ?? null };
    }
    case 'submitReview': {
      // The API takes one comment with a review (a whole Document); a pending review's comments went before it.
      const cr = requireChangeRequest(a);
      const body = a.payload.body?.trim() ? a.payload.body : undefined;
      const data = { status: a.payload.verdict as ChangeRequestReviewStatus, ...(body !== undefined ? { comment: { markdown: body } } : {}) };
      const review = await api.call<RemoteReview>((c, params) => c.spaces.submitChangeRequestReview(a.spaceId, cr, data, params));
      return { type: 'review', review: review.comment && body !== undefined ? { ...review, comment: withBody(review.comment, body) } : review };
    }
    case 'updateFromMain':
    case 'merge': {
      const cr = requireChangeRequest(a);
      const result = await api.call<{ revision: string; result: string }>((c, params) =>
        a.kind === 'merge' ? c.spaces.mergeChangeRequest(a.spaceId, cr, params) : c.spaces.updateChangeRequest(a.spaceId, cr, params),
      );
      const patch: Partial<RemoteChangeRequest> =
        a.kind === 'merge' ? { status: 'merged', revisionMerged: result.revision } : { outdated: false, revision: result.revision };
      const note = result.result === 'conflicts' ? 'The server reported conflicts; resolve them in the change request.' : undefined;
      // The action is done either way; a fresh copy is a nicety.
      const fresh = await getChangeRequest(api, a.spaceId, cr).catch(() => null);
      return { type: 'changeRequest', changeRequest: fresh, patch, ...(note ? { note } : {}) };
    }
  }
}

function requireChangeRequest(a: ActionRecord): string {
  if (!a.changeRequestId) throw new Error(`Action ${a.id} (${a.kind}) names no change request.`);
  return a.changeRequestId;
}

/**
 * A body as the server keeps it stable: it stores a comment as a document and writes its
 * markdown back its own way (`*x*` as `_x_`, `__x__` as `**x**`, `*` bullets as `-`, escapes,
 * spacing), so those never tell two bodies apart.
 */
function comparableText(markdown: string): string {
  return markdown
    .normalize('NFC')
    .replace(/\\([\\`*_{}[\]()#+\-.!~>|])/g, '$1')
    .replace(/^[ \t]*[-*+][ \t]+/gm, '- ')
    .replace(/[*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function postedSince(o: { postedAt: string }, since: string | null): boolean {
  if (!since) return true;
  return Date.parse(o.postedAt) >= Date.parse(since) - SKEW_MS;
}

/**
 * For an action that may have reached the server: what the server shows of
 * it, or null when it evidently did not arrive and must be sent (again). A
 * comment or reply is recognised by what the server keeps stable: its author
 * (us), where it is, when (since it was sent, give or take clock skew) and its
 * text as compared by `comparableText`, never byte for byte. `claimed` holds ids
 * already matched to other actions, so two identical replies each find their
 * own; among candidates, one the mirror has never seen is preferred (a refresh
 * may have mirrored our own lost reply meanwhile).
 */
export async function reconcile(api: ApiClient, a: ActionRecord, me: RemoteUser, claimed: Set<string>, mirrored: Set<string>): Promise<SendOutcome | null> {
  const body = comparableText(a.payload.body ?? '');
  const pick = <T extends { id: string }>(candidates: T[]): T | undefined => candidates.find((c) => !mirrored.has(c.id)) ?? candidates[0];
  switch (a.kind) {
    case 'reply': {
      const { spaceId, cr, comment } = ids(a);
      const replies = await api.listAll<RemoteReply>((c, query, params) =>
        cr
          ? c.spaces.listCommentRepliesInChangeRequest(spaceId, cr, comment, { ...query, format: 'markdown' }, params)
          : c.spaces.listCommentRepliesInSpace(spaceId, comment, { ...query, format: 'markdown' }, params),
      );
      const found = pick(
        replies.filter((r) => r.postedBy?.id === me.id && !claimed.has(r.id) && comparableText(markdownOf(r) ?? '') === body && postedSince(r, a.sendingAt)),
      );
      return found ? { type: 'reply', reply: found } : null;
    }
    case 'postComment': {
      const cr = a.changeRequestId;
      const comments = await api.listAll<RemoteComment>((c, query, params) =>
        cr
          ? c.spaces.listCommentsInChangeRequest(a.spaceId, cr, { ...query, status: 'all', format: 'markdown' }, params)
          : c.spaces.listCommentsInSpace(a.spaceId, { ...query, status: 'all', format: 'markdown' }, params),
      );
      const found = pick(
        comments.filter(
          (c) =>
            c.postedBy?.id === me.id &&
            !claimed.has(c.id) &&
            comparableText(markdownOf(c) ?? '') === body &&
            (c.target?.page?.id ?? null) === (a.payload.pageId ?? null) &&
            (c.target?.node?.id ?? null) === (a.payload.nodeId ?? null) &&
            postedSince(c, a.sendingAt),
        ),
      );
      return found ? { type: 'comment', comment: found } : null;
    }
    case 'addReaction':
    case 'removeReaction': {
      const { spaceId, cr, comment, reply } = ids(a);
      const current = reply
        ? await api.call<RemoteReply>((c, params) =>
            cr
              ? c.spaces.getCommentReplyInChangeRequest(spaceId, cr, comment, reply, { format: 'markdown' }, params)
              : c.spaces.getCommentReplyInSpace(spaceId, comment, reply, { format: 'markdown' }, params),
          )
        : await api.call<RemoteComment>((c, params) =>
            cr
              ? c.spaces.getCommentInChangeRequest(spaceId, cr, comment, { format: 'markdown' }, params)
              : c.spaces.getCommentInSpace(spaceId, comment, { format: 'markdown' }, params),
          );
      const mine = (current.reactions ?? []).some((r) => r.emoji === a.payload.emoji && r.users.some((u) => u.user.id === me.id));
      if (mine !== (a.kind === 'addReaction')) return null;
      return reply ? { type: 'reply', reply: current } : { type: 'comment', comment: current as RemoteComment };
    }
    case 'submitReview': {
      const cr = requireChangeRequest(a);
      const reviews = await api.listAll<RemoteReview>((c, query, params) =>
        c.spaces.getReviewsByChangeRequestId(a.spaceId, cr, { ...query, format: 'markdown' }, params),
      );
      const found = pick(
        reviews.filter(
          (r) => r.reviewer?.id === me.id && r.status === a.payload.verdict && !claimed.has(r.id) && postedSince({ postedAt: r.createdAt }, a.sendingAt),
        ),
      );
      return found ? { type: 'review', review: found } : null;
    }
    case 'merge': {
      const cr = requireChangeRequest(a);
      const current = await getChangeRequest(api, a.spaceId, cr);
      return current.status === 'merged' ? { type: 'changeRequest', changeRequest: current, patch: {} } : null;
    }
    default:
      // Edits, resolving, reopening and updating from main give the same result when repeated.
      return null;
  }
}
