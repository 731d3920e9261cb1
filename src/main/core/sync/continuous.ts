/**
 * Continuous sync: cycles when the folder changes (a burst of saves is one cycle, so one
 * push) and on a timer for the server's changes; never two cycles at once.
 * Each settled edit is recorded in the mirror as soon as it is seen (status shows it).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Mirror } from '../mirror';
import type { CycleReport } from './engine';
import { isRemoteCopy } from './ignore';
import { FolderWatcher, type FolderEdit } from './watcher';

export interface ContinuousSyncOptions {
  mirror: Mirror;
  root: string;
  runCycle: () => Promise<CycleReport>;
  /** Time between cycles when nothing happens locally (to see the server's changes). */
  intervalMs: number;
  /** Quiet time after the last edit before a cycle starts. Default 250 ms. */
  debounceMs?: number;
  /** Passed to the watcher (how long a file must stay unchanged to count as written). */
  stabilityMs?: number;
  onReport?: (report: CycleReport) => void;
  /** A cycle failed; continuous sync goes on (the error says what happened). Return true to stop. */
  onError?: (err: unknown) => boolean | undefined;
  /** An edit was recorded in the mirror. */
  onRecorded?: (edit: FolderEdit & { spaceId: string }) => void;
  signal: AbortSignal;
}

export class ContinuousSync {
  private watcher: FolderWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failure: unknown = null;
  private resolveDone!: () => void;
  private rejectDone!: (err: unknown) => void;
  /** Settles when sync stops (the signal aborts), or rejects with the error that stopped it. */
  readonly done: Promise<void>;

  constructor(private readonly options: ContinuousSyncOptions) {
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    this.done.catch(() => undefined);
  }

  /**
   * Runs a first cycle (which may create the space folders), then watches the folder. A
   * second cycle catches whatever was saved between the two.
   */
  async start(): Promise<void> {
    const { signal } = this.options;
    signal.addEventListener('abort', () => void this.stop(), { once: true });
    if (signal.aborted) return this.stop();
    this.requestCycle();
    await this.running;
    if (this.stopped) return;
    this.watcher = await FolderWatcher.start({
      root: this.options.root,
      onEdit: (edit) => this.onEdit(edit),
      onError: (err) => this.options.onError?.(err),
      stabilityMs: this.options.stabilityMs,
    });
    if (this.stopped) {
      await this.watcher.close();
      return;
    }
    this.requestCycle();
  }

  /** Runs a cycle now, or right after the running one. */
  requestCycle(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          const report = await this.options.runCycle();
          this.options.onReport?.(report);
        } catch (err) {
          if (this.stopped) break;
          if (this.options.onError?.(err) === true) {
            this.failure = err;
            void this.stop();
            break;
          }
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
      if (!this.stopped) this.timer = setTimeout(() => this.requestCycle(), this.options.intervalMs);
    });
  }

  private onEdit(edit: FolderEdit): void {
    if (this.stopped) return;
    const [folder, ...rest] = edit.path.split('/');
    const inSpace = rest.join('/');
    const space = this.options.mirror.catalog.spaces().find((s) => s.folder === folder);
    if (space && this.isOwnWrite(space.id, inSpace, edit)) return;
    if (space && inSpace !== '' && !isRemoteCopy(inSpace)) {
      try {
        this.options.mirror.outbox.recordLocalEdit(space.id, inSpace, edit.kind, new Date(edit.at).toISOString());
        this.options.onRecorded?.({ ...edit, spaceId: space.id });
      } catch (err) {
        this.options.onError?.(err);
      }
    }
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.requestCycle();
    }, this.options.debounceMs ?? 250);
  }

  /** A file sync itself just wrote: it holds what the mirror recorded (same size and mtime). */
  private isOwnWrite(spaceId: string, path: string, edit: FolderEdit): boolean {
    if (path === 'SUMMARY.md') return true;
    if (edit.kind === 'unlink') return false;
    const row = this.options.mirror.content.localStatAt(spaceId, path);
    if (!row || row.size === null) return false;
    try {
      const st = statSync(join(this.options.root, this.folderOf(spaceId), path));
      return st.size === row.size && st.mtimeMs === row.mtimeMs;
    } catch {
      return false;
    }
  }

  private folderOf(spaceId: string): string {
    return this.options.mirror.catalog.space(spaceId)?.folder ?? '';
  }

  async stop(): Promise<void> {
    if (this.stopped) return this.done;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
    await this.watcher?.close().catch(() => undefined);
    await this.running?.catch(() => undefined);
    if (this.failure !== null) this.rejectDone(this.failure);
    else this.resolveDone();
    return this.done.catch(() => undefined);
  }
}
