/**
 * Sends planned pushes into the space's one open change request, through the outbox.
 *
 * - Every batch is recorded as `sending` before it goes out. A batch whose answer was lost
 *   (connection dropped, process killed, a 5xx from a gateway) stays `sending` and is settled
 *   by settleOutbox (settle.ts): only what reached the change request is recorded as pushed;
 *   the rest is planned again from the folder, so nothing is lost and nothing is created twice.
 * - A batch the server refuses (4xx) is split to find the change at fault; that change is
 *   recorded as refused (shown in status) and not sent again until its file changes.
 * - Just before a batch goes out, what it names by key is resolved: parents created earlier
 *   (`into`), links to new pages and assets, and each place among siblings (`at`, from the
 *   sibling it goes after, in the change request's own order).
 * - Sync never merges the change request: review happens there.
 */
import type { RevisionPage } from '@gitbook/api';
import { ApiError } from '../api';
import { buildBatches, describeEffect, resolveChange, type ApiChange, type AssetContent, type PlannedChange, type PushEffect } from './change-request';
import { sha256 } from './hash';
import { applyEffects, createdIdFor } from './outbox';
import { isNewPageKey, type PushOp } from './plan';
import { RequestOrder, resolvePlaceholders } from './request-order';
import {
  ChangeRequestGoneError,
  changeRequestState,
  ensureChangeRequest,
  nowIso,
  rebaseChangeRequest,
  surelyNotApplied,
  type PushContext,
  type PushReport,
} from './request-state';
import { reconcileRow } from './settle';

export { ChangeRequestGoneError, changeRequestInfo, type ChangeRequestInfo, rebaseChangeRequest, type PushContext, type PushReport } from './request-state';
export { settleOutbox } from './settle';

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
  // (A refused insert goes again once its file's text, name or place changes.)
  if (op.op === 'insert') return sha256(`${op.text}\u0000${op.parentKey ?? ''}\u0000${op.name}`);
  if (op.op === 'update') return sha256(`${op.text ?? ''}\u0000${op.parentKey ?? ''}\u0000${op.name}\u0000${op.after ?? ''}`);
  return sha256('');
}

// ---- pushing ---------------------------------------------------------------------------------

/** One push: what it sends into, and what it learnt so far. */
interface Session {
  ctx: PushContext;
  crId: string;
  report: PushReport;
  /** Pages created by this push: key -> id. */
  created: Map<string, string>;
  /** Assets uploaded by this push: path -> file id. */
  fileIds: Map<string, string>;
  opOf: Map<string, PushOp>;
  order: RequestOrder;
  /** Inserts refused once, tried again at the end of the push (null: that second try is under way). */
  again: PlannedChange[] | null;
}

/** Sends `ops` into the open change request (creating it first when needed). */
export async function pushChanges(ctx: PushContext, ops: readonly PushOp[], assets: ReadonlyMap<string, AssetContent> = new Map()): Promise<PushReport> {
  const report: PushReport = { changeRequest: null, batches: 0, changes: 0, refused: [], created: new Map(), applied: new Set(), uploaded: [] };
  const batches = buildBatches(ops, assets);
  if (batches.length === 0) return report;
  const cr = await ensureChangeRequest(ctx, ops);
  report.changeRequest = cr;
  const opOf = new Map<string, PushOp>();
  for (const op of ops) {
    const key = pushKey(op);
    if (key !== null) opOf.set(key, op);
  }
  const order = new RequestOrder(async () => {
    const got = await ctx.api.call((c, p) => c.spaces.listPagesInChangeRequest(ctx.spaceId, cr.id, {}, p), { signal: ctx.signal });
    const pages = (got as { pages?: unknown } | null)?.pages;
    if (!Array.isArray(pages))
      throw new Error(`The API sent the pages of change request #${cr.number} without a page list; nothing more was sent. Sync again.`);
    return pages as RevisionPage[];
  });
  const session: Session = { ctx, crId: cr.id, report, created: report.created, fileIds: new Map(), opOf, order, again: [] };
  for (const batch of batches) await sendBatch(session, batch.changes);
  // A slug a page this push deleted or moved away held is free now.
  const again = session.again ?? [];
  session.again = null;
  if (again.length > 0) await sendBatch(session, again);
  return report;
}

/** A page id for a key: created by this push or an earlier one, or the id itself. */
function idOf(s: Session, key: string): string | null {
  if (!isNewPageKey(key)) return key;
  return s.created.get(key) ?? createdIdFor(s.ctx.store, s.ctx.spaceId, key);
}

/** The batch's changes as sent: keys resolved to ids, links to new pages and assets, places. */
async function resolveBatch(s: Session, planned: PlannedChange[]): Promise<ApiChange[]> {
  const refs = new Map(planned.flatMap((p) => (p.effect.type === 'insert' ? [[p.effect.key, p.effect.ref] as const] : [])));
  const known = new Map([...planned].flatMap((p) => (p.intoKey !== null ? [[p.intoKey, idOf(s, p.intoKey)!] as const] : [])));
  if (planned.some((p) => p.place && !p.place.last) && !s.order.known) await s.order.ensure();
  return planned.map((p) => {
    const change: ApiChange = { ...resolveChange(p, known) };
    const doc = change.document as { markdown?: string } | undefined;
    if (doc?.markdown !== undefined && (p.effect.type === 'insert' || p.effect.type === 'update')) {
      const text = resolvePlaceholders(doc.markdown, {
        path: p.effect.path,
        pageId: (key) => idOf(s, key),
        refInBatch: (key) => (p.effect.type === 'insert' ? (refs.get(key) ?? null) : null),
        fileId: (path) => s.fileIds.get(path) ?? s.ctx.store.pushedFileIdAt(s.ctx.spaceId, path),
      });
      change.document = { markdown: text };
      p.effect = p.effect.type === 'update' ? { ...p.effect, text, record: text } : { ...p.effect, text };
    }
    const self = p.effect.type === 'insert' ? p.effect.ref : p.effect.type === 'update' ? p.effect.id : null;
    if (p.place && self !== null) {
      const parent = p.place.parentKey === null ? null : (idOf(s, p.place.parentKey) ?? refs.get(p.place.parentKey) ?? null);
      const after = p.place.after === null ? null : (idOf(s, p.place.after) ?? refs.get(p.place.after) ?? null);
      if (p.place.last) s.order.append(self, parent);
      else {
        const at = s.order.place(self, parent, after);
        if (at !== undefined) change.at = at;
      }
    } else if (p.effect.type === 'delete') s.order.remove(p.effect.id);
    else if (p.effect.type === 'revert') s.order.forget();
    return change;
  });
}

async function sendBatch(s: Session, planned: PlannedChange[]): Promise<void> {
  const { ctx, crId, report } = s;
  const sendable = planned.filter((p) => p.intoKey === null || idOf(s, p.intoKey) !== null);
  if (sendable.length === 0) return;
  const changes = await resolveBatch(s, sendable);
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
    s.order.forget();
    if (!(err instanceof ApiError) || ![400, 404, 409, 422].includes(err.status)) throw err;
    if ((await changeRequestState(ctx)) !== 'open') {
      throw new ChangeRequestGoneError('The change request was merged or closed while Quire was writing into it; the edits go into a new one.');
    }
    await splitRefused(s, sendable, err);
    return;
  }

  const result = answer as {
    changeRequest?: { revision?: string };
    changes?: { object: string; ref?: string; page?: { id?: string } | string }[];
    insertedFiles?: { id: string; name: string }[];
  } | null;
  const refs = new Map<string, string>();
  for (const c of result?.changes ?? []) {
    const id = typeof c.page === 'object' ? c.page?.id : undefined;
    if (c.object === 'created_page' && c.ref !== undefined && id !== undefined) refs.set(c.ref, id);
  }
  const fileEffects = effects.flatMap((e) => (e.type === 'files' ? e.files : []));
  const fileIds = new Map<string, string>();
  for (const f of result?.insertedFiles ?? []) {
    const match = fileEffects.find((e) => e.name === f.name && !fileIds.has(e.path));
    if (match) fileIds.set(match.path, f.id);
  }
  for (const [path, id] of fileIds) s.fileIds.set(path, id);
  const missingRefs = effects.some((e) => e.type === 'insert' && !refs.has(e.ref));
  for (const e of effects) {
    if (e.type !== 'insert' || !refs.has(e.ref)) continue;
    s.created.set(e.key, refs.get(e.ref)!);
    s.order.rename(e.ref, refs.get(e.ref)!);
  }
  const at = nowIso(ctx);
  ctx.store.transaction(() => {
    ctx.store.finish(seq, 'applied', at, { response: { changes: result?.changes?.length ?? null } });
    const head = result?.changeRequest?.revision;
    if (head !== undefined) ctx.store.setPushedRevision(ctx.spaceId, head);
    applyEffects(ctx.store, ctx.spaceId, effects, refs, at, fileIds);
    for (const e of effects) {
      if (e.type === 'files') report.uploaded.push(...e.files.map((f) => f.path));
      const key = e.type === 'insert' ? e.key : 'id' in e ? e.id : null;
      if (key === null) continue;
      ctx.store.clearRefused(ctx.spaceId, key);
      report.applied.add(key);
    }
  });
  report.batches++;
  report.changes += changes.length;
  if (missingRefs) {
    // The server did not say which ids it gave the new pages: look for them.
    const row = ctx.store.outbox(ctx.spaceId, 1)[0];
    if (row) await reconcileRow(ctx, { ...row, effects: effects.filter((e) => e.type === 'insert') }, s.created);
  }
}

/** Halves a refused batch until the change at fault is alone, and records it as refused. */
async function splitRefused(s: Session, planned: PlannedChange[], err: ApiError): Promise<void> {
  const { ctx, report, opOf } = s;
  // A restore is two changes that only make sense together.
  const units: PlannedChange[][] = [];
  for (const p of planned) {
    const last = units.at(-1);
    if (last && last.length === 1 && last[0]!.effect.type === 'revert') last.push(p);
    else units.push([p]);
  }
  if (units.length > 1) {
    const half = Math.ceil(units.length / 2);
    await sendBatch(s, units.slice(0, half).flat());
    await sendBatch(s, units.slice(half).flat());
    return;
  }
  const change = planned.at(-1)!;
  // A page main gained after the change request was opened is not in it yet: rebase once.
  if (!report.rebased && /does not exist/i.test(err.apiMessage ?? err.message)) {
    report.rebased = true;
    if (await rebaseChangeRequest(ctx)) {
      await sendBatch(s, planned);
      return;
    }
  }
  // An insert goes once more at the end of the push, as it is: a page this push deletes or
  // moves may hold its slug. Never without its slug: the page holding it may be this very page
  // (created by an answer Quire did not hear), and a second one would duplicate it.
  if (change.effect.type === 'insert' && s.again !== null) {
    s.again.push(change);
    return;
  }
  // A rename to a slug taken by a page the folder does not show is worth one retry without it
  // (the page keeps its name there).
  if (typeof change.change.slug === 'string' && change.effect.type !== 'insert') {
    const { slug: _slug, ...withoutSlug } = change.change;
    await sendBatch(s, [...planned.slice(0, -1), { ...change, change: withoutSlug as ApiChange }]);
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
