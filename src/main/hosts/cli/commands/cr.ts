import type { Mirror } from '../../../core/mirror';
import { type Blocker, changeRequestSummary, type ChangeRequestView, ReviewService } from '../../../core/review';
import { changeRequestTarget } from '../../../core/sync';
import { dirFlag, flag, has, spaceFlags, UsageError, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { changeRequestFor, parseNumber, tryApi, UNREACHABLE, whyNotRefreshed } from '../review-lookup';
import { safeField } from '../terminal-text';
import { act, ACTIONS, type CrContext } from '../cr-actions';
import { holdWords, localHolds } from '../cr-merge';
import { plural } from '../../../../shared/plural';
import { checkout } from '../cr-checkout';
import { run as runDiff } from '../cr-diff';
import { when } from '../../../../shared/when';

const STATUSES = ['open', 'draft', 'archived', 'merged', 'all'] as const;

/**
 * `quire cr list|show|diff|review|reviewers|merge|update|archive|reopen|edit|new|use …`: change
 * requests from the desktop. Listing and showing refresh first when the API answers (and say
 * since when the mirror is, when it does not); the actions are cr-actions.ts's.
 */
export async function run(args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  const [verb, ...rest] = args.positionals;
  if (verb === 'list') {
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    return list(args, io, ctx);
  }
  if (verb === 'show') {
    if (rest.length !== 1) throw new UsageError('quire cr show needs one change request number');
    return show(parseNumber(rest[0]), args, io, ctx);
  }
  if (verb === 'checkout') return checkout(rest, args, io, ctx);
  if (verb === 'diff') return runDiff(rest, args, io, ctx);
  if (verb && (ACTIONS as readonly string[]).includes(verb)) return act(verb as (typeof ACTIONS)[number], rest, args, io, ctx);
  throw new UsageError(`quire cr takes one of list, show, diff, ${ACTIONS.join(', ')}; got "${verb ?? ''}"`);
}

/** Refreshes review data when the API answers; otherwise says the list is the mirror's, as of when. */
async function refreshed(review: ReviewService, mirror: Pick<Mirror, 'catalog' | 'syncFolder'>, dir: string, io: CliIo, ctx: CrContext) {
  const { api, why } = await tryApi(ctx, mirror);
  let problem = why;
  if (api) {
    try {
      const { replay, refresh } = await review.sync(api, { signal: io.signal, sites: false });
      if (!refresh) problem = replay.unreachable ? UNREACHABLE : replay.stoppedBy;
    } catch (err) {
      if (io.signal.aborted) throw err;
      problem = whyNotRefreshed(err, dir);
    }
  }
  if (problem !== null) {
    const at = review.refreshedAt();
    io.stderr(`Showing the local mirror, ${at ? `last refreshed ${when(at)}` : 'never refreshed from the server'} (${safeField(problem)})`);
  }
  return problem === null ? api : null;
}

async function list(args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  const status = flag(args, 'status') ?? 'open';
  if (!(STATUSES as readonly string[]).includes(status))
    throw new UsageError(`--status takes one of ${STATUSES.join(', ')}; got "${status}"`, { usage: false });
  const dir = dirFlag(args);
  const mirror = ctx.openMirror(dir);
  try {
    const review = new ReviewService(mirror);
    await refreshed(review, mirror, dir, io, ctx);
    const [spaceId] = spaceFlags(args);
    const crs = review.changeRequests({ ...(spaceId ? { spaceId } : {}), ...(status === 'all' ? {} : { statuses: [status] }) });
    const targets = new Map(mirror.catalog.selectedSpaces().map((s) => [s.id, changeRequestTarget(mirror, s.id).changeRequestId]));
    if (has(args, 'json')) {
      const changeRequests = crs.map((cr) => ({ ...listJson(cr), receivesYourEdits: targets.get(cr.spaceId) === cr.id, ...reviewerJson(review, cr.id) }));
      io.stdout(JSON.stringify({ changeRequests }, null, 2));
      return EXIT.ok;
    }
    if (crs.length === 0) io.stdout(`No ${status === 'all' ? '' : `${status} `}change requests.`);
    for (const cr of crs) {
      const viewed = review.viewedPages(cr.id);
      const draft = review.pendingReview(cr.id);
      const notes = [
        cr.status,
        cr.outdated ? 'outdated' : '',
        cr.reviewRequested ? 'your review is requested' : '',
        targets.get(cr.spaceId) === cr.id ? 'your edits go here' : '',
        cr.pending ? 'pending' : '',
        draft ? `your pending review: ${plural(draft.comments.length, 'comment')}` : '',
        viewed ? `${viewed.viewed} of ${plural(viewed.total, 'page')} viewed` : '',
      ].filter(Boolean);
      const space = mirror.catalog.space(cr.spaceId)?.title ?? cr.spaceId;
      io.stdout(
        `#${cr.number} ${safeField(cr.subject) || '(no subject)'} — ${safeField(cr.createdBy?.displayName ?? 'unknown')} in ${safeField(space)} [${notes.join(', ')}]`,
      );
    }
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

const listJson = (cr: ChangeRequestView) => ({
  ...changeRequestSummary(cr),
  author: cr.createdBy?.displayName ?? null,
  updatedAt: cr.updatedAt,
  comments: cr.comments,
  reviewRequested: cr.reviewRequested,
  pending: cr.pending,
});

/** The reviewer's own state of a change request: pages viewed (null while its pages were never fetched) and the pending review. */
function reviewerJson(review: ReviewService, id: string) {
  const viewed = review.viewedPages(id);
  const draft = review.pendingReview(id);
  return {
    pagesViewed: viewed && { viewed: viewed.viewed, total: viewed.total },
    pendingReview: draft && { startedAt: draft.startedAt, comments: draft.comments.length },
  };
}

async function show(n: number, args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  const mirror = ctx.openMirror(dirFlag(args));
  try {
    const review = new ReviewService(mirror);
    const { api, why } = await tryApi(ctx, mirror);
    const cr = await changeRequestFor(review, mirror, args, n, api, io.signal);
    let diffNote: string | null = null;
    if (api) {
      try {
        // The change request itself, and the rules that gate its merge, as the server has them now.
        await review.readChangeRequest(api, cr.id, io.signal);
        await review.readMergeRules(api, cr.spaceId, io.signal);
        await review.refreshReviews(api, cr.id, io.signal);
        await review.loadChangeRequestDiff(api, cr.id);
      } catch (err) {
        if (io.signal.aborted) throw err;
        diffNote = whyNotRefreshed(err, dirFlag(args));
      }
    } else diffNote = why;
    if (diffNote !== null) io.stderr(`Showing the local mirror (${safeField(diffNote)})`);
    const current = review.changeRequest(cr.id)!;
    const reviews = review.reviews(cr.id);
    const reviewers = review.requestedReviewers(cr.id);
    // A page the folder has is named by its file there; one only the change request has, by its path on the server.
    const pages =
      (review.changeRequestDiff(cr.id)?.pages ?? null)?.map((p) => ({ ...p, path: mirror.folder.node(cr.spaceId, p.pageId)?.path ?? p.path })) ?? null;
    const comments = review.comments({ changeRequestId: cr.id });
    const viewed = new Map((review.viewedPages(cr.id)?.pages ?? []).map((p) => [p.pageId, p]));
    const holds = localHolds(mirror, review, current);
    const blockers = {
      merge: review.blockers(cr.id, 'merge'),
      update: review.blockers(cr.id, 'update'),
      mergeLocally: holds.map((h) => ({ code: h.code, message: holdWords(h) })),
    };
    const draft = review.pendingReview(cr.id);
    const target = changeRequestTarget(mirror, cr.spaceId);
    const description = review.description(cr.id);
    if (has(args, 'json')) {
      io.stdout(
        JSON.stringify(
          {
            ...listJson(current),
            description,
            receivesYourEdits: target.changeRequestId === cr.id,
            reviews: reviews.map((r) => ({ reviewer: r.reviewer.displayName, status: r.status, outdated: r.outdated, comment: r.comment, at: r.at })),
            requestedReviewers: reviewers.map((r) => ({
              id: r.id,
              displayName: r.displayName,
              requestedBy: r.requestedBy?.displayName ?? null,
              pending: r.pending,
            })),
            pages:
              pages?.map((p) => ({
                pageId: p.pageId,
                title: p.title,
                change: p.kind,
                path: p.path,
                previousPath: p.previousPath,
                viewed: viewed.get(p.pageId)?.viewed ?? false,
                changedSinceViewed: viewed.get(p.pageId)?.changedSinceViewed ?? false,
              })) ?? null,
            openComments: comments.length,
            blockers,
            ...reviewerJson(review, cr.id),
          },
          null,
          2,
        ),
      );
      return EXIT.ok;
    }
    const space = mirror.catalog.space(cr.spaceId)?.title ?? cr.spaceId;
    const lines = [
      `#${current.number} ${safeField(current.subject) || '(no subject)'}`,
      `  ${current.status}${current.outdated ? ', behind main (outdated)' : ''}${current.pending ? ', changes pending' : ''} — in ${safeField(space)}, by ${safeField(current.createdBy?.displayName ?? 'unknown')}${current.updatedAt ? `, updated ${when(current.updatedAt)}` : ''}`,
      ...(target.changeRequestId === cr.id ? ['  your edits of this space go here'] : []),
      ...(description ? ['  description:', ...description.split('\n').map((l) => `    ${safeField(l)}`)] : []),
      reviews.length ? '  reviews:' : '  reviews: none yet',
      ...reviews.map(
        (r) =>
          `    ${safeField(r.reviewer.displayName)} ${r.status === 'approved' ? 'approved' : 'requested changes'}${r.outdated ? ' (outdated)' : ''}${r.comment ? `: ${safeField(r.comment.split('\n')[0] ?? '')}` : ''}`,
      ),
      reviewers.length
        ? `  requested reviewers: ${reviewers.map((r) => `${safeField(r.displayName)}${r.pending ? ` (${r.pending === 'add' ? 'asking' : 'withdrawing'}, pending)` : ''}`).join(', ')}`
        : '  requested reviewers: none',
      pages === null
        ? '  pages changed: not fetched yet (the API was not reachable)'
        : `  pages changed (${pages.length}), ${[...viewed.values()].filter((v) => v.viewed).length} of ${pages.length} viewed:`,
      ...(pages ?? []).map(
        (p) =>
          `    ${p.kind.padEnd(8)} ${safeField(p.title)}${p.path ? ` (${safeField(p.path)})` : ''}${p.previousPath ? ` from ${safeField(p.previousPath)}` : ''}${viewedMark(viewed.get(p.pageId))}`,
      ),
      `  open comments: ${comments.length}`,
      ...(draft ? [`  your pending review: ${plural(draft.comments.length, 'comment')} (\`quire cr review ${current.number} --pending\` lists them)`] : []),
      `  merge: ${blockerText(blockers.merge)}`,
      ...(holds.length > 0 ? [`  merge held back here: ${holds.map(holdWords).join('; ')} (\`--force\` goes past it)`] : []),
      ...(current.outdated ? [`  update from main: ${blockerText(blockers.update)}`] : []),
    ];
    io.stdout(lines.join('\n'));
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

function viewedMark(v: { viewed: boolean; changedSinceViewed: boolean } | undefined): string {
  if (v?.viewed) return ' — viewed';
  return v?.changedSinceViewed ? ' — changed since you viewed it' : '';
}

function blockerText(blockers: Blocker[]): string {
  if (blockers.length === 0) return 'possible';
  return `blocked — ${blockers.map((b) => safeField(b.message)).join('; ')}`;
}
