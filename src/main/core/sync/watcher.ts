/**
 * Watches a sync folder with chokidar and reports settled edits to content files.
 * Ignores Quire's state folder, editors' temp and swap files, and conflict copies'
 * own churn; waits for writes to finish (an editor saving in several steps is one edit).
 * chokidar is loaded when a watcher starts, so commands that never watch do not pay for it.
 */
import { relative, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { STATE_DIR } from '../mirror';
import { isIgnoredDir, isTempName } from './ignore';

/** A file added, changed or removed; a folder added or removed (its files are reported one by one too, when the platform can). */
export type EditKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export interface FolderEdit {
  /** Path relative to the sync folder, with `/`. */
  path: string;
  kind: EditKind;
  /** When the write was seen as finished (ms since the epoch). */
  at: number;
}

export interface FolderWatcherOptions {
  root: string;
  onEdit: (edit: FolderEdit) => void;
  onError?: (err: Error) => void;
  /** How long a file must stay unchanged to count as written. Default 60 ms. */
  stabilityMs?: number;
}

export class FolderWatcher {
  private constructor(private readonly watcher: FSWatcher) {}

  /** Starts watching; resolves once the initial tree is known (existing files are not reported). */
  static async start(options: FolderWatcherOptions): Promise<FolderWatcher> {
    const { watch } = await import('chokidar');
    const root = options.root;
    const toRel = (p: string) => relative(root, p).split(sep).join('/');
    const ignored = (p: string): boolean => {
      const rel = toRel(p);
      if (rel === '' || rel.startsWith('..')) return false;
      const parts = rel.split('/');
      if (parts[0] === STATE_DIR) return true;
      if (parts.slice(0, -1).some((part) => isIgnoredDir(part))) return true;
      const last = parts[parts.length - 1]!;
      return isTempName(last) || isIgnoredDir(last);
    };
    const stability = options.stabilityMs ?? 60;
    const watcher = watch(root, {
      ignored,
      ignoreInitial: true,
      persistent: true,
      awaitWriteFinish: { stabilityThreshold: stability, pollInterval: Math.max(10, Math.round(stability / 3)) },
    });
    const report = (kind: EditKind) => (p: string) => {
      const path = toRel(p);
      if (path !== '') options.onEdit({ path, kind, at: Date.now() });
    };
    for (const kind of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) watcher.on(kind, report(kind));
    watcher.on('error', (err) => options.onError?.(err as Error));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return new FolderWatcher(watcher);
  }

  close(): Promise<void> {
    return this.watcher.close();
  }
}
