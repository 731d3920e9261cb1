/**
 * The folder `quire preview` serves, in memory: the spaces and their files (core/check's
 * FolderIndex, so links resolve exactly as `quire check` resolves them), kept current one file
 * at a time as the watcher reports saves, and the URL of each page and asset. Every URL lives
 * below the site's base, the secret's path `/s/<secret>/` (hosts/loopback): links carry the
 * secret as the address bar does, so navigation needs no cookie. Rendering the documents is
 * document.ts's job.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type CheckedSpace, type FolderIndex, joinRoot, loadFolder, readSpaceFile, spelledOnDisk } from '../../core/check';
import type { Mirror } from '../../core/mirror';
import { escapeHtml, type PreviewUrls, renderNavigation } from '../../core/preview';
import { summaryEntryOrder } from './summary-order';
import { isSpecFolderPath } from './watch';

export type Route = { kind: 'home' } | { kind: 'page'; rootPath: string } | { kind: 'file'; rootPath: string } | { kind: 'missing' };

/** Where the preview's own files live below the base. */
export const OWN_PREFIX = '_quire/';

/** The preview's URLs below `base` (which ends with `/`): a folder path with each segment percent-encoded. */
export interface SiteUrls extends PreviewUrls {
  /** The site's home (the list of spaces). */
  home: string;
  /** The file at a root-relative path. */
  of(rootPath: string): string;
  /** The preview's own files (its script, styles, live-reload stream), e.g. `_quire/live.js`. */
  own(name: string): string;
}

function siteUrls(base: string): SiteUrls {
  const of = (rootPath: string) => `${base}${rootPath.split('/').map(encodeURIComponent).join('/')}`;
  return {
    home: base,
    of,
    own: (name) => `${base}${OWN_PREFIX}${name}`,
    page: (rootPath, anchor) => `${of(rootPath)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`,
    asset: (rootPath) => of(rootPath),
  };
}

export class PreviewSite {
  /** Increases with every change seen; the page reports it so a test can tell a reload happened. */
  version = 0;
  private readonly navs = new WeakMap<CheckedSpace, { revision: number; html: string }>();

  private constructor(
    readonly root: string,
    readonly index: FolderIndex,
    readonly urls: SiteUrls,
  ) {}

  /** Reads the folder (a sync folder, a Git Sync repository of spaces, or one space folder); its URLs live below `base`. */
  static load(root: string, mirror: Pick<Mirror, 'catalog' | 'content' | 'openapi'> | null, base: string): PreviewSite {
    return new PreviewSite(root, loadFolder(root, mirror).index, siteUrls(base));
  }

  get spaces(): readonly CheckedSpace[] {
    return this.index.spaces;
  }

  /** `pathname`: the request's path below the base, from its `/` (hosts/loopback's DoorVerdict path). */
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

  /** The page a space opens on: its first SUMMARY.md entry, else its first page (README.md, or what .gitbook.yaml names), else any page. */
  firstPage(space: CheckedSpace): string | null {
    const readme = space.structure?.readme ?? 'README.md';
    const first = summaryEntryOrder(space)[0] ?? space.files.find((f) => f.path === readme)?.path ?? space.files.find((f) => f.kind === 'page')?.path;
    return first === undefined ? null : joinRoot(space.folder, first);
  }

  /** The space's table of contents with `rootPath` marked current; built once per change of the folder. */
  navigation(space: CheckedSpace, rootPath: string): string {
    let nav = this.navs.get(space);
    if (!nav || nav.revision !== this.index.revision) {
      nav = { revision: this.index.revision, html: renderNavigation(space, null, this.urls) };
      this.navs.set(space, nav);
    }
    const link = `<a href="${escapeHtml(this.urls.page(rootPath, null))}">`;
    return nav.html.replace(link, `${link.slice(0, -1)} aria-current="page">`);
  }

  /**
   * Where a file of the folder really is on disk, or null when it is not there, is itself a
   * symlink, or lies outside the folder once every link on its way is followed (a folder such as
   * `.gitbook/assets` replaced by a link). Asked at every request: links made after the preview
   * started are caught, nothing outside the folder is ever read or served.
   */
  realPathInside(rootPath: string): string | null {
    try {
      const abs = join(this.root, spelledOnDisk(this.root, rootPath));
      if (lstatSync(abs).isSymbolicLink()) return null;
      const real = realpathSync(abs);
      const root = realpathSync(this.root);
      return real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`) ? real : null;
    } catch {
      return null;
    }
  }

  /** A file changed on disk (absolute path): re-reads it into the index. Returns whether the folder's content changed. */
  fileChanged(absPath: string): boolean {
    const onDisk = relative(this.root, absPath).split(sep).join('/');
    const rootPath = onDisk.normalize('NFC');
    if (rootPath === '' || rootPath.startsWith('..')) return false;
    // A specification file: read again when a block asks (LocalSpecs looks at its mtime); the pages showing it reload.
    if (isSpecFolderPath(rootPath)) {
      this.version++;
      return true;
    }
    const space = this.index.spaceOf(rootPath);
    if (!space) return false;
    // (Read as spelt on disk, NFD say: readSpaceFile names it NFC.)
    const path = space.folder === '' ? onDisk : onDisk.slice(space.folder.length + 1);
    const inside = this.realPathInside(rootPath) !== null;
    const file = inside ? readSpaceFile(space.folder === '' ? this.root : `${this.root}/${space.folder}`, path, space.structure) : null;
    if (file) this.index.setFile(space, file);
    else if (this.index.get(rootPath)) this.index.removeFile(space, path.normalize('NFC'));
    else return false;
    this.version++;
    return true;
  }
}
