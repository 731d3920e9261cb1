/**
 * Continuous sync, the one scheduler every host runs (the CLI's `quire sync`, the desktop
 * app, the web host): cycles when the folder changes (a burst of saves is one cycle, so one
 * push), on a timer for the server's changes, and on request (Sync now); pauses and resumes;
 * never runs two cycles at once; stops gracefully (a running cycle finishes).
 *
 * Each cycle is told what the watcher saw since the last one: `{ changed: paths }` relative
 * to the sync folder with `/`, or `{ changed: 'all' }` when it cannot be sure — the first
 * cycle, after a watcher error, after a failed cycle, when too much changed to list, and
 * every few minutes as a safety net. Each settled edit is also recorded in the mirror as
 * soon as it is seen (status shows it). While the API cannot be reached, cycles are tried
 * again every few seconds (OFFLINE_RETRY_MS), not at the interval.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Mirror } from '../mirror';
import type { CycleReport, CycleRequest } from './engine';
import { failureKind } from './outcome';
import { isRemoteCopy } from '../naming';
import type { OwnWrites } from './own-writes';
import { FolderWatcher, type FolderEdit } from './watcher';

/** A cycle over everything at least this often, whatever the watcher says. */
const FULL_SCAN_EVERY_MS = 5 * 60_000;
/**
 * After a cycle that could not reach the API, the next is this soon, then less and less soon, but
 * never more than 4 s later: the API's return is noticed within 5 s. An offline cycle costs one
 * refused request (it stops before it looks at the folder).
 */
const OFFLINE_RETRY_MS = [500, 1000, 2000, 4000] as const;
/** More changed paths than this between two cycles: scan everything instead of listing them. */
const MAX_LISTED_CHANGES = 10_000;

export interface ContinuousSyncOptions {
  mirror: Pick<Mirror, 'catalog' | 'outbox'>;
  root: string;
  runCycle: (request: CycleRequest) => Promise<CycleReport>;
  /** Time between cycles when nothing happens locally (to see the server's changes). 0: no timer. */
  intervalMs: number;
  /** Quiet time after the last edit before a cycle starts. Default 250 ms. */
  debounceMs?: number;
  /** Passed to the watcher (how long a file must stay unchanged to count as written). */
  stabilityMs?: number;
  /** Safety net: a cycle over everything at least this often. Default FULL_SCAN_EVERY_MS. */
  fullScanEveryMs?: number;
  /** Start paused: edits are recorded, but no cycle runs until `resume` or `syncNow`. */
  paused?: boolean;
  /** A cycle is about to run (hosts show "syncing"). */
  onCycleStart?: (request: CycleRequest) => void;
  onReport?: (report: CycleReport) => void;
  /** A cycle or the watcher failed; continuous sync goes on (the error says what happened). Return true to stop. */
  onError?: (err: unknown) => boolean | undefined;
  /** An edit was recorded in the mirror. */
  onRecorded?: (edit: FolderEdit & { spaceId: string }) => void;
  /** The files the engine's cycles wrote (the same OwnWrites as the engine's): not taken for saves. */
  ownWrites?: OwnWrites;
  signal: AbortSignal;
  now?: () => number;
}

export class ContinuousSync {
  private watcher: FolderWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private again = false;
  /** Resolved once a cycle that started after they were asked for has run. */
  private waiting: (() => void)[] = [];
  private stopped = false;
  private isPaused: boolean;
  private failure: unknown = null;
  /** Paths the watcher saw since the last cycle took them. */
  private changed = new Set<string>();
  private needAll = true;
  private lastFullAt = Number.NEGATIVE_INFINITY;
  /** Cycles in a row that could not reach the API (0: the last one reached it, or failed otherwise). */
  private unreachable = 0;
  private readonly now: () => number;
  private resolveDone!: () => void;
  private rejectDone!: (err: unknown) => void;
  /** Settles when sync stops (the signal aborts), or rejects with the error that stopped it. */
  readonly done: Promise<void>;

  constructor(private readonly options: ContinuousSyncOptions) {
    this.isPaused = options.paused ?? false;
    this.now = options.now ?? Date.now;
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    this.done.catch(() => undefined);
    if (options.signal.aborted) void this.stop();
    else options.signal.addEventListener('abort', () => void this.stop(), { once: true });
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /**
   * Watches the folder, then runs a first cycle over everything (unless paused): what was saved
   * before the watch was set, that cycle's scan sees; what is saved after, the watch reports. So
   * one cycle over everything at the start, not one before the watch and one after it.
   */
  async start(): Promise<void> {
    if (this.stopped) return;
    try {
      this.watcher = await FolderWatcher.start({
        root: this.options.root,
        onEdit: (edit) => this.onEdit(edit),
        onError: (err) => {
          this.needAll = true; // events may have been lost
          this.options.onError?.(err);
        },
        stabilityMs: this.options.stabilityMs,
      });
    } catch (err) {
      // No watcher (too many folders for the OS's limit, say): the interval still syncs, over everything each time.
      this.needAll = true;
      this.options.onError?.(err);
    }
    if (this.stopped) {
      await this.watcher?.close();
      return;
    }
    if (!this.isPaused) await this.syncNow();
    else this.armTimer();
  }

  /**
   * Resolves once the watcher has told every edit the OS reported until now (the files the
   * start-up's cycle wrote, told apart from saves, say); at once without a watcher.
   */
  settled(): Promise<void> {
    return this.watcher?.idle() ?? Promise.resolve();
  }

  /** Runs a cycle now (paused or not), or right after the running one; resolves once it has run. */
  syncNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const ran = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.clearTimer();
    if (this.loop) this.again = true;
    else this.loop = this.runLoop();
    return ran;
  }

  /** No cycle starts until `resume` (a running one finishes); edits are still recorded. */
  pause(): void {
    this.isPaused = true;
    this.clearTimer();
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = null;
  }

  /** Cycles again, starting with one now for what changed meanwhile. */
  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.autoCycle();
  }

  /** The cycles running now, if any. */
  running(): Promise<void> | null {
    return this.loop;
  }

  async stop(): Promise<void> {
    if (this.stopped) return this.done;
    this.stopped = true;
    this.clearTimer();
    if (this.debounce) clearTimeout(this.debounce);
    await this.watcher?.close().catch(() => undefined);
    await this.loop?.catch(() => undefined);
    for (const resolve of this.waiting.splice(0)) resolve();
    if (this.failure !== null) this.rejectDone(this.failure);
    else this.resolveDone();
    return this.done.catch(() => undefined);
  }

  /** A cycle the scheduler starts by itself (an edit settled, the interval passed): not while paused. */
  private autoCycle(): void {
    if (!this.isPaused) void this.syncNow();
  }

  private async runLoop(): Promise<void> {
    try {
      do {
        this.again = false;
        const satisfied = this.waiting.splice(0);
        if (this.stopped) {
          for (const resolve of satisfied) resolve();
          break;
        }
        await this.runOne();
        for (const resolve of satisfied) resolve();
      } while (this.again && !this.stopped);
    } finally {
      this.loop = null;
      if (this.stopped) for (const resolve of this.waiting.splice(0)) resolve();
      else this.armTimer();
    }
  }

  private async runOne(): Promise<void> {
    const request = this.takeRequest();
    try {
      this.options.onCycleStart?.(request);
      const report = await this.options.runCycle(request);
      this.unreachable = 0;
      this.options.onReport?.(report);
    } catch (err) {
      this.needAll = true; // what it was told about may not have been handled
      if (this.stopped) return;
      this.unreachable = failureKind(err) === 'offline' ? this.unreachable + 1 : 0;
      if (this.options.onError?.(err) === true) {
        this.failure = err;
        void this.stop();
      }
    }
  }

  /** What the next cycle is told, and a fresh start for the one after it. */
  private takeRequest(): CycleRequest {
    const fullDue = this.now() - this.lastFullAt >= (this.options.fullScanEveryMs ?? FULL_SCAN_EVERY_MS);
    // Without a watcher (not started, or it failed to start) nothing says what changed.
    const all = this.needAll || !this.watcher || fullDue || this.changed.size > MAX_LISTED_CHANGES;
    const request: CycleRequest = { changed: all ? 'all' : [...this.changed].sort() };
    this.changed = new Set();
    this.needAll = false;
    if (all) this.lastFullAt = this.now();
    return request;
  }

  private armTimer(): void {
    this.clearTimer();
    if (this.stopped || this.isPaused || this.options.intervalMs <= 0) return;
    const retry = this.unreachable > 0 ? OFFLINE_RETRY_MS[Math.min(this.unreachable, OFFLINE_RETRY_MS.length) - 1]! : Number.POSITIVE_INFINITY;
    this.timer = setTimeout(() => this.autoCycle(), Math.min(retry, this.options.intervalMs));
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private onEdit(edit: FolderEdit): void {
    if (this.stopped) return;
    const [folder, ...rest] = edit.path.split('/');
    // As spelt on disk (NFD, say); Quire's paths are NFC.
    const inSpace = rest.join('/').normalize('NFC');
    const space = this.options.mirror.catalog.spaces().find((s) => s.folder === folder);
    // Sync wrote it: no cycle for that. (SUMMARY.md too: the writer's save of it is a cycle, like a page's.)
    if (space && this.isOwnWrite(space.id, inSpace, rest.join('/'), edit)) return;
    this.changed.add(edit.path);
    const isFile = edit.kind === 'add' || edit.kind === 'change' || edit.kind === 'unlink';
    if (space && isFile && inSpace !== '' && !isRemoteCopy(inSpace)) {
      try {
        this.options.mirror.outbox.recordLocalEdit(space.id, inSpace, edit.kind, new Date(edit.at).toISOString());
        this.options.onRecorded?.({ ...edit, spaceId: space.id });
      } catch (err) {
        this.options.onError?.(err);
      }
    }
    if (this.isPaused) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.autoCycle();
    }, this.options.debounceMs ?? 250);
  }

  /** A file sync itself just wrote: it is as the engine wrote it (same size and mtime). */
  private isOwnWrite(spaceId: string, path: string, disk: string, edit: FolderEdit): boolean {
    const ownWrites = this.options.ownWrites;
    if (!ownWrites || (edit.kind !== 'add' && edit.kind !== 'change')) return false;
    try {
      return ownWrites.wrote(spaceId, path, statSync(join(this.options.root, this.folderOf(spaceId), disk)));
    } catch {
      return false;
    }
  }

  private folderOf(spaceId: string): string {
    return this.options.mirror.catalog.space(spaceId)?.folder ?? '';
  }
}
