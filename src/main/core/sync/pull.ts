import { stat, readFile, rename, rm, mkdir, readdir, rmdir } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type { Revision } from '@gitbook/api';
import type { ApiClient } from '../api/client';
import type { Mirror, PageRow, FileRow } from '../mirror';
import { STATE_DIR } from '../mirror';
import { flattenPages, remoteFiles, type RemotePage } from './remote-tree';
import { planLayout, planAssetPaths } from './layout';
import { renderPageFile, parsePageFile } from './frontmatter';
import { renderSummary } from './summary';
import { writeFileAtomic, resolveInside } from './safe-fs';
import { sha256 } from './hash';
import type { ProgressListener } from './progress';

export interface PullResult {
  spaceId: string;
  revision: string;
  fetchedPages: number;
  written: string[];
  moved: string[];
  deleted: string[];
  conflicts: string[];
}

export interface PullContext {
  api: ApiClient;
  mirror: Mirror;
  /** The sync folder root; each space lives in a folder below it. */
  root: string;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/** Suffix of the file holding the remote side of a clash, beside the local file. */
export const REMOTE_SUFFIX = '.remote.md';

export function remoteCopyPath(path: string): string {
  return path.replace(/\.md$/i, '') + REMOTE_SUFFIX;
}

/**
 * The page file text for a remote page: frontmatter for metadata, then the
 * body. The title is the body's leading `# heading` (Git Sync's convention);
 * if the API body has none, the title is put there.
 */
export function pageFileText(page: RemotePage, markdown: string): string {
  if (hasLeadingHeading(markdown)) return renderPageFile({ meta: page.meta, body: markdown });
  return renderPageFile({ title: page.title, meta: page.meta, body: markdown });
}

function hasLeadingHeading(markdown: string): boolean {
  return /^#\s+\S/.test(markdown.replace(/^\s+/, ''));
}

/** Reads a file's text inside the space folder, or null when it is not there. */
async function readIfExists(absPath: string): Promise<string | null> {
  try {
    return await readFile(absPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw err;
  }
}

/**
 * Tells whether the file of a synced page still holds what was last synced.
 * A matching size and mtime avoids reading it; otherwise its text decides.
 */
export async function localState(spaceDir: string, row: PageRow): Promise<{ exists: boolean; changed: boolean; text: string | null }> {
  if (!row.path) return { exists: false, changed: false, text: null };
  const abs = resolveInside(spaceDir, row.path);
  let st;
  try {
    st = await stat(abs);
  } catch {
    return { exists: false, changed: false, text: null };
  }
  if (row.localSize === st.size && row.localMtimeMs === st.mtimeMs && row.baseContent !== null) {
    return { exists: true, changed: false, text: row.baseContent };
  }
  const text = await readIfExists(abs);
  return { exists: text !== null, changed: text !== row.baseContent, text };
}

/**
 * Brings one space's folder in line with its current remote revision.
 * Costs one revision request plus one request per page whose body changed.
 * A local edit is never overwritten: the remote side goes beside it.
 */
export async function pullSpace(ctx: PullContext, spaceId: string, folder: string, title: string): Promise<PullResult> {
  const { api, mirror, root } = ctx;
  const spaceDir = join(root, folder);
  await mkdir(spaceDir, { recursive: true });

  const revision = await api.call<Revision>((c, params) => c.spaces.getCurrentRevision(spaceId, { metadata: false }, params));
  const remotePages = flattenPages(revision.pages);
  const known = new Map(mirror.content.pages(spaceId).map((p) => [p.id, p]));
  const plan = planLayout(revision.pages, { previous: new Map([...known.values()].map((p) => [p.id, { parentId: p.parentId, name: p.name }])) });
  const fileOf = (id: string) => plan.pages.get(id)?.file ?? null;

  const needsBody = remotePages.filter((p) => {
    if (fileOf(p.id) === null) return false;
    const old = known.get(p.id);
    if (!old || old.baseContent === null) return true;
    if (p.documentId || old.documentId) return p.documentId !== old.documentId;
    return p.updatedAt !== old.updatedAt;
  });

  const result: PullResult = { spaceId, revision: revision.id, fetchedPages: needsBody.length, written: [], moved: [], deleted: [], conflicts: [] };
  const now = new Date().toISOString();
  const rows: PageRow[] = [];
  const conflictRows: { path: string; pageId: string | null; kind: string; remotePath: string | null }[] = [];

  // Moves first, through a staging folder, so swaps and renames into a
  // former sibling's name never overwrite each other.
  const staging = join(root, STATE_DIR, 'staging', spaceId);
  const moving = remotePages.filter((p) => {
    const old = known.get(p.id);
    const next = fileOf(p.id);
    return old?.path && next && old.path !== next;
  });
  const staged = new Set<string>();
  for (const p of moving) {
    const old = known.get(p.id)!;
    const from = resolveInside(spaceDir, old.path!);
    if ((await readIfExists(from)) === null) continue;
    await mkdir(staging, { recursive: true });
    await rename(from, join(staging, p.id));
    staged.add(p.id);
  }
  for (const p of moving) {
    if (!staged.has(p.id)) continue;
    const to = resolveInside(spaceDir, fileOf(p.id)!);
    await mkdir(dirname(to), { recursive: true });
    await rename(join(staging, p.id), to);
    result.moved.push(`${known.get(p.id)!.path} -> ${fileOf(p.id)}`);
  }

  // Each page is fetched (when its body changed) and written as soon as it
  // arrives, a bounded number at a time: network and disk overlap, and
  // memory stays flat however large the space.
  const needed = new Set(needsBody.map((p) => p.id));
  let fetchedCount = 0;
  const progress = () => ctx.onProgress?.({ phase: 'pull', spaceId, spaceTitle: title, done: fetchedCount, total: needed.size });
  progress();
  const applyPage = async (p: RemotePage): Promise<void> => {
    let fetched: string | null = null;
    if (needed.has(p.id)) {
      fetched = await fetchMarkdown(ctx, spaceId, p.id);
      fetchedCount++;
      progress();
    }
    const path = fileOf(p.id);
    const old = known.get(p.id);
    const name = plan.pages.get(p.id)?.name ?? null;
    // Untouched remotely and staying where it is: nothing to read, write or record.
    if (old && fetched === null && isUnchanged(old, p, path, name)) return;
    const body = fetched ?? (old?.baseContent != null ? parsePageFile(old.baseContent).body : null);
    const text = path && body !== null ? pageFileText(p, body) : null;
    const row: PageRow = {
      spaceId,
      id: p.id,
      parentId: p.parentId,
      position: p.position,
      type: p.type,
      title: p.title,
      slug: p.slug,
      name,
      path,
      meta: p.meta as Record<string, unknown>,
      documentId: p.documentId,
      updatedAt: p.updatedAt,
      remoteHash: text === null ? null : sha256(text),
      baseContent: text,
      localSize: null,
      localMtimeMs: null,
    };
    if (path && text !== null) {
      const abs = resolveInside(spaceDir, path);
      const local = old ? await localState(spaceDir, { ...old, path }) : { exists: false, changed: false, text: await readIfExists(abs) };
      if (!old) local.exists = local.text !== null;
      const remoteChanged = old?.baseContent !== text;
      let inSync = local.text === text;
      if (!inSync && remoteChanged && (!local.exists || (old && !local.changed))) {
        await writeFileAtomic(spaceDir, path, text);
        result.written.push(path);
        inSync = true;
      } else if (!inSync && remoteChanged) {
        // Both sides changed, or an unknown file sits where this page goes: keep it, put the remote beside it.
        const remotePath = remoteCopyPath(path);
        await writeFileAtomic(spaceDir, remotePath, text);
        conflictRows.push({ path, pageId: p.id, kind: old ? 'both-changed' : 'local-file-in-the-way', remotePath });
        result.conflicts.push(path);
      } else if (!inSync && !local.changed && local.exists) {
        inSync = true;
      }
      // Otherwise the local side holds an edit not yet pushed: leave it.
      if (inSync) {
        const st = await stat(abs);
        row.localSize = st.size;
        row.localMtimeMs = st.mtimeMs;
      }
    }
    rows.push(row);
  };
  await forEachBounded(remotePages, PAGE_WINDOW, applyPage);

  // Pages gone remotely: remove their files unless edited locally.
  const remoteIds = new Set(remotePages.map((p) => p.id));
  const gone = [...known.values()].filter((p) => !remoteIds.has(p.id));
  for (const old of gone) {
    if (!old.path) continue;
    const local = await localState(spaceDir, old);
    if (!local.exists) continue;
    if (local.changed) {
      conflictRows.push({ path: old.path, pageId: old.id, kind: 'deleted-remotely', remotePath: null });
      result.conflicts.push(old.path);
    } else {
      await rm(resolveInside(spaceDir, old.path), { force: true });
      result.deleted.push(old.path);
    }
  }

  const fileRows = await pullFiles(ctx, spaceId, spaceDir, revision, result);

  const summary = renderSummary(revision.pages, plan);
  const summaryPath = resolveInside(spaceDir, 'SUMMARY.md');
  if ((await readIfExists(summaryPath)) !== summary) {
    await writeFileAtomic(spaceDir, 'SUMMARY.md', summary);
    result.written.push('SUMMARY.md');
  }
  await pruneEmptyDirs(spaceDir, [...result.moved.map((m) => m.split(' -> ')[0]!), ...result.deleted]);

  mirror.transaction(() => {
    for (const old of gone) mirror.content.deletePage(spaceId, old.id);
    for (const row of rows) mirror.content.upsertPage(row);
    for (const f of mirror.content.files(spaceId)) if (!fileRows.some((r) => r.id === f.id)) mirror.content.deleteFile(spaceId, f.id);
    for (const f of fileRows) mirror.content.upsertFile(f);
    for (const c of conflictRows) mirror.content.addConflict({ spaceId, ...c, detectedAt: now });
    mirror.content.recordRevision({ id: revision.id, spaceId, parents: revision.parents, createdAt: revision.createdAt }, now);
    mirror.catalog.markSynced(spaceId, revision.id, now);
    const summaryLine = `pulled revision ${revision.id}: ${result.fetchedPages} page(s) fetched, ${result.written.length} written, ${result.moved.length} moved, ${result.deleted.length} deleted`;
    mirror.log.add('pulled', summaryLine, spaceId, now);
    for (const c of conflictRows) mirror.log.add('conflict', `${c.path}: ${c.kind}${c.remotePath ? `, remote version saved as ${c.remotePath}` : ''}`, spaceId, now);
  });
  return result;
}

/** Pages worked on at once: enough to keep the API client's 8 connections and the disk busy, few enough to bound memory. */
const PAGE_WINDOW = 16;

/** True when a synced page's row already describes the remote page at this path. */
function isUnchanged(old: PageRow, p: RemotePage, path: string | null, name: string | null): boolean {
  return (
    old.path === path &&
    old.name === name &&
    old.parentId === p.parentId &&
    old.position === p.position &&
    old.type === p.type &&
    old.title === p.title &&
    old.slug === p.slug &&
    old.documentId === p.documentId &&
    old.updatedAt === p.updatedAt &&
    JSON.stringify(old.meta) === JSON.stringify(p.meta)
  );
}

async function fetchMarkdown(ctx: PullContext, spaceId: string, pageId: string): Promise<string> {
  const page = await ctx.api.call((c, params) => c.spaces.getPageById(spaceId, pageId, { format: 'markdown', metadata: false }, params));
  const markdown = (page as { markdown?: unknown }).markdown;
  return typeof markdown === 'string' ? markdown : '';
}

/** Runs `fn` over `items` with at most `limit` running at once; the first failure stops new work and rejects. */
async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function pullFiles(ctx: PullContext, spaceId: string, spaceDir: string, revision: Revision, result: PullResult): Promise<FileRow[]> {
  const files = remoteFiles(revision.files);
  const known = new Map(ctx.mirror.content.files(spaceId).map((f) => [f.id, f]));
  const paths = planAssetPaths(files, { previous: new Map([...known.values()].map((f) => [f.id, f.path])) });
  const rows: FileRow[] = [];
  await Promise.all(
    files.map(async (f) => {
      const path = paths.get(f.id)!;
      const old = known.get(f.id);
      const abs = resolveInside(spaceDir, path);
      const present = await stat(abs).then(() => true, () => false);
      let remoteHash = old?.remoteHash ?? null;
      if (!old || old.size !== f.size || old.name !== f.name || !present) {
        const bytes = await ctx.api.download(f.downloadURL);
        remoteHash = sha256(bytes);
        await writeFileAtomic(spaceDir, path, bytes);
        result.written.push(path);
        if (old && old.path !== path) await rm(resolveInside(spaceDir, old.path), { force: true });
      }
      rows.push({ spaceId, id: f.id, name: f.name, contentType: f.contentType, size: f.size, path, remoteHash });
    }),
  );
  for (const old of known.values()) {
    if (files.some((f) => f.id === old.id)) continue;
    await rm(resolveInside(spaceDir, old.path), { force: true });
    result.deleted.push(old.path);
  }
  return rows;
}

/** Removes folders left empty by moves and deletes, never the space folder itself. */
async function pruneEmptyDirs(spaceDir: string, removedPaths: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const p of removedPaths) {
    let d = posix.dirname(p);
    while (d !== '.' && d !== '/' && d !== '') {
      dirs.add(d);
      d = posix.dirname(d);
    }
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const d of deepestFirst) {
    const abs = resolveInside(spaceDir, d);
    const entries = await readdir(abs).catch(() => null);
    if (entries && entries.length === 0) await rmdir(abs).catch(() => undefined);
  }
}
