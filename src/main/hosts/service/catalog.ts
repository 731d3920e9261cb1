import { join } from 'node:path';
import { QuireError, type CatalogVM, type SpaceVM } from '../../../shared/contract';
import type { SpaceRow } from '../../core/mirror';
import { pendingEdits as findPendingEdits, refreshCatalog } from '../../core/sync';
import { toQuireError } from './errors';
import { needApi, type ServiceState } from './state';
import type { HandlersFor } from './types';
import { emojiText } from './view-models';

/** Organizations, collections and spaces as the window lists them, and which spaces sync. */
export interface Catalog {
  vm(): Promise<CatalogVM>;
  /** Reads the organizations and spaces from the API into the mirror. */
  refresh(): Promise<void>;
  handlers: HandlersFor<'catalog.get' | 'catalog.refresh' | 'spaces.select'>;
}

export function createCatalog(state: ServiceState): Catalog {
  async function spaceVM(row: SpaceRow, conflictsBySpace: Map<string, number>): Promise<SpaceVM> {
    let pendingEdits = 0;
    if (row.selected && row.folder && row.syncedRevision) {
      try {
        const c = await findPendingEdits(state.mirror, row.id, join(state.folder, row.folder));
        pendingEdits = c.modified.length + c.added.length + c.deleted.length;
      } catch {
        pendingEdits = 0;
      }
    }
    const conflicts = conflictsBySpace.get(row.id) ?? 0;
    const spaceState: SpaceVM['state'] =
      !row.selected || !row.syncedRevision ? 'not-synced' : row.lastError ? 'error' : conflicts > 0 ? 'conflicts' : pendingEdits > 0 ? 'pending' : 'synced';
    return {
      id: row.id,
      organizationId: row.organizationId,
      collectionId: row.collectionId,
      title: row.title,
      emoji: emojiText(row.emoji),
      visibility: row.visibility,
      selected: row.selected,
      folder: row.folder,
      lastSyncAt: row.lastSyncAt,
      pendingEdits,
      conflicts,
      lastError: row.lastError,
      state: spaceState,
    };
  }

  async function vm(): Promise<CatalogVM> {
    const conflictsBySpace = new Map<string, number>();
    for (const c of state.mirror.content.conflicts()) conflictsBySpace.set(c.spaceId, (conflictsBySpace.get(c.spaceId) ?? 0) + 1);
    const spaces = await Promise.all(state.mirror.catalog.spaces().map((s) => spaceVM(s, conflictsBySpace)));
    // Read after the await: a folder switch meanwhile means the new mirror.
    return {
      organizations: state.mirror.catalog.organizations(),
      collections: state.mirror.catalog.collections(),
      spaces,
      refreshedAt: state.mirror.catalog.getMeta('catalog.refreshedAt') ?? null,
    };
  }

  async function refresh(): Promise<void> {
    const client = needApi(state);
    try {
      await refreshCatalog(client, state.mirror);
      state.mirror.catalog.setMeta('catalog.refreshedAt', new Date().toISOString());
    } catch (e) {
      throw toQuireError(e, 'list your organizations and spaces', state.folder);
    } finally {
      state.events.changed('catalog');
    }
  }

  return {
    vm,
    refresh,
    handlers: {
      'catalog.get': () => vm(),
      'catalog.refresh': async () => {
        await refresh();
        return vm();
      },
      'spaces.select': async ({ spaceIds, selected }) => {
        const { mirror } = state;
        const known = new Set(mirror.catalog.spaces().map((s) => s.id));
        const unknown = spaceIds.filter((id) => !known.has(id));
        if (unknown.length > 0) throw new QuireError('not-found', `Unknown space ${unknown[0]}. Refresh the list of spaces and try again.`);
        mirror.transaction(() => mirror.catalog.setSelected(spaceIds, selected));
        state.events.changed('catalog');
        return vm();
      },
    },
  };
}
