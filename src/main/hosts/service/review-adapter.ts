import {
  QuireError,
  type AttentionReason,
  type ChangeRequestDetailVM,
  type ChangeRequestVM,
  type CommentVM,
  type Params,
  type SiteVM,
  type ThreadVM,
} from '../../../shared/contract';
import type { ApiClient } from '../../core/api';
import type { Mirror } from '../../core/mirror';
import { ReviewCadence, ReviewService, type ActionInput, type CommentView } from '../../core/review';
import { describeError } from './errors';
import { changeRequestVM, commentVM, replyVM, siteVM, type CommentLookups } from './review-view-models';
import type { AttentionSnapshot } from './types';

/** The review core seen through the contract's view models. */
export interface ReviewAdapter {
  /** After a sync cycle: replays queued actions; refreshes review and site state when due (REVIEW_REFRESH_MS) or `force`d. */
  afterCycle(signal?: AbortSignal, force?: boolean): Promise<void>;
  pendingCount(): number;
  attention(): ChangeRequestVM[];
  comments(filter: Params<'review.comments'>): CommentVM[];
  changeRequest(spaceId: string, changeRequestId: string): Promise<ChangeRequestDetailVM>;
  thread(spaceId: string, commentId: string): ThreadVM;
  /** Queues an action (its effect shows at once, flagged pending) and sends the queue in the background. */
  act(input: ActionInput): void;
  sites(): SiteVM[];
  attentionIds(): Omit<AttentionSnapshot, 'conflicts'>;
}

export function createReviewAdapter(api: ApiClient, mirror: Mirror, online: () => boolean, onChange: () => void, log: (line: string) => void): ReviewAdapter {
  const review = new ReviewService(mirror);
  const cadence = new ReviewCadence(review);
  let replaying: Promise<void> | null = null;
  let replayAgain = false;

  const titles = () => new Map(mirror.catalog.spaces().map((s) => [s.id, s.title]));
  const failures = () => {
    const byTarget = new Map<string, string>();
    for (const a of review.refusedActions()) {
      const key = a.replyId ?? a.commentId ?? a.changeRequestId;
      if (key) byTarget.set(key, a.message ?? 'refused by the server');
    }
    return byTarget;
  };

  const replayInBackground = () => {
    if (replaying) {
      replayAgain = true;
      return;
    }
    replaying = (async () => {
      do {
        replayAgain = false;
        try {
          await review.replay(api);
        } catch (e) {
          log(`review replay: ${describeError(e)}`);
        }
        onChange();
      } while (replayAgain);
    })().finally(() => {
      replaying = null;
    });
  };

  const crNumbers = () => new Map(review.changeRequests().map((cr) => [cr.id, cr.number]));

  /** Page titles read from the mirror at most once per answer. */
  const pageTitles = () => {
    const seen = new Map<string, string | null>();
    return (spaceId: string, pageId: string): string | null => {
      const key = `${spaceId}/${pageId}`;
      if (!seen.has(key)) seen.set(key, mirror.content.page(spaceId, pageId)?.title ?? null);
      return seen.get(key) ?? null;
    };
  };

  const commentLookups = (): CommentLookups => ({ spaceTitles: titles(), crNumbers: crNumbers(), failures: failures(), pageTitle: pageTitles() });

  const threads = (list: CommentView[]): ThreadVM[] => {
    const lookups = commentLookups();
    const replies = review.repliesFor(list.map((c) => c.id));
    return list.map((c) => ({
      ...commentVM(c, lookups),
      replies: (replies.get(c.id) ?? []).map((r) => replyVM(r, lookups.failures)),
    }));
  };

  return {
    async afterCycle(signal, force) {
      await cadence.afterCycle(api, { signal, force });
    },
    pendingCount: () => review.actions().length,
    attention() {
      const spaceTitles = titles();
      const fail = failures();
      const me = review.me()?.id;
      const needing = new Map(review.needingUser().map((cr) => [cr.id, cr.reasons as AttentionReason[]]));
      return review
        .changeRequests({ statuses: ['open', 'draft'] })
        .map((cr) => {
          const reasons = [...(needing.get(cr.id) ?? [])];
          if (cr.author?.id === me) reasons.push('mine');
          if (reasons.length === 0) reasons.push('open');
          return changeRequestVM(cr, reasons, spaceTitles, fail);
        })
        .sort((a, b) => Number(b.reasons[0] !== 'open') - Number(a.reasons[0] !== 'open'));
    },
    comments(filter) {
      const list = review.unresolvedComments({
        ...(filter.spaceId ? { spaceId: filter.spaceId } : {}),
        ...(filter.changeRequestId ? { changeRequestId: filter.changeRequestId } : {}),
        ...(filter.authorId ? { authorId: filter.authorId } : {}),
        ...(filter.pageId ? { pageId: filter.pageId } : {}),
      });
      const text = filter.text?.trim().toLowerCase();
      const lookups = commentLookups();
      return list.filter((c) => !text || c.body.toLowerCase().includes(text)).map((c) => commentVM(c, lookups));
    },
    async changeRequest(spaceId, changeRequestId) {
      const cr = review.changeRequest(changeRequestId);
      if (!cr || cr.spaceId !== spaceId) {
        throw new QuireError('not-found', 'That change request is not in the mirror. Run a sync to fetch review data, then try again.');
      }
      let diff = review.changeRequestDiff(changeRequestId);
      if (!diff && online()) {
        diff = await review.loadChangeRequestDiff(api, changeRequestId).catch((e: unknown) => {
          log(`change request diff: ${describeError(e)}`);
          return null;
        });
      }
      const spaceTitles = titles();
      const fail = failures();
      const reasons: AttentionReason[] = [];
      return {
        changeRequest: changeRequestVM(cr, reasons, spaceTitles, fail),
        description: null,
        canMerge: cr.status === 'open',
        diff: (diff?.pages ?? []).map((p) => ({
          pageId: p.pageId,
          title: p.title,
          path: p.path,
          previousPath: p.previousPath,
          change: p.kind,
          before: p.before,
          after: p.after,
          linesAdded: p.linesAdded,
          linesRemoved: p.linesRemoved,
        })),
        threads: threads(review.comments({ changeRequestId, status: 'all' })),
      };
    },
    thread(spaceId, commentId) {
      const c = review.comment(commentId);
      if (!c || c.spaceId !== spaceId) throw new QuireError('not-found', 'That comment is not in the mirror any more; it may have been deleted.');
      return threads([c])[0]!;
    },
    act(input) {
      try {
        review.enqueue(input);
      } catch (e) {
        throw new QuireError('invalid-request', describeError(e));
      }
      if (online()) replayInBackground();
    },
    sites() {
      const orgTitles = new Map(mirror.catalog.organizations().map((o) => [o.id, o.title]));
      return review.siteTrees().map((s) => siteVM(s, orgTitles));
    },
    attentionIds() {
      const me = review.me()?.id;
      if (!me) return { commentsOnMyChangeRequests: [], repliesToMyComments: [] };
      const mine = new Set(
        review
          .changeRequests()
          .filter((cr) => cr.author?.id === me)
          .map((cr) => cr.id),
      );
      const all = review.comments({ status: 'all', includeClosedChangeRequests: true });
      const commentsOnMyChangeRequests = all.filter((c) => c.changeRequestId && mine.has(c.changeRequestId) && c.author?.id !== me).map((c) => c.id);
      const myComments = all.filter((c) => c.author?.id === me).map((c) => c.id);
      const repliesToMyComments = [...review.repliesFor(myComments).values()]
        .flat()
        .filter((r) => r.author?.id !== me)
        .map((r) => r.id);
      return { commentsOnMyChangeRequests, repliesToMyComments };
    },
  };
}
