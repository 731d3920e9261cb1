/**
 * The files a sync cycle wrote itself, as it wrote them (size and mtime), so continuous sync
 * can tell its own writes from a writer's saves when the watcher reports them: the watcher
 * hears of a write during the cycle, before the cycle records anything in the mirror. Hosts
 * give one OwnWrites to both the engine and ContinuousSync.
 */
import type { Stats } from 'node:fs';

/** How long a write is remembered: the watcher reports one within seconds. */
const REMEMBER_MS = 5 * 60_000;

export class OwnWrites {
  private readonly files = new Map<string, { size: number; mtimeMs: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The engine wrote the file at `path` (relative to the space folder) and it is now `st`. */
  note(spaceId: string, path: string, st: Pick<Stats, 'size' | 'mtimeMs'>): void {
    const at = this.now();
    if (this.files.size > 0 && this.files.size % 1024 === 0) {
      for (const [key, w] of this.files) if (at - w.at > REMEMBER_MS) this.files.delete(key);
    }
    this.files.set(`${spaceId}\u0000${path}`, { size: st.size, mtimeMs: st.mtimeMs, at });
  }

  /** Whether the file at `path`, now `st`, is as the engine last wrote it (not saved since). */
  wrote(spaceId: string, path: string, st: Pick<Stats, 'size' | 'mtimeMs'>): boolean {
    const w = this.files.get(`${spaceId}\u0000${path}`);
    return w !== undefined && w.size === st.size && w.mtimeMs === st.mtimeMs && this.now() - w.at <= REMEMBER_MS;
  }
}
