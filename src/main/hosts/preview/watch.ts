/**
 * Watches the previewed folder and tells the site about every saved, added or deleted file,
 * then the open pages (once per burst: an editor's save is often several writes). chokidar
 * without awaitWriteFinish: the preview re-reads a file on every event, and the last event of a
 * save carries its final content, so waiting for writes to settle would only add latency.
 */
import { relative, sep } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { isContentPath } from '../../core/check';

/** Whether a path (relative to the previewed folder) is in, or is, a folder of OpenAPI specification files. */
export function isSpecFolderPath(rel: string): boolean {
  return /^\.openapi(?:-[^/]+)?(?:\/[^/]+)?$/.test(rel);
}

export interface PreviewWatcher {
  close(): Promise<void>;
}

/** Calls `onPaths` with the absolute paths seen changing, at most every `settleMs`. */
export async function watchFolder(root: string, onPaths: (paths: string[]) => void, settleMs = 25): Promise<PreviewWatcher> {
  const ignored = (p: string): boolean => {
    const rel = relative(root, p).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) return false;
    // The organizations' specification folders (`.openapi/`, `.openapi-<name>/`): OpenAPI blocks render from them.
    if (isSpecFolderPath(rel)) return false;
    return !isContentPath(rel) && !isContentPath(`${rel}/x`);
  };
  // followSymlinks off: a link is reported as itself (the site refuses it), never walked into.
  const watcher: FSWatcher = watch(root, { ignored, ignoreInitial: true, persistent: true, followSymlinks: false });
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const seen = (p: string) => {
    pending.add(p);
    timer ??= setTimeout(() => {
      timer = null;
      const paths = [...pending];
      pending = new Set();
      onPaths(paths);
    }, settleMs);
  };
  for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, seen);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
