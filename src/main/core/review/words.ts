/**
 * A review action in the user's words, as every host names it where it needs them (refused,
 * failing, waiting): what it does and on what — "your reply “On it.” to comment comment_12",
 * "merging change request #3" — never an id the user never saw (`local:…`, an action's uuid).
 */
import type { ActionRecord, Mirror } from '../mirror';
import { actionIdOfLocal, isLocalId } from './actions';

/** The first line of a text, at most `max` characters (never cutting a character in two). */
function snippet(text: string | undefined, max = 40): string {
  const line = [...(text ?? '').trim().split('\n')[0]!];
  return line.length > max ? `${line.slice(0, max - 1).join('')}…` : line.join('');
}

/** A comment or reply by what the user knows of it: its id once on the server, else its text. */
function commentWords(mirror: Pick<Mirror, 'reviewActions'>, id: string | null): string {
  if (!id) return 'a comment';
  if (!isLocalId(id)) return `comment ${id}`;
  const creator = mirror.reviewActions.action(actionIdOfLocal(id));
  return `your new comment “${snippet(creator?.payload.body)}” (not posted yet)`;
}

function changeRequestWords(mirror: Pick<Mirror, 'reviewRecords'>, id: string | null): string {
  const n = id ? mirror.reviewRecords.serverChangeRequest(id)?.number : undefined;
  return n !== undefined ? `change request #${n}` : 'a change request';
}

/** Where a new comment goes: a page (by its title), a change request, or both. */
function placeWords(mirror: Pick<Mirror, 'content' | 'reviewRecords'>, a: ActionRecord): string {
  const page = a.payload.pageId ? (mirror.content.page(a.spaceId, a.payload.pageId)?.title ?? null) : null;
  const cr = a.changeRequestId ? changeRequestWords(mirror, a.changeRequestId) : null;
  if (page !== null && cr) return `“${page}” in ${cr}`;
  if (page !== null) return `“${page}”`;
  return cr ?? 'the space';
}

export function describeAction(mirror: Pick<Mirror, 'content' | 'reviewActions' | 'reviewRecords'>, a: ActionRecord): string {
  const comment = () => commentWords(mirror, a.commentId);
  const cr = () => changeRequestWords(mirror, a.changeRequestId);
  const who = a.payload.displayName ?? a.payload.userId ?? 'someone';
  switch (a.kind) {
    case 'reply':
      return `your reply “${snippet(a.payload.body)}” to ${comment()}`;
    case 'postComment':
      return `your comment “${snippet(a.payload.body)}” on ${placeWords(mirror, a)}`;
    case 'editComment':
      return `your edit of ${comment()} (“${snippet(a.payload.body)}”)`;
    case 'editReply':
      return `your edit of a reply to ${comment()} (“${snippet(a.payload.body)}”)`;
    case 'addReaction':
      return `your reaction ${a.payload.emoji ?? ''} on ${a.replyId ? `a reply to ${comment()}` : comment()}`;
    case 'removeReaction':
      return `taking back your reaction ${a.payload.emoji ?? ''} on ${a.replyId ? `a reply to ${comment()}` : comment()}`;
    case 'resolve':
      return `resolving ${comment()}`;
    case 'reopen':
      return `reopening ${comment()}`;
    case 'deleteComment':
      return `deleting ${comment()}`;
    case 'deleteReply':
      return `deleting a reply to ${comment()}`;
    case 'editChangeRequest':
      if (a.payload.status === 'archived') return `archiving ${cr()}`;
      if (a.payload.status !== undefined) return `reopening ${cr()}`;
      return a.payload.subject !== undefined ? `renaming ${cr()} “${snippet(a.payload.subject)}”` : `editing the description of ${cr()}`;
    case 'updateFromMain':
      return `updating ${cr()} from main`;
    case 'merge':
      return `merging ${cr()}`;
    case 'requestReviewer':
      return `asking ${who} to review ${cr()}`;
    case 'removeReviewer':
      return `withdrawing the review request of ${who} on ${cr()}`;
    case 'submitReview':
      return `your review of ${cr()} (${a.payload.verdict === 'approved' ? 'approving it' : 'requesting changes'})`;
  }
}
