/**
 * The review actions a user can take, and their optimistic effect on the
 * mirrored server objects. Effects are pure folds: effective state = server
 * state with every still-pending action applied in order, so a refresh that
 * brings new server state never loses what the user did offline.
 */
import type { RemoteChangeRequest, RemoteComment, RemoteReaction, RemoteReply, RemoteUser } from './types';

export type ChangeRequestStatusChange = 'draft' | 'open' | 'archived';

/** What a host asks for. Ids of comments or replies created offline (`local:…`) are accepted. */
export type ActionInput =
  | { kind: 'reply'; commentId: string; body: string }
  | { kind: 'postComment'; spaceId: string; changeRequestId?: string | null; pageId?: string | null; body: string }
  | { kind: 'editComment'; commentId: string; body: string }
  | { kind: 'editReply'; commentId: string; replyId: string; body: string }
  | { kind: 'addReaction'; commentId: string; replyId?: string | null; emoji: string }
  | { kind: 'removeReaction'; commentId: string; replyId?: string | null; emoji: string }
  | { kind: 'resolve'; commentId: string }
  | { kind: 'reopen'; commentId: string }
  | {
      kind: 'editChangeRequest';
      spaceId: string;
      changeRequestId: string;
      subject?: string;
      /** A rich-text document as the API takes it (`{ object: 'document', nodes, data }`). */
      description?: unknown;
      status?: ChangeRequestStatusChange;
    }
  | { kind: 'updateFromMain'; spaceId: string; changeRequestId: string }
  | { kind: 'merge'; spaceId: string; changeRequestId: string };

export type ActionKind = ActionInput['kind'];

export const ACTION_KINDS: readonly ActionKind[] = [
  'reply',
  'postComment',
  'editComment',
  'editReply',
  'addReaction',
  'removeReaction',
  'resolve',
  'reopen',
  'editChangeRequest',
  'updateFromMain',
  'merge',
];

/** queued: not sent yet; sending: may have reached the server; done; refused by the server; dismissed by the user. */
export type ActionState = 'queued' | 'sending' | 'done' | 'refused' | 'dismissed';

/** The fields of an input that are not ids: stored as the action's payload. */
export interface ActionPayload {
  body?: string;
  pageId?: string | null;
  emoji?: string;
  subject?: string;
  description?: unknown;
  status?: ChangeRequestStatusChange;
}

/** An action as stored in the mirror, with every id it touches resolved. */
export interface ActionRecord {
  seq: number;
  id: string;
  kind: ActionKind;
  spaceId: string;
  changeRequestId: string | null;
  commentId: string | null;
  replyId: string | null;
  payload: ActionPayload;
  state: ActionState;
  createdAt: string;
  sendingAt: string | null;
  finishedAt: string | null;
  attempts: number;
  /** The server's message when refused, or the last transient failure. */
  message: string | null;
  /** Id of the comment or reply the server created. */
  resultId: string | null;
}

/** Prefix of ids given to comments and replies created offline: `local:<action id>`. */
export const LOCAL_PREFIX = 'local:';

export const localId = (actionId: string): string => `${LOCAL_PREFIX}${actionId}`;
export const isLocalId = (id: string | null | undefined): id is string => !!id && id.startsWith(LOCAL_PREFIX);
export const actionIdOfLocal = (id: string): string => id.slice(LOCAL_PREFIX.length);

/** Kinds whose request creates something: sending one twice would duplicate it. */
export const CREATES: ReadonlySet<ActionKind> = new Set<ActionKind>(['reply', 'postComment']);

export const CHANGE_REQUEST_KINDS: ReadonlySet<ActionKind> = new Set<ActionKind>(['editChangeRequest', 'updateFromMain', 'merge']);

/** Checks the input before it is queued, so a bad action never reaches the queue. */
export function validateInput(input: ActionInput): void {
  const need = (ok: boolean, what: string): void => {
    if (!ok) throw new Error(`Cannot ${describeKind(input.kind)}: ${what}.`);
  };
  if (!ACTION_KINDS.includes(input.kind)) throw new Error(`Unknown review action "${String(input.kind)}".`);
  switch (input.kind) {
    case 'reply':
    case 'postComment':
    case 'editComment':
    case 'editReply':
      need(typeof input.body === 'string' && input.body.trim().length > 0, 'the body is empty; give some markdown');
      break;
    case 'addReaction':
    case 'removeReaction':
      need(typeof input.emoji === 'string' && input.emoji.trim().length > 0, 'no emoji given');
      break;
    case 'editChangeRequest':
      need(
        input.subject !== undefined || input.description !== undefined || input.status !== undefined,
        'nothing to change (give a subject, description or status)',
      );
      if (input.subject !== undefined) {
        need(input.subject.trim().length > 0 && input.subject.length <= 100, 'the subject must be 1 to 100 characters');
      }
      if (input.status !== undefined) need(['draft', 'open', 'archived'].includes(input.status), 'the status must be draft, open or archived');
      break;
    default:
      break;
  }
}

export function describeKind(kind: ActionKind): string {
  const words: Record<ActionKind, string> = {
    reply: 'reply to the comment',
    postComment: 'post the comment',
    editComment: 'edit the comment',
    editReply: 'edit the reply',
    addReaction: 'add the reaction',
    removeReaction: 'remove the reaction',
    resolve: 'resolve the comment',
    reopen: 'reopen the comment',
    editChangeRequest: 'edit the change request',
    updateFromMain: 'update the change request from main',
    merge: 'merge the change request',
  };
  return words[kind];
}

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
      },
      status: 'open',
    };
  }
  if (!comment) return null;
  switch (a.kind) {
    case 'reply':
      return { ...comment, replies: (comment.replies ?? 0) + 1 };
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
