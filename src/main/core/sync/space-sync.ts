/**
 * One space's part of a cycle:
 *
 *   recover (an interrupted move or push) -> see (where the change request stands, main's tree
 *   when it moved, the folder's changes) -> plan (fetch the bodies a decision needs, plan again)
 *   -> apply to the folder (reusable content and variables too: space-extras.ts) -> record in
 *   the mirror, SUMMARY.md -> push.
 *
 * Every step costs what changed: an idle space costs a stat of its conflict copies and, when a
 * change request is open, one request to see where it stands.
 */
import { join } from 'node:path';
import type { RemoteNow, Seen, SpaceCycle, SpaceSyncContext, SyncSpace, Touched } from './space-cycle';
import { type Mirror, stagingDir } from '../mirror';
import { describeActivity, movesActivity, pullActivity, pushActivity } from './activity';
import { applyFileOps, type ApplyResult } from './apply';
import { pullAssets } from './assets';
import { dryRunOf } from './dry-run';
import { followCycle, followPush, followWrites } from './find-hooks';
import { collectGarbage, LARGE_PULL } from './memory';
import { recoverStaging } from './moves';
import { pushStoreOf } from './outbox';
import { type MassDeleteHold, type Plan, planSync, type PushOp } from './plan';
import { ChangeRequestGoneError, pushChanges, rebaseChangeRequest, settleOutbox } from './push';
import { answersOfOneMoment, askServer } from './ask-server';
import { type PushHolds, pushHolds } from './push-holds';
import { writeExtras } from './extras-record';
import { extrasHeld, extrasNeedTree, followExtrasEdits, pullExtras, seeExtras } from './space-extras';
import { markVarsKeyMoved, varsKeyToMove } from './vars-key';
import { matchFolder, type RebuiltRecord, rebuiltCount, recordRebuilt } from './rebuild';
import { recordCycle } from './record';
import { forEachBounded } from './bounded';
import { diffRemote, fetchPageText, knownText, type RemoteTree } from './remote';
import type { DryRunReport, SpaceReport } from './report';
import { readPagesUsing, type ScanHint, type ScanResult, scanSpace, summaryAsRecorded } from './scan';
import { adoptCreatedIds, afterPush, readAssets, recordUploadedAssets } from './space-push';
import { cycleView } from './space-view';
import { followSubject } from './targets';
import { summaryHeld, writeSummaryFile } from './summary-file';

export type { SpaceSyncContext, SyncSpace, Touched } from './space-cycle';

const BODY_WINDOW = 16;

export async function syncSpace(ctx: SpaceSyncContext, space: SyncSpace, hint: ScanHint, report: SpaceReport, round = 0): Promise<Touched> {
  const c = startCycle(ctx, space, report);
  if (!ctx.dryRun) await recover(c);
  const seen = await see(c, withHeldFiles(c, hint));
  if (!seen) return c.touched;
  if (ctx.dryRun) {
    report.dryRun = await dryRunSpace(c, seen);
    return c.touched;
  }
  const { plan, notRead } = await planSpace(c, seen);
  if (plan.massDelete) {
    holdMassDelete(c, plan.massDelete);
    return c.touched;
  }
  c.store.clearHold(space.id);
  const holds = holdsOf(c, seen, plan);
  report.notPushed = holds.notPushed;
  const applied = await applyPlan(c, seen, plan);
  // Files the plan could not read (moved or deleted while it planned) keep their records, as if
  // their operations failed: the next cycle plans them again.
  for (const key of notRead) applied.failed.add(key);
  const clean = recordApplied(c, seen, plan, applied);
  await writeSummaryIfChanged(c, seen, plan);
  c.touched.keys = touchedKeys(plan, applied, seen.scan);
  report.pull = pullReport(plan, applied, seen.remote, seen.scan);
  if (applied.error) throw applied.error;
  if (!clean) return c.touched; // files changed under us: the next cycle plans again
  if (plan.clearPushed) c.store.forgetChangeRequest(space.id);
  if (!ctx.push) return c.touched;
  try {
    await pushPlan(c, seen, plan, holds.push);
  } catch (err) {
    if (!(err instanceof ChangeRequestGoneError) || round > 0) throw err;
    // Merged or closed while Quire wrote into it (or set aside, under review, for a new topic): the
    // cycle runs once more, into a new one. Its record is kept until that cycle has seen the state
    // and main as they are now: forgotten before, a page it created (its file since renamed) would
    // look gone from the server and be pushed again as a new page.
    ctx.mirror.log.add('info', err.message, space.id);
    report.notice = err.message;
    return syncSpace(ctx, space, hint, report, round + 1);
  }
  return c.touched;
}

function startCycle(ctx: SpaceSyncContext, space: SyncSpace, report: SpaceReport): SpaceCycle {
  const store = pushStoreOf(ctx.mirror);
  return {
    ctx,
    space,
    spaceDir: join(ctx.root, space.folder),
    stagingDir: stagingDir(ctx.root, space.id), // checked: neither it nor .quire is a link
    store,
    pushCtx: { api: ctx.api, mirror: ctx.mirror, store, spaceId: space.id, signal: ctx.signal },
    startedAt: new Date().toISOString(),
    report,
    touched: { spaceId: space.id, keys: [], firstSync: false },
    pulledAssets: [],
    held: store.hold(space.id)?.deletes,
  };
}

/** The files of the pages a mass-delete stop holds are looked at, whatever the watcher saw: they may be back. */
function withHeldFiles(c: SpaceCycle, hint: ScanHint): ScanHint {
  if (hint === 'all' || !c.held) return hint;
  const paths = c.held.server.flatMap((id) => c.ctx.mirror.folder.node(c.space.id, id)?.path ?? []);
  return paths.length > 0 ? [...hint, ...paths] : hint;
}

/** Files a killed move left in staging go back; content batches a killed push left `sending` are settled. */
async function recover(c: SpaceCycle): Promise<void> {
  await recoverStaging(c.spaceDir, c.stagingDir);
  await settleOutbox(c.pushCtx);
  adoptCreatedIds(c.ctx.mirror, c.space.id);
}

/**
 * Where the change request stands, main's tree and the folder's changes: the tree is asked
 * for beside the change request's state, and the folder scanned while it is on its way. Null
 * when the folder is missing.
 */
async function see(c: SpaceCycle, hint: ScanHint): Promise<Seen | null> {
  const { mirror } = c.ctx;
  const spaceId = c.space.id;
  const firstSync = !mirror.folder.hasTree(spaceId);
  const extras = seeExtras(mirror, spaceId, c.spaceDir, firstSync ? 'all' : hint);
  if (extras.looked && !c.ctx.dryRun) {
    mirror.transaction(() => writeExtras(mirror, spaceId, extras.record));
    followExtrasEdits(mirror, spaceId, extras.edits, c.startedAt);
  }
  const treeNeeded = extrasNeedTree(extras.record) || varsKeyToMove(mirror, spaceId);
  const asked = await askServer(c, firstSync || treeNeeded);

  // The folder is scanned while main's tree is on its way (the scan only reads).
  if (asked.treeComing) await new Promise((resolve) => setImmediate(resolve));
  // SUMMARY.md holding lines Quire could not take is read at every cycle: they are said until settled.
  let scan = scanSpace({ mirror, spaceId, spaceDir: c.spaceDir, hint: firstSync ? 'all' : hint, rereadSummary: summaryHeld(mirror, spaceId) });
  const { changeRequest, tree } = await answersOfOneMoment(c, asked);
  let remote = tree ? await remoteNow(mirror, spaceId, tree) : null;
  if (scan.missing) {
    c.report.missingFolder = true;
    return null;
  }
  let rebuilt: RebuiltRecord | null = null;
  if (firstSync && remote && scan.local.added.length > 0) {
    rebuilt = await matchFolder({ api: c.ctx.api, mirror, spaceId, spaceDir: c.spaceDir, tree: remote.tree, scan, rules: c.ctx.names, signal: c.ctx.signal });
    if (rebuilt && !c.ctx.dryRun) {
      recordRebuilt(mirror, rebuilt);
      c.report.rebuilt = rebuiltCount(rebuilt);
      ({ remote, scan } = seenAgain(c, remote));
      rebuilt = null;
    }
  }
  scan = readPagesUsingReplaced(c, scan, hint);
  c.touched.firstSync = firstSync;
  c.report.unreadable = scan.local.unreadable.map((u) => ({ path: u.path, reason: u.reason }));
  return { firstSync, changeRequest, remote, scan, rebuilt, extras: extras.record };
}

/** Files linking to an asset uploaded anew are read: their links resolve again. */
function readPagesUsingReplaced(c: SpaceCycle, scan: ScanResult, hint: ScanHint): ScanResult {
  const replaced = scan.assets.changed.flatMap((a) => (a.fileId !== null ? [a.fileId] : []));
  return readPagesUsing({ mirror: c.ctx.mirror, spaceId: c.space.id, spaceDir: c.spaceDir, hint }, scan, replaced);
}

/** Main and the folder seen again against a record just rebuilt (`rebuild.ts`): what differs now is what changed. */
function seenAgain(c: SpaceCycle, remote: RemoteNow): { remote: RemoteNow; scan: ScanResult } {
  const { mirror } = c.ctx;
  const spaceId = c.space.id;
  return {
    remote: { ...remote, diff: diffRemote(remote.tree, mirror.content.baseIndex(spaceId)) },
    scan: scanSpace({ mirror, spaceId, spaceDir: c.spaceDir, hint: 'all' }),
  };
}

/** Main now, diffed against main as last synced. */
async function remoteNow(mirror: Mirror, spaceId: string, tree: RemoteTree): Promise<RemoteNow> {
  const remote = { tree, diff: diffRemote(tree, mirror.content.baseIndex(spaceId)), bodies: new Map<string, string>() };
  if (tree.pages.size > LARGE_PULL) {
    // The revision as the API sent it (its text, what was parsed from it) is garbage once the
    // answer's last callbacks have returned: after this turn of the event loop, not during it.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
  }
  return remote;
}

/**
 * The plan; when a decision needs main's text of pages that changed, those are fetched and the
 * space planned again. A page file the plan needed that is not where the mirror has it (moved
 * or deleted, and the watcher's paths did not say so yet) makes the whole folder scanned and the
 * space planned again; `notRead`: files still not read (changed while it planned), left alone.
 */
async function planSpace(c: SpaceCycle, seen: Seen): Promise<{ plan: Plan; notRead: ReadonlySet<string> }> {
  let first = planOnce(c, seen);
  if (first.notRead.size > 0 && !seen.scan.whole) {
    seen.scan = readPagesUsingReplaced(c, scanSpace({ mirror: c.ctx.mirror, spaceId: c.space.id, spaceDir: c.spaceDir, hint: 'all' }), 'all');
    c.report.unreadable = seen.scan.local.unreadable.map((u) => ({ path: u.path, reason: u.reason }));
    first = planOnce(c, seen);
  }
  let { plan, notRead } = first;
  if (plan.needBodies.length > 0 && seen.remote) {
    await fetchBodies(c, seen.remote, plan.needBodies, first.local);
    ({ plan, notRead } = planOnce(c, seen));
  }
  if (plan.fileOps.length > LARGE_PULL) collectGarbage(); // the planner's working state is garbage now
  return { plan, notRead };
}

/** One plan over what the cycle saw, with the files of the pages whose server text it needs, and the files it could not read. */
function planOnce(c: SpaceCycle, seen: Seen): { plan: Plan; local: ReadonlyMap<string, string | null>; notRead: Set<string> } {
  return c.ctx.mirror.reading(() => planOver(c, seen));
}

function planOver(c: SpaceCycle, seen: Seen): { plan: Plan; local: ReadonlyMap<string, string | null>; notRead: Set<string> } {
  const { mirror, links } = c.ctx;
  const notRead = new Set<string>();
  const view = cycleView({
    mirror,
    links,
    spaceId: c.space.id,
    spaceDir: c.spaceDir,
    scan: seen.scan,
    remote: seen.remote,
    changeRequest: seen.changeRequest.state,
    onMissing: (key) => notRead.add(key),
  });
  const options = {
    allowMassDelete: c.ctx.allowMassDelete,
    ...(c.ctx.allowDeletes?.has(c.space.id) ? { allowDeletes: c.ctx.allowDeletes.get(c.space.id)! } : {}),
    ...(c.held ? { heldDeletes: c.held } : {}),
    names: c.ctx.names,
    ...(c.ctx.fullLayout ? { full: true, relayout: true } : {}),
    ...(c.ctx.toGitbook?.has(c.space.id) ? { toGitbook: c.ctx.toGitbook.get(c.space.id)! } : {}),
    ...((seen.remote?.tree.pages.size ?? 0) > LARGE_PULL ? { betweenSteps: collectGarbage } : {}),
  };
  const plan = planSync(view(), options);
  // The files of the pages whose bodies it needs, as they are now (their frontmatter stays as written, page-file.ts).
  const now = plan.needBodies.length > 0 ? view() : null;
  const local = new Map(plan.needBodies.map((id) => [id, now?.local.edited.get(id)?.text ?? now?.folder.text(id) ?? null] as const));
  return { plan, local, notRead };
}

/**
 * What the cycle would do, per page. A lost record the dry run found again is planned as if
 * rebuilt: written in a transaction that is undone (a dry run writes nothing), never taken for
 * new pages, moves and groups.
 */
async function dryRunSpace(c: SpaceCycle, seen: Seen): Promise<DryRunReport> {
  const { mirror } = c.ctx;
  const rebuilt = seen.rebuilt;
  const asSeen = <T>(fn: (seen: Seen) => T): T => {
    if (rebuilt === null || !seen.remote) return fn(seen);
    const remote = seen.remote;
    return mirror.undone(() => {
      recordRebuilt(mirror, rebuilt);
      const again = seenAgain(c, remote);
      return fn({ ...seen, ...again, scan: readPagesUsingReplaced(c, again.scan, 'all') });
    });
  };
  const first = asSeen((s) => planOnce(c, s));
  if (first.plan.needBodies.length > 0 && seen.remote) await fetchBodies(c, seen.remote, first.plan.needBodies, first.local);
  return asSeen((s) => {
    const plan = first.plan.needBodies.length > 0 ? planOnce(c, s).plan : first.plan;
    const holds = holdsOf(c, s, plan);
    c.report.notPushed = holds.notPushed;
    return dryRunOf(plan, holds, mirror, c.space.id);
  });
}

/** What the push holds back: the same for the sync and its dry run (push-holds.ts). */
function holdsOf(c: SpaceCycle, seen: Seen, plan: Plan): PushHolds {
  const { mirror, pushGuard, dryRun } = c.ctx;
  const holds = pushHolds({ mirror, spaceId: c.space.id, pushGuard, dryRun }, plan, seen.scan.assets.gone);
  return { ...holds, notPushed: [...holds.notPushed, ...extrasHeld(seen.extras)] };
}

/** Main's texts of pages that changed; `local`: a page's file now (its frontmatter stays as written, page-file.ts). */
async function fetchBodies(c: SpaceCycle, remote: RemoteNow, ids: readonly string[], local: ReadonlyMap<string, string | null>): Promise<void> {
  const { id: spaceId, title } = c.space;
  let done = 0;
  const report = () => c.ctx.onProgress?.({ phase: 'pull', spaceId, spaceTitle: title, done, total: ids.length });
  report();
  await forEachBounded(ids, BODY_WINDOW, async (id) => {
    const page = remote.tree.pages.get(id);
    if (!page) return;
    remote.bodies.set(
      id,
      await fetchPageText(c.ctx.api, spaceId, page, c.ctx.signal, { known: knownText(c.ctx.mirror, spaceId, id), local: local.get(id) ?? null }),
    );
    done++;
    report();
  });
}

/** The fail-safe stopped the cycle: the hold is kept (the host says how to let it through) and logged. */
function holdMassDelete(c: SpaceCycle, hold: MassDeleteHold): void {
  const spaceId = c.space.id;
  c.store.setHold(spaceId, { kind: 'mass-delete', ...hold, deletes: { server: [...hold.deletes.server], here: [...hold.deletes.here] }, at: c.startedAt });
  c.ctx.mirror.log.add('error', `stopped before a mass delete (${hold.localDeletes} on the server, ${hold.remoteDeletes} here, of ${hold.pages})`, spaceId);
  c.report.held = hold;
}

/** The plan's file operations, with links resolved to where pages are after this cycle; assets first (pages written next link to them by their local paths). */
async function applyPlan(c: SpaceCycle, seen: Seen, plan: Plan): Promise<ApplyResult> {
  const { api, mirror, links, signal } = c.ctx;
  const spaceId = c.space.id;
  const { remote, scan } = seen;
  const finalPaths = new Map(plan.folder.upsert.map((r) => [r.key, r.kind === 'document' ? r.path : null] as const));
  for (const key of [...plan.folder.remove, ...plan.folder.removeWhenPushed]) finalPaths.set(key, null);
  links.overlay(spaceId, { paths: finalPaths });
  if (remote) c.pulledAssets = (await pullAssets(api, mirror, spaceId, c.spaceDir, remote.tree.files, c.ctx.names)).written;
  // Before the pages: they include reusable content by its file's path.
  await pullExtras(
    {
      api,
      mirror,
      spaceId,
      spaceDir: c.spaceDir,
      links,
      names: c.ctx.names,
      at: c.startedAt,
      ...(signal ? { signal } : {}),
      ...(c.ctx.ownWrites ? { ownWrites: c.ctx.ownWrites } : {}),
    },
    remote?.tree ?? null,
    plan.treeChanged,
  );
  return applyFileOps(
    {
      api,
      mirror,
      spaceId,
      spaceTitle: c.space.title,
      spaceDir: c.spaceDir,
      stagingDir: c.stagingDir,
      links,
      seen: scan.seen,
      remotePage: (id) => remote?.tree.pages.get(id),
      onWritten: followWrites({ mirror, spaceId, spaceDir: c.spaceDir, plan, scan, at: c.startedAt, revision: remote?.tree.revision.id ?? null }),
      signal,
      ...(c.ctx.onProgress ? { onProgress: c.ctx.onProgress } : {}),
      ...(c.ctx.ownWrites ? { ownWrites: c.ctx.ownWrites } : {}),
    },
    plan,
  );
}

/** Search and history follow the cycle, and the cycle is recorded, in one transaction; false when files changed under it. */
function recordApplied(c: SpaceCycle, seen: Seen, plan: Plan, applied: ApplyResult): boolean {
  const { mirror } = c.ctx;
  const spaceId = c.space.id;
  const { remote, scan } = seen;
  const activity = pullActivity({
    mirror,
    spaceId,
    plan,
    applied,
    remote: remote?.tree ?? null,
    previousRevision: c.space.syncedRevision,
    assets: c.pulledAssets,
  });
  const { clean } = mirror.transaction(() => {
    followCycle({ mirror, spaceId, spaceDir: c.spaceDir, plan, applied, scan, at: c.startedAt, revision: remote?.tree.revision.id ?? null });
    const recorded = recordCycle({ mirror, spaceId, plan, applied, scan, remote: remote?.tree ?? null, at: c.startedAt, activity });
    for (const moved of movesActivity(mirror, spaceId, plan, applied)) mirror.log.add('info', describeActivity(moved), spaceId, c.startedAt, moved);
    if (seen.firstSync) mirror.search.markSpaceIndexed(spaceId, c.startedAt);
    if (remote) markVarsKeyMoved(mirror, spaceId);
    return recorded;
  });
  c.ctx.links.overlay(spaceId, {});
  if (plan.fileOps.length > LARGE_PULL) collectGarbage();
  return clean;
}

/**
 * SUMMARY.md follows the folder's tree: written when the tree changed, on a first sync, or when
 * the writer edited it (with the lines held kept as written), unless the writer saved it again
 * while the cycle ran.
 */
async function writeSummaryIfChanged(c: SpaceCycle, seen: Seen, plan: Plan): Promise<void> {
  if (!(plan.treeChanged || seen.firstSync || seen.scan.summary)) return;
  const { mirror, ownWrites } = c.ctx;
  await writeSummaryFile(mirror, c.space.id, c.spaceDir, {
    kept: plan.summaryKept,
    expected: seen.scan.summary?.seen ?? summaryAsRecorded(mirror, c.space.id),
    ...(ownWrites ? { ownWrites } : {}),
  });
}

/** The pushes that go (`holdsOf`) into the change request, rebased first when main moved since it was based. */
async function pushPlan(c: SpaceCycle, seen: Seen, plan: Plan, goes: readonly PushOp[]): Promise<void> {
  const { mirror, onProgress } = c.ctx;
  const { id: spaceId, title: spaceTitle } = c.space;
  const { state, baseRevision } = seen.changeRequest;
  // Main moved since the change request was based on it: bring that in first, so pages main
  // gained since can be edited in it (and changes refused for that go through).
  const mainRevision = seen.remote?.tree.revision.id ?? c.space.syncedRevision;
  if (plan.push.length > 0 && state === 'open' && !plan.clearPushed && baseRevision !== null && mainRevision && baseRevision !== mainRevision) {
    const rebased = await rebaseChangeRequest(c.pushCtx);
    if (rebased?.conflicts) c.report.notice = rebased.conflicts;
  }
  // A place-only change of a page whose server text was fetched while writing records that text.
  const ops = goes.map((op) => (op.op === 'update' && op.record === null ? { ...op, record: mirror.content.baseText(spaceId, op.id) } : op));
  if (ops.length === 0) {
    c.store.clearLocalEdits(spaceId, c.startedAt);
    return;
  }
  onProgress?.({ phase: 'push', spaceId, spaceTitle, done: 0, total: ops.length });
  const sent = await pushChanges(c.pushCtx, ops, await readAssets(c.spaceDir, ops));
  c.report.push = sent;
  await followSubject(c.pushCtx.api, mirror, spaceId, c.pushCtx.signal);
  followPush(mirror, spaceId, ops, sent.applied, `change request #${sent.changeRequest?.number ?? '?'}`, c.startedAt);
  afterPush(mirror, spaceId, plan, sent.applied);
  recordUploadedAssets(mirror, spaceId, seen.scan);
  onProgress?.({ phase: 'push', spaceId, spaceTitle, done: ops.length, total: ops.length });
  c.store.clearLocalEdits(spaceId, c.startedAt);
  // Logged at the cycle's time, as the history versions it recorded (the app's log opens those).
  const activity = pushActivity(mirror, spaceId, ops, sent);
  if (activity) mirror.log.add('pushed', describeActivity(activity), spaceId, c.startedAt, activity);
}

/** Pages whose file moved, appeared or went away, here or by the writer (files of other spaces linking them are written again). */
function touchedKeys(plan: Plan, applied: ApplyResult, scan: ScanResult): string[] {
  return [...new Set([...changedKeys(plan, applied), ...[...scan.local.moved.keys()].filter((k) => !k.startsWith('new:'))])];
}

/** Pages whose file this cycle moved, wrote anew or removed. */
function changedKeys(plan: Plan, applied: ApplyResult): string[] {
  const keys = new Set<string>([...applied.moved.keys(), ...applied.deleted.keys(), ...plan.folder.remove]);
  for (const op of plan.fileOps) if (op.op === 'write' && op.fresh && applied.written.has(op.key)) keys.add(op.key);
  return [...keys].filter((k) => !k.startsWith('new:'));
}

function pullReport(plan: Plan, applied: ApplyResult, remote: { tree: RemoteTree } | null, scan: ScanResult): SpaceReport['pull'] {
  const written = [...applied.written.values()].map((w) => w.path);
  if (!remote && written.length + applied.moved.size + applied.deleted.size + plan.conflicts.add.length === 0) return null;
  // Page files main changed here, as the log counts them: not a file only relinked, nor one moved without main.
  const pages = plan.fileOps.filter(
    (op) =>
      !applied.failed.has(op.key) &&
      ((op.op === 'write' && applied.written.has(op.key)) ||
        (op.op === 'move' && !op.cause && applied.moved.has(op.key)) ||
        (op.op === 'delete' && applied.deleted.has(op.key))),
  ).length;
  return {
    revision: remote?.tree.revision.id ?? '',
    fetchedPages: applied.fetched.size,
    pages,
    written,
    moved: [...applied.moved.values()],
    deleted: [...applied.deleted.values()],
    conflicts: plan.conflicts.add.map((c) => c.path),
    merged: plan.stats.merged,
    read: scan.readCount,
  };
}
