/**
 * Maps a space's page tree to file paths (GitBook Git Sync layout) and back.
 *
 * Rules, per space folder (all paths relative, POSIX, NFC):
 * - A document page without children is `<name>.md`; with children it is
 *   `<name>/README.md` and its children live in `<name>/`.
 * - The space's first document page (depth-first through root entries, entering
 *   groups but not other pages) is written to the space folder's `README.md`.
 *   It still owns `<name>` in its own folder, so its children go to `<name>/`
 *   and the name stays reserved when it has none (no rename when it gains one).
 * - A group is a folder `<name>/` without README.md holding its children; it
 *   appears as a `## Title` heading in SUMMARY.md (see summary.ts).
 * - A link page has no file and only appears in SUMMARY.md. (Should the server
 *   ever send a link with children, it gets a folder like a group.)
 * - Computed pages and unknown types are treated as documents.
 * - `<name>` is the page's GitBook name, its slug exactly as Git Sync writes it (else a slug
 *   made from its title, else `page`; a slug that leaves nothing usable, say `..`, keeps the name
 *   the page already has), unless the volume cannot hold it (names.ts: what the
 *   volume refuses, Windows' device names and trailing dots where it is Windows, a leading dot,
 *   over 120 UTF-8 bytes). Deep down, names shrink so the relative path stays under 1 KB, but
 *   never below 48 bytes (past that, each extra level adds at most 49 bytes).
 * - Within one folder, names are compared as the volume compares them (case-insensitively
 *   after Unicode compatibility normalisation where it ignores case), and `<name>` claims both
 *   `<name>` and `<name>.md`; a page's file or folder is never `README.md` where the folder has
 *   one (the space root, a page's folder) nor `SUMMARY.md` at the root.
 * - Clashes (which GitBook's unique slugs leave only to case-insensitive volumes): a page that
 *   held its GitBook name keeps it, then pages in tree order; a later page gets
 *   `<name>-<first 8 chars of its id>`, then `<name>-<id up to 32 chars>`, then
 *   `<name>-<short id>-2`, `-3`, ... (keeping the one it had). The suffix depends on the page
 *   itself, not on how many pages clash. A page whose GitBook name frees up takes it back.
 * - The server's side of a conflict on `<name>.md` is `<name>.remote.md` beside it; it is not
 *   content (never scanned, watched or pushed).
 */

import { pageKind, type PageKind } from '../../content';
import {
  byteLength,
  FolderNames,
  foldKey,
  gitbookName,
  holdsNothing,
  isCandidate,
  isSafeSegment,
  MAX_SEGMENT_BYTES,
  nameCandidates,
  type NameRules,
  PORTABLE_NAMES,
} from './names';

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

export interface PlanOptions {
  /** The plan of the last synced tree: pages keep the names they had there when they still can. */
  previous?: PreviousNames;
  /** What the volume holds (default: what every common file system holds). */
  rules?: NameRules;
}

const MAX_RELATIVE_PATH_BYTES = 1024;
/** Names never shrink below this, however deep the tree. */
const MIN_SEGMENT_BYTES = 48;
export const ASSETS_FOLDER = '.gitbook/assets';
export const SUMMARY_FILE = 'SUMMARY.md';
const README_FILE = 'README.md';
/** Suffix of the file holding the server's side of a conflict, beside the writer's file. */
const REMOTE_COPY_SUFFIX = '.remote.md';

export const isRemoteCopy = (relPath: string): boolean => relPath.toLowerCase().endsWith(REMOTE_COPY_SUFFIX);

/** Where the server's side of a conflict on `path` goes: `<name>.remote.md` beside it. */
export function remoteCopyPath(path: string): string {
  return path.replace(/\.md$/i, '') + REMOTE_COPY_SUFFIX;
}

export class LayoutError extends Error {
  override name = 'LayoutError';
}

// ---------------------------------------------------------------------------
// Names (names.ts has the rules)

export {
  explainName,
  foldKey,
  isSafeSegment,
  MAX_SEGMENT_BYTES,
  type NameDeviation,
  type NameRules,
  PORTABLE_NAMES,
  POSIX_NAMES,
  safeSegment,
} from './names';

// ---------------------------------------------------------------------------
// Page tree

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

const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

export function nameBudget(dir: string): number {
  const room = MAX_RELATIVE_PATH_BYTES - byteLength(dir) - byteLength('/') - byteLength(`/${README_FILE}`);
  return Math.max(MIN_SEGMENT_BYTES, Math.min(MAX_SEGMENT_BYTES, room));
}

/** What naming a page in its folder depends on. */
export interface NameInput {
  id: string;
  kind: PageKind;
  /** The name it asks for (a slug, or the name its file already has); else a slug of its title. */
  slug: string | null;
  title: string;
  hasChildren: boolean;
  /** The space's first page: its file is the space's README.md, only its folder is here. */
  isFirstPage?: boolean;
}

/** What a folder holds besides its pages' names: `README.md` (the space root, a page's folder), `SUMMARY.md` (the root). */
export type FolderKind = 'root' | 'page' | 'group';

export interface NameOptions {
  /** What the volume holds (default: what every common file system holds). */
  rules?: NameRules;
  /** Default: the root for `''`, else a page's folder. */
  holds?: FolderKind;
}

export const RESERVED_FILES: Readonly<Record<FolderKind, readonly string[]>> = {
  root: [README_FILE, SUMMARY_FILE],
  page: [README_FILE],
  group: [],
};

/**
 * Names the children of one folder (`dir`), in tree order. Each page takes its GitBook name (its
 * slug) when the volume can hold it and it is free: first the pages that had it before, then
 * the others in tree order. A page that cannot have it keeps `previous(id)` when that is still
 * one of its candidates and free, else takes its first free candidate. Childless links own no
 * name (null).
 *
 * A page claims both `<name>` and `<name>.md`, whether it has children or not, so a page gaining
 * or losing children renames no sibling. `README.md` and `SUMMARY.md` (in any case: Quire and
 * GitBook's import read them so) are refused only for what the page really writes there: its
 * file `<name>.md`, or its folder.
 */
export function nameFolder(
  dir: string,
  children: readonly NameInput[],
  previous: (id: string) => string | null = () => null,
  options: NameOptions = {},
): Map<string, string | null> {
  const rules = options.rules ?? PORTABLE_NAMES;
  const reserved = new Set(RESERVED_FILES[options.holds ?? (dir === '' ? 'root' : 'page')].map(foldKey));
  const folder = new FolderNames(rules);
  const budget = nameBudget(dir);
  const names = new Map<string, string | null>();
  const owners = children.filter((p) => p.kind !== 'link' || p.hasChildren);
  const candidatesOf = (p: NameInput) => nameCandidates(gitbookName(p), p.id, budget, rules, p.hasChildren || p.kind === 'group' ? 'folder' : 'file');
  const preferred = new Map(owners.map((p) => [p.id, candidatesOf(p).next().value as string]));
  const writes = (p: NameInput, name: string): string[] => [
    ...(p.hasChildren || p.kind === 'group' ? [name] : []),
    ...(p.kind === 'document' && !p.hasChildren && !p.isFirstPage ? [`${name}.md`] : []),
  ];
  const claim = (p: NameInput, name: string): boolean => {
    const keys = [name, `${name}.md`];
    if (writes(p, name).some((w) => reserved.has(foldKey(w))) || !folder.isFree(keys)) return false;
    folder.claim(keys);
    names.set(p.id, name);
    return true;
  };
  const unnamed = () => owners.filter((p) => !names.has(p.id));
  for (const p of owners) {
    const before = previous(p.id);
    // A slug no file name can carry (`..`) says nothing about the name: the page keeps the one it has.
    if (before !== null && (before === preferred.get(p.id) || (unusableSlug(p.slug, rules) && isSafeSegment(before)))) claim(p, before);
  }
  for (const p of unnamed()) claim(p, preferred.get(p.id)!);
  for (const p of unnamed()) {
    const before = previous(p.id);
    if (before && isCandidate(before, candidatesOf(p))) claim(p, before);
  }
  for (const p of unnamed()) for (const candidate of candidatesOf(p)) if (claim(p, candidate)) break;
  for (const p of children) if (!names.has(p.id)) names.set(p.id, null);
  return names;
}

/** A slug the server sent that leaves nothing a name can hold (only dots, say). */
const unusableSlug = (slug: string | null, rules: NameRules): boolean => slug !== null && slug !== '' && holdsNothing(slug, rules);

/** True when `name` is one the layout could give a page asking for `slug` in `dir` (its own, or a clash-avoiding variant). */
export function isNameFor(name: string, page: { id: string; slug: string | null; title: string }, dir: string, rules: NameRules = PORTABLE_NAMES): boolean {
  const budget = nameBudget(dir);
  return (
    isCandidate(name, nameCandidates(gitbookName(page), page.id, budget, rules, 'file')) ||
    isCandidate(name, nameCandidates(gitbookName(page), page.id, budget, rules, 'folder'))
  );
}

/** The file and the folder of a page named `name` in `dir` (see the module comment). */
export function placeOf(
  dir: string,
  name: string | null,
  kind: PageKind,
  hasChildren: boolean,
  isFirstPage: boolean,
): { file: string | null; folder: string | null } {
  const folder = name !== null && (hasChildren || kind === 'group') ? join(dir, name) : null;
  let file: string | null = null;
  if (kind === 'document' && name !== null) {
    if (isFirstPage) file = README_FILE;
    else file = hasChildren ? join(join(dir, name), README_FILE) : join(dir, `${name}.md`);
  }
  return { file, folder };
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
export function planLayout(pages: readonly LayoutPage[], options: PlanOptions = {}): LayoutPlan {
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

// ---------------------------------------------------------------------------
// Assets

export interface AssetFile {
  id: string;
  name: string;
}

function splitExtension(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { base: name, extension: '' };
  const ext = name.slice(dot + 1);
  if (!/^[A-Za-z0-9]{1,16}$/.test(ext)) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: `.${ext}` };
}

/**
 * Plans `.gitbook/assets/<name>` for each file (returns file id -> relative path): its name as
 * GitBook has it, unless the volume cannot hold it (names.ts). The byte limit applies to the
 * name before the extension. Clashes: the file that had the path in `previous` keeps it, then
 * input order; others get `<base>-<short id>.<ext>`.
 */
export function planAssetPaths(files: readonly AssetFile[], options: { previous?: ReadonlyMap<string, string>; rules?: NameRules } = {}): Map<string, string> {
  const rules = options.rules ?? PORTABLE_NAMES;
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.id)) throw new LayoutError(`File id "${f.id}" appears twice in the file list; every file needs its own id.`);
    seen.add(f.id);
  }
  const folder = new FolderNames(rules);
  const names = new Map<string, string>();
  const candidatesOf = (f: AssetFile) => {
    const { base, extension } = splitExtension(String(f.name ?? '').normalize('NFC'));
    const budget = MAX_SEGMENT_BYTES + byteLength(extension);
    return nameCandidates(base || 'file', f.id, budget, rules, extension === '' ? 'folder' : 'file', extension);
  };
  // The names an older Quire gave (spaces collapsed, edge dots and dashes cut): a file named so keeps its name.
  const legacyCandidatesOf = (f: AssetFile) => {
    const legacy = String(f.name ?? '')
      .normalize('NFC')
      .replace(/[\s\p{Z}]+/gu, ' ')
      .replace(/^[\s.-]+|[\s.-]+$/gu, '');
    const { base, extension } = splitExtension(legacy);
    return nameCandidates(
      base.replace(/^[\s.-]+|[\s.-]+$/gu, '') || 'file',
      f.id,
      MAX_SEGMENT_BYTES + byteLength(extension),
      PORTABLE_NAMES,
      'file',
      extension,
    );
  };
  const claim = (f: AssetFile, name: string): boolean => {
    if (!folder.isFree([name])) return false;
    folder.claim([name]);
    names.set(f.id, name);
    return true;
  };
  const prefix = `${ASSETS_FOLDER}/`;
  for (const f of files) {
    const before = options.previous?.get(f.id);
    if (before?.startsWith(prefix)) {
      const name = before.slice(prefix.length);
      if (isCandidate(name, candidatesOf(f)) || isCandidate(name, legacyCandidatesOf(f))) claim(f, name);
    }
  }
  for (const f of files) {
    if (names.has(f.id)) continue;
    for (const candidate of candidatesOf(f)) if (claim(f, candidate)) break;
  }
  return new Map(files.map((f) => [f.id, prefix + (names.get(f.id) as string)]));
}
