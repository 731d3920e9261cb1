import { QuireError, type CatalogVM, type SpaceVM, type StateReasonVM } from '../../../shared/contract';
import type { SpaceRow } from '../../core/mirror';
import { readSyncFacts, rememberSpaceSelection, type SpaceFacts, type SpaceState, syncState } from '../../core/status';
import { changeCount, refreshCatalog } from '../../core/sync';
import type { SyncRunner } from './sync-runner';
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

export function createCatalog(state: ServiceState, runner: Pick<SyncRunner, 'chosen'>): Catalog {
  function spaceVM(row: SpaceRow, states: Map<string, SpaceState>, facts: Map<string, SpaceFacts>): SpaceVM {
    const s = states.get(row.id);
    const f = facts.get(row.id);
    return {
      id: row.id,
      organizationId: row.organizationId,
      collectionId: row.collectionId,
      title: row.title,
      emoji: emojiText(row.emoji),
      visibility: row.visibility,
      selected: row.selected,
      folder: row.folder,
      lastSyncAt: row.reachedAt,
      // Each edit once, as `quire status` counts them (a move is one edit; held deletes included).
      pendingEdits: f ? changeCount(f.pendingEdits) : 0,
      conflicts: f?.conflicts.length ?? 0,
      lastError: row.lastError,
      // The one sync state, per space (a space not chosen has none).
      state: row.selected && s ? s.state : 'not-chosen',
      reasons: row.selected && s ? (s.reasons as StateReasonVM[]) : [],
    };
  }

  async function vm(): Promise<CatalogVM> {
    const { mirror, folder } = state;
    const facts = state.token ? await readSyncFacts(mirror, folder) : null;
    const syncing = state.status.syncingSpace();
    const computed = facts ? syncState(facts, { syncing: syncing !== null, syncingSpaceId: syncing?.spaceId ?? null }) : null;
    const states = new Map((computed?.spaces ?? []).map((s) => [s.spaceId, s]));
    const factsById = new Map((facts?.spaces ?? []).map((s) => [s.spaceId, s]));
    // Read after the await: a folder switch meanwhile means the new mirror.
    return {
      organizations: state.mirror.catalog.organizations(),
      collections: state.mirror.catalog.collections(),
      spaces: state.mirror.catalog.spaces().map((row) => spaceVM(row, states, factsById)),
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
        mirror.transaction(() => {
          mirror.catalog.setSelected(spaceIds, selected);
          // The folder keeps to the spaces chosen here, for `quire sync` too.
          rememberSpaceSelection(mirror, 'listed');
        });
        state.events.changed('catalog');
        // A space just chosen is synced now, not at the next interval.
        if (selected) runner.chosen();
        await state.status.refresh();
        return vm();
      },
    },
  };
}
