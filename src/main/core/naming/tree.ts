/** The page tree laid out whole: every page's name, file and folder (folder.ts names each folder). */
import { pageKind, type PageKind } from '../content';
import { placeOf, nameFolder } from './folder';
import { foldKey, gitbookName, type NameRules, PORTABLE_NAMES } from './names';

/** The page tree as the API gives it (RevisionPage is assignable to this). */
export interface LayoutPage {
  id: string;
  title: string;
  slug?: string;
  /** 'document' | 'group' | 'link' | 'computed'; other values count as documents. */
  type: string;
  pages?: readonly LayoutPage[];
  /** Link pages: where the link points. */
  href?: string;
  target?: { kind: string; url?: string; page?: string };
}

export interface PlannedPage {
  id: string;
  kind: PageKind;
  title: string;
  parentId: string | null;
  /** Position among its siblings. */
  index: number;
  /** The name this page owns in its parent folder, or null (a childless link). */
  name: string | null;
  /** Relative path of the page's markdown file; null for groups and links. */
  file: string | null;
  /** Relative path of the folder holding the page's children, when it has children (always for groups). */
  folder: string | null;
}

export interface LayoutPlan {
  /** Every page by id, in depth-first tree order. */
  pages: ReadonlyMap<string, PlannedPage>;
  /** Page id -> relative path of its file; null for groups and links. */
  pagePaths: ReadonlyMap<string, string | null>;
  /** File path -> page id. */
  byFile: ReadonlyMap<string, string>;
  /** Folder path -> page id (groups, and pages with children). */
  byFolder: ReadonlyMap<string, string>;
  /** Id of the page written to the space folder's README.md, if any. */
  firstPageId: string | null;
}

/** What a previous plan needs to remember for names to stay stable (a LayoutPlan's `pages` fits). */
export type PreviousNames = ReadonlyMap<string, { parentId: string | null; name: string | null }>;

export interface LayoutOptions {
  /** The plan of the last synced tree: pages keep the names they had there when they still can. */
  previous?: PreviousNames;
  /** What the volume holds (default: what every common file system holds). */
  rules?: NameRules;
}

export class LayoutError extends Error {
  override name = 'LayoutError';
}

const pageKindOf = (page: LayoutPage): PageKind => pageKind(page.type);

const childrenOf = (page: LayoutPage): readonly LayoutPage[] => page.pages ?? [];

/** First document in depth-first order, entering groups only. */
function findFirstPage(pages: readonly LayoutPage[]): LayoutPage | null {
  for (const page of pages) {
    const kind = pageKindOf(page);
    if (kind === 'document') return page;
    if (kind === 'group') {
      const inside = findFirstPage(childrenOf(page));
      if (inside) return inside;
    }
  }
  return null;
}

function checkUniqueIds(pages: readonly LayoutPage[], seen = new Set<string>()): void {
  for (const page of pages) {
    if (typeof page.id !== 'string') throw new LayoutError('A page in the tree has no id; the tree cannot be laid out.');
    if (seen.has(page.id)) {
      throw new LayoutError(`Page id "${page.id}" appears twice in the tree; every page needs its own id to get its own file.`);
    }
    seen.add(page.id);
    checkUniqueIds(childrenOf(page), seen);
  }
}

/** Where GitBook's Git Sync puts each page of the tree: every name its slug exactly, nothing avoided. */
export function gitbookLayout(pages: readonly LayoutPage[]): Map<string, { name: string | null; file: string | null; folder: string | null }> {
  const first = findFirstPage(pages);
  const out = new Map<string, { name: string | null; file: string | null; folder: string | null }>();
  const walk = (dir: string, list: readonly LayoutPage[]): void => {
    for (const page of list) {
      const kind = pageKindOf(page);
      const children = childrenOf(page);
      // (NFC: a slug spelt NFD names the same file.)
      const name = kind === 'link' && children.length === 0 ? null : gitbookName({ slug: page.slug ?? null, title: String(page.title ?? '') }).normalize('NFC');
      const where = placeOf(dir, name, kind, children.length > 0, page === first);
      out.set(page.id, { name, ...where });
      if (where.folder !== null) walk(where.folder, children);
    }
  };
  walk('', pages);
  return out;
}

/** Plans the file of every page. Deterministic; throws LayoutError on duplicate ids. */
export function planLayout(pages: readonly LayoutPage[], options: LayoutOptions = {}): LayoutPlan {
  checkUniqueIds(pages);
  const first = findFirstPage(pages);
  const planned = new Map<string, PlannedPage>();
  const pagePaths = new Map<string, string | null>();
  const byFile = new Map<string, string>();
  const byFolder = new Map<string, string>();
  const previous = options.previous;

  const layFolder = (dir: string, parentId: string | null, children: readonly LayoutPage[]): void => {
    const inputs = children.map((p) => ({
      id: p.id,
      kind: pageKindOf(p),
      slug: p.slug ?? null,
      title: String(p.title ?? ''),
      hasChildren: childrenOf(p).length > 0,
    }));
    const holds = parentId === null ? 'root' : planned.get(parentId)?.kind === 'group' ? 'group' : 'page';
    const names = nameFolder(
      dir,
      inputs.map((p) => ({ ...p, isFirstPage: p.id === first?.id })),
      (id) => {
        const before = previous?.get(id);
        return before?.name && before.parentId === parentId ? before.name : null;
      },
      { rules: options.rules ?? PORTABLE_NAMES, holds },
    );
    children.forEach((page, index) => {
      const kind = pageKindOf(page);
      const name = names.get(page.id) ?? null;
      const { file, folder: folderPath } = placeOf(dir, name, kind, childrenOf(page).length > 0, page === first);
      planned.set(page.id, { id: page.id, kind, title: String(page.title ?? ''), parentId, index, name, file, folder: folderPath });
      pagePaths.set(page.id, file);
      if (file !== null) byFile.set(file, page.id);
      if (folderPath !== null) {
        byFolder.set(folderPath, page.id);
        layFolder(folderPath, page.id, childrenOf(page));
      }
    });
  };

  layFolder('', null, pages);
  return { pages: planned, pagePaths, byFile, byFolder, firstPageId: first?.id ?? null };
}

/**
 * Finds the page whose file is `relPath`, tolerating what a filesystem or user may
 * have done to it: backslashes, `./`, NFD (macOS) and a different letter case.
 */
export function findPageByFile(plan: LayoutPlan, relPath: string): string | null {
  const clean = relPath
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .normalize('NFC');
  const exact = plan.byFile.get(clean);
  if (exact !== undefined) return exact;
  const key = foldKey(clean);
  for (const [file, id] of plan.byFile) if (foldKey(file) === key) return id;
  return null;
}
