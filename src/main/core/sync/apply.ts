/**
 * Apply: carries out a plan (planner.ts) on the folder and records it in the mirror.
 *
 * - Moves go through a staging folder with a journal, so swaps never overwrite each
 *   other and a process killed mid-move puts every file back on the next run.
 * - Every write and delete first checks that the file still holds what the plan saw; a
 *   file edited since is left alone (the next cycle sees the edit).
 * - A page's new base is recorded only when its file operations succeeded, so a failed
 *   write (disk full, read-only folder) never makes an old file look like a local edit.
 *   The first such failure stops the remaining file operations; the error says what to do.
 */
import { mkdir, readFile, rename, rm, stat, readdir, rmdir } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type { ApiClient } from '../api/client';
import type { FileRow, Mirror, PageRow } from '../mirror';
import { sha256 } from './hash';
import { planAssetPaths, SUMMARY_FILE, type LayoutPlan } from './layout';
import type { Plan, FileOp } from './planner';
import { fetchPageText, forEachBounded, GONE_REMOTELY, type RemoteSnapshot } from './pull';
import { explainFsError, resolveInside, removeFileInside, SafeFsError, UnsafePathError, writeFileAtomic } from './safe-fs';
import { renderSummary } from '../content';
import type { BasePage, RemotePage } from './trees';
import type { ProgressListener } from './progress';

export interface ApplyContext {
  api: ApiClient;
  mirror: Mirror;
  spaceId: string;
  spaceTitle: string;
  spaceDir: string;
  /** Folder for files being moved (inside `.quire/`). */
  stagingDir: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  now?: () => string;
}

export interface ApplyInput {
  plan: Plan;
  /** Main now, when it moved since the last sync (null: unchanged). */
  remote: RemoteSnapshot | null;
  remotePages: ReadonlyMap<string, RemotePage>;
  /** The space's rows as the mirror held them when the cycle planned (the engine has them loaded already). */
  baseRows: readonly PageRow[];
}

export interface ApplyResult {
  written: string[];
  moved: string[];
  deleted: string[];
  conflicts: string[];
  /** Pages fetched while writing. */
  fetched: number;
  /** Pages whose file operations did not all succeed (their base was left as it was). */
  failedPages: Set<string>;
  /** Pages whose file was moved (new path), whatever happened next. */
  movedTo: Map<string, string>;
  /** The first error that stopped the file operations, if any. */
  error: Error | null;
}

const JOURNAL = 'moves.json';
const WRITE_WINDOW = 16;

/** Fatal for the whole cycle: the disk or folder refuses writes. */
function isFatal(err: unknown): boolean {
  return err instanceof SafeFsError && ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO'].includes(err.code ?? '');
}

async function readText(spaceDir: string, rel: string): Promise<string | null> {
  try {
    return await readFile(resolveInside(spaceDir, rel), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw err instanceof UnsafePathError ? err : explainFsError(err, 'read', rel);
  }
}

/** Puts back files a killed process left in the staging folder (run before scanning). */
export async function recoverStaging(spaceDir: string, stagingDir: string): Promise<string[]> {
  let journal: { moves: { from: string; to: string; staged: string }[] };
  try {
    journal = JSON.parse(await readFile(join(stagingDir, JOURNAL), 'utf8')) as typeof journal;
  } catch {
    return [];
  }
  const restored: string[] = [];
  for (const m of journal.moves) {
    const staged = join(stagingDir, m.staged);
    if (
      !(await stat(staged).then(
        () => true,
        () => false,
      ))
    )
      continue;
    let target: string | null = null;
    for (const candidate of [m.to, m.from, `${m.from.replace(/\.md$/i, '')}.recovered-${m.staged}.md`]) {
      const abs = resolveInside(spaceDir, candidate);
      if (
        !(await stat(abs).then(
          () => true,
          () => false,
        ))
      ) {
        target = candidate;
        break;
      }
    }
    if (target === null) continue;
    const abs = resolveInside(spaceDir, target);
    await mkdir(dirname(abs), { recursive: true });
    await rename(staged, abs);
    restored.push(target);
  }
  await rm(join(stagingDir, JOURNAL), { force: true });
  return restored;
}

export async function applyPlan(ctx: ApplyContext, input: ApplyInput): Promise<ApplyResult> {
  const { plan } = input;
  const result: ApplyResult = { written: [], moved: [], deleted: [], conflicts: [], fetched: 0, failedPages: new Set(), movedTo: new Map(), error: null };
  const fetchedText = new Map<string, string>();
  const diskText = new Map(plan.diskText);
  /** Size and mtime of each file just written, for the record. */
  const written = new Map<string, { size: number; mtimeMs: number }>();
  // Pages that only take the server's text are recorded as they are written, a few
  // hundred per transaction, so a large pull does not hold every page in memory.
  const baseById = new Map(plan.base.map((b) => [b.id, b]));
  const recorded = new Set<string>();
  let pendingRows: PageRow[] = [];
  const flushRows = () => {
    if (pendingRows.length === 0) return;
    const rows = pendingRows;
    pendingRows = [];
    ctx.mirror.transaction(() => {
      for (const row of rows) ctx.mirror.content.upsertPage(row);
    });
    for (const row of rows) recorded.add(row.id);
  };
  // A file changed since the scan only fails its page (the next cycle sees the edit); an
  // error from the disk or a path also stops the cycle with its message.
  let fatal = false;
  const fail = (pageId: string, err?: unknown) => {
    result.failedPages.add(pageId);
    if (err === undefined) return;
    result.error ??= err as Error;
    if (isFatal(err)) fatal = true;
  };
  const stopped = () => fatal;

  await mkdir(ctx.spaceDir, { recursive: true }).catch((err) => {
    throw explainFsError(err, 'create the folder', ctx.spaceDir);
  });

  for (const op of plan.fileOps) {
    if (op.op !== 'delete') continue;
    if (stopped()) {
      fail(op.pageId);
      continue;
    }
    try {
      if ((await readText(ctx.spaceDir, op.path)) !== op.expect) {
        fail(op.pageId);
        continue;
      }
      await removeFileInside(ctx.spaceDir, op.path, { pruneEmptyFolders: true });
      result.deleted.push(op.path);
    } catch (err) {
      if (!(err instanceof SafeFsError) && !(err instanceof UnsafePathError)) throw err;
      fail(op.pageId, err);
    }
  }

  await runMoves(
    ctx,
    plan.fileOps.filter((o): o is Extract<FileOp, { op: 'move' }> => o.op === 'move'),
    result,
    fail,
  );

  const writes = plan.fileOps.filter((o): o is Extract<FileOp, { op: 'write' }> => o.op === 'write' && !result.failedPages.has(o.pageId));
  const pendingTotal = writes.filter((w) => w.text === null).length;
  const progress = () => ctx.onProgress?.({ phase: 'pull', spaceId: ctx.spaceId, spaceTitle: ctx.spaceTitle, done: result.fetched, total: pendingTotal });
  if (pendingTotal > 0) progress();
  await forEachBounded(writes, WRITE_WINDOW, async (op) => {
    if (stopped()) return fail(op.pageId);
    try {
      let text = op.text;
      const fromServer = text === null;
      if (text === null) {
        const page = input.remotePages.get(op.pageId);
        if (!page) return fail(op.pageId);
        text = await fetchPageText(ctx.api, ctx.spaceId, page);
        result.fetched++;
        progress();
      }
      if ((await readText(ctx.spaceDir, op.path)) !== op.expect) return fail(op.pageId);
      const abs = await writeFileAtomic(ctx.spaceDir, op.path, text);
      const st = await stat(abs);
      result.written.push(op.path);
      const row = baseById.get(op.pageId);
      if (fromServer && row && row.text === null && !result.failedPages.has(op.pageId)) {
        pendingRows.push(toRow(ctx.spaceId, row, text, { size: st.size, mtimeMs: st.mtimeMs }));
        if (pendingRows.length >= 250) flushRows();
        return;
      }
      if (fromServer) fetchedText.set(op.pageId, text);
      diskText.set(op.pageId, text);
      written.set(op.pageId, { size: st.size, mtimeMs: st.mtimeMs });
    } catch (err) {
      if (!(err instanceof SafeFsError) && !(err instanceof UnsafePathError)) throw err;
      fail(op.pageId, err);
    }
  });

  for (const op of plan.fileOps) {
    if (op.op !== 'remote-copy') continue;
    if (stopped()) {
      fail(op.pageId);
      continue;
    }
    try {
      await writeFileAtomic(ctx.spaceDir, op.path, op.text);
      result.conflicts.push(op.path);
    } catch (err) {
      if (!(err instanceof SafeFsError) && !(err instanceof UnsafePathError)) throw err;
      fail(op.pageId, err);
    }
  }

  let fileRows: FileRow[] | null = null;
  if (input.remote && !stopped()) {
    try {
      fileRows = await pullAssets(ctx, input.remote, result);
    } catch (err) {
      if (!(err instanceof SafeFsError)) throw err;
      result.error ??= err;
    }
  }

  if (!stopped()) {
    try {
      await writeSummary(ctx, plan, result);
    } catch (err) {
      if (!(err instanceof SafeFsError)) throw err;
      result.error ??= err;
    }
  }

  flushRows();
  await record(ctx, input, result, fetchedText, diskText, fileRows, written, recorded);
  return result;
}

async function runMoves(
  ctx: ApplyContext,
  moves: Extract<FileOp, { op: 'move' }>[],
  result: ApplyResult,
  fail: (pageId: string, err?: unknown) => void,
): Promise<void> {
  if (moves.length === 0) return;
  const entries = moves.map((m, i) => ({ ...m, staged: `${i}` }));
  try {
    await mkdir(ctx.stagingDir, { recursive: true });
    await writeFileAtomic(ctx.stagingDir, JOURNAL, JSON.stringify({ moves: entries.map(({ from, to, staged }) => ({ from, to, staged })) }));
  } catch (err) {
    for (const m of moves) fail(m.pageId, err);
    return;
  }
  const staged: typeof entries = [];
  for (const m of entries) {
    try {
      await rename(resolveInside(ctx.spaceDir, m.from), join(ctx.stagingDir, m.staged));
      staged.push(m);
    } catch (err) {
      fail(m.pageId, (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : explainFsError(err, 'move', m.from));
    }
  }
  for (const m of staged) {
    let target = m.to;
    try {
      const abs = resolveInside(ctx.spaceDir, m.to);
      if (
        await stat(abs).then(
          () => true,
          () => false,
        )
      ) {
        // Something new sits there: put the file back where it was and try again next cycle.
        target = m.from;
        fail(m.pageId);
      }
      const dest = resolveInside(ctx.spaceDir, target);
      await mkdir(dirname(dest), { recursive: true });
      await rename(join(ctx.stagingDir, m.staged), dest);
      if (target === m.to) {
        result.moved.push(`${m.from} -> ${m.to}`);
        result.movedTo.set(m.pageId, m.to);
      }
    } catch (err) {
      fail(m.pageId, explainFsError(err, 'move', m.from));
    }
  }
  await rm(join(ctx.stagingDir, JOURNAL), { force: true });
  await pruneEmptyDirs(
    ctx.spaceDir,
    moves.map((m) => m.from),
  );
}

/** Removes folders left empty by moves, never the space folder itself. */
async function pruneEmptyDirs(spaceDir: string, removedPaths: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const p of removedPaths) {
    for (let d = posix.dirname(p); d !== '.' && d !== '/' && d !== ''; d = posix.dirname(d)) dirs.add(d);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const d of deepestFirst) {
    const abs = resolveInside(spaceDir, d);
    const entries = await readdir(abs).catch(() => null);
    if (entries && entries.length === 0) await rmdir(abs).catch(() => undefined);
  }
}

/** Brings `.gitbook/assets/` in line with main's files; assets only this folder has are left alone. */
async function pullAssets(ctx: ApplyContext, remote: RemoteSnapshot, result: ApplyResult): Promise<FileRow[]> {
  const known = new Map(ctx.mirror.content.files(ctx.spaceId).map((f) => [f.id, f]));
  const knownPaths = new Set([...known.values()].map((f) => f.path));
  // Files on disk that main never had keep their names: list them as earlier holders.
  const onDisk = await readdir(resolveInside(ctx.spaceDir, '.gitbook/assets')).catch(() => [] as string[]);
  const localOnly = onDisk.map((n) => `.gitbook/assets/${n}`).filter((p) => !knownPaths.has(p));
  const claimants = [...localOnly.map((p) => ({ id: `local:${p}`, name: posix.basename(p) })), ...remote.files];
  const previous = new Map<string, string>([...known.values()].map((f) => [f.id, f.path]));
  for (const p of localOnly) previous.set(`local:${p}`, p);
  const paths = planAssetPaths(claimants, { previous });
  const rows: FileRow[] = [];
  await forEachBounded(remote.files, 8, async (f) => {
    const path = paths.get(f.id)!;
    const old = known.get(f.id);
    const abs = resolveInside(ctx.spaceDir, path);
    const present = await stat(abs).then(
      (s) => s.size,
      () => null,
    );
    let remoteHash = old?.remoteHash ?? null;
    if (!old || old.size !== f.size || old.name !== f.name || present === null) {
      const bytes = await ctx.api.download(f.downloadURL);
      remoteHash = sha256(bytes);
      await writeFileAtomic(ctx.spaceDir, path, bytes);
      result.written.push(path);
      if (old && old.path !== path) await removeFileInside(ctx.spaceDir, old.path);
    }
    rows.push({ spaceId: ctx.spaceId, id: f.id, name: f.name, contentType: f.contentType, size: f.size, path, remoteHash });
  });
  for (const old of known.values()) {
    if (remote.files.some((f) => f.id === old.id)) continue;
    await removeFileInside(ctx.spaceDir, old.path);
    result.deleted.push(old.path);
  }
  return rows;
}

async function writeSummary(ctx: ApplyContext, plan: Plan, result: ApplyResult): Promise<void> {
  const layout = plan.summary.plan;
  const pages = new Map([...layout.pages].map(([id, p]) => [id, { ...p, file: plan.summary.files.get(id) ?? p.file }]));
  const text = renderSummary(plan.summary.tree, { ...layout, pages } as LayoutPlan);
  if ((await readText(ctx.spaceDir, SUMMARY_FILE)) === text) return;
  await writeFileAtomic(ctx.spaceDir, SUMMARY_FILE, text);
  result.written.push(SUMMARY_FILE);
}

function toRow(spaceId: string, b: BasePage, text: string | null, stat: { size: number; mtimeMs: number } | null): PageRow {
  const meta = { ...(b.meta ?? {}) };
  if (b.goneRemotely) meta[GONE_REMOTELY] = true;
  else delete meta[GONE_REMOTELY];
  return {
    spaceId,
    id: b.id,
    parentId: b.parentId,
    position: b.position,
    type: b.kind,
    title: b.title,
    slug: b.slug,
    name: b.name,
    path: b.path,
    meta,
    documentId: b.documentId ?? null,
    updatedAt: b.updatedAt ?? null,
    remoteHash: text === null ? null : sha256(text),
    baseContent: text,
    localSize: stat?.size ?? null,
    localMtimeMs: stat?.mtimeMs ?? null,
  };
}

async function record(
  ctx: ApplyContext,
  input: ApplyInput,
  result: ApplyResult,
  fetchedText: Map<string, string>,
  diskText: Map<string, string>,
  fileRows: FileRow[] | null,
  written: ReadonlyMap<string, { size: number; mtimeMs: number }>,
  recorded: ReadonlySet<string>,
): Promise<void> {
  const { plan } = input;
  const { mirror, spaceId } = ctx;
  const at = (ctx.now ?? (() => new Date().toISOString()))();
  const rows: PageRow[] = [];
  const oldRows = new Map(input.baseRows.map((r) => [r.id, r]));
  for (const b of plan.base) {
    if (result.failedPages.has(b.id) || recorded.has(b.id)) continue;
    const text = b.text ?? fetchedText.get(b.id) ?? null;
    if (b.kind === 'document' && text === null && input.remotePages.get(b.id)?.pending) {
      result.failedPages.add(b.id);
      continue;
    }
    const old = oldRows.get(b.id);
    const onDisk = text !== null && b.path !== null && diskText.get(b.id) === text;
    const unchanged = old !== undefined && sameRow(old, toRow(spaceId, b, text, null));
    // An unchanged row whose file was already known to hold its text needs nothing.
    if (unchanged && (!onDisk || old.localSize !== null)) continue;
    let st: { size: number; mtimeMs: number } | null = null;
    if (onDisk)
      st =
        written.get(b.id) ??
        (await stat(resolveInside(ctx.spaceDir, b.path!)).then(
          (s) => ({ size: s.size, mtimeMs: s.mtimeMs }),
          () => null,
        ));
    rows.push(toRow(spaceId, b, text, st));
  }
  const keep = new Set([...plan.base.map((b) => b.id), ...result.failedPages]);
  const clean = result.failedPages.size === 0 && result.error === null;
  const revision = input.remote?.revision;
  try {
    mirror.transaction(() => {
      for (const old of oldRows.values()) if (!keep.has(old.id)) mirror.content.deletePage(spaceId, old.id);
      for (const row of rows) mirror.content.upsertPage(row);
      // A page whose file moved but whose later steps failed: its file is found at its new path.
      for (const id of result.failedPages) {
        const to = result.movedTo.get(id);
        if (to !== undefined && oldRows.has(id)) mirror.content.setPagePath(spaceId, id, to);
      }
      const failedConflictPages = new Set([...result.failedPages]);
      for (const c of plan.conflicts.resolve) {
        mirror.content.removeConflict(spaceId, c.path);
        mirror.log.add('info', `${c.path}: conflict resolved (${c.remotePath ?? 'the server copy'} was removed)`, spaceId, at);
      }
      for (const r of plan.conflicts.relocate) {
        mirror.content.relocateConflict(spaceId, r.from, r.to);
      }
      for (const c of plan.conflicts.add) {
        if (failedConflictPages.has(c.pageId)) continue;
        mirror.content.addConflict({ spaceId, path: c.path, pageId: c.pageId, kind: c.kind, remotePath: c.remotePath, detectedAt: at }, c.baseText ?? null);
        mirror.log.add('conflict', `${c.path}: ${describeConflict(c.kind)}${c.remotePath ? `; the server's version is in ${c.remotePath}` : ''}`, spaceId, at);
      }
      if (fileRows) {
        for (const f of mirror.content.files(spaceId)) if (!fileRows.some((r) => r.id === f.id)) mirror.content.deleteFile(spaceId, f.id);
        for (const f of fileRows) mirror.content.upsertFile(f);
      }
      if (revision) mirror.content.recordRevision({ id: revision.id, spaceId, parents: revision.parents, createdAt: revision.createdAt }, at);
      if (clean && revision) mirror.catalog.markSynced(spaceId, revision.id, at);
      else if (clean) mirror.catalog.markSynced(spaceId, null, at);
      const s = plan.stats;
      if (result.written.length + result.moved.length + result.deleted.length > 0 || revision) {
        mirror.log.add(
          'pulled',
          `${revision ? `pulled revision ${revision.id}: ` : ''}${result.written.length} written, ${result.moved.length} moved, ${result.deleted.length} deleted, ${s.merged} merged`,
          spaceId,
          at,
        );
      }
    });
  } catch (err) {
    throw new Error(
      `Could not record sync state in the mirror (${(err as Error).message}). If the disk is full, free some space, then sync again; your files were not changed beyond what was just written.`,
      { cause: err },
    );
  }
}

function sameRow(a: PageRow, b: PageRow): boolean {
  return (
    a.parentId === b.parentId &&
    a.position === b.position &&
    a.type === b.type &&
    a.title === b.title &&
    a.slug === b.slug &&
    a.name === b.name &&
    a.path === b.path &&
    a.documentId === b.documentId &&
    a.updatedAt === b.updatedAt &&
    a.baseContent === b.baseContent &&
    JSON.stringify(a.meta) === JSON.stringify(b.meta)
  );
}

export function describeConflict(kind: string): string {
  switch (kind) {
    case 'both-changed':
      return 'edited here and on the server in the same place';
    case 'deleted-remotely':
      return 'deleted on the server while edited here';
    case 'deleted-locally':
      return 'deleted here while edited on the server';
    case 'local-file-in-the-way':
      return 'a new page from the server lands on a file that is not that page';
    default:
      return kind;
  }
}
