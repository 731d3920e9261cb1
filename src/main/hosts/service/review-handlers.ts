import { QuireError } from '../../../shared/contract';
import { oneLineSubject } from '../../../shared/subject';
import { keepUserSubject } from '../../core/sync';
import { toQuireError } from './errors';
import type { ReviewAdapter } from './review-adapter';
import { needApi, type ServiceState } from './state';
import type { HandlersFor } from './types';

type ReviewRequest =
  | 'review.attention'
  | 'review.comments'
  | 'review.changeRequest'
  | 'review.thread'
  | 'review.reply'
  | 'review.react'
  | 'review.resolve'
  | 'review.reopen'
  | 'review.setSubject'
  | 'review.setStatus'
  | 'sites.list';

/** Review and site requests, answered by the review adapter of the current session. */
export function reviewHandlers(state: ServiceState): HandlersFor<ReviewRequest> {
  const needReview = (): ReviewAdapter => {
    needApi(state);
    if (!state.review) throw new QuireError('unsupported', 'Review is not available in this build of Quire.');
    return state.review;
  };

  /** Runs a review action (queued offline by the core), then tells the views and updates the pending count. */
  async function act(run: () => void): Promise<void> {
    try {
      run();
    } catch (e) {
      throw toQuireError(e, 'do that', state.folder);
    } finally {
      void state.status.refresh();
      state.events.changed('review');
    }
  }

  return {
    'review.attention': () => needReview().attention(),
    'review.comments': (p) => needReview().comments(p),
    'review.changeRequest': (p) => needReview().changeRequest(p.spaceId, p.changeRequestId),
    'review.thread': (p) => needReview().thread(p.spaceId, p.commentId),
    'review.reply': (p) => act(() => needReview().act({ kind: 'reply', commentId: p.commentId, body: p.markdown })),
    'review.react': (p) =>
      act(() => needReview().act({ kind: p.remove ? 'removeReaction' : 'addReaction', commentId: p.commentId, replyId: p.replyId ?? null, emoji: p.emoji })),
    'review.resolve': (p) => act(() => needReview().act({ kind: 'resolve', commentId: p.commentId })),
    'review.reopen': (p) => act(() => needReview().act({ kind: 'reopen', commentId: p.commentId })),
    'review.setSubject': (p) =>
      act(() => {
        needReview().act({ kind: 'editChangeRequest', spaceId: p.spaceId, changeRequestId: p.changeRequestId, subject: p.subject });
        // The writer's subject (on one line, as it was sent): Quire never replaces it with one it generates.
        keepUserSubject(state.mirror, p.spaceId, p.changeRequestId, oneLineSubject(p.subject));
      }),
    'review.setStatus': (p) =>
      act(() => needReview().act({ kind: 'editChangeRequest', spaceId: p.spaceId, changeRequestId: p.changeRequestId, status: p.status })),
    'sites.list': () => (state.review ? state.review.sites() : []),
  };
}
