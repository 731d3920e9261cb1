/**
 * The folder `quire preview` serves, in memory: the spaces and their files (core/check's
 * FolderIndex, so links resolve exactly as `quire check` resolves them), kept current one file
 * at a time as the watcher reports saves, and the URL of each page and asset. Rendering the
 * documents is document.ts's job.
 */
import { relative, sep } from 'node:path';
import { type CheckedSpace, type FolderIndex, joinRoot, loadFolder, readSpaceFile } from '../../core/check';
import type { Mirror } from '../../core/mirror';
import { escapeHtml, type PreviewUrls, renderNavigation } from '../../core/preview';
import { summaryEntryOrder } from './summary-order';

export type Route = { kind: 'home' } | { kind: 'page'; rootPath: string } | { kind: 'file'; rootPath: string } | { kind: 'missing' };

/** A root-relative path as a URL path: each segment percent-encoded. */
export const urlOf = (rootPath: string): string => `/${rootPath.split('/').map(encodeURIComponent).join('/')}`;

export const PREVIEW_URLS: PreviewUrls = {
  page: (rootPath, anchor) => `${urlOf(rootPath)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`,
  asset: (rootPath) => urlOf(rootPath),
};

export class PreviewSite {
  /** Increases with every change seen; the page reports it so a test can tell a reload happened. */
  version = 0;
  private readonly navs = new WeakMap<CheckedSpace, { revision: number; html: string }>();

  private constructor(
    readonly root: string,
    readonly index: FolderIndex,
  ) {}

  /** Reads the folder (a sync folder, a Git Sync repository of spaces, or one space folder). */
  static load(root: string, mirror: Mirror | null): PreviewSite {
    return new PreviewSite(root, loadFolder(root, mirror).index);
  }

  get spaces(): readonly CheckedSpace[] {
    return this.index.spaces;
  }

  route(pathname: string): Route {
    if (pathname === '/' || pathname === '') return { kind: 'home' };
    let rootPath: string;
    try {
      rootPath = decodeURIComponent(pathname.replace(/^\/+/, '')).normalize('NFC');
    } catch {
      return { kind: 'missing' };
    }
    if (rootPath.endsWith('/')) rootPath += 'README.md';
    const found = this.index.get(rootPath);
    if (!found) return { kind: 'missing' };
    return found.file.kind === 'page' || found.file.kind === 'include' || found.file.kind === 'summary'
      ? { kind: 'page', rootPath }
      : { kind: 'file', rootPath };
  }

  /** The page a space opens on: its first SUMMARY.md entry, else its README.md, else its first page. */
  firstPage(space: CheckedSpace): string | null {
    const first = summaryEntryOrder(space)[0] ?? space.files.find((f) => f.path === 'README.md')?.path ?? space.files.find((f) => f.kind === 'page')?.path;
    return first === undefined ? null : joinRoot(space.folder, first);
  }

  /** The space's table of contents with `rootPath` marked current; built once per change of the folder. */
  navigation(space: CheckedSpace, rootPath: string): string {
    let nav = this.navs.get(space);
    if (!nav || nav.revision !== this.index.revision) {
      nav = { revision: this.index.revision, html: renderNavigation(space, null, PREVIEW_URLS) };
      this.navs.set(space, nav);
    }
    const link = `<a href="${escapeHtml(PREVIEW_URLS.page(rootPath, null))}">`;
    return nav.html.replace(link, `${link.slice(0, -1)} aria-current="page">`);
  }

  /** A file changed on disk (absolute path): re-reads it into the index. Returns whether the folder's content changed. */
  fileChanged(absPath: string): boolean {
    const rootPath = relative(this.root, absPath).split(sep).join('/').normalize('NFC');
    if (rootPath === '' || rootPath.startsWith('..')) return false;
    const space = this.index.spaceOf(rootPath);
    if (!space) return false;
    const path = space.folder === '' ? rootPath : rootPath.slice(space.folder.length + 1);
    const file = readSpaceFile(space.folder === '' ? this.root : `${this.root}/${space.folder}`, path);
    if (file) this.index.setFile(space, file);
    else if (this.index.get(rootPath)) this.index.removeFile(space, path);
    else return false;
    this.version++;
    return true;
  }
}
