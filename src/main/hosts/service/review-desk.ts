/**
 * The reviewer's own work on a change request in the app: a pending review (started, finished
 * with a verdict — its comments sent in order, then the verdict, nothing twice — or discarded) and
 * the pages marked viewed. Comments made while a review is open go through `review.newComment`,
 * which keeps them in it.
 */
import { QuireError, type FinishedReviewVM } from '../../../shared/contract';
import { plural } from '../../../shared/plural';
import type { FinishedReview } from '../../core/review';
import { describeError } from './errors';
import type { ReviewAdapter } from './review-adapter';
import { notDone } from './review-lifecycle';
import { needApi, type ServiceState } from './state';
import type { HandlersFor } from './types';

type DeskRequest = 'review.startReview' | 'review.discardReview' | 'review.finishReview' | 'review.setViewed';

const NO_VERDICT = 'no verdict: the API takes a review only as an approval or a request for changes';

/** A finished review in the view's words. */
function finishedVM(r: FinishedReview, kept: number, describe: (a: FinishedReview['refused'][number]) => string): FinishedReviewVM {
  const noVerdict = r.verdict === 'comment' ? ` (${NO_VERDICT})` : '';
  const verdictDone = r.verdictAction === null || r.verdictAction.state === 'done';
  if (r.refused.length > 0) {
    const refused = r.refused.map((a) => `${describe(a)}: ${a.message ?? 'no reason given'}`).join('; ');
    return { outcome: 'refused', message: `${r.commentsSent} of ${plural(r.comments, 'comment')} sent; the server refused ${refused}.` };
  }
  if (r.commentsSent === r.comments && verdictDone) {
    const words = kept === 0 ? 'Review sent' : `Review sent, with its ${plural(kept, 'comment')}`;
    return { outcome: 'sent', message: `${words}${noVerdict}.` };
  }
  const left = [r.comments - r.commentsSent > 0 ? plural(r.comments - r.commentsSent, 'comment') : null, verdictDone ? null : 'the verdict'].filter(Boolean);
  return {
    outcome: 'queued',
    message: `${r.commentsSent} of ${plural(r.comments, 'comment')} sent; the rest (${left.join(' and ')}) is queued and sent when the API answers again, nothing twice (${r.stoppedBy ?? 'the server failed on part of it'}).`,
  };
}

export function reviewDeskHandlers(state: ServiceState): HandlersFor<DeskRequest> {
  const adapter = (): ReviewAdapter => {
    needApi(state);
    if (!state.review) throw new QuireError('unsupported', 'Review is not available in this build of Quire.');
    return state.review;
  };
  const changed = () => {
    void state.status.refresh();
    state.events.changed('review');
  };
  const changeRequest = (a: ReviewAdapter, spaceId: string, id: string) => {
    const cr = a.core.review.changeRequest(id);
    if (!cr || cr.spaceId !== spaceId) throw new QuireError('not-found', 'That change request is not in the mirror. Refresh review data, then try again.');
    return cr;
  };

  return {
    'review.startReview': (p) => {
      const a = adapter();
      changeRequest(a, p.spaceId, p.changeRequestId);
      try {
        const started = a.core.review.startReview(p.changeRequestId);
        return { startedAt: started.startedAt, comments: started.comments.length };
      } catch (e) {
        throw notDone(e, 'start a review');
      } finally {
        changed();
      }
    },
    'review.discardReview': (p) => {
      const a = adapter();
      changeRequest(a, p.spaceId, p.changeRequestId);
      a.core.review.discardReview(p.changeRequestId);
      changed();
    },
    'review.finishReview': async (p) => {
      const a = adapter();
      changeRequest(a, p.spaceId, p.changeRequestId);
      const open = a.core.review.pendingReview(p.changeRequestId);
      if (!open) throw new QuireError('not-found', 'No pending review of this change request is open (it was finished or discarded).');
      try {
        const done = await a.core.review.finishReview(a.core.api, p.changeRequestId, p.verdict, p.markdown, state.abort.signal);
        return finishedVM(done, open.comments.length, (x) => a.core.review.describeAction(x));
      } catch (e) {
        const err = notDone(e, 'finish the review');
        throw new QuireError(err.code, `${err.message} Your pending review is kept.`);
      } finally {
        changed();
      }
    },
    'review.setViewed': (p) => {
      const a = adapter();
      changeRequest(a, p.spaceId, p.changeRequestId);
      try {
        a.core.review.markViewed(p.changeRequestId, p.pageId, p.viewed);
      } catch (e) {
        throw new QuireError('not-found', `${describeError(e)} Refresh the change request, then try again.`);
      }
      state.events.changed('review');
    },
  };
}
