/**
 * Apply: carries out a plan's file operations on the folder (record.ts then writes down what
 * happened). Texts come in stable form; a page file is written with its links as relative paths
 * to where the files are after this cycle (links.ts), and what it was written with is kept.
 *
 * - Moves go through a staging folder with a journal (moves.ts).
 * - Every write, relink and delete first checks that the file still holds what the scan saw
 *   (its hash); a file edited since is left alone, its page fails for this cycle, and the next
 *   cycle sees the edit. Nothing a writer saved is ever overwritten unseen.
 * - Bodies not fetched yet are fetched while writing, a few at a time, so a large pull holds
 *   only a window of pages in memory.
 * - The first error from the disk (full, read-only) stops the remaining operations; the error
 *   says what to do.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import type { ApiClient } from '../api';
import { toLocalLinks } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import type { LinkResolver } from './link-targets';
import { runMoves } from './moves';
import { DELETED_REMOTELY_NOTE, type FileOp, type Plan, type RemotePage } from './plan';
import type { ProgressListener } from './progress';
import { fetchPageText, forEachBounded } from './remote';
import { explainFsError, removeFileInside, resolveInside, SafeFsError, UnsafePathError, writeFileAtomic } from './safe-fs';
import type { SeenFile } from './scan';

export interface ApplyContext {
  api: ApiClient;
  mirror: Mirror;
  spaceId: string;
  spaceTitle: string;
  spaceDir: string;
  /** Folder for files being moved (inside `.quire/`). */
  stagingDir: string;
  links: LinkResolver;
  /** What the scan saw of each file it looked at (the guard's reference). */
  seen: ReadonlyMap<string, SeenFile>;
  /** A page of main now (to fetch its body). */
  remotePage: (id: string) => RemotePage | undefined;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** A page file as this cycle wrote it. */
export interface WrittenFile {
  path: string;
  /** Its text in stable form. */
  stable: string;
  size: number;
  mtimeMs: number;
  ino: string;
  /** Hash of the bytes written. */
  hash: string;
  linkMap: Record<string, string>;
}

export interface ApplyResult {
  written: Map<string, WrittenFile>;
  /** Server texts fetched while writing, by page id. */
  fetched: Map<string, string>;
  moved: Map<string, string>;
  deleted: Map<string, string>;
  /** Conflict copies written. */
  copies: string[];
  /** Keys whose file operations did not all happen (their records stay as they were). */
  failed: Set<string>;
  /** The first error that stopped the file operations, if any. */
  error: Error | null;
}

const WRITE_WINDOW = 16;

/** Fatal for the whole cycle: the disk or folder refuses writes. */
function isFatal(err: unknown): boolean {
  return err instanceof SafeFsError && ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO'].includes(err.code ?? '');
}

export async function applyFileOps(ctx: ApplyContext, plan: Plan): Promise<ApplyResult> {
  const result: ApplyResult = { written: new Map(), fetched: new Map(), moved: new Map(), deleted: new Map(), copies: [], failed: new Set(), error: null };
  let fatal = false;
  const fail = (key: string, err?: unknown) => {
    result.failed.add(key);
    if (err === undefined) return;
    if (!(err instanceof SafeFsError) && !(err instanceof UnsafePathError)) throw err;
    result.error ??= err;
    if (isFatal(err)) fatal = true;
  };
  const ops = <K extends FileOp['op']>(kind: K) => plan.fileOps.filter((o): o is Extract<FileOp, { op: K }> => o.op === kind);

  await mkdir(ctx.spaceDir, { recursive: true }).catch((err) => {
    throw explainFsError(err, 'create the folder', ctx.spaceDir);
  });

  for (const op of ops('delete')) {
    if (fatal) {
      fail(op.key);
      continue;
    }
    try {
      if (!(await holdsWhatWasSeen(ctx, op.key, op.path, op.path))) {
        fail(op.key);
        continue;
      }
      await removeFileInside(ctx.spaceDir, op.path, { pruneEmptyFolders: true });
      result.deleted.set(op.key, op.path);
    } catch (err) {
      fail(op.key, err);
    }
  }

  const moves = ops('move').filter((m) => !result.failed.has(m.key));
  /** Where a file moved this cycle was when the scan saw it. */
  const seenAt = new Map<string, string>();
  if (!fatal && moves.length > 0) {
    const outcome = await runMoves(ctx.spaceDir, ctx.stagingDir, moves);
    for (const m of outcome.moved) {
      result.moved.set(m.key, m.to);
      seenAt.set(m.key, m.from);
    }
    for (const f of outcome.failed) fail(f.move.key, f.error);
  }

  const writes = ops('write').filter((w) => !result.failed.has(w.key));
  const unseen = writes.filter((w) => w.text === null).length;
  let fetched = 0;
  const progress = () => ctx.onProgress?.({ phase: 'pull', spaceId: ctx.spaceId, spaceTitle: ctx.spaceTitle, done: fetched, total: unseen });
  if (unseen > 0) progress();
  await forEachBounded(writes, WRITE_WINDOW, async (op) => {
    if (fatal) return fail(op.key);
    try {
      let text = op.text;
      if (text === null) {
        const page = ctx.remotePage(op.key);
        if (!page) return fail(op.key);
        text = await fetchPageText(ctx.api, ctx.spaceId, page, ctx.signal);
        result.fetched.set(op.key, text);
        fetched++;
        progress();
      }
      const ok = op.fresh ? !(await exists(ctx, op.path)) : await holdsWhatWasSeen(ctx, op.key, op.path, seenAt.get(op.key) ?? op.path);
      if (!ok) return fail(op.key);
      result.written.set(op.key, await writePage(ctx, op.path, text));
    } catch (err) {
      fail(op.key, err);
    }
  });

  for (const op of ops('relink')) {
    if (fatal || result.failed.has(op.key) || result.written.has(op.key)) continue;
    try {
      if (!(await holdsWhatWasSeen(ctx, op.key, op.path, seenAt.get(op.key) ?? op.path))) {
        fail(op.key);
        continue;
      }
      result.written.set(op.key, await writePage(ctx, op.path, op.text));
    } catch (err) {
      fail(op.key, err);
    }
  }

  for (const op of ops('remote-copy')) {
    if (fatal) {
      fail(op.key);
      continue;
    }
    try {
      const text = op.text === null ? DELETED_REMOTELY_NOTE : toLocalLinks(op.text, ctx.links.targetsFor(ctx.spaceId, op.path)).text;
      await writeFileAtomic(ctx.spaceDir, op.path, text);
      result.copies.push(op.path);
    } catch (err) {
      fail(op.key, err);
    }
  }
  return result;
}

/** Writes a page file: its stable text with links as relative paths from where it is. */
async function writePage(ctx: ApplyContext, path: string, stable: string): Promise<WrittenFile> {
  const local = toLocalLinks(stable, ctx.links.targetsFor(ctx.spaceId, path));
  const abs = await writeFileAtomic(ctx.spaceDir, path, local.text);
  const st = await stat(abs);
  return { path, stable, size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash: sha256(local.text), linkMap: local.written };
}

async function exists(ctx: ApplyContext, path: string): Promise<boolean> {
  return stat(resolveInside(ctx.spaceDir, path)).then(
    () => true,
    () => false,
  );
}

/**
 * True when the file at `path` holds what the scan saw at `seenPath` (where it was before a move
 * this cycle), or, for a file the scan did not look at, what the last cycle recorded.
 */
async function holdsWhatWasSeen(ctx: ApplyContext, key: string, path: string, seenPath: string): Promise<boolean> {
  const expected = ctx.seen.get(seenPath)?.hash ?? ctx.mirror.folder.node(ctx.spaceId, key)?.fileHash ?? null;
  let bytes: Buffer;
  try {
    bytes = await readFile(resolveInside(ctx.spaceDir, path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return false;
    throw err instanceof UnsafePathError ? err : explainFsError(err, 'read', path);
  }
  return expected !== null && sha256(bytes) === expected;
}
