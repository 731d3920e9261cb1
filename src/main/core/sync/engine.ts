import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError, TokenRejectedError, type ApiClient } from '../api';
import type { Mirror, SpaceRow } from '../mirror';
import { STATE_DIR } from '../mirror';
import { applyPlan, recoverStaging } from './apply';
import { refreshCatalog } from './catalog';
import { guessContentType } from './content-type';
import { MAX_INLINE_FILE_BYTES, type AssetContent } from './change-request';
import { pushStoreOf } from './outbox';
import { describeMassDelete } from './hold';
import { bodiesNeeded, type MassDeleteHold, MissingBodyError, planSync, type PlanInput, type PushOp } from './planner';
import { basePages, fetchBodies, fetchRemoteTree, remoteFromBase, type RemoteSnapshot } from './pull';
import { ChangeRequestGoneError, changeRequestInfo, pushChanges, pushKey, pushTextHash, rebaseChangeRequest, settleOutbox, type PushReport } from './push';
import { resolveInside } from './safe-fs';
import { scanSpace } from './scan';
import { chooseSpaceFolder } from './space-folders';
import type { ProgressListener } from './progress';
import type { OpenConflict } from './trees';

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
}

/** What a cycle brought from the server into one space's folder. */
export interface PullResult {
  spaceId: string;
  revision: string;
  fetchedPages: number;
  written: string[];
  moved: string[];
  deleted: string[];
  conflicts: string[];
  merged: number;
}

export interface SpaceReport {
  spaceId: string;
  title: string;
  folder: string;
  /** Null when the space was already at its remote revision and nothing came in. */
  pull: PullResult | null;
  /** Null when there was nothing to push. */
  push: PushReport | null;
  /** Set when the mass-delete fail-safe stopped this space: what it would have deleted (hosts word it). */
  held?: MassDeleteHold;
  error?: string;
}

/**
 * What changed in the folder since the last cycle, as continuous sync's watcher saw it: paths
 * relative to the sync folder with `/`, or 'all' when every file must be looked at (the first
 * cycle, after a watcher error, as a safety net). `runCycle()` without it means 'all'.
 */
export interface CycleRequest {
  changed: string[] | 'all';
}

export interface CycleReport {
  spaces: SpaceReport[];
  conflicts: number;
  /** Spaces stopped by the mass-delete fail-safe. */
  held: number;
  requests: number;
}

/**
 * One core, many hosts: runs sync cycles for the CLI, the desktop app and tests alike.
 *
 * Per space, a cycle: settles pushes a killed process left unanswered; asks where the
 * change request stands; pulls main's tree when it moved; scans the folder; plans
 * (planner.ts, pure); applies the plan to the folder and the mirror; pushes local edits
 * into the space's one open change request.
 */
export class SyncEngine {
  constructor(private readonly options: SyncEngineOptions) {}

  async runCycle(_request: CycleRequest = { changed: 'all' }): Promise<CycleReport> {
    try {
      return await this.cycle();
    } catch (err) {
      throw explainMirrorError(err, this.options.root);
    }
  }

  private async cycle(): Promise<CycleReport> {
    const { api, mirror, onProgress, signal } = this.options;
    const before = api.stats.requests;
    onProgress?.({ phase: 'catalog', done: 0, total: 1 });
    const choice = this.options.spaces;
    const reachable = await refreshCatalog(api, mirror, typeof choice === 'object' ? choice.ids : undefined);
    if (choice === 'all' || typeof choice === 'object') mirror.transaction(() => mirror.catalog.setSelected(reachable, true));
    const targets = mirror.catalog.selectedSpaces().filter((s) => reachable.includes(s.id));
    onProgress?.({ phase: 'catalog', done: 1, total: 1 });

    const reports: SpaceReport[] = [];
    let firstError: unknown = null;
    for (const space of targets) {
      signal?.throwIfAborted();
      const folder = space.folder ?? this.assignFolder(space.id, space.title);
      const report: SpaceReport = { spaceId: space.id, title: space.title, folder, pull: null, push: null };
      reports.push(report);
      try {
        await this.syncSpace({ ...space, folder }, report);
      } catch (err) {
        if (err instanceof TokenRejectedError || err instanceof CancelledError || signal?.aborted) throw err;
        const explained = explainMirrorError(err, this.options.root);
        report.error = explained.message;
        try {
          mirror.catalog.markError(space.id, report.error);
        } catch {
          // The mirror itself cannot be written (full disk): the error says so already.
        }
        firstError ??= explained;
      }
    }
    onProgress?.({ phase: 'done', done: targets.length, total: targets.length });
    if (firstError !== null) throw firstError;
    return {
      spaces: reports,
      conflicts: mirror.content.conflicts().length,
      held: reports.filter((r) => r.held).length,
      requests: api.stats.requests - before,
    };
  }

  private async syncSpace(space: SpaceRow & { folder: string }, report: SpaceReport, round = 0): Promise<void> {
    const { api, mirror, root, signal, onProgress } = this.options;
    const spaceId = space.id;
    const spaceDir = join(root, space.folder);
    const store = pushStoreOf(mirror);
    const startedAt = new Date().toISOString();
    await recoverStaging(spaceDir, join(root, STATE_DIR, 'staging', spaceId));

    const pushCtx = { api, mirror, store, spaceId, signal };
    await settleOutbox(pushCtx);
    const { state: crState, baseRevision: crBase } = await changeRequestInfo(pushCtx);

    const rows = mirror.content.pages(spaceId);
    const base = basePages(rows);
    const fresh = mirror.catalog.space(spaceId) ?? space;
    let snapshot: RemoteSnapshot | null = null;
    if (fresh.syncedRevision !== fresh.remoteRevision || crState === 'merged' || rows.length === 0) {
      snapshot = await fetchRemoteTree(api, spaceId, rows, signal);
    }
    const remote = snapshot?.pages ?? remoteFromBase(base);

    const pushed = store.pushedPages(spaceId);
    const conflictRows = mirror.content.conflicts(spaceId);
    // Conflicts whose `.remote.md` copy is still there hold their page.
    const copyPresent = (rel: string) => existsSync(resolveInside(spaceDir, rel));
    const heldPages = new Map(
      conflictRows
        .filter((c) => c.pageId !== null && (c.remotePath === null || copyPresent(c.remotePath)))
        .map((c) => [c.pageId!, c.kind === 'deleted-locally' ? c.path : null]),
    );
    const scan = await scanSpace(spaceDir, { pages: rows, pushed, files: mirror.content.files(spaceId), pushedFiles: store.pushedFiles(spaceId), heldPages });
    const conflicts: OpenConflict[] = conflictRows.map((c) => ({
      pageId: c.pageId,
      path: c.path,
      kind: c.kind as OpenConflict['kind'],
      remotePath: c.remotePath,
      remoteFilePresent: c.remotePath === null || scan.remoteCopies.has(c.remotePath),
    }));
    const input: PlanInput = {
      base,
      remote,
      local: scan.tree,
      pushed,
      changeRequest: crState,
      conflicts,
      assets: scan.assets,
      allowMassDelete: this.options.allowMassDelete ?? false,
    };
    const needed = bodiesNeeded(input);
    await fetchBodies(api, spaceId, remote, needed, { signal, onProgress, spaceTitle: space.title });
    const plan = await planWithBodies(input, (ids) => {
      for (const id of ids) needed.add(id);
      return fetchBodies(api, spaceId, remote, ids, { signal });
    });

    if (plan.held) {
      store.setHold(spaceId, { kind: 'mass-delete', ...plan.held, at: startedAt });
      mirror.log.add('error', describeMassDelete(plan.held, space), spaceId);
      report.held = plan.held;
      return;
    }
    store.clearHold(spaceId);

    const applied = await applyPlan(
      { api, mirror, spaceId, spaceTitle: space.title, spaceDir, stagingDir: join(root, STATE_DIR, 'staging', spaceId), signal, onProgress },
      { plan, remote: snapshot, remotePages: remote, baseRows: rows },
    );
    if (snapshot || applied.written.length + applied.moved.length + applied.deleted.length + applied.conflicts.length > 0) {
      report.pull = {
        spaceId,
        revision: snapshot?.revision.id ?? fresh.syncedRevision ?? '',
        fetchedPages: needed.size + applied.fetched,
        written: applied.written,
        moved: applied.moved,
        deleted: applied.deleted,
        conflicts: plan.conflicts.add.map((c) => c.path),
        merged: plan.stats.merged,
      };
    }
    store.transaction(() => {
      for (const [id, path] of plan.pushedPaths) if (!applied.failedPages.has(id)) store.setPushedPath(spaceId, id, path);
    });
    if (applied.error) throw applied.error;
    if (applied.failedPages.size > 0) return; // files changed under us: the next cycle plans again
    if (plan.clearPushed) store.forgetChangeRequest(spaceId);

    if (this.options.push === false) return;
    // Main moved since the change request was based on it: bring that in first, so pages
    // main gained since can be edited in it (and changes refused for that go through).
    const mainRevision = snapshot?.revision.id ?? fresh.syncedRevision;
    const pending = plan.push.length > 0;
    if (pending && crState === 'open' && !plan.clearPushed && crBase !== null && mainRevision && crBase !== mainRevision) await rebaseChangeRequest(pushCtx);
    const refused = store.refused(spaceId);
    const ops = plan.push.filter((op) => {
      const key = pushKey(op);
      return key === null || refused.get(key)?.textHash !== pushTextHash(op);
    });
    if (ops.length === 0) {
      store.clearLocalEdits(spaceId, startedAt);
      return;
    }
    onProgress?.({ phase: 'push', spaceId, spaceTitle: space.title, done: 0, total: ops.length });
    try {
      report.push = await pushChanges(pushCtx, ops, await readAssets(spaceDir, ops));
    } catch (err) {
      if (err instanceof ChangeRequestGoneError && round === 0) {
        store.forgetChangeRequest(spaceId);
        mirror.log.add('info', err.message, spaceId);
        return this.syncSpace(space, report, round + 1);
      }
      throw err;
    }
    onProgress?.({ phase: 'push', spaceId, spaceTitle: space.title, done: ops.length, total: ops.length });
    store.clearLocalEdits(spaceId, startedAt);
    if (report.push.changes > 0) {
      mirror.log.add('pushed', `${report.push.changes} change(s) sent to change request #${report.push.changeRequest?.number}`, spaceId);
    }
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

/** SQLite failing to write the mirror (full disk, read-only folder) said in plain words. */
export function explainMirrorError(err: unknown, root: string): Error {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return err as Error;
  const where = join(root, STATE_DIR, 'mirror.db');
  const kept = 'Your files were not changed beyond what was already written, and every edit is still in them.';
  if (code.startsWith('SQLITE_FULL') || code.startsWith('SQLITE_IOERR')) {
    return new Error(`Could not save the sync state in ${where}: the disk is full (or failing). Free some space, then sync again. ${kept}`, { cause: err });
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) {
    return new Error(`Could not save the sync state in ${where}: the folder is read-only. Make it writable, then sync again. ${kept}`, { cause: err });
  }
  return err as Error;
}

/**
 * Plans; when a decision turns out to need a body bodiesNeeded did not foresee, fetches
 * it and plans again (after a few rounds, every pending body at once).
 */
async function planWithBodies(input: PlanInput, fetch: (ids: string[]) => Promise<void>): Promise<ReturnType<typeof planSync>> {
  for (let round = 0; ; round++) {
    try {
      return planSync(input);
    } catch (err) {
      if (!(err instanceof MissingBodyError)) throw err;
      const ids = round < 8 ? [err.pageId] : [...input.remote.values()].filter((p) => p.pending).map((p) => p.id);
      await fetch(ids);
      if (!input.remote.get(err.pageId)?.pending && round > 16) throw err;
    }
  }
}

/** Bytes of the new assets the pushes upload (those over the API's inline limit are left out). */
async function readAssets(spaceDir: string, ops: readonly PushOp[]): Promise<Map<string, AssetContent>> {
  const out = new Map<string, AssetContent>();
  for (const op of ops) {
    if (op.op !== 'files') continue;
    for (const a of op.assets) {
      if (a.size > MAX_INLINE_FILE_BYTES) continue;
      const bytes = await readFile(resolveInside(spaceDir, a.path)).catch(() => null);
      if (bytes) out.set(a.path, { base64: bytes.toString('base64'), contentType: guessContentType(a.name) });
    }
  }
  return out;
}
