import type { ApiClient } from '../api/client';
import type { Mirror } from '../mirror';
import { refreshCatalog } from './catalog';
import { pullSpace, type PullResult } from './pull';
import { chooseSpaceFolder } from './space-folders';
import type { ProgressListener } from './progress';

/** Which spaces a cycle syncs: listed ids, every reachable space, or the user's selection in the mirror. */
export type SpaceChoice = { ids: string[] } | 'all' | 'selected';

export interface SyncEngineOptions {
  api: ApiClient;
  mirror: Mirror;
  /** The sync folder. */
  root: string;
  spaces: SpaceChoice;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

export interface SpaceReport {
  spaceId: string;
  title: string;
  folder: string;
  /** Null when the space was already at its remote revision. */
  pull: PullResult | null;
  error?: string;
}

export interface CycleReport {
  spaces: SpaceReport[];
  conflicts: number;
  requests: number;
}

/** One core, many hosts: runs sync cycles for the CLI, the desktop app and tests alike. */
export class SyncEngine {
  constructor(private readonly options: SyncEngineOptions) {}

  async runCycle(): Promise<CycleReport> {
    const { api, mirror, root, onProgress, signal } = this.options;
    const before = api.stats.requests;
    onProgress?.({ phase: 'catalog', done: 0, total: 1 });
    const choice = this.options.spaces;
    const reachable = await refreshCatalog(api, mirror, typeof choice === 'object' ? choice.ids : undefined);
    if (choice === 'all' || typeof choice === 'object') mirror.transaction(() => mirror.catalog.setSelected(reachable, true));
    const targets = mirror.catalog.selectedSpaces().filter((s) => reachable.includes(s.id));
    onProgress?.({ phase: 'catalog', done: 1, total: 1 });

    const reports: SpaceReport[] = [];
    for (const space of targets) {
      signal?.throwIfAborted();
      const folder = space.folder ?? this.assignFolder(space.id, space.title);
      const report: SpaceReport = { spaceId: space.id, title: space.title, folder, pull: null };
      if (space.syncedRevision !== space.remoteRevision) {
        report.pull = await pullSpace({ api, mirror, root, onProgress, signal }, space.id, folder, space.title);
      }
      reports.push(report);
    }
    onProgress?.({ phase: 'done', done: targets.length, total: targets.length });
    return {
      spaces: reports,
      conflicts: mirror.content.conflicts().length,
      requests: api.stats.requests - before,
    };
  }

  private assignFolder(spaceId: string, title: string): string {
    const { mirror } = this.options;
    return mirror.transaction(() => {
      const folder = chooseSpaceFolder(title, spaceId, mirror.catalog.usedFolders());
      mirror.catalog.setFolder(spaceId, folder);
      return folder;
    });
  }
}
