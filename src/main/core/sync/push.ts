/**
 * Sends planned pushes into the space's one open change request, through the outbox.
 *
 * - The change request is created on first need, with a subject ending in a marker;
 *   the create is recorded first, so if the answer is lost, the next run finds the
 *   change request by its marker instead of creating a second one.
 * - Every batch is recorded as `sending` before it goes out. A batch whose answer was
 *   lost (connection dropped, process killed, a 5xx from a gateway) stays `sending` and
 *   is settled by settleOutbox: each change is looked for in the change request, and
 *   only what is there is recorded as pushed. The rest is planned again from the folder,
 *   so nothing is lost and nothing is created twice.
 * - A batch the server refuses (4xx) is split to find the change at fault; that change is
 *   recorded as refused (shown in status) and not sent again until its file changes.
 * - Sync never merges the change request: review happens there.
 */
import { randomBytes } from 'node:crypto';
import type { ChangeRequest, ChangeRequestStatus, Revision, RevisionPage } from '@gitbook/api';
import { ApiError, NetworkError, type ApiClient } from '../api';
import type { Mirror } from '../mirror';
import {
  buildBatches,
  changeRequestSubject,
  describeEffect,
  markerOf,
  resolveChange,
  type ApiChange,
  type AssetContent,
  type PlannedChange,
  type PushEffect,
} from './change-request';
import { sha256 } from './hash';
import { applyEffects, createdIdFor, type OutboxRow, type PushStore } from './outbox';
import { pageFileText } from './pull';
import { pageTitleOf, samePageText } from '../content';
import type { ChangeRequestState, PushOp } from './planner';
import { flattenPages } from './remote-tree';
import { isNewPageKey } from './trees';

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
}

/** The change request was merged or closed while Quire was writing into it. */
export class ChangeRequestGoneError extends Error {
  override name = 'ChangeRequestGoneError';
}

const nowIso = (ctx: PushContext) => (ctx.now ?? (() => new Date().toISOString()))();

/** Keys of refused pushes, by the page (id or new-page key) they concern. */
export function pushKey(op: PushOp): string | null {
  switch (op.op) {
    case 'insert':
      return op.key;
    case 'update':
    case 'delete':
      return op.id;
    case 'files':
      return null;
  }
}

export function pushTextHash(op: PushOp): string {
  if (op.op === 'insert') return sha256(op.text);
  if (op.op === 'update') return sha256(`${op.record}\u0000${op.parentKey ?? ''}\u0000${op.name}`);
  return sha256('');
}

// ---- the change request's state ------------------------------------------------------------

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

async function ensureChangeRequest(ctx: PushContext, ops: readonly PushOp[]): Promise<{ id: string; number: number }> {
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
function surelyNotApplied(err: unknown): boolean {
  if (err instanceof NetworkError) return !err.mayHaveBeenApplied;
  return err instanceof ApiError && (err.status < 500 || err.status === 503);
}

// ---- pushing ---------------------------------------------------------------------------------

/** Sends `ops` into the open change request (creating it first when needed). */
export async function pushChanges(ctx: PushContext, ops: readonly PushOp[], assets: ReadonlyMap<string, AssetContent> = new Map()): Promise<PushReport> {
  const report: PushReport = { changeRequest: null, batches: 0, changes: 0, refused: [] };
  const batches = buildBatches(ops, assets);
  if (batches.length === 0) return report;
  const cr = await ensureChangeRequest(ctx, ops);
  report.changeRequest = cr;
  const created = new Map<string, string>();
  const opOf = new Map<string, PushOp>();
  for (const op of ops) {
    const key = pushKey(op);
    if (key !== null) opOf.set(key, op);
  }
  for (const batch of batches) {
    await sendBatch(ctx, cr.id, batch.changes, created, report, opOf);
  }
  return report;
}

async function sendBatch(
  ctx: PushContext,
  crId: string,
  planned: PlannedChange[],
  created: Map<string, string>,
  report: PushReport,
  opOf: Map<string, PushOp>,
): Promise<void> {
  const sendable = planned.filter((p) => p.intoKey === null || created.has(p.intoKey) || createdIdFor(ctx.store, ctx.spaceId, p.intoKey) !== null);
  if (sendable.length === 0) return;
  const known = new Map(created);
  for (const p of sendable) {
    if (p.intoKey !== null && !known.has(p.intoKey)) known.set(p.intoKey, createdIdFor(ctx.store, ctx.spaceId, p.intoKey)!);
  }
  const changes: ApiChange[] = sendable.map((p) => resolveChange(p, known));
  const effects: PushEffect[] = sendable.map((p) => p.effect);
  const seq = ctx.store.recordSending(ctx.spaceId, crId, changes, effects, nowIso(ctx));

  let answer: unknown;
  try {
    answer = await ctx.api.call((c, p) => c.spaces.updateChangeRequestContent(ctx.spaceId, crId, { changes: changes as never }, { compat: false }, p), {
      signal: ctx.signal,
    });
  } catch (err) {
    if (!surelyNotApplied(err)) throw err; // stays `sending`: settled next time
    ctx.store.finish(seq, 'not-applied', nowIso(ctx), { error: (err as Error).message });
    if (!(err instanceof ApiError) || ![400, 404, 409, 422].includes(err.status)) throw err;
    if ((await changeRequestState(ctx)) !== 'open') {
      throw new ChangeRequestGoneError('The change request was merged or closed while Quire was writing into it; the edits go into a new one.');
    }
    await splitRefused(ctx, crId, sendable, created, report, opOf, err);
    return;
  }

  const result = answer as { changes?: { object: string; ref?: string; page?: { id?: string } | string }[]; insertedFiles?: { id: string; name: string }[] };
  const refs = new Map<string, string>();
  for (const c of result.changes ?? []) {
    const id = typeof c.page === 'object' ? c.page?.id : undefined;
    if (c.object === 'created_page' && c.ref !== undefined && id !== undefined) refs.set(c.ref, id);
  }
  const fileIds = new Map<string, string>();
  const fileEffects = effects.flatMap((e) => (e.type === 'files' ? e.files : []));
  for (const f of result.insertedFiles ?? []) {
    const match = fileEffects.find((e) => e.name === f.name && !fileIds.has(e.path));
    if (match) fileIds.set(match.path, f.id);
  }
  const missingRefs = effects.some((e) => e.type === 'insert' && !refs.has(e.ref));
  for (const e of effects) if (e.type === 'insert' && refs.has(e.ref)) created.set(e.key, refs.get(e.ref)!);
  const at = nowIso(ctx);
  ctx.store.transaction(() => {
    ctx.store.finish(seq, 'applied', at, { response: { changes: result.changes?.length ?? null } });
    applyEffects(ctx.store, ctx.spaceId, effects, refs, at, fileIds);
    for (const e of effects) {
      const key = e.type === 'insert' ? e.key : 'id' in e ? e.id : null;
      if (key !== null) ctx.store.clearRefused(ctx.spaceId, key);
    }
  });
  report.batches++;
  report.changes += changes.length;
  if (missingRefs) {
    // The server did not say which ids it gave the new pages: look for them.
    const row = ctx.store.outbox(ctx.spaceId, 1)[0];
    if (row) await reconcileRow(ctx, { ...row, effects: effects.filter((e) => e.type === 'insert') }, created);
  }
}

/** Halves a refused batch until the change at fault is alone, and records it as refused. */
async function splitRefused(
  ctx: PushContext,
  crId: string,
  planned: PlannedChange[],
  created: Map<string, string>,
  report: PushReport,
  opOf: Map<string, PushOp>,
  err: ApiError,
): Promise<void> {
  // A restore is two changes that only make sense together.
  const units: PlannedChange[][] = [];
  for (const p of planned) {
    const last = units.at(-1);
    if (last && last.length === 1 && last[0]!.effect.type === 'revert') last.push(p);
    else units.push([p]);
  }
  if (units.length > 1) {
    const half = Math.ceil(units.length / 2);
    await sendBatch(ctx, crId, units.slice(0, half).flat(), created, report, opOf);
    await sendBatch(ctx, crId, units.slice(half).flat(), created, report, opOf);
    return;
  }
  const change = planned.at(-1)!;
  // A page main gained after the change request was opened is not in it yet: rebase once.
  if (!report.rebased && /does not exist/i.test(err.apiMessage ?? err.message)) {
    report.rebased = true;
    if (await rebaseChangeRequest(ctx)) {
      await sendBatch(ctx, crId, planned, created, report, opOf);
      return;
    }
  }
  // A slug taken by a page the folder does not show is worth one retry without it.
  if (typeof change.change.slug === 'string') {
    const { slug: _slug, ...withoutSlug } = change.change;
    await sendBatch(ctx, crId, [...planned.slice(0, -1), { ...change, change: withoutSlug as ApiChange }], created, report, opOf);
    return;
  }
  const effect = change.effect;
  const key = effect.type === 'insert' ? effect.key : effect.type === 'files' ? null : effect.id;
  const message = err.apiMessage ?? err.message;
  const path = describeEffect(effect);
  report.refused.push({ path, message });
  ctx.mirror.log.add('error', `the server refused the change to ${path}: ${message}`, ctx.spaceId);
  const op = key !== null ? opOf.get(key) : undefined;
  if (key !== null) {
    ctx.store.recordRefused(ctx.spaceId, {
      pageKey: key,
      path: isNewPageKey(key) ? key.slice(4) : effect.type === 'update' || effect.type === 'delete' ? effect.path : null,
      textHash: op ? pushTextHash(op) : sha256(''),
      message,
      at: nowIso(ctx),
    });
  }
}

// ---- settling batches whose answer was lost ------------------------------------------------

/** Settles every batch left `sending` (process killed, connection lost): records what reached the change request. */
export async function settleOutbox(ctx: PushContext): Promise<number> {
  const rows = ctx.store.inFlight(ctx.spaceId);
  if (rows.length === 0) return 0;
  const state = await changeRequestState(ctx);
  const created = new Map<string, string>();
  for (const row of rows) {
    const cr = ctx.store.changeRequest(ctx.spaceId);
    if (state !== 'open' || cr?.changeRequestId !== row.changeRequestId) {
      // Merged or closed since: main (or nothing) holds it now; the next pull and plan tell.
      ctx.store.finish(row.seq, 'not-applied', nowIso(ctx), { error: 'change request no longer open when settled' });
      continue;
    }
    await reconcileRow(ctx, row, created);
  }
  return rows.length;
}

async function reconcileRow(ctx: PushContext, row: OutboxRow, created: Map<string, string>): Promise<void> {
  const { api, spaceId } = ctx;
  const crId = row.changeRequestId;
  const revision = await api.call<Revision>((c, p) => c.spaces.getRevisionOfChangeRequestById(spaceId, crId, { metadata: false }, p), {
    signal: ctx.signal,
  });
  const pages = flattenPages(revision.pages as RevisionPage[]);
  const byId = new Map(pages.map((p) => [p.id, p]));
  const knownIds = new Set([...ctx.mirror.content.pages(spaceId).map((p) => p.id), ...ctx.store.pushedPages(spaceId).keys()]);
  const refs = new Map<string, string>();
  const applied: PushEffect[] = [];
  const parentOf = (key: string | null): string | null | undefined => {
    if (key === null) return null;
    if (!isNewPageKey(key)) return key;
    return created.get(key) ?? createdIdFor(ctx.store, spaceId, key) ?? undefined;
  };

  for (const effect of row.effects) {
    switch (effect.type) {
      case 'insert': {
        const parent = parentOf(effect.parentKey);
        const title = pageTitleOf(effect.text) ?? undefined;
        const match = pages.find(
          (p) =>
            !knownIds.has(p.id) &&
            ![...refs.values()].includes(p.id) &&
            (parent === undefined || p.parentId === parent) &&
            (effect.slug !== null ? p.slug === effect.slug || p.title === title : p.title === (title ?? effect.name)),
        );
        if (match) {
          refs.set(effect.ref, match.id);
          created.set(effect.key, match.id);
          applied.push(effect);
        }
        break;
      }
      case 'update': {
        const page = byId.get(effect.id);
        if (!page) break;
        const parent = parentOf(effect.parentKey);
        if (effect.moved && parent !== undefined && page.parentId !== parent) break;
        if (effect.textSent) {
          const got = await api.call((c, p) => c.spaces.getPageInChangeRequestById(spaceId, crId, effect.id, { format: 'markdown', metadata: false }, p), {
            signal: ctx.signal,
          });
          const markdown = (got as { markdown?: unknown }).markdown;
          const text = pageFileText(page, typeof markdown === 'string' ? markdown : '');
          if (!samePageText(text, effect.text)) break;
        }
        applied.push(effect);
        break;
      }
      case 'delete':
        if (!byId.has(effect.id)) applied.push(effect);
        break;
      case 'files': {
        const files = revision.files ?? [];
        const present = effect.files.filter((f) => files.some((r) => r.name === f.name && r.size === f.size));
        if (present.length > 0) applied.push({ ...effect, files: present });
        break;
      }
      case 'revert':
        break;
    }
  }
  const at = nowIso(ctx);
  ctx.store.transaction(() => {
    ctx.store.finish(row.seq, 'reconciled', at, { response: { applied: applied.length, of: row.effects.length } });
    applyEffects(ctx.store, spaceId, applied, refs, at);
  });
  ctx.mirror.log.add('info', `settled an interrupted push: ${applied.length} of ${row.effects.length} change(s) had reached the change request`, spaceId);
}
