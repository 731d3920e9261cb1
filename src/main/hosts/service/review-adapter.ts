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
import {
  type CadenceReport,
  type FollowReport,
  followCheckouts,
  ReviewService,
  type ActionInput,
  type ActionRecord,
  type CommentView,
  type ThreadPlace,
} from '../../core/review';
import { describeError } from './errors';
import { changeRequestVM, commentVM, mergeHoldVM, replyVM, requestedReviewerVM, reviewVM, siteVM, type CommentLookups } from './review-view-models';
import type { AttentionSnapshot } from './types';
import type { ActOutcomeVM, ChangeRequestActionsVM, MergeHoldVM } from '../../../shared/contract';
import { mergeHolds } from '../../core/check';
import { changeRequestTarget } from '../../core/sync';
import type { LifecycleAction } from '../../core/review';

const ACTIONS: (keyof ChangeRequestActionsVM & LifecycleAction)[] = ['merge', 'update', 'archive', 'reopen', 'edit', 'review', 'reviewers', 'comment'];

/** The review core seen through the contract's view models. */
export interface ReviewAdapter {
  /** What the request handlers of review-lifecycle.ts act on. */
  readonly core: { review: ReviewService; api: ApiClient; mirror: Pick<Mirror, 'reviewActions'> };
  /** What review after a sync cycle did (core/continuous runs it on its cadence); null: it failed. */
  reviewed(report: CadenceReport | null): void;
  /** Checkouts brought up to date after a sync cycle, said in the log. */
  followed(report: FollowReport): void;
  /** Sends what is queued, then refreshes everything now; false when the API could not be reached. */
  refreshNow(signal?: AbortSignal): Promise<boolean>;
  /** Whether the last refresh attempt reached the server. */
  reachedServer(): boolean;
  /** Queues an action (shown pending at once, views told), then, online, sends the queue and says what became of it. */
  actNow(input: ActionInput): Promise<ActOutcomeVM>;
  /** Comments and replies with the lookups their view models need. */
  threads(list: CommentView[]): ThreadVM[];
  lookups(): CommentLookups;
  pendingCount(): number;
  attention(): ChangeRequestVM[];
  comments(filter: Params<'review.comments'>): CommentVM[];
  changeRequest(spaceId: string, changeRequestId: string): Promise<ChangeRequestDetailVM>;
  thread(spaceId: string, commentId: string): ThreadVM;
  /** Queues an action (its effect shows at once, flagged pending) and sends the queue in the background. */
  act(input: ActionInput): void;
  sites(): SiteVM[];
  attentionIds(): Omit<AttentionSnapshot, 'conflicts'>;
  /** What in the folder holds the change request's merge back, as far as its pages are known. */
  mergeHolds(changeRequestId: string): MergeHoldVM[];
}

export function createReviewAdapter(api: ApiClient, mirror: Mirror, online: () => boolean, onChange: () => void, log: (line: string) => void): ReviewAdapter {
  const review = new ReviewService(mirror);
  let replaying: Promise<void> | null = null;
  let replayAgain = false;
  let reached = true;

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
          reached = (await review.replay(api)).stoppedBy === null;
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

  /** A page's file in its space folder, when the folder has it (for links to the Pages view and the preview). */
  const pagePaths = () => {
    const seen = new Map<string, string | null>();
    return (spaceId: string, pageId: string): string | null => {
      const key = `${spaceId}/${pageId}`;
      if (!seen.has(key)) seen.set(key, mirror.folder.node(spaceId, pageId)?.path ?? null);
      return seen.get(key) ?? null;
    };
  };

  /** Where comments on a line show now, read once per change request per answer. */
  const places = () => {
    const byChangeRequest = new Map<string, Map<string, ThreadPlace>>();
    return (c: CommentView): ThreadPlace | null => {
      if (!c.nodeId || !c.changeRequestId) return null;
      let known = byChangeRequest.get(c.changeRequestId);
      if (!known) {
        known = review.threadPlaces(c.changeRequestId);
        byChangeRequest.set(c.changeRequestId, known);
      }
      return known.get(c.id) ?? null;
    };
  };

  const commentLookups = (): CommentLookups => ({
    spaceTitles: titles(),
    crNumbers: crNumbers(),
    failures: failures(),
    pageTitle: pageTitles(),
    pagePath: pagePaths(),
    kept: new Set(review.actions(['draft']).flatMap((a) => (a.commentId ? [a.commentId] : []))),
    place: places(),
  });

  const holdsOf = (changeRequestId: string): MergeHoldVM[] => {
    const cr = review.changeRequest(changeRequestId);
    const pages = review.changeRequestDiff(changeRequestId)?.pages ?? [];
    if (!cr || cr.status === 'merged' || cr.status === 'archived') return [];
    return mergeHolds(
      mirror,
      cr.spaceId,
      pages.map((p) => ({ pageId: p.pageId, title: p.title, kind: p.kind })),
    ).map(mergeHoldVM);
  };

  const threads = (list: CommentView[]): ThreadVM[] => {
    const lookups = commentLookups();
    const replies = review.repliesFor(list.map((c) => c.id));
    return list.map((c) => ({
      ...commentVM(c, lookups),
      replies: (replies.get(c.id) ?? []).map((r) => replyVM(r, lookups.failures)),
    }));
  };

  /** Checkouts of this folder's change requests (`quire cr checkout`) follow their latest revision, as under `quire sync`. */
  const follow = async (signal?: AbortSignal): Promise<void> => {
    if (mirror.checkouts.list().length === 0) return;
    followed(await followCheckouts(api, mirror, signal));
  };
  const followed = (report: FollowReport): void => {
    for (const c of report.updated)
      log(
        `checkout of #${c.changeRequest.number} in ${c.folder}: at its latest revision (${c.written} files written, ${c.removed} removed${c.kept.length ? `; kept as changed there: ${c.kept.join(', ')}` : ''})`,
      );
    for (const d of report.dropped) log(`${d.folder} no longer holds its checkout: no longer kept current`);
    for (const f of report.failed) log(`checkout in ${f.folder} not brought up to date: ${describeError(f.error)}`);
  };

  return {
    core: { review, api, mirror },
    reviewed(report) {
      reached = report !== null && report.replay.stoppedBy === null;
    },
    followed,
    async refreshNow(signal) {
      try {
        const { refresh } = await review.sync(api, { signal });
        reached = refresh !== null;
        if (reached) await follow(signal);
      } catch (e) {
        if (signal?.aborted) throw e;
        log(`review refresh: ${describeError(e)}`);
        reached = false;
      }
      onChange();
      return reached;
    },
    reachedServer: () => reached,
    async actNow(input) {
      let action: ActionRecord;
      try {
        action = review.enqueue(input);
      } catch (e) {
        throw new QuireError('invalid-request', describeError(e));
      }
      onChange();
      if (action.state === 'draft') {
        return {
          outcome: 'pending',
          message: 'Kept in your pending review: it is sent with your verdict.',
          targetId: review.targetOf(action),
          actionId: action.id,
        };
      }
      if (action.state === 'dismissed') {
        return { outcome: 'withdrawn', message: 'It had not been sent yet: it is withdrawn, nothing reaches the server.', targetId: null, actionId: action.id };
      }
      if (online()) {
        try {
          // An action that could not be sent says the server is out of reach: the views say so too.
          reached = (await review.replay(api)).stoppedBy === null;
        } catch (e) {
          log(`review replay: ${describeError(e)}`);
        }
        onChange();
      }
      const now = mirror.reviewActions.action(action.id)!;
      if (now.state === 'draft') {
        return { outcome: 'pending', message: 'Kept in your pending review: it is sent with your verdict.', targetId: review.targetOf(now), actionId: now.id };
      }
      const outcome: ActOutcomeVM['outcome'] = now.state === 'done' ? 'sent' : now.state === 'refused' ? 'refused' : 'queued';
      const message = outcome === 'queued' ? (now.message ?? 'Offline: it is sent when the API is back.') : now.message;
      return { outcome, message, targetId: review.targetOf(now), actionId: now.id };
    },
    threads,
    lookups: commentLookups,
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
          if (cr.createdBy?.id === me) reasons.push('mine');
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
      let files = review.changeRequestFiles(changeRequestId);
      // Fetched when missing, or when the change request moved since (a push of this folder's own moves it without a fetch: review/refresh.ts).
      const current = files !== null && files.baseRevision === cr.baseRevision && files.headRevision === cr.revision;
      if (!current && online()) {
        await review.loadChangeRequestDiff(api, changeRequestId).catch((e: unknown) => log(`change request diff: ${describeError(e)}`));
        files = review.changeRequestFiles(changeRequestId);
      }
      // Where its threads on a line were made (from the mirror when it can; from the server for the rest, online).
      await review.ensureAnchors(online() ? api : null, changeRequestId).catch((e: unknown) => log(`change request threads: ${describeError(e)}`));
      const spaceTitles = titles();
      const fail = failures();
      const reasons: AttentionReason[] = [];
      const blocks = review.pageBlocks(
        changeRequestId,
        (files?.pages ?? []).filter((p) => p.after !== null).map((p) => p.pageId),
      );
      const actions = Object.fromEntries(ACTIONS.map((a) => [a, review.blockers(changeRequestId, a)])) as unknown as ChangeRequestActionsVM;
      const viewed = new Map((review.viewedPages(changeRequestId)?.pages ?? []).map((v) => [v.pageId, v]));
      const pending = review.pendingReview(changeRequestId);
      return {
        changeRequest: changeRequestVM(cr, reasons, spaceTitles, fail),
        description: review.description(changeRequestId),
        canMerge: actions.merge.length === 0,
        reviews: review.reviews(changeRequestId).map(reviewVM),
        requestedReviewers: review.requestedReviewers(changeRequestId).map(requestedReviewerVM),
        actions,
        receivesYourEdits: changeRequestTarget(mirror, cr.spaceId).changeRequestId === changeRequestId,
        diff: (files?.pages ?? []).map((p) => ({
          pageId: p.pageId,
          title: p.title,
          path: p.path,
          previousPath: p.previousPath,
          change: p.change,
          relocation: p.relocation,
          blocks: (blocks.get(p.pageId) ?? []).map(({ start, end, depth }) => ({ start, end, depth })),
          before: p.before,
          after: p.after,
          linesAdded: p.linesAdded,
          linesRemoved: p.linesRemoved,
          viewed: viewed.get(p.pageId)?.viewed ?? false,
          changedSinceViewed: viewed.get(p.pageId)?.changedSinceViewed ?? false,
        })),
        threads: threads(review.comments({ changeRequestId, status: 'all' })),
        pendingReview: pending && { startedAt: pending.startedAt, comments: pending.comments.length },
        mergeHolds: holdsOf(changeRequestId),
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
    mergeHolds: holdsOf,
    attentionIds() {
      const me = review.me()?.id;
      if (!me) return { commentsOnMyChangeRequests: [], repliesToMyComments: [] };
      const mine = new Set(
        review
          .changeRequests()
          .filter((cr) => cr.createdBy?.id === me)
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
