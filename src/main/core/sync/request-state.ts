/**
 * The change request Quire writes into, per space: where it stands (one request), creating it
 * on first need, finding it again after a create whose answer was lost, and bringing main's
 * newer changes into it. Which one it is, and when a new topic opens a new one, is targets.ts's.
 *
 * The create is recorded first (with its subject and when), so if the answer is lost, the next
 * run finds the change request the user opened with that subject since then, instead of
 * creating a second one.
 */
import type { ChangeRequest, ChangeRequestStatus, User } from '@gitbook/api';
import { type ApiClient, ApiError, NetworkError } from '../api';
import type { Mirror } from '../mirror';
import { changeRequestSubject, subjectItemsOf } from './change-request';
import type { PushStore } from './outbox';
import type { ChangeRequestState, PushOp } from './plan';

export interface PushContext {
  api: ApiClient;
  mirror: Pick<Mirror, 'content' | 'log' | 'reviewRecords'>;
  store: PushStore;
  spaceId: string;
  signal?: AbortSignal;
  now?: () => string;
}

export interface PushReport {
  changeRequest: { id: string; number: number } | null;
  /** Content batches sent (and applied). */
  batches: number;
  /** Changes applied. */
  changes: number;
  refused: { path: string; message: string }[];
  /** The change request was rebased onto main during this push. */
  rebased?: boolean;
  /** Pages created by this push: new-page key -> the id the server gave. */
  created: Map<string, string>;
  /** Keys (page ids and new-page keys) whose changes the server applied. */
  applied: Set<string>;
  /** Assets the server took (their paths). */
  uploaded: string[];
}

/** The change request was merged or closed while Quire was writing into it (or set aside for a new topic): the edits go into a new one. */
export class ChangeRequestGoneError extends Error {
  override name = 'ChangeRequestGoneError';
}

/** How far back a change request found after a lost create may have been created (clock skew). */
const SKEW_MS = 10 * 60_000;

export const nowIso = (ctx: PushContext) => (ctx.now ?? (() => new Date().toISOString()))();

/** Where the change request Quire writes into stands now (one request when there is one). */
export async function changeRequestState(ctx: PushContext): Promise<ChangeRequestState> {
  return (await changeRequestInfo(ctx)).state;
}

/** Where the change request stands: its state, the revision of main it is based on, and the one its merge made (null when none). */
export interface ChangeRequestInfo {
  state: ChangeRequestState;
  baseRevision: string | null;
  mergedRevision: string | null;
}

/** Where the change request Quire writes into stands (one request when there is one). */
export async function changeRequestInfo(ctx: PushContext): Promise<ChangeRequestInfo> {
  let row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state === 'creating') {
    await settleCreate(ctx);
    row = ctx.store.changeRequest(ctx.spaceId);
  }
  if (!row || row.changeRequestId === null) return { state: 'none', baseRevision: null, mergedRevision: null };
  const crId = row.changeRequestId;
  try {
    const cr = await ctx.api.call<ChangeRequest>((c, p) => c.spaces.getChangeRequestById(ctx.spaceId, crId, p), { signal: ctx.signal });
    const baseRevision = cr.revisionMergedAncestor ?? cr.revisionInitial ?? null;
    if (cr.status === 'merged') return { state: 'merged', baseRevision, mergedRevision: cr.revisionMerged ?? null };
    return { state: cr.status === 'archived' ? 'closed' : 'open', baseRevision, mergedRevision: null };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { state: 'closed', baseRevision: null, mergedRevision: null };
    throw err;
  }
}

/** A rebase done: whether GitBook found pages changed on both sides (`conflicts`), which its editor settles, with the words that say so. */
export interface Rebased {
  conflicts: string | null;
}

/**
 * Brings main's newer changes into the open change request (the API's "update", a rebase;
 * never a merge into main), so pages added to main since it was opened can be edited in
 * it. Changes refused before may go through now: they are tried again. Null: not done.
 */
export async function rebaseChangeRequest(ctx: PushContext): Promise<Rebased | null> {
  const row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state !== 'open' || row.changeRequestId === null) return null;
  const crId = row.changeRequestId;
  let answer: { result?: unknown };
  try {
    answer = await ctx.api.call<{ result?: unknown }>((c, p) => c.spaces.updateChangeRequest(ctx.spaceId, crId, p), { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return null;
    throw err;
  }
  ctx.store.clearAllRefused(ctx.spaceId);
  if (answer?.result === 'conflicts') {
    const conflicts = `main's latest changes came into change request #${row.number} with conflicts (a page changed there and on main): settle them in the change request in GitBook's editor before it is merged`;
    ctx.mirror.log.add('conflict', conflicts, ctx.spaceId);
    return { conflicts };
  }
  ctx.mirror.log.add('info', `brought main's latest changes into change request #${row.number}`, ctx.spaceId);
  return { conflicts: null };
}

/** A create whose answer was lost: adopt the change request it made (found by author, subject and time), or forget the attempt. */
async function settleCreate(ctx: PushContext): Promise<{ id: string; number: number } | null> {
  const row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state !== 'creating') return null;
  const open = await ctx.api.listAll<ChangeRequest>(
    (c, q, p) => c.spaces.listChangeRequestsForSpace(ctx.spaceId, { ...q, status: 'open' as ChangeRequestStatus }, p),
    { signal: ctx.signal },
  );
  // Ours: the user's, with the subject we sent, created since we sent it (the newest, should there be two).
  const me = ctx.mirror.reviewRecords.knowsMe()
    ? ctx.mirror.reviewRecords.me().id
    : (await ctx.api.call<User>((c, p) => c.user.getAuthenticatedUser(p), { signal: ctx.signal })).id;
  const since = Date.parse(row.createdAt) - SKEW_MS;
  const mine = open
    .filter((cr) => cr.createdBy?.id === me && cr.subject === row.subject && Date.parse(cr.createdAt) >= since)
    .sort((a, b) => b.number - a.number)[0];
  if (mine) {
    ctx.store.markOpen(ctx.spaceId, mine.id, mine.number);
    ctx.mirror.log.add('info', `found change request #${mine.number} created before the connection was lost`, ctx.spaceId);
    return { id: mine.id, number: mine.number };
  }
  // Never created: a change request the user asked for (`quire cr new`) is still to be opened, with their subject.
  if (row.chosen) ctx.store.planNew(ctx.spaceId, row.subjectByUser ? row.subject : null, row.createdAt);
  else ctx.store.forgetChangeRequest(ctx.spaceId);
  return null;
}

export async function ensureChangeRequest(ctx: PushContext, ops: readonly PushOp[]): Promise<{ id: string; number: number }> {
  let row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state === 'open' && row.changeRequestId !== null) {
    await routeNewTopics(ctx, ops);
    return { id: row.changeRequestId, number: row.number ?? 0 };
  }
  if (row?.state === 'creating') {
    const found = await settleCreate(ctx);
    if (found) return found;
    row = ctx.store.changeRequest(ctx.spaceId);
  }
  // A subject the user gave (`quire cr new --subject`) is the one; otherwise it says what the push holds.
  const subject = row?.subjectByUser ? row.subject : changeRequestSubject(subjectItemsOf(ops));
  ctx.store.beginCreate(ctx.spaceId, subject, nowIso(ctx));
  let cr: ChangeRequest;
  try {
    cr = await ctx.api.call<ChangeRequest>((c, p) => c.spaces.createChangeRequest(ctx.spaceId, { subject }, p), { signal: ctx.signal });
  } catch (err) {
    if (surelyNotApplied(err)) ctx.store.forgetChangeRequest(ctx.spaceId);
    throw err;
  }
  ctx.store.markOpen(ctx.spaceId, cr.id, cr.number);
  ctx.store.setStatusSeen(ctx.spaceId, cr.status);
  ctx.mirror.log.add('pushed', `opened change request #${cr.number}: ${subject}`, ctx.spaceId);
  return { id: cr.id, number: cr.number };
}

/**
 * Quire's own change request (not one the user chose) that went to review takes no new topic:
 * a push with a page it does not hold yet sets it aside and goes into a new one (the caller
 * plans again for it). Pushes that only touch its pages, or a page that exists only in it, stay.
 */
async function routeNewTopics(ctx: PushContext, ops: readonly PushOp[]): Promise<void> {
  const row = ctx.store.changeRequest(ctx.spaceId);
  if (!row?.changeRequestId || row.chosen) return;
  const held = ctx.store.pushedPages(ctx.spaceId);
  const ids = ops.flatMap((op) => (op.op === 'update' || op.op === 'delete' ? [op.id] : []));
  const newTopic = ops.some((op) => op.op === 'insert') || ids.some((id) => !held.has(id));
  const onlyInIt = ids.some((id) => held.has(id) && !held.get(id)!.deleted && !ctx.mirror.content.basePage(ctx.spaceId, id));
  if (!newTopic || onlyInIt) return;
  const crId = row.changeRequestId;
  const call = { signal: ctx.signal };
  const [cr, reviewers, reviews] = await Promise.all([
    ctx.api.call<ChangeRequest>((c, p) => c.spaces.getChangeRequestById(ctx.spaceId, crId, p), call),
    ctx.api.listAll<unknown>((c, q, p) => c.spaces.getRequestedReviewersByChangeRequestId(ctx.spaceId, crId, q, p), call),
    ctx.api.listAll<unknown>((c, q, p) => c.spaces.getReviewsByChangeRequestId(ctx.spaceId, crId, q, p), call),
  ]);
  const movedToReview = row.status === 'draft' && cr.status === 'open';
  if (!movedToReview && reviewers.length === 0 && reviews.length === 0) return;
  ctx.store.park(ctx.spaceId, nowIso(ctx));
  const words = `change request #${row.number} is under review, so new edits go into a new change request (to add them to #${row.number} instead, run \`quire cr use ${row.number} --space ${ctx.spaceId}\`)`;
  throw new ChangeRequestGoneError(`${words[0]!.toUpperCase()}${words.slice(1)}.`);
}

/**
 * True only when the server surely did not apply a write: it answered with an error
 * other than a gateway's, or the request never left. A cancelled or timed-out write,
 * a dropped connection or a 5xx from a gateway may have been applied.
 */
export function surelyNotApplied(err: unknown): boolean {
  if (err instanceof NetworkError) return !err.mayHaveBeenApplied;
  return err instanceof ApiError && (err.status < 500 || err.status === 503);
}
