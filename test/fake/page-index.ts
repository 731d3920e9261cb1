/**
 * A revision's (or a draft's) pages seen as Git Sync lays them out, which is what relative links
 * are relative to: a page's path is its slugs joined from the root (group slugs included, as in
 * GitBook's `path`); a page with children lives in `<path>/README.md`, any other page in
 * `<path>.md`. The space's root page (`README.md` at the root) is its first document page.
 */
import { posix } from 'node:path';
import type { PageRec, RevisionRec } from './model';

export type TreeView = Pick<RevisionRec, 'pages' | 'children'>;

export class PageIndex {
  private readonly paths = new Map<string, string>();
  private readonly byPaths = new Map<string, string>();
  private readonly order: string[] = [];

  private constructor(private readonly view: TreeView) {
    const visit = (parentId: string | null, prefix: string): void => {
      for (const id of view.children.get(parentId ?? '') ?? []) {
        const page = view.pages.get(id);
        if (!page) continue;
        const path = prefix === '' ? page.slug : `${prefix}/${page.slug}`;
        this.paths.set(id, path);
        if (!this.byPaths.has(path)) this.byPaths.set(path, id);
        this.order.push(id);
        visit(id, path);
      }
    };
    visit(null, '');
  }

  /** The index of a revision, built once and cached on it. */
  static ofRevision(revision: RevisionRec): PageIndex {
    const cached = revision.derived.get('pageIndex') as PageIndex | undefined;
    if (cached) return cached;
    const index = new PageIndex(revision);
    revision.derived.set('pageIndex', index);
    return index;
  }

  /** The index of a tree that may still change (a draft): not cached. */
  static of(view: TreeView): PageIndex {
    return new PageIndex(view);
  }

  page(id: string): PageRec | undefined {
    return this.paths.has(id) ? this.view.pages.get(id) : undefined;
  }

  path(id: string): string | undefined {
    return this.paths.get(id);
  }

  /** The page at a slash-joined slug path. */
  byPath(path: string): string | undefined {
    return this.byPaths.get(path);
  }

  hasChildren(id: string): boolean {
    return (this.view.children.get(id) ?? []).length > 0;
  }

  /** The page Git Sync writes as the root `README.md`: the first document page in tree order. */
  rootPage(): string | undefined {
    return this.order.find((id) => this.view.pages.get(id)?.type === 'document');
  }

  /** The folder holding the page's file (`''` for the root, and for the root page: its file is the root's `README.md`). */
  dir(id: string): string {
    if (id === this.rootPage()) return '';
    const path = this.paths.get(id) ?? '';
    return this.hasChildren(id) ? path : posix.dirname(path) === '.' ? '' : posix.dirname(path);
  }

  /** A link from page `fromId` to page `toId`, as Git Sync writes it (folder style, or `README.md`). */
  relativeHref(fromId: string, toId: string, anchor: string | undefined, readmeLinks: 'folder' | 'readme'): string {
    const from = `/${this.dir(fromId)}`;
    const path = this.paths.get(toId) ?? '';
    let href: string;
    if (this.hasChildren(toId)) {
      const folder = posix.relative(from, `/${path}`);
      href = readmeLinks === 'readme' ? posix.join(folder, 'README.md') : folder === '' ? './' : `${folder}/`;
    } else {
      href = posix.relative(from, `/${path}.md`);
    }
    return anchor === undefined ? href : `${href}#${anchor}`;
  }

  /**
   * The page a path written relative to page `fromId` points at: `setup.md`, `../guides/`,
   * `./guides`, `guides/README.md`, `./`, `../README.md`… Undefined when it names no page or
   * climbs above the root.
   */
  resolveRelative(fromId: string, relativePath: string): string | undefined {
    const segments = this.dir(fromId) === '' ? [] : this.dir(fromId).split('/');
    for (const segment of relativePath.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (segments.length === 0) return undefined;
        segments.pop();
      } else {
        segments.push(segment);
      }
    }
    return this.resolveFromRoot(segments.join('/'));
  }

  /** A root-relative path: `guides/setup.md`, `guides/README.md`, `README.md`, `guides`, `guides/`, `''`. */
  resolveFromRoot(path: string): string | undefined {
    const clean = path.replace(/\/+$/, '');
    if (clean === '' || clean === 'README.md') return this.rootPage();
    if (clean.endsWith('/README.md')) return this.byPath(clean.slice(0, -'/README.md'.length));
    if (clean.endsWith('.md')) return this.byPath(clean.slice(0, -'.md'.length));
    return this.byPath(clean);
  }
}
