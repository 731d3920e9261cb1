/**
 * Watches a sync folder and reports settled edits to content files. Ignores Quire's state
 * folder, editors' temp and swap files, and conflict copies' own churn; waits for writes to
 * finish (an editor saving in several steps is one edit).
 *
 * One OS watch a folder, none a file: a folder's watch hears of every file in it being created,
 * written, renamed or removed (inotify, FSEvents, ReadDirectoryChangesW alike). Starting costs a
 * listing of each folder (names and types, no stat of any file): over 20,000 pages, a fraction of
 * what a watch and a stat per file cost (chokidar's way: ~20,000 watches, their objects, and the
 * collections of that heap afterwards). A file is looked at (one stat) only once something
 * happened to it. Each folder is watched before it is listed, so nothing created meanwhile is missed.
 */
import { type Dirent, type FSWatcher, type Stats, lstatSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { STATE_DIR } from '../mirror';
import { isIgnoredDir, isTempName } from './ignore';

/** A file added, changed or removed; a folder added or removed (its files are reported one by one too). */
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

/** A watched folder: its watch, and the names in it as last seen (to tell an added file from a changed one). */
interface Folder {
  watch: FSWatcher;
  files: Set<string>;
  dirs: Set<string>;
}

/** What a path is on disk now. */
type Found = { kind: 'file'; stats: Stats } | { kind: 'dir' } | { kind: 'gone' };

/** Paths relative to the sync folder, with `/` ('' is the sync folder). */
const joinRel = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const parentOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
const nameOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

/** Not watched nor reported: Quire's state folder, ignored folders (.git, node_modules…), editors' temp files. */
function ignored(rel: string): boolean {
  const parts = rel.split('/');
  if (parts[0] === STATE_DIR) return true;
  if (parts.slice(0, -1).some((part) => isIgnoredDir(part))) return true;
  const last = parts[parts.length - 1]!;
  return isTempName(last) || isIgnoredDir(last);
}

export class FolderWatcher {
  private readonly folders = new Map<string, Folder>();
  /** Paths something happened to, waiting to stay unchanged for `stability` ms: the timer, and the file's size and mtime when last looked at. */
  private readonly settling = new Map<string, { timer: NodeJS.Timeout; seen: string | null }>();
  private readonly stability: number;
  /** Waiting for nothing to settle (`idle`). */
  private readonly quiet: (() => void)[] = [];
  private closed = false;

  private constructor(private readonly options: FolderWatcherOptions) {
    this.stability = options.stabilityMs ?? 60;
  }

  /** Starts watching; resolves once every folder is watched (existing files are not reported). */
  static async start(options: FolderWatcherOptions): Promise<FolderWatcher> {
    const watcher = new FolderWatcher(options);
    try {
      watcher.add('', false);
    } catch (err) {
      await watcher.close();
      throw err;
    }
    return watcher;
  }

  /**
   * Resolves once everything the OS reported until now has been looked at and told (or found
   * to be nothing): the files a cycle just wrote, say. At once when closed.
   */
  async idle(): Promise<void> {
    // What the OS queued before now is read in the event loop's next poll phase: let it in first.
    await new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0));
    if (this.closed || this.settling.size === 0) return;
    await new Promise<void>((resolve) => this.quiet.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
    for (const resolve of this.quiet.splice(0)) resolve();
    for (const folder of this.folders.values()) folder.watch.close();
    this.folders.clear();
  }

  /** Watches the folder `rel` and those under it; with `report`, tells of each (and of each file) as added. */
  private add(rel: string, report: boolean): void {
    if (this.closed || this.folders.has(rel)) return;
    const abs = join(this.options.root, rel);
    const folder: Folder = { watch: watch(abs, { persistent: true }), files: new Set(), dirs: new Set() };
    folder.watch.on('change', (_event, name) => this.heard(rel, name === null ? null : String(name)));
    // The folder went away (its parent's watch says so too), or its watch broke: the host hears of it (it looks at everything again).
    folder.watch.on('error', (err) => {
      this.options.onError?.(err);
      if (rel !== '') this.settle(rel, null);
    });
    this.folders.set(rel, folder);
    if (report && rel !== '') this.emit(rel, 'addDir');
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      this.forget(rel, report); // gone already
      return;
    }
    for (const entry of entries) {
      const path = joinRel(rel, entry.name);
      if (ignored(path)) continue;
      if (entry.isDirectory()) {
        folder.dirs.add(entry.name);
        this.add(path, report);
      } else {
        folder.files.add(entry.name);
        if (report) this.emit(path, 'add');
      }
    }
  }

  /** Stops watching `rel` and the folders under it; with `report`, tells of each (and of each file) as removed. */
  private forget(rel: string, report: boolean): void {
    const folder = this.folders.get(rel);
    if (!folder) return;
    folder.watch.close();
    this.folders.delete(rel);
    for (const name of folder.files) if (report) this.emit(joinRel(rel, name), 'unlink');
    for (const name of folder.dirs) this.forget(joinRel(rel, name), report);
    if (report && rel !== '') this.emit(rel, 'unlinkDir');
    this.folders.get(parentOf(rel))?.dirs.delete(nameOf(rel));
  }

  /** The OS said something happened in folder `dir` (to `name`, when it says which). */
  private heard(dir: string, name: string | null): void {
    if (this.closed) return;
    if (name === null) this.relist(dir);
    else if (!ignored(joinRel(dir, name))) this.settle(joinRel(dir, name), null);
  }

  /** The OS did not say which entry changed: compare the folder's listing with what was known. */
  private relist(dir: string): void {
    const folder = this.folders.get(dir);
    if (!folder) return;
    let names: string[];
    try {
      names = readdirSync(join(this.options.root, dir));
    } catch {
      names = [];
    }
    for (const name of new Set([...names, ...folder.files, ...folder.dirs])) {
      const path = joinRel(dir, name);
      if (!ignored(path)) this.settle(path, null);
    }
  }

  /** Waits for `path` to stay as it is for `stability` ms (a write in several steps is one edit), then reports it. */
  private settle(path: string, seen: string | null): void {
    const waiting = this.settling.get(path);
    if (waiting) clearTimeout(waiting.timer);
    const timer = setTimeout(() => {
      try {
        this.settled(path);
      } finally {
        if (this.settling.size === 0) for (const resolve of this.quiet.splice(0)) resolve();
      }
    }, this.stability);
    this.settling.set(path, { timer, seen: waiting && seen === null ? waiting.seen : seen });
  }

  private settled(path: string): void {
    const waiting = this.settling.get(path);
    this.settling.delete(path);
    if (this.closed) return;
    const found = this.look(path);
    const folder = this.folders.get(parentOf(path));
    if (!folder) return; // its folder is gone, and was reported so
    const name = nameOf(path);
    if (found.kind === 'file') {
      // Still being written: it changed since it was last looked at.
      const now = `${found.stats.size}:${found.stats.mtimeMs}`;
      if (waiting?.seen !== now) {
        this.settle(path, now);
        return;
      }
      if (folder.dirs.has(name)) this.forget(path, true);
      const kind = folder.files.has(name) ? 'change' : 'add';
      folder.files.add(name);
      this.emit(path, kind);
      return;
    }
    if (found.kind === 'dir') {
      if (folder.files.delete(name)) this.emit(path, 'unlink');
      if (!this.folders.has(path)) {
        folder.dirs.add(name);
        this.safely(() => this.add(path, true));
      }
      return;
    }
    if (folder.files.delete(name)) this.emit(path, 'unlink');
    if (folder.dirs.has(name)) this.forget(path, true);
  }

  private look(path: string): Found {
    try {
      const stats = lstatSync(join(this.options.root, path));
      return stats.isDirectory() ? { kind: 'dir' } : { kind: 'file', stats };
    } catch {
      return { kind: 'gone' };
    }
  }

  /** A folder that cannot be watched (the OS's limit of watches, say) is an error the host hears of; the rest goes on. */
  private safely(work: () => void): void {
    try {
      work();
    } catch (err) {
      this.options.onError?.(err as Error);
    }
  }

  private emit(path: string, kind: EditKind): void {
    this.options.onEdit({ path, kind, at: Date.now() });
  }
}
