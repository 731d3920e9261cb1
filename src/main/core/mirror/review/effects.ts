/**
 * The optimistic effect of review actions on the mirrored server objects. Effects are pure
 * folds: effective state = server state with every still-pending action applied in order,
 * so a refresh that brings new server state never loses what the user did offline.
 */
import type { ActionKind, ActionRecord, RemoteChangeRequest, RemoteComment, RemoteReaction, RemoteReply, RemoteUser } from './types';

/** Actions on a change request (the others act on a comment or a reply). */
export const CHANGE_REQUEST_KINDS: ReadonlySet<ActionKind> = new Set<ActionKind>([
  'editChangeRequest',
  'updateFromMain',
  'merge',
  'requestReviewer',
  'removeReviewer',
  'submitReview',
]);

function withReaction(reactions: RemoteReaction[] | undefined, emoji: string, me: RemoteUser, add: boolean, at: string): RemoteReaction[] {
  const list = (reactions ?? []).map((r) => ({ ...r, users: [...r.users] }));
  const existing = list.find((r) => r.emoji === emoji);
  const mine = existing?.users.some((u) => u.user.id === me.id) ?? false;
  if (add && !mine) {
    if (existing) {
      existing.users.push({ user: me, reactedAt: at });
      existing.count += 1;
    } else list.push({ emoji, count: 1, users: [{ user: me, reactedAt: at }] });
  }
  if (!add && existing && mine) {
    existing.users = existing.users.filter((u) => u.user.id !== me.id);
    existing.count = Math.max(0, existing.count - 1);
  }
  return list.filter((r) => r.count > 0);
}

/** The comment as it looks once the action applies; null when it does not exist. */
export function applyToComment(comment: RemoteComment | null, a: ActionRecord, me: RemoteUser): RemoteComment | null {
  const at = a.createdAt;
  if (a.kind === 'postComment') {
    if (comment || a.commentId === null) return comment;
    return {
      id: a.commentId,
      postedBy: me,
      postedAt: at,
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: a.payload.body ?? '' },
      target: {
        space: a.spaceId,
        ...(a.changeRequestId ? { changeRequest: a.changeRequestId } : {}),
        ...(a.payload.pageId ? { page: { id: a.payload.pageId } } : {}),
        ...(a.payload.nodeId ? { node: { id: a.payload.nodeId } } : {}),
        ...(a.payload.revisionId ? { revision: a.payload.revisionId } : {}),
      },
      status: 'open',
    };
  }
  if (!comment) return null;
  switch (a.kind) {
    case 'reply':
      return { ...comment, replies: (comment.replies ?? 0) + 1 };
    case 'deleteComment':
      return null;
    case 'deleteReply':
      return { ...comment, replies: Math.max(0, (comment.replies ?? 0) - 1) };
    case 'editComment':
      return { ...comment, body: { markdown: a.payload.body ?? '' }, editedAt: at };
    case 'resolve':
      return { ...comment, status: 'resolved', resolvedAt: at, resolvedBy: me };
    case 'reopen': {
      const { resolvedAt: _at, resolvedBy: _by, ...rest } = comment;
      return { ...rest, status: 'open' };
    }
    case 'addReaction':
    case 'removeReaction':
      if (a.replyId) return comment;
      return { ...comment, reactions: withReaction(comment.reactions, a.payload.emoji ?? '', me, a.kind === 'addReaction', at) };
    default:
      return comment;
  }
}

export function applyToReply(reply: RemoteReply | null, a: ActionRecord, me: RemoteUser): RemoteReply | null {
  const at = a.createdAt;
  if (a.kind === 'reply') {
    if (reply || a.replyId === null) return reply;
    return { id: a.replyId, postedBy: me, postedAt: at, reactions: [], body: { markdown: a.payload.body ?? '' } };
  }
  if (!reply) return null;
  switch (a.kind) {
    case 'deleteReply':
      return null;
    case 'editReply':
      return { ...reply, body: { markdown: a.payload.body ?? '' }, editedAt: at };
    case 'addReaction':
    case 'removeReaction':
      return { ...reply, reactions: withReaction(reply.reactions, a.payload.emoji ?? '', me, a.kind === 'addReaction', at) };
    default:
      return reply;
  }
}

export function applyToChangeRequest(cr: RemoteChangeRequest | null, a: ActionRecord): RemoteChangeRequest | null {
  if (!cr) return null;
  switch (a.kind) {
    case 'editChangeRequest':
      return {
        ...cr,
        ...(a.payload.subject !== undefined ? { subject: a.payload.subject } : {}),
        ...(a.payload.description !== undefined ? { description: a.payload.description } : {}),
        ...(a.payload.status !== undefined ? { status: a.payload.status } : {}),
      };
    case 'updateFromMain':
      return { ...cr, outdated: false };
    case 'merge':
      return { ...cr, status: 'merged' };
    default:
      return cr;
  }
}
