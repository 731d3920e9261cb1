/**
 * One core, many hosts: runs sync cycles for the CLI, the desktop app, the web host and tests.
 *
 * A cycle refreshes the catalog (organizations are listed again only every few minutes), then
 * syncs the spaces several at a time (space-sync.ts), so the API client's request budget stays
 * full across many small spaces; then writes again the links of files in other spaces that point
 * at pages which moved, appeared or went away.
 */
import { CancelledError, TokenRejectedError, type ApiClient, withRequestCount } from '../api';
import { explainStorageError, type Mirror, UnsafeStatePathError } from '../mirror';
import { refreshCatalog } from './catalog';
import { indexNewSpaces } from '../search';
import { relinkAcrossSpaces } from './cross-space';
import { LinkResolver } from './link-targets';
import { layoutOutdated, nameRulesOf, recordLayout } from './name-rules';
import type { NameRules } from '../naming';
import type { OwnWrites } from './own-writes';
import type { ProgressListener } from './progress';
import { recordFailed, recordReached } from './outcome';
import { forEachBounded } from './bounded';
import type { CycleReport, SpaceReport } from './report';

export type { CycleReport, DryRunReport, PullResult, SpaceReport } from './report';
export { needsYou } from './report';
import type { ScanHint } from './scan';
import { chooseSpaceFolder } from './space-folders';
import { syncSpace, type Touched } from './space-sync';
import { keepPathDeviations } from './deviations';
import { collectGarbage, LARGE_PULL } from './memory';

/**
 * History's retention is enforced a bounded step (a few hundred pages) at a time after a cycle,
 * at most this often: versions age by the day, not by the cycle, and an idle continuous sync
 * cycles every few seconds. (A page just recorded is pruned as it is recorded.)
 */
const PRUNE_EVERY_MS = 10 * 60_000;

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
  /** Let a cycle delete more than half of a space's pages (the fail-safe stops and asks otherwise). */
  allowMassDelete?: boolean;
  /** Send local edits into change requests. Default true. */
  push?: boolean;
  /** Plan and report, change nothing: no file, no mirror row, only read requests. */
  dryRun?: boolean;
  /** Spaces synced at once. */
  spaceConcurrency?: number;
  /**
   * What would damage a page on the server if pushed as it is (a reason), else null: such a
   * page is held with the reason until its file is fixed (hosts pass `quire check`'s guard).
   */
  pushGuard?: PushGuard;
  /** Told of every page file a cycle writes (continuous sync then knows its own writes from saves). */
  ownWrites?: OwnWrites;
  /** Pages (page ids or `new:` keys, by space id) whose files the writer asked to move to GitBook's path. */
  toGitbook?: ReadonlyMap<string, ReadonlySet<string>>;
}

export type PushGuard = (text: string, path: string) => string | null;

/**
 * What changed in the folder since the last cycle, as continuous sync's watcher saw it: paths
 * relative to the sync folder with `/`, or 'all' when every file must be looked at (the first
 * cycle, after a watcher error, as a safety net). `runCycle()` without it means 'all'.
 */
export interface CycleRequest {
  changed: 'all' | readonly string[];
  /** Pages (page ids, by space id) whose held deletes the writer lets through by name, in this cycle only: the fail-safe does not count them. */
  allowDeletes?: ReadonlyMap<string, ReadonlySet<string>>;
}

export class SyncEngine {
  /** What the folder's volume holds, asked once per engine (continuous sync runs many cycles). */
  private names: NameRules | null = null;
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: SyncEngineOptions) {}

  async runCycle(hint: CycleRequest = { changed: 'all' }): Promise<CycleReport> {
    const startedAt = new Date().toISOString();
    try {
      return await this.cycle(hint);
    } catch (err) {
      // Search or history damaged (derived data): made again, and the cycle runs again over every file.
      const repaired = this.options.dryRun ? null : this.options.mirror.repairAfter(err);
      if (!repaired) {
        this.recordFailure(err, startedAt);
        throw explainMirrorError(err, this.options.root);
      }
      try {
        return { ...(await this.cycle({ changed: 'all' })), repaired };
      } catch (again) {
        this.recordFailure(again, startedAt);
        throw explainMirrorError(again, this.options.root);
      }
    }
  }

  /** The chosen spaces this cycle neither completed nor already recorded a failure for failed with `err` (not a cancel, not a dry run). */
  private recordFailure(err: unknown, startedAt: string): void {
    const { mirror } = this.options;
    if (this.options.dryRun || err instanceof CancelledError || this.options.signal?.aborted) return;
    try {
      const untold = mirror.catalog
        .selectedSpaces()
        .filter((s) => !(s.reachedAt !== null && s.reachedAt >= startedAt) && !(s.failedAt !== null && s.failedAt >= startedAt));
      recordFailed(
        mirror,
        untold.map((s) => s.id),
        err,
        new Date().toISOString(),
      );
    } catch {
      // The mirror cannot be read or written: the error says so already.
    }
  }

  /** One cycle; its report counts the requests it sent itself (not review's, sent beside it). */
  private cycle(hint: CycleRequest): Promise<CycleReport> {
    return withRequestCount((requests) => this.cycleCounted(hint, requests));
  }

  private async cycleCounted(hint: CycleRequest, requests: () => number): Promise<CycleReport> {
    const { api, mirror, onProgress, signal } = this.options;
    const dryRun = this.options.dryRun ?? false;
    // The deadline for reaching the server is per cycle: a server that did not answer the last one is tried again.
    api.beginCycle();
    const targets = await this.chooseTargets(dryRun);

    const links = new LinkResolver(mirror);
    const names = this.nameRules(dryRun);
    const fullLayout = layoutOutdated(mirror, names);
    const reports: SpaceReport[] = [];
    const touched: Touched[] = [];
    let firstError: unknown = null;
    const ctx = {
      api,
      mirror,
      root: this.options.root,
      links,
      allowMassDelete: this.options.allowMassDelete ?? false,
      push: this.options.push ?? true,
      dryRun,
      names,
      fullLayout,
      ...(this.options.pushGuard ? { pushGuard: this.options.pushGuard } : {}),
      ...(this.options.ownWrites ? { ownWrites: this.options.ownWrites } : {}),
      ...(this.options.toGitbook ? { toGitbook: this.options.toGitbook } : {}),
      ...(hint.allowDeletes ? { allowDeletes: hint.allowDeletes } : {}),
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
    };
    await forEachBounded(targets, this.options.spaceConcurrency ?? 8, async (space) => {
      signal?.throwIfAborted();
      // A folder the mirror names that Quire may not use (stored-paths.ts) stops the space: none is chosen in its place.
      const refused = space.folderRefused;
      const folder =
        refused !== null
          ? ''
          : (space.folder ?? (dryRun ? chooseSpaceFolder(space.title, space.id, mirror.catalog.usedFolders()) : this.assignFolder(space.id, space.title)));
      const report: SpaceReport = { spaceId: space.id, title: space.title, folder, pull: null, push: null, unreadable: [], notPushed: [] };
      reports.push(report);
      try {
        if (refused !== null) throw new UnsafeStatePathError(space.id, refused);
        const hintFor = spaceHint(hint, folder);
        const done = await syncSpace(
          ctx,
          { id: space.id, title: space.title, folder, syncedRevision: space.syncedRevision, remoteRevision: space.remoteRevision },
          hintFor,
          report,
        );
        touched.push(done);
        if (!dryRun) {
          recordReached(mirror, report, new Date().toISOString());
          // What quire status reads: a query when nothing changed them (the mirror forgets them when something does).
          if (done.keys.length > LARGE_PULL) collectGarbage(); // the cycle's working state is garbage now: working them out does not add to it
          keepPathDeviations(mirror, space.id);
        }
      } catch (err) {
        if (err instanceof TokenRejectedError || err instanceof CancelledError || signal?.aborted) throw err;
        const explained = explainMirrorError(err, this.options.root);
        report.error = explained.message;
        if (!dryRun) recordFailed(mirror, [space.id], explained, new Date().toISOString());
        firstError ??= explained;
      }
    });
    if (!dryRun) {
      // Every folder is laid out under these rules now (a failed space is laid out again next time).
      if (fullLayout && firstError === null) recordLayout(mirror, names);
      await relinkAcrossSpaces(mirror, this.options.root, links, touched);
      // Search over spaces synced before it existed (once each); history kept within its limits.
      await indexNewSpaces(mirror, this.options.root);
      if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
        mirror.history.prune();
        this.prunedAt = Date.now();
      }
    }
    onProgress?.({ phase: 'done', done: targets.length, total: targets.length });
    if (firstError !== null) throw firstError;
    return cycleReport(mirror, targets, reports, requests(), dryRun);
  }

  /** The organizations' spaces listed, and the ones this cycle syncs (a choice of spaces is recorded, unless in a dry run). */
  private async chooseTargets(dryRun: boolean): Promise<CycleTarget[]> {
    const { api, mirror, onProgress } = this.options;
    onProgress?.({ phase: 'catalog', done: 0, total: 1 });
    const choice = this.options.spaces;
    const catalog = await refreshCatalog(api, mirror, typeof choice === 'object' ? choice.ids : undefined, { store: !dryRun });
    if (!dryRun && (choice === 'all' || typeof choice === 'object')) {
      mirror.transaction(() => {
        // Listed spaces are the folder's choice from now on: the others it synced before are left out.
        if (typeof choice === 'object')
          mirror.catalog.setSelected(
            mirror.catalog.selectedSpaces().flatMap((s) => (catalog.ids.includes(s.id) ? [] : [s.id])),
            false,
          );
        mirror.catalog.setSelected(catalog.ids, true);
      });
    }
    const selected = dryRun ? new Set(choice === 'selected' ? mirror.catalog.selectedSpaces().map((s) => s.id) : catalog.ids) : null;
    const targets: CycleTarget[] = dryRun
      ? catalog.spaces
          .filter((s) => selected!.has(s.id))
          .map((s) => {
            const known = mirror.catalog.space(s.id);
            return {
              id: s.id,
              title: s.title,
              folder: known?.folder ?? null,
              folderRefused: known?.folderRefused ?? null,
              syncedRevision: known?.syncedRevision ?? null,
              remoteRevision: s.revision,
            };
          })
      : mirror.catalog.selectedSpaces().filter((s) => catalog.ids.includes(s.id));
    onProgress?.({ phase: 'catalog', done: 1, total: 1 });
    return targets;
  }

  /** A dry run only reads what the last sync found; a sync asks the volume, once per engine. */
  private nameRules(dryRun: boolean): NameRules {
    const { root, mirror } = this.options;
    if (dryRun) return nameRulesOf(root, mirror, { write: false });
    this.names ??= nameRulesOf(root, mirror, { write: true });
    return this.names;
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

/** The watcher's paths inside one space folder, relative to it ('all' when there is no hint). */
function spaceHint(hint: CycleRequest, folder: string): ScanHint {
  if (hint.changed === 'all' || hint.changed.includes(folder)) return 'all';
  const prefix = `${folder}/`;
  return hint.changed.flatMap((p) => (p.startsWith(prefix) ? [p.slice(prefix.length)] : []));
}

/** SQLite failing to write the mirror (full disk, read-only folder, another writer) said in plain words. */
export function explainMirrorError(err: unknown, root: string): Error {
  return explainStorageError(err, root, undefined, {
    again: 'sync again',
    reassurance: 'Your files were not changed beyond what was already written, and every edit is still in them.',
  });
}

/** A space a cycle syncs, as the catalog has it. */
interface CycleTarget {
  id: string;
  title: string;
  folder: string | null;
  folderRefused: string | null;
  syncedRevision: string | null;
  remoteRevision: string;
}

/** The cycle's report: each space's, in the catalog's order, and the totals. */
function cycleReport(mirror: Pick<Mirror, 'content'>, targets: readonly CycleTarget[], reports: SpaceReport[], requests: number, dryRun: boolean): CycleReport {
  reports.sort((a, b) => targets.findIndex((t) => t.id === a.spaceId) - targets.findIndex((t) => t.id === b.spaceId));
  const open = dryRun ? [] : mirror.content.conflicts();
  const conflicted = new Set(dryRun ? reports.filter((r) => (r.dryRun?.conflicts.length ?? 0) > 0).map((r) => r.spaceId) : open.map((c) => c.spaceId));
  const settled = (r: SpaceReport) =>
    !r.held &&
    !r.dryRun?.massDelete &&
    !r.missingFolder &&
    r.error === undefined &&
    r.unreadable.length === 0 &&
    r.notPushed.length === 0 &&
    !conflicted.has(r.spaceId);
  return {
    spaces: reports,
    inSync: reports.filter(settled).length,
    conflicts: dryRun ? reports.reduce((n, r) => n + (r.dryRun?.conflicts.length ?? 0), 0) : open.length,
    held: reports.filter((r) => r.held || r.dryRun?.massDelete).length,
    missing: reports.filter((r) => r.missingFolder).length,
    unreadable: reports.reduce((n, r) => n + r.unreadable.length, 0),
    notPushed: reports.reduce((n, r) => n + r.notPushed.length, 0),
    requests,
    dryRun,
  };
}
