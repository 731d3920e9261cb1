/**
 * Mirrors review and site state. Incremental: a refresh lists the change
 * requests of each organization's refreshed spaces and their counts of open
 * comments (three listings per organization, see listings.ts), then fetches
 * only what those lists show has changed: a space's own comments where it has
 * open ones (or the mirror still holds some open), the comments of a change
 * request whose `updatedAt` or open-comment count moved, the replies of a
 * comment whose reply count or latest replier moved, and page diffs of change
 * requests whose revisions moved (not by this folder's own push alone: that diff
 * is fetched when opened). With nothing changed that is three list requests per
 * organization, plus the comment lists of the `sweep` (see below), plus one for
 * the signed-in user.
 */
import type { ApiClient } from '../api';
import { withRequestCount } from '../api';
import {
  changeRequestFingerprint,
  commentFingerprint,
  type Mirror,
  type RemoteChangeRequest,
  type RemoteComment,
  type RemoteReply,
  type RemoteUser,
  type ReviewRecords,
} from '../mirror';
import { ensureAnchors } from './anchors';
import { refreshDiff } from './diff-fetch';
import { refreshReviewsOf } from './lifecycle';
import { listChangeRequests, type SpaceListing } from './listings';
import { mirrorSites } from './sites';
import { refreshTranslations } from '../translations';

const DEFAULT_SWEEP = 2;
/** How long sent and dismissed actions stay on record (they map offline ids to server ids). */
const FINISHED_ACTIONS_KEPT_MS = 7 * 24 * 3600_000;

export interface RefreshOptions {
  /** Spaces to refresh; default: the spaces selected for sync. */
  spaceIds?: string[];
  /** Also mirror the sites and translations of the spaces' organizations. Default true. */
  sites?: boolean;
  /** Prefetch page diffs of open and draft change requests whose revisions moved. Default true. */
  diffs?: boolean;
  /** Ignore what the mirror knows: list every change request's comments and every comment's replies. */
  full?: boolean;
  /**
   * Replies, reactions and edits on a change request's comments leave the change
   * request's `updatedAt` and open-comment count alone, so each refresh also lists
   * the comments of this many open change requests per space, those checked longest
   * ago, so such changes arrive within a bounded number of refreshes. Likewise the
   * own comments of this many spaces, listed longest ago: a comment resolved before a
   * refresh saw it open, or a resolved one edited or deleted, moves no count. Default 2.
   */
  sweep?: number;
  signal?: AbortSignal;
}

export interface RefreshReport {
  spaces: number;
  changeRequests: number;
  comments: number;
  replies: number;
  sites: number;
  /** Change requests whose comments were listed again. */
  changeRequestsRelisted: number;
  /** Comments whose replies were listed again. */
  commentsRelisted: number;
  /** Change requests whose reviews and requested reviewers were listed. */
  reviewsListed: number;
  diffsFetched: number;
  requests: number;
  ms: number;
}

interface Context {
  api: ApiClient;
  mirror: Mirror;
  store: ReviewRecords;
  options: RefreshOptions;
  report: RefreshReport;
  /** The spaces whose own comments are listed whatever their count says (the sweep). */
  sweptSpaces: ReadonlySet<string>;
}

/** One refresh; its report counts the requests it sent itself (a sync cycle may run beside it). */
export function refreshReview(api: ApiClient, mirror: Mirror, options: RefreshOptions = {}): Promise<RefreshReport> {
  return withRequestCount((requests) => refreshCounted(api, mirror, options, requests));
}

async function refreshCounted(api: ApiClient, mirror: Mirror, options: RefreshOptions, requests: () => number): Promise<RefreshReport> {
  const store = mirror.reviewRecords;
  const started = performance.now();
  const report: RefreshReport = {
    spaces: 0,
    changeRequests: 0,
    comments: 0,
    replies: 0,
    sites: 0,
    changeRequestsRelisted: 0,
    commentsRelisted: 0,
    reviewsListed: 0,
    diffsFetched: 0,
    requests: 0,
    ms: 0,
  };
  const spaces = options.spaceIds
    ? options.spaceIds.map((id) => ({ id, organizationId: mirror.catalog.space(id)?.organizationId ?? null }))
    : mirror.catalog.selectedSpaces().map((s) => ({ id: s.id, organizationId: s.organizationId }));
  const sweptSpaces = new Set(
    store.spaceCommentLists.longestUnlisted(
      spaces.map((s) => s.id),
      options.sweep ?? DEFAULT_SWEEP,
    ),
  );
  const ctx: Context = { api, mirror, store, options, report, sweptSpaces };
  // Sites need nothing of the rest: listed beside it from the start, not after it.
  const orgs = [...new Set(spaces.map((s) => s.organizationId).filter((o): o is string => !!o))];
  const sitesListed = options.sites === false ? Promise.resolve([]) : Promise.all(orgs.map((org) => mirrorSites(api, mirror, org)));
  sitesListed.catch(() => undefined); // awaited below
  // Translations beside them; an organization without the feature (or the right to list it) keeps what was listed before.
  const translationsListed =
    options.sites === false ? Promise.resolve() : Promise.all(orgs.map((org) => refreshTranslations(api, mirror, org, options.signal).catch(() => undefined)));

  const me = await api.call<RemoteUser>((c, params) => c.user.getAuthenticatedUser(params), { signal: options.signal });
  mirror.transaction(() => store.setMe(me));

  const listed = listChangeRequests(api, spaces, me.id, mirror.catalog.spaceCounts(), options.signal);
  listed.catch(() => undefined); // awaited by each space's refresh
  await Promise.all(spaces.map((s) => refreshSpace(ctx, s.id, listed)));
  report.spaces = spaces.length;
  const ids = spaces.map((s) => s.id);
  report.changeRequests = store.count('change_requests', ids);
  report.comments = store.count('comments', ids);
  report.replies = store.count('replies', ids);
  if (!options.spaceIds) mirror.transaction(() => store.forgetSpacesExcept(ids));

  report.sites = (await sitesListed).reduce((a, b) => a + b, 0);
  await translationsListed;
  options.signal?.throwIfAborted();
  mirror.transaction(() => {
    store.setRefreshedAt(new Date().toISOString());
    mirror.revisionPages.prune();
    mirror.commentAnchors.prune();
    mirror.reviewActions.pruneFinishedActions(new Date(Date.now() - FINISHED_ACTIONS_KEPT_MS).toISOString());
  });

  report.requests = requests();
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** `listed` holds every refreshed space's change requests (listings.ts); this space's comments are listed beside it. */
async function refreshSpace(ctx: Context, spaceId: string, listed: Promise<Map<string, SpaceListing>>): Promise<void> {
  const { api, mirror, store, options } = ctx;
  options.signal?.throwIfAborted();
  const call = { signal: options.signal };
  const { changeRequests, awaitingMe: reviewRequested, openComments } = (await listed).get(spaceId)!;
  const spaceComments = ownCommentsToList(ctx, spaceId, openComments)
    ? await api.listAll<RemoteComment>(
        (c, query, params) => c.spaces.listCommentsInSpace(spaceId, { ...query, status: 'all', format: 'markdown' }, params),
        call,
      )
    : null;

  const known = store.changeRequestStates(spaceId);
  // No change request, listed or known, and no comment list: nothing to write (most spaces, most refreshes).
  if (changeRequests.length === 0 && known.size === 0 && !spaceComments) return;
  const relist: RemoteChangeRequest[] = [];
  let relistedByFingerprint = 0;
  const diffs: RemoteChangeRequest[] = [];
  const repliesToFetch: { commentId: string; changeRequestId: string | null; fingerprint: string }[] = [];
  mirror.transaction(() => {
    const seen = new Set<string>();
    for (const cr of changeRequests) {
      if (seen.has(cr.id)) continue;
      seen.add(cr.id);
      const before = known.get(cr.id);
      store.putChangeRequest(spaceId, cr, reviewRequested.has(cr.id));
      if (options.full || before?.commentsFingerprint !== changeRequestFingerprint(cr)) relist.push(cr);
      if (options.diffs !== false && (cr.status === 'open' || cr.status === 'draft')) {
        const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
        if (base && cr.revision && before?.diffFingerprint !== `${base}..${cr.revision}`) diffs.push(cr);
      }
    }
    for (const id of known.keys()) if (!seen.has(id)) store.deleteChangeRequest(id);
    const sweep = options.sweep ?? DEFAULT_SWEEP;
    const listed = new Set(relist.map((cr) => cr.id));
    const byId = new Map(changeRequests.map((cr) => [cr.id, cr]));
    const swept = store
      .longestUnlisted(spaceId, sweep + listed.size)
      .filter((id) => !listed.has(id))
      .slice(0, sweep);
    relistedByFingerprint = relist.length;
    for (const id of swept) relist.push(byId.get(id)!);
    if (spaceComments) {
      repliesToFetch.push(...mergeComments(ctx, spaceId, null, spaceComments));
      store.spaceCommentLists.setListed(spaceId);
    }
  });

  // Reviews and review requests move a change request's updatedAt: those whose fingerprint moved (not the sweep's).
  const swept = new Set(relist.slice(relistedByFingerprint).map((cr) => cr.id));
  const reviewed = new Set(relist.filter((cr) => (cr.status === 'open' || cr.status === 'draft') && !swept.has(cr.id)).map((cr) => cr.id));
  for (const cr of changeRequests) if ((cr.status === 'open' || cr.status === 'draft') && !mirror.reviewers.reviewsKnown(cr.id)) reviewed.add(cr.id);
  const reviewsListed = Promise.all([...reviewed].map((id) => refreshReviewsOf(api, mirror, spaceId, id, options.signal)));
  reviewsListed.catch(() => undefined); // awaited below

  await Promise.all(
    relist.map(async (cr) => {
      const comments = await api.listAll<RemoteComment>(
        (c, query, params) => c.spaces.listCommentsInChangeRequest(spaceId, cr.id, { ...query, status: 'all', format: 'markdown' }, params),
        call,
      );
      mirror.transaction(() => {
        repliesToFetch.push(...mergeComments(ctx, spaceId, cr.id, comments));
        store.setCommentsFingerprint(cr.id, changeRequestFingerprint(cr));
      });
      ctx.report.changeRequestsRelisted += 1;
    }),
  );

  await Promise.all(
    repliesToFetch.map(async ({ commentId, changeRequestId, fingerprint }) => {
      const replies = await api.listAll<RemoteReply>(
        (c, query, params) =>
          changeRequestId
            ? c.spaces.listCommentRepliesInChangeRequest(spaceId, changeRequestId, commentId, { ...query, format: 'markdown' }, params)
            : c.spaces.listCommentRepliesInSpace(spaceId, commentId, { ...query, format: 'markdown' }, params),
        call,
      );
      mirror.transaction(() => {
        const stale = store.serverReplyIds(commentId);
        for (const r of replies) {
          stale.delete(r.id);
          store.putReply(spaceId, commentId, r);
        }
        for (const id of stale) store.dropServerReply(id);
        store.setRepliesFingerprint(commentId, fingerprint);
      });
      ctx.report.commentsRelisted += 1;
    }),
  );

  await reviewsListed;
  ctx.report.reviewsListed += reviewed.size;

  for (const cr of diffs) {
    if (ownEditOnly(mirror, spaceId, cr)) continue;
    options.signal?.throwIfAborted();
    await refreshDiff(api, mirror, spaceId, cr);
    ctx.report.diffsFetched += 1;
  }
  // Where new threads on a block were made (most cost nothing: made on a revision just stored).
  const reviewable = [...relist, ...diffs].filter((cr) => cr.status === 'open' || cr.status === 'draft');
  for (const id of new Set(reviewable.map((cr) => cr.id))) await ensureAnchors(api, mirror, id, options.signal);
}

/**
 * A space's own comments are listed where the server counts open ones, where the mirror still
 * holds one open (resolved or deleted since), where the count is not known (its organization's
 * spaces were not listed), in a full refresh, and for the sweep: elsewhere nothing is open, and
 * nothing that was is left to close.
 */
function ownCommentsToList(ctx: Context, spaceId: string, openComments: number | null): boolean {
  if (ctx.options.full || openComments === null || openComments > 0 || ctx.sweptSpaces.has(spaceId)) return true;
  return ctx.store.spaceCommentLists.holdsOpen(spaceId);
}

/**
 * The change request this folder's sync writes into, at the head its own last push made, with no
 * thread on a line (whose line now its head's files tell): its diff is the writer's own edit,
 * fetched when opened, not after each push — a head's page list is the whole tree (15 MB over
 * 20,000 pages, for a one-page edit).
 */
function ownEditOnly(mirror: Pick<Mirror, 'outbox' | 'reviewViews'>, spaceId: string, cr: RemoteChangeRequest): boolean {
  const own = mirror.outbox.pushedHead(spaceId);
  if (own?.changeRequestId !== cr.id || own.revision !== cr.revision) return false;
  return !mirror.reviewViews.comments({ changeRequestId: cr.id, status: 'all' }).some((c) => c.nodeId !== null);
}

/**
 * Writes a complete comment list (of the space's main content, or of one change
 * request) and forgets server comments missing from it. Returns the comments
 * whose replies must be listed again.
 */
function mergeComments(
  ctx: Context,
  spaceId: string,
  changeRequestId: string | null,
  comments: RemoteComment[],
): { commentId: string; changeRequestId: string | null; fingerprint: string }[] {
  const { store, options } = ctx;
  const known = store.knownComments(spaceId, changeRequestId);
  const stale: { commentId: string; changeRequestId: string | null; fingerprint: string }[] = [];
  for (const c of comments) {
    const before = known.get(c.id);
    known.delete(c.id);
    store.putComment(spaceId, changeRequestId ?? c.target?.changeRequest ?? null, c);
    const fingerprint = commentFingerprint(c);
    if ((c.replies ?? 0) === 0 && !options.full) {
      // Nothing to list; but a comment that had replies lost them.
      if (before !== fingerprint) {
        for (const id of store.serverReplyIds(c.id)) store.dropServerReply(id);
        store.setRepliesFingerprint(c.id, fingerprint);
      }
    } else if (options.full || before !== fingerprint) stale.push({ commentId: c.id, changeRequestId, fingerprint });
  }
  for (const id of known.keys()) store.dropServerComment(id);
  return stale;
}
