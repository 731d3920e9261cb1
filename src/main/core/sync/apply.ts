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
 *   only a window of pages in memory: a text fetched goes to the mirror's spool as its file is
 *   written (record.ts takes it from there), and `onWritten` hears of each file written (search
 *   and history follow it), a batch at a time, one transaction per batch.
 * - Each folder written into is fsynced after its files, before the cycle is recorded: those of
 *   each batch as the batch is followed, in the background, and again at the end any written
 *   into since (a large pull's thousands of folders no longer wait for the end, one after another).
 * - The first error from the disk (full, read-only) stops the remaining operations; the error
 *   says what to do.
 */
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import type { ApiClient } from '../api';
import { findReferences, toLocalLinks } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import { type LinkResolver, linkTargets } from './link-targets';
import { runMoves } from './moves';
import { DELETED_REMOTELY_NOTE, type FileOp, type Plan, type RemotePage } from './plan';
import type { OwnWrites } from './own-writes';
import type { ProgressListener } from './progress';
import { COLLECT_EVERY, collectGarbage, LARGE_PULL } from './memory';
import { forEachBounded } from './bounded';
import { fetchPageText, knownText } from './remote';
import { explainFsError, RealRoot, removeFileInside, resolveInside, SafeFsError, syncDirectories, UnsafePathError, writeFileAtomicStat } from './safe-fs';
import type { SeenFiles } from './scan';

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
  seen: Pick<SeenFiles, 'get'>;
  /** A page of main now (to fetch its body). */
  remotePage: (id: string) => RemotePage | undefined;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Each page file written, soon after it is (in batches, inside a mirror transaction). */
  onWritten?: (page: WrittenPage) => void;
  /** Told of each file written, as it is on disk. */
  ownWrites?: OwnWrites;
}

/** A page file this cycle wrote, as `onWritten` hears of it. */
export interface WrittenPage {
  key: string;
  path: string;
  /** What the file holds (links as relative paths). */
  text: string;
  /** Written again only for its links (a page it links to moved): the same page. */
  relinked: boolean;
}

/** A page file as this cycle wrote it. */
export interface WrittenFile {
  path: string;
  /** Hash of its text in stable form. */
  textHash: string;
  /** What that text links to (link-targets.ts linkTargets). */
  links: { space: string; id: string }[];
  size: number;
  mtimeMs: number;
  ino: string;
  /** Hash of the bytes written. */
  hash: string;
  linkMap: Record<string, string>;
}

export interface ApplyResult {
  written: Map<string, WrittenFile>;
  /** Pages whose server text was fetched while writing (the texts of those written wait in the spool: `mirror.content.spooledText`). */
  fetched: Set<string>;
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
/** Files written before their texts are spooled and `onWritten` hears of them, in one transaction. */
const FOLLOW_BATCH = 32;

/** Fatal for the whole cycle: the disk or folder refuses writes. */
function isFatal(err: unknown): boolean {
  return err instanceof SafeFsError && ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO'].includes(err.code ?? '');
}

export async function applyFileOps(ctx: ApplyContext, plan: Plan): Promise<ApplyResult> {
  // Nothing to do touches nothing: an idle cycle does not even look at the folder.
  if (plan.fileOps.length > 0) {
    await fsp.mkdir(ctx.spaceDir, { recursive: true }).catch((err) => {
      throw explainFsError(err, 'create the folder', ctx.spaceDir);
    });
  }
  ctx.mirror.content.clearSpool(ctx.spaceId);
  const run = new ApplyRun(ctx);
  try {
    await run.apply(plan);
  } finally {
    await run.syncFolders();
  }
  run.flush();
  return run.result;
}

class ApplyRun {
  readonly result: ApplyResult = { written: new Map(), fetched: new Set(), moved: new Map(), deleted: new Map(), copies: [], failed: new Set(), error: null };
  /** Folders written into since their last fsync was started. */
  private unsynced = new Set<string>();
  /** The folders' fsyncs started so far, one batch after another. */
  private syncing: Promise<void> = Promise.resolve();
  /** The space folder's real path, looked up once for all the files written into it. */
  private readonly root = new RealRoot();
  private fatal = false;
  /** Page files written so far (a large pull collects garbage every COLLECT_EVERY). */
  private writes = 0;
  private large = false;
  /** Files written since the last flush, with the server text fetched for each (null: none). */
  private pending: { page: WrittenPage; fetched: string | null }[] = [];

  constructor(private readonly ctx: ApplyContext) {}

  private fail(key: string, err?: unknown): void {
    this.result.failed.add(key);
    if (err === undefined) return;
    if (!(err instanceof SafeFsError) && !(err instanceof UnsafePathError)) throw err;
    this.result.error ??= err;
    if (isFatal(err)) this.fatal = true;
  }

  async apply(plan: Plan): Promise<void> {
    const { ctx, result } = this;
    this.large = plan.fileOps.length > LARGE_PULL;
    const ops = <K extends FileOp['op']>(kind: K) => plan.fileOps.filter((o): o is Extract<FileOp, { op: K }> => o.op === kind);

    for (const op of ops('delete')) {
      if (this.fatal) {
        this.fail(op.key);
        continue;
      }
      try {
        if (!(await holdsWhatWasSeen(ctx, op.key, op.path, op.path))) {
          this.fail(op.key);
          continue;
        }
        await removeFileInside(ctx.spaceDir, op.path, { pruneEmptyFolders: true });
        result.deleted.set(op.key, op.path);
      } catch (err) {
        this.fail(op.key, err);
      }
    }

    const moves = ops('move').filter((m) => !result.failed.has(m.key));
    /** Where a file moved this cycle was when the scan saw it. */
    const seenAt = new Map<string, string>();
    if (!this.fatal && moves.length > 0) {
      const outcome = await runMoves(ctx.spaceDir, ctx.stagingDir, moves);
      for (const m of outcome.moved) {
        result.moved.set(m.key, m.to);
        seenAt.set(m.key, m.from);
      }
      for (const f of outcome.failed) this.fail(f.move.key, f.error);
    }

    const writes = ops('write').filter((w) => !result.failed.has(w.key));
    const unseen = writes.filter((w) => w.text === null).length;
    let fetched = 0;
    const progress = () => ctx.onProgress?.({ phase: 'pull', spaceId: ctx.spaceId, spaceTitle: ctx.spaceTitle, done: fetched, total: unseen });
    if (unseen > 0) progress();
    await forEachBounded(writes, WRITE_WINDOW, async (op) => {
      if (this.fatal) return this.fail(op.key);
      try {
        let text = op.text;
        if (text === null) {
          const page = ctx.remotePage(op.key);
          if (!page) return this.fail(op.key);
          // The file's frontmatter stays as its writer wrote it where the server's values did not change.
          const local = op.fresh ? null : await fsp.readFile(resolveInside(ctx.spaceDir, op.path), 'utf8').catch(() => null);
          text = await fetchPageText(ctx.api, ctx.spaceId, page, ctx.signal, { known: knownText(ctx.mirror, ctx.spaceId, op.key), local });
          result.fetched.add(op.key);
          fetched++;
          progress();
        }
        // A file the plan writes fresh must not be there yet; any other must hold what the scan saw.
        const expected = op.fresh ? undefined : await heldAsSeen(ctx, op.key, op.path, seenAt.get(op.key) ?? op.path);
        if (expected === null) return this.fail(op.key);
        const written = await this.writePage(op.key, op.path, text, { fresh: op.fresh, fetched: op.text === null, relinked: false, ifHolds: expected });
        if (!written) return this.fail(op.key);
      } catch (err) {
        this.fail(op.key, err);
      }
    });

    for (const op of ops('relink')) {
      if (this.fatal || result.failed.has(op.key) || result.written.has(op.key)) continue;
      try {
        const expected = await heldAsSeen(ctx, op.key, op.path, seenAt.get(op.key) ?? op.path);
        if (expected === null || !(await this.writePage(op.key, op.path, op.text, { fresh: false, fetched: false, relinked: true, ifHolds: expected }))) {
          this.fail(op.key);
        }
      } catch (err) {
        this.fail(op.key, err);
      }
    }

    for (const op of ops('remote-copy')) {
      if (this.fatal) {
        this.fail(op.key);
        continue;
      }
      try {
        const text = op.text === null ? DELETED_REMOTELY_NOTE : toLocalLinks(op.text, ctx.links.targetsFor(ctx.spaceId, op.path)).text;
        const written = await writeFileAtomicStat(ctx.spaceDir, op.path, text, { syncDirectory: false, root: this.root });
        this.unsynced.add(dirname(written!.path));
        ctx.ownWrites?.note(ctx.spaceId, op.path, written!.stats);
        result.copies.push(op.path);
      } catch (err) {
        this.fail(op.key, err);
      }
    }
  }

  /**
   * Writes a page file: its stable text with links as relative paths from where it is. A fresh
   * one only where nothing is yet (false when something is).
   */
  private async writePage(
    key: string,
    path: string,
    stable: string,
    how: { fresh: boolean; fetched: boolean; relinked: boolean; ifHolds?: string | undefined },
  ): Promise<boolean> {
    const { ctx } = this;
    const refs = findReferences(stable); // once, for the links written and the targets recorded
    const local = toLocalLinks(stable, ctx.links.targetsFor(ctx.spaceId, path), refs);
    const done = await writeFileAtomicStat(ctx.spaceDir, path, local.text, {
      syncDirectory: false,
      onlyIfAbsent: how.fresh,
      root: this.root,
      ...(how.ifHolds !== undefined ? { ifHolds: how.ifHolds } : {}),
    });
    if (!done) return false;
    this.unsynced.add(dirname(done.path));
    const st = done.stats;
    ctx.ownWrites?.note(ctx.spaceId, path, st);
    const textHash = sha256(stable);
    this.result.written.set(key, {
      path,
      textHash,
      links: linkTargets(stable, ctx.spaceId, refs),
      size: st.size,
      mtimeMs: st.mtimeMs,
      ino: String(st.ino),
      // A page without links is written as it is: one hash for both.
      hash: local.text === stable ? textHash : sha256(local.text),
      linkMap: local.written,
    });
    this.pending.push({ page: { key, path, text: local.text, relinked: how.relinked }, fetched: how.fetched ? stable : null });
    if (this.pending.length >= FOLLOW_BATCH) this.flush();
    if (++this.writes % COLLECT_EVERY === 0 && this.large) collectGarbage();
    return true;
  }

  /**
   * Spools the texts fetched for the files written since the last flush, and tells `onWritten` of
   * those files; their folders are fsynced meanwhile.
   */
  flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const { mirror, spaceId, onWritten } = this.ctx;
    mirror.transaction(() => {
      for (const { page, fetched } of batch) {
        if (fetched !== null) mirror.content.spoolText(spaceId, page.key, fetched);
        onWritten?.(page);
      }
    });
    if (this.unsynced.size === 0) return;
    const folders = this.unsynced;
    this.unsynced = new Set();
    this.syncing = this.syncing.then(() => syncDirectories(folders));
  }

  /** Every folder written into fsynced since its last file was: those still under way, then those written into since. */
  async syncFolders(): Promise<void> {
    await this.syncing;
    await syncDirectories(this.unsynced);
    this.unsynced.clear();
  }
}

/**
 * True when the file at `path` holds what the scan saw at `seenPath` (where it was before a move
 * this cycle), or, for a file the scan did not look at, what the last cycle recorded.
 */
async function holdsWhatWasSeen(ctx: ApplyContext, key: string, path: string, seenPath: string): Promise<boolean> {
  return (await heldAsSeen(ctx, key, path, seenPath)) !== null;
}

/** The hash of what the file at `path` holds when that is what was seen (checked again as it is written over), else null. */
async function heldAsSeen(ctx: ApplyContext, key: string, path: string, seenPath: string): Promise<string | null> {
  const expected = ctx.seen.get(seenPath)?.hash ?? ctx.mirror.folder.node(ctx.spaceId, key)?.fileHash ?? null;
  return expected !== null && (await holdsNow(ctx, path, expected)) ? expected : null;
}

async function holdsNow(ctx: ApplyContext, path: string, expected: string): Promise<boolean> {
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(resolveInside(ctx.spaceDir, path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return false;
    throw err instanceof UnsafePathError ? err : explainFsError(err, 'read', path);
  }
  return sha256(bytes) === expected;
}
