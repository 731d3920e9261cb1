/**
 * The push record: the mirror's outbox store (core/mirror/outbox.ts) as push.ts uses it — the
 * change request Quire writes into per space, what it holds, and the outbox of content batches —
 * and what a confirmed batch's effects do to that record.
 *
 * Durability rule: a batch is recorded as `sending` in its own committed transaction
 * before it goes out, and its effects on the record are applied only once the server
 * confirmed it (or reconciliation saw it in the change request). A process killed at any
 * moment leaves either nothing, or a `sending` row that push.ts settles next time.
 */
import type { Mirror, OutboxRow as StoredBatch, OutboxStore } from '../mirror';
import type { ApiChange, PushEffect } from './change-request';
import { isNewPageKey } from './plan';

/** The mirror's outbox, holding batches of API changes and their effects on the record. */
export type PushStore = OutboxStore<ApiChange, PushEffect>;
export type OutboxRow = StoredBatch<ApiChange, PushEffect>;

/** The mirror's outbox store, typed with what push.ts records in it. */
export function pushStoreOf(mirror: Pick<Mirror, 'outbox'>): PushStore {
  return mirror.outbox as PushStore;
}

/** Page id of a page created by an earlier push, by its new-page key. */
export function createdIdFor(store: PushStore, spaceId: string, key: string): string | null {
  if (!isNewPageKey(key)) return key;
  // The newest record at its path: the page this push created there.
  return store.pushedPageIdsAt(spaceId, key.slice('new:'.length))[0] ?? null;
}

/**
 * Records what applied changes did. `created` maps insert refs to the ids the server
 * gave; an insert missing from it is not recorded. Call inside a transaction.
 */
export function applyEffects(
  store: PushStore,
  spaceId: string,
  effects: readonly PushEffect[],
  created: ReadonlyMap<string, string>,
  at: string,
  fileIds: ReadonlyMap<string, string> = new Map(),
): void {
  const resolveParent = (key: string | null): string | null => {
    if (key === null || !isNewPageKey(key)) return key;
    const own = effects.find((e) => e.type === 'insert' && e.key === key);
    if (own && own.type === 'insert') return created.get(own.ref) ?? null;
    return createdIdFor(store, spaceId, key);
  };
  for (const e of effects) {
    switch (e.type) {
      case 'insert': {
        const id = created.get(e.ref);
        if (id === undefined) break;
        store.upsertPushedPage(
          spaceId,
          {
            id,
            path: e.path,
            parentId: resolveParent(e.parentKey),
            name: e.name,
            text: e.text,
            deleted: false,
            moved: true,
            ordered: true,
            after: resolveParent(e.after),
          },
          at,
        );
        break;
      }
      case 'update': {
        const before = store.pushedPage(spaceId, e.id);
        const live = before !== undefined && !before.deleted;
        const moved = e.moved || (live && before.moved);
        const ordered = e.ordered || (live && before.ordered);
        // What the change request holds now: what was sent, else the record the change carried.
        const text = e.textSent ? e.text : (e.record ?? (live ? before.text : null));
        const after = e.ordered ? resolveParent(e.after) : live ? before.after : null;
        store.upsertPushedPage(
          spaceId,
          { id: e.id, path: e.path, parentId: resolveParent(e.parentKey), name: e.name, text, deleted: false, moved, ordered, after },
          at,
        );
        break;
      }
      case 'delete': {
        // A page the change request placed keeps marking its place among its siblings.
        const before = store.pushedPage(spaceId, e.id);
        store.upsertPushedPage(
          spaceId,
          {
            id: e.id,
            path: e.path,
            parentId: before?.parentId ?? null,
            name: null,
            text: null,
            deleted: true,
            moved: false,
            ordered: before?.ordered ?? false,
            after: before?.after ?? null,
          },
          at,
        );
        break;
      }
      case 'files':
        for (const f of e.files) {
          store.upsertPushedFile(spaceId, { path: f.path, name: f.name, size: f.size, fileId: fileIds.get(f.path) ?? null });
        }
        break;
      case 'revert':
        break;
    }
  }
}
