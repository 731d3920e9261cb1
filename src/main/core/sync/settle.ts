/**
 * Settling batches whose answer was lost (process killed, connection dropped, a gateway's 5xx):
 * each change of a batch left `sending` is looked for in the change request, and only what is
 * there is recorded as pushed. The rest is planned again from the folder.
 */
import type { Revision } from '@gitbook/api';
import { ApiError } from '../api';
import { pageTitleOf, samePageText } from '../content';
import type { PushEffect } from './change-request';
import { applyEffects, createdIdFor, type OutboxRow } from './outbox';
import { isNewPageKey } from './plan';
import { fetchRequestPageText, flattenRevision } from './remote';
import { changeRequestState, nowIso, type PushContext } from './request-state';

/**
 * Settles every batch left `sending` (process killed, connection lost): records what reached the
 * change request. A change request merged since is looked at too: what reached it is on main now,
 * and a page it created there is the writer's new file (never pulled as a second page beside it).
 */
export async function settleOutbox(ctx: PushContext): Promise<number> {
  const rows = ctx.store.inFlight(ctx.spaceId);
  if (rows.length === 0) return 0;
  const state = await changeRequestState(ctx);
  const created = new Map<string, string>();
  for (const row of rows) {
    const cr = ctx.store.changeRequest(ctx.spaceId);
    if ((state !== 'open' && state !== 'merged') || cr?.changeRequestId !== row.changeRequestId) {
      // Closed since (or no longer the one Quire writes into): the folder's changes are planned again.
      ctx.store.finish(row.seq, 'not-applied', nowIso(ctx), { error: 'change request no longer open when settled' });
      continue;
    }
    try {
      await reconcileRow(ctx, row, created);
    } catch (err) {
      if (state !== 'merged' || !(err instanceof ApiError) || err.status !== 404) throw err;
      // A merged change request whose content the server no longer shows: main's pull and the plan tell.
      ctx.store.finish(row.seq, 'not-applied', nowIso(ctx), { error: 'merged change request not readable when settled' });
    }
  }
  return rows.length;
}

export async function reconcileRow(ctx: PushContext, row: OutboxRow, created: Map<string, string>): Promise<void> {
  const { api, spaceId } = ctx;
  const crId = row.changeRequestId;
  const revision = await api.call<Revision>((c, p) => c.spaces.getRevisionOfChangeRequestById(spaceId, crId, { metadata: false }, p), {
    signal: ctx.signal,
  });
  const byId = flattenRevision(revision.pages ?? []).pages;
  const pages = [...byId.values()];
  const knownIds = new Set([...ctx.mirror.content.baseIds(spaceId), ...ctx.store.pushedPages(spaceId).keys()]);
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
          const text = await fetchRequestPageText(api, spaceId, crId, page, ctx.signal);
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
