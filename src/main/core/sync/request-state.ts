/**
 * The change request Quire writes into, per space: where it stands (one request), creating it
 * on first need, finding it again after a create whose answer was lost, and bringing main's
 * newer changes into it.
 *
 * The change request is created with a subject ending in a marker; the create is recorded
 * first, so if the answer is lost, the next run finds the change request by its marker instead
 * of creating a second one.
 */
import { randomBytes } from 'node:crypto';
import type { ChangeRequest, ChangeRequestStatus } from '@gitbook/api';
import { type ApiClient, ApiError, NetworkError } from '../api';
import type { Mirror } from '../mirror';
import { changeRequestSubject, markerOf } from './change-request';
import type { PushStore } from './outbox';
import type { ChangeRequestState, PushOp } from './plan';

export interface PushContext {
  api: ApiClient;
  mirror: Mirror;
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
}

/** The change request was merged or closed while Quire was writing into it. */
export class ChangeRequestGoneError extends Error {
  override name = 'ChangeRequestGoneError';
}

export const nowIso = (ctx: PushContext) => (ctx.now ?? (() => new Date().toISOString()))();

/** Where the change request Quire writes into stands now (one request when there is one). */
export async function changeRequestState(ctx: PushContext): Promise<ChangeRequestState> {
  return (await changeRequestInfo(ctx)).state;
}

/** The change request's state, and the revision of main it is based on (null when none). */
export async function changeRequestInfo(ctx: PushContext): Promise<{ state: ChangeRequestState; baseRevision: string | null }> {
  let row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state === 'creating') {
    await settleCreate(ctx);
    row = ctx.store.changeRequest(ctx.spaceId);
  }
  if (!row || row.changeRequestId === null) return { state: 'none', baseRevision: null };
  const crId = row.changeRequestId;
  try {
    const cr = await ctx.api.call<ChangeRequest>((c, p) => c.spaces.getChangeRequestById(ctx.spaceId, crId, p), { signal: ctx.signal });
    const baseRevision = cr.revisionMergedAncestor ?? cr.revisionInitial ?? null;
    if (cr.status === 'merged') return { state: 'merged', baseRevision };
    if (cr.status === 'archived') return { state: 'closed', baseRevision };
    return { state: 'open', baseRevision };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { state: 'closed', baseRevision: null };
    throw err;
  }
}

/**
 * Brings main's newer changes into the open change request (the API's "update", a rebase;
 * never a merge into main), so pages added to main since it was opened can be edited in
 * it. Changes refused before may go through now: they are tried again.
 */
export async function rebaseChangeRequest(ctx: PushContext): Promise<boolean> {
  const row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state !== 'open' || row.changeRequestId === null) return false;
  const crId = row.changeRequestId;
  try {
    await ctx.api.call((c, p) => c.spaces.updateChangeRequest(ctx.spaceId, crId, p), { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return false;
    throw err;
  }
  ctx.store.clearAllRefused(ctx.spaceId);
  ctx.mirror.log.add('info', `brought main's latest changes into change request #${row.number}`, ctx.spaceId);
  return true;
}

/** A create whose answer was lost: adopt the change request carrying our marker, or forget the attempt. */
async function settleCreate(ctx: PushContext): Promise<{ id: string; number: number } | null> {
  const row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state !== 'creating') return null;
  const open = await ctx.api.listAll<ChangeRequest>(
    (c, q, p) => c.spaces.listChangeRequestsForSpace(ctx.spaceId, { ...q, status: 'open' as ChangeRequestStatus }, p),
    { signal: ctx.signal },
  );
  const mine = open.find((cr) => markerOf(cr.subject ?? '') === row.marker);
  if (mine) {
    ctx.store.markOpen(ctx.spaceId, mine.id, mine.number);
    ctx.mirror.log.add('info', `found change request #${mine.number} created before the connection was lost`, ctx.spaceId);
    return { id: mine.id, number: mine.number };
  }
  ctx.store.forgetChangeRequest(ctx.spaceId);
  return null;
}

export async function ensureChangeRequest(ctx: PushContext, ops: readonly PushOp[]): Promise<{ id: string; number: number }> {
  const row = ctx.store.changeRequest(ctx.spaceId);
  if (row?.state === 'open' && row.changeRequestId !== null) return { id: row.changeRequestId, number: row.number ?? 0 };
  if (row?.state === 'creating') {
    const found = await settleCreate(ctx);
    if (found) return found;
  }
  const marker = randomBytes(4).toString('hex');
  const subject = changeRequestSubject(ops, marker);
  ctx.store.beginCreate(ctx.spaceId, marker, subject, nowIso(ctx));
  let cr: ChangeRequest;
  try {
    cr = await ctx.api.call<ChangeRequest>((c, p) => c.spaces.createChangeRequest(ctx.spaceId, { subject }, p), { signal: ctx.signal });
  } catch (err) {
    if (surelyNotApplied(err)) ctx.store.forgetChangeRequest(ctx.spaceId);
    throw err;
  }
  ctx.store.markOpen(ctx.spaceId, cr.id, cr.number);
  ctx.mirror.log.add('pushed', `opened change request #${cr.number}: ${subject}`, ctx.spaceId);
  return { id: cr.id, number: cr.number };
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
