/**
 * The review actions a user can take: what a host asks for, checked before it is queued.
 * Their optimistic effect on the mirrored server objects is the mirror's
 * (core/mirror/review/effects.ts); sending them is queue.ts and send.ts.
 */
import type { ActionKind, ChangeRequestStatusChange } from '../mirror';
import { oneLineSubject, subjectProblem } from '../../../shared/subject';

/** What a host asks for. Ids of comments or replies created offline (`local:…`) are accepted. */
export type ActionInput =
  | { kind: 'reply'; commentId: string; body: string }
  /** On a block of the page (`nodeId`, read from `revisionId`: anchors.ts `lineTarget`) when it is on a line. */
  | {
      kind: 'postComment';
      spaceId: string;
      changeRequestId?: string | null;
      pageId?: string | null;
      nodeId?: string | null;
      revisionId?: string | null;
      body: string;
    }
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
  | { kind: 'merge'; spaceId: string; changeRequestId: string }
  | { kind: 'deleteComment'; commentId: string }
  | { kind: 'deleteReply'; commentId: string; replyId: string }
  /** Asks an organization member to review (`userId`), or no longer (`removeReviewer`); `displayName` shows while pending. */
  | { kind: 'requestReviewer' | 'removeReviewer'; spaceId: string; changeRequestId: string; userId: string; displayName?: string }
  /** The verdict of a pending review (queued by pending-review.ts when the review is finished, after its comments). */
  | { kind: 'submitReview'; spaceId: string; changeRequestId: string; verdict: 'approved' | 'changes-requested'; body?: string; review: string };

const ACTION_KINDS: readonly ActionKind[] = [
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
  'deleteComment',
  'deleteReply',
  'requestReviewer',
  'removeReviewer',
  'submitReview',
];

/** Prefix of ids given to comments and replies created offline: `local:<action id>`. */
const LOCAL_PREFIX = 'local:';

export const localId = (actionId: string): string => `${LOCAL_PREFIX}${actionId}`;
export const isLocalId = (id: string | null | undefined): id is string => !!id && id.startsWith(LOCAL_PREFIX);
export const actionIdOfLocal = (id: string): string => id.slice(LOCAL_PREFIX.length);

/** Kinds whose request creates something: sending one twice would duplicate it. */
export const CREATES: ReadonlySet<ActionKind> = new Set<ActionKind>(['reply', 'postComment']);

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
        const problem = subjectProblem(oneLineSubject(input.subject));
        need(problem === null, `the subject ${problem}`);
      }
      if (input.status !== undefined) need(['draft', 'open', 'archived'].includes(input.status), 'the status must be draft, open or archived');
      break;
    case 'requestReviewer':
    case 'removeReviewer':
      need(typeof input.userId === 'string' && input.userId.trim().length > 0, 'no user given');
      break;
    case 'submitReview':
      need(input.verdict === 'approved' || input.verdict === 'changes-requested', 'the verdict must be approved or changes-requested');
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
    deleteComment: 'delete the comment',
    deleteReply: 'delete the reply',
    requestReviewer: 'ask for the review',
    removeReviewer: 'withdraw the review request',
    submitReview: 'send the review',
  };
  return words[kind];
}
