/**
 * One space's part of a cycle:
 *
 *   settle an interrupted push -> where the change request stands -> main's tree (only when it
 *   moved) -> scan the folder (only what changed) -> plan (fetch the bodies a decision needs,
 *   plan again) -> apply to the folder -> record in the mirror -> SUMMARY.md -> push.
 *
 * Every step costs what changed: an idle space costs a stat of its conflict copies and, when a
 * change request is open, one request to see where it stands.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../api';
import { parseStableRef, toStableLinks } from '../content';
import { type Mirror, STATE_DIR } from '../mirror';
import { applyFileOps, type ApplyResult } from './apply';
import { pullAssets } from './assets';
import { type AssetContent, MAX_INLINE_FILE_BYTES } from './change-request';
import { guessContentType } from './content-type';
import type { LinkResolver } from './link-targets';
import { recoverStaging } from './moves';
import { pushStoreOf } from './outbox';
import { type OpenConflict, type Plan, planSync, type PushOp, type SpaceView } from './plan';
import type { OwnWrites } from './own-writes';
import type { ProgressListener } from './progress';
import { ChangeRequestGoneError, changeRequestInfo, pushChanges, pushKey, pushTextHash, rebaseChangeRequest, settleOutbox } from './push';
import { recordCycle } from './record';
import { diffRemote, fetchPageText, fetchRemoteTree, forEachBounded, type RemoteDiff, type RemoteTree } from './remote';
import { rebuildFromFolder } from './rebuild';
import { resolveInside } from './safe-fs';
import { deletedAssetsInUse } from './assets';
import { followCycle, followNewId, followPush, followWrites } from './find-hooks';
import { readPagesUsing, type ScanHint, type ScanResult, scanSpace, toStableChanges } from './scan';
import { mirrorView } from './space-view';
import { followSubject, heldForOtherChangeRequests, pushedForPlan } from './targets';
import { writeSummaryFile } from './summary-file';
import type { SpaceReport } from './report';
import { dryRunOf } from './dry-run';
import { collectGarbage, LARGE_PULL } from './memory';

export interface SpaceSyncContext {
  api: ApiClient;
  mirror: Mirror;
  root: string;
  links: LinkResolver;
  allowMassDelete: boolean;
  push: boolean;
  dryRun: boolean;
  pushGuard?: (text: string, path: string) => string | null;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  ownWrites?: OwnWrites;
}

export interface SyncSpace {
  id: string;
  title: string;
  folder: string;
  syncedRevision: string | null;
  remoteRevision: string;
}

/** What this space's cycle changed that files of other spaces may link to. */
export interface Touched {
  spaceId: string;
  /** Pages whose file moved, appeared or went away. */
  keys: string[];
  /** The whole space is new here (its first sync): every link to it may change. */
  firstSync: boolean;
}

const BODY_WINDOW = 16;

export async function syncSpace(ctx: SpaceSyncContext, space: SyncSpace, hint: ScanHint, report: SpaceReport, round = 0): Promise<Touched> {
  const { api, mirror, signal } = ctx;
  const spaceId = space.id;
  const spaceDir = join(ctx.root, space.folder);
  const stagingDir = join(ctx.root, STATE_DIR, 'staging', spaceId);
  const store = pushStoreOf(mirror);
  const pushCtx = { api, mirror, store, spaceId, signal };
  const startedAt = new Date().toISOString();
  const touched: Touched = { spaceId, keys: [], firstSync: false };

  if (!ctx.dryRun) {
    await recoverStaging(spaceDir, stagingDir);
    await settleOutbox(pushCtx);
    adoptCreatedIds(mirror, spaceId);
  }
  const firstSync = mirror.folder.count(spaceId) === 0;
  // Main's tree is wanted whatever the change request says when main moved (or on a first sync):
  // it is asked for at once, beside the change request's state.
  const treeWanted = space.syncedRevision !== space.remoteRevision || firstSync;
  let treeComing = treeWanted ? handledLater(fetchRemoteTree(api, spaceId, signal)) : null;
  let crInfo: Awaited<ReturnType<typeof changeRequestInfo>>;
  try {
    crInfo = await changeRequestInfo(pushCtx);
  } catch (err) {
    await treeComing?.catch(() => undefined);
    throw err;
  }
  const { state: crState, baseRevision: crBase } = crInfo;
  if (!treeComing && crState === 'merged') treeComing = handledLater(fetchRemoteTree(api, spaceId, signal));

  // The folder is scanned while main's tree is on its way (the scan only reads).
  if (treeComing) await new Promise((resolve) => setImmediate(resolve));
  let scan = scanSpace({ mirror, spaceId, spaceDir, hint: firstSync ? 'all' : hint });
  let remote: { tree: RemoteTree; diff: RemoteDiff; bodies: Map<string, string> } | null = null;
  if (treeComing) {
    const tree = await treeComing;
    remote = { tree, diff: diffRemote(tree, mirror.content.baseIndex(spaceId)), bodies: new Map() };
    if (tree.pages.size > LARGE_PULL) collectGarbage(); // the revision as the API sent it is garbage now
  }
  if (scan.missing) {
    report.missingFolder = true;
    return touched;
  }
  // A folder with files but no record of them (a lost or older mirror): rebuild the record from
  // the server and the folder first, so nothing is pushed twice and nothing is taken for new.
  if (firstSync && remote && scan.local.added.length > 0 && !ctx.dryRun) {
    const rebuilt = await rebuildFromFolder({ api, mirror, spaceId, spaceDir, tree: remote.tree, scan, signal });
    if (rebuilt > 0) {
      report.rebuilt = rebuilt;
      remote.diff = diffRemote(remote.tree, mirror.content.baseIndex(spaceId));
      scan = scanSpace({ mirror, spaceId, spaceDir, hint: 'all' });
    }
  }
  scan = readPagesUsing(
    { mirror, spaceId, spaceDir, hint },
    scan,
    scan.assets.changed.flatMap((c) => (c.fileId !== null ? [c.fileId] : [])),
  );
  touched.firstSync = firstSync;
  report.unreadable = scan.local.unreadable.map((u) => ({ path: u.path, reason: u.reason }));

  // Links in the files the scan read: the references the files were written with, else what they point at now.
  ctx.links.overlay(spaceId, {
    files: new Map([...scan.local.added.map((a) => [a.path, `new:${a.path}`] as const), ...[...scan.local.moved].map(([key, m]) => [m.to, key] as const)]),
    newAssets: new Set(scan.local.assets.map((a) => a.path)),
  });
  // Links to an asset uploaded anew resolve again (the file they were written for is replaced).
  const replaced = new Set(scan.assets.changed.flatMap((c) => (c.fileId !== null ? [c.fileId] : [])));
  const writtenLinks = (key: string | null): Record<string, string> => {
    const map = (key !== null ? mirror.folder.node(spaceId, key)?.linkMap : null) ?? {};
    if (replaced.size === 0) return map;
    return Object.fromEntries(
      Object.entries(map).filter(([, stable]) => {
        const ref = parseStableRef(stable);
        return !(ref?.kind === 'file' && replaced.has(ref.fileId));
      }),
    );
  };
  const toStable = (key: string | null, path: string, raw: string) => toStableLinks(raw, ctx.links.targetsFor(spaceId, path), writtenLinks(key));
  const local = toStableChanges(scan.local, toStable);
  const conflicts: OpenConflict[] = mirror.content.conflicts(spaceId).map((c) => ({
    pageId: c.pageId,
    path: c.path,
    kind: c.kind as OpenConflict['kind'],
    remotePath: c.remotePath,
    remoteFilePresent: c.remotePath === null || scan.remoteCopies.has(c.remotePath) || exists(resolveInside(spaceDir, c.remotePath)),
  }));
  const pushed = pushedForPlan(mirror, spaceId);
  const viewOf = (): SpaceView =>
    mirrorView({
      mirror,
      spaceId,
      spaceDir,
      remote,
      local,
      pushed,
      changeRequest: crState,
      conflicts,
      readStable: (key, path, raw) => toStable(key, path, raw),
    });

  let plan: Plan = planSync(viewOf(), { allowMassDelete: ctx.allowMassDelete });
  if (plan.needBodies.length > 0 && remote) {
    await fetchBodies(ctx, spaceId, space.title, remote, plan.needBodies);
    plan = planSync(viewOf(), { allowMassDelete: ctx.allowMassDelete });
  }

  if (plan.fileOps.length > LARGE_PULL) collectGarbage(); // the planner's working state is garbage now
  if (ctx.dryRun) {
    report.dryRun = dryRunOf(plan, mirror, spaceId);
    return touched;
  }
  if (plan.massDelete) {
    store.setHold(spaceId, { kind: 'mass-delete', ...plan.massDelete, at: startedAt });
    mirror.log.add(
      'error',
      `stopped before a mass delete (${plan.massDelete.localDeletes} on the server, ${plan.massDelete.remoteDeletes} here, of ${plan.massDelete.pages})`,
      spaceId,
    );
    report.held = plan.massDelete;
    return touched;
  }
  store.clearHold(spaceId);
  report.notPushed = [...deletedAssetsInUse(mirror, spaceId, scan.assets.gone), ...plan.held];

  const finalPaths = new Map(plan.folder.upsert.map((r) => [r.key, r.kind === 'document' ? r.path : null] as const));
  for (const key of [...plan.folder.remove, ...plan.folder.removeWhenPushed]) finalPaths.set(key, null);
  ctx.links.overlay(spaceId, { paths: finalPaths });
  // Assets first: pages written next link to them by their local paths.
  if (remote) await pullAssets(api, mirror, spaceId, spaceDir, remote.tree.files);
  const applied = await applyFileOps(
    {
      api,
      mirror,
      spaceId,
      spaceTitle: space.title,
      spaceDir,
      stagingDir,
      links: ctx.links,
      seen: scan.seen,
      remotePage: (id) => remote?.tree.pages.get(id),
      onWritten: followWrites({ mirror, spaceId, spaceDir, plan, scan, at: startedAt, revision: remote?.tree.revision.id ?? null }),
      signal,
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
      ...(ctx.ownWrites ? { ownWrites: ctx.ownWrites } : {}),
    },
    plan,
  );
  // Search and history follow the cycle, and the cycle is recorded, in one transaction.
  const { clean } = mirror.transaction(() => {
    followCycle({ mirror, spaceId, spaceDir, plan, applied, scan, at: startedAt, revision: remote?.tree.revision.id ?? null });
    const recorded = recordCycle({ mirror, spaceId, plan, applied, scan, remote: remote?.tree ?? null, at: startedAt });
    if (firstSync) mirror.search.markSpaceIndexed(spaceId, startedAt);
    return recorded;
  });
  ctx.links.overlay(spaceId, {});
  if (plan.fileOps.length > LARGE_PULL) collectGarbage();
  if (plan.treeChanged || firstSync || scan.summary) await writeSummaryFile(mirror, spaceId, spaceDir);
  touched.keys = [...new Set([...changedKeys(plan, applied), ...[...scan.local.moved.keys()].filter((k) => !k.startsWith('new:'))])];
  report.pull = pullReport(plan, applied, remote, scan);
  if (applied.error) throw applied.error;
  if (!clean) return touched; // files changed under us: the next cycle plans again
  if (plan.clearPushed) store.forgetChangeRequest(spaceId);
  if (!ctx.push) return touched;

  // Main moved since the change request was based on it: bring that in first, so pages main
  // gained since can be edited in it (and changes refused for that go through).
  const mainRevision = remote?.tree.revision.id ?? space.syncedRevision;
  if (plan.push.length > 0 && crState === 'open' && !plan.clearPushed && crBase !== null && mainRevision && crBase !== mainRevision)
    await rebaseChangeRequest(pushCtx);
  const refused = store.refused(spaceId);
  const unsafe = guardPush(ctx, plan.push, report);
  for (const h of heldForOtherChangeRequests(mirror, spaceId, plan.push)) {
    unsafe.add(h.key ?? '');
    report.notPushed.push(h);
  }
  const ops = plan.push
    .filter((op) => !unsafe.has(pushKey(op) ?? ''))
    .filter((op) => {
      const key = pushKey(op);
      return key === null || refused.get(key)?.textHash !== pushTextHash(op);
    })
    // A place-only change of a page whose server text was fetched while writing records that text.
    .map((op) => (op.op === 'update' && op.record === null ? { ...op, record: mirror.content.baseText(spaceId, op.id) } : op));
  if (ops.length === 0) {
    store.clearLocalEdits(spaceId, startedAt);
    return touched;
  }
  ctx.onProgress?.({ phase: 'push', spaceId, spaceTitle: space.title, done: 0, total: ops.length });
  try {
    report.push = await pushChanges(pushCtx, ops, await readAssets(spaceDir, ops));
  } catch (err) {
    if (err instanceof ChangeRequestGoneError && round === 0) {
      store.forgetChangeRequest(spaceId);
      mirror.log.add('info', err.message, spaceId);
      report.notice = err.message;
      return syncSpace(ctx, space, hint, report, round + 1);
    }
    throw err;
  }
  await followSubject(api, mirror, spaceId, signal);
  followPush(mirror, spaceId, ops, report.push.applied, `change request #${report.push.changeRequest?.number ?? '?'}`, startedAt);
  afterPush(mirror, spaceId, plan, report.push.applied);
  recordUploadedAssets(mirror, spaceId, scan);
  ctx.onProgress?.({ phase: 'push', spaceId, spaceTitle: space.title, done: ops.length, total: ops.length });
  store.clearLocalEdits(spaceId, startedAt);
  if (report.push.changes > 0)
    mirror.log.add('pushed', `${report.push.changes} change(s) sent to change request #${report.push.changeRequest?.number}`, spaceId);
  return touched;
}

/** The folder's tree after a push: confirmed changes stop being pending, new pages take their ids. */
function afterPush(mirror: Mirror, spaceId: string, plan: Plan, applied: ReadonlySet<string>): void {
  mirror.transaction(() => {
    for (const key of applied) mirror.folder.setPending(spaceId, key, false);
    for (const key of plan.folder.removeWhenPushed) if (applied.has(key)) mirror.folder.remove(spaceId, key);
  });
  adoptCreatedIds(mirror, spaceId);
}

/** Pages whose push would damage them on the server: held back (they stay pending) and reported. */
function guardPush(ctx: SpaceSyncContext, push: readonly PushOp[], report: SpaceReport): Set<string> {
  const held = new Set<string>();
  if (!ctx.pushGuard) return held;
  for (const op of push) {
    if (op.op !== 'insert' && op.op !== 'update') continue;
    if (op.text === null) continue;
    const reason = ctx.pushGuard(op.text, op.path);
    if (reason === null) continue;
    const key = op.op === 'insert' ? op.key : op.id;
    held.add(key);
    report.notPushed.push({ key, path: op.path, title: reason, reason: 'unsafe' });
  }
  return held;
}

/** Assets uploaded by this push are, from now on, the files the change request has at their paths. */
function recordUploadedAssets(mirror: Mirror, spaceId: string, scan: ScanResult): void {
  const uploads = [...scan.assets.added, ...scan.assets.changed.filter((c) => c.fileId !== null)];
  mirror.transaction(() => {
    for (const a of uploads) {
      const fileId = mirror.outbox.pushedFileIdAt(spaceId, a.path);
      if (fileId !== null) mirror.folder.upsertAsset(spaceId, { path: a.path, fileId, size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, hash: a.hash });
    }
  });
}

/**
 * A file that was a new page when pushed is known by the id the server gave it, found by where
 * the change request recorded its file (also after a push whose answer was lost and settled).
 */
function adoptCreatedIds(mirror: Mirror, spaceId: string): void {
  const store = pushStoreOf(mirror);
  const found = mirror.folder.newNodes(spaceId).flatMap((n) => {
    // The page the change request holds at its path that no node of the tree is yet.
    const id = n.path === null ? undefined : store.pushedPageIdsAt(spaceId, n.path).find((p) => !mirror.folder.node(spaceId, p));
    return id !== undefined ? [{ key: n.key, id }] : [];
  });
  if (found.length === 0) return;
  mirror.transaction(() => {
    for (const { key, id } of found) {
      mirror.folder.rekey(spaceId, key, id);
      followNewId(mirror, spaceId, key, id);
      mirror.folder.setPending(spaceId, id, false);
    }
  });
}

async function fetchBodies(
  ctx: SpaceSyncContext,
  spaceId: string,
  title: string,
  remote: { tree: RemoteTree; bodies: Map<string, string> },
  ids: readonly string[],
): Promise<void> {
  let done = 0;
  const report = () => ctx.onProgress?.({ phase: 'pull', spaceId, spaceTitle: title, done, total: ids.length });
  report();
  await forEachBounded(ids, BODY_WINDOW, async (id) => {
    const page = remote.tree.pages.get(id);
    if (!page) return;
    remote.bodies.set(id, await fetchPageText(ctx.api, spaceId, page, ctx.signal));
    done++;
    report();
  });
}

/** Pages whose file moved, appeared or went away (files of other spaces linking them are written again). */
function changedKeys(plan: Plan, applied: ApplyResult): string[] {
  const keys = new Set<string>([...applied.moved.keys(), ...applied.deleted.keys(), ...plan.folder.remove]);
  for (const op of plan.fileOps) if (op.op === 'write' && op.fresh && applied.written.has(op.key)) keys.add(op.key);
  return [...keys].filter((k) => !k.startsWith('new:'));
}

function pullReport(plan: Plan, applied: ApplyResult, remote: { tree: RemoteTree } | null, scan: ScanResult): SpaceReport['pull'] {
  const written = [...applied.written.values()].map((w) => w.path);
  if (!remote && written.length + applied.moved.size + applied.deleted.size + plan.conflicts.add.length === 0) return null;
  return {
    revision: remote?.tree.revision.id ?? '',
    fetchedPages: applied.fetched.size,
    written,
    moved: [...applied.moved.values()],
    deleted: [...applied.deleted.values()],
    conflicts: plan.conflicts.add.map((c) => c.path),
    merged: plan.stats.merged,
    read: scan.readCount,
  };
}

const exists = (abs: string): boolean => existsSync(abs);

/** The same promise, marked as handled: it is awaited later, and may fail before that. */
function handledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
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
