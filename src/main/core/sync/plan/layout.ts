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
 * - `<name>` is the page's slug, else a slug made from its title, else `page`,
 *   made safe on Linux, macOS and Windows: NFC, no control/format characters,
 *   `<>:"/\|?*` become `-`, no leading/trailing dots, spaces or dashes, Windows
 *   device names get `_` (`con` -> `con_`), at most 120 UTF-8 bytes. Deep down,
 *   names shrink so the relative path stays under 1 KB, but never below 48 bytes
 *   (past that, each extra level adds at most 49 bytes).
 * - Within one folder, names are compared case-insensitively after Unicode
 *   compatibility normalisation, and `<name>` claims both `<name>` and
 *   `<name>.md`; `README` and `SUMMARY` are reserved in every folder.
 * - Clashes: the page that held the name in `previous` keeps it, then pages in
 *   tree order; a later page gets `<name>-<first 8 chars of its id>`, then
 *   `<name>-<id up to 32 chars>`, then `<name>-<short id>-2`, `-3`, ...
 *   The suffix depends on the page itself, not on how many pages clash.
 * - The server's side of a conflict on `<name>.md` is `<name>.remote.md` beside it; it is not
 *   content (never scanned, watched or pushed).
 */

import { pageKind, type PageKind } from '../../content';

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
}

export const MAX_SEGMENT_BYTES = 120;
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
// Names

const utf8 = new TextEncoder();
const byteLength = (s: string): number => utf8.encode(s).length;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(?= *(\.|$))/i;
const WINDOWS_ILLEGAL = /[<>:"/\\|?*]/g;
// Control, format (bidi overrides, zero-width), lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
const SPACES = /[\s\p{Z}]+/gu;
const EDGE_JUNK = /^[\s.-]+|[\s.-]+$/gu;
const FOLDER_RESERVED = ['readme', 'readme.md', 'summary', 'summary.md'];

/** Comparison key under which two names are the same file on any common filesystem. */
export function foldKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase();
}

/** Makes arbitrary text a name that is legal on every common filesystem (may return ''). */
function cleanName(raw: string): string {
  return raw.normalize('NFC').replace(SPACES, ' ').replace(INVISIBLE, '').replace(WINDOWS_ILLEGAL, '-').replace(EDGE_JUNK, '');
}

function slugFromTitle(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Cuts to at most maxBytes of UTF-8 without splitting a code point. */
function truncateBytes(s: string, maxBytes: number): string {
  if (byteLength(s) <= maxBytes) return s;
  let out = '';
  let used = 0;
  for (const ch of s) {
    const n = byteLength(ch);
    if (used + n > maxBytes) break;
    out += ch;
    used += n;
  }
  return out;
}

function avoidWindowsDeviceName(name: string): string {
  return name.replace(WINDOWS_RESERVED, '$1_');
}

/** Builds `<base><suffix>` within budget bytes, always a safe segment. */
function fitName(base: string, suffix: string, budget: number, extension = ''): string {
  let room = budget - byteLength(suffix) - byteLength(extension);
  for (;;) {
    const cut = truncateBytes(base, Math.max(room, 0)).normalize('NFC').replace(EDGE_JUNK, '');
    const candidate = avoidWindowsDeviceName((cut || 'page') + suffix + extension);
    if (byteLength(candidate) <= budget || room <= 0) return candidate;
    room -= 1;
  }
}

/** True when `segment` is one path segment safe on Linux, macOS and Windows. */
export function isSafeSegment(segment: string, maxBytes = MAX_SEGMENT_BYTES + 3): boolean {
  if (segment === '' || segment.normalize('NFC') !== segment) return false;
  if (byteLength(segment) > maxBytes) return false;
  if (/[\p{Cc}\p{Cf}\p{Cs}<>:"/\\|?*]/u.test(segment)) return false;
  if (/^[\s.]|[\s.]$/u.test(segment)) return false;
  return !WINDOWS_RESERVED.test(segment);
}

/**
 * One safe path segment made from free text (a title): slugified, then made safe
 * like page names; `fallback` (made safe too) when nothing usable is left.
 */
export function safeSegment(text: string, fallback = 'page'): string {
  const base = cleanName(slugFromTitle(String(text ?? ''))) || cleanName(fallback) || 'page';
  return fitName(base, '', MAX_SEGMENT_BYTES);
}

function idSuffixParts(id: string): { short: string; long: string } {
  const clean = id
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '');
  return { short: clean.slice(0, 8), long: clean.slice(0, 32) };
}

/** Names a page may take in its folder, best first (endless: the last form counts up). */
function* nameCandidates(base: string, id: string, budget: number, extension = ''): Generator<string> {
  const { short, long } = idSuffixParts(id);
  yield fitName(base, '', budget, extension);
  if (short) yield fitName(base, `-${short}`, budget, extension);
  if (long.length > short.length) yield fitName(base, `-${long}`, budget, extension);
  for (let n = 2; ; n++) yield fitName(base, `-${short || 'page'}-${n}`, budget, extension);
}

function isCandidate(name: string, candidates: Generator<string>): boolean {
  let i = 0;
  for (const c of candidates) {
    if (c === name) return true;
    if (++i > 64) return false;
  }
  return false;
}

/** Tracks the names taken in one folder. */
class FolderNames {
  private readonly taken = new Set<string>();
  constructor(reserved: readonly string[]) {
    for (const r of reserved) this.taken.add(foldKey(r));
  }
  isFree(keys: readonly string[]): boolean {
    return keys.every((k) => !this.taken.has(foldKey(k)));
  }
  claim(keys: readonly string[]): void {
    for (const k of keys) this.taken.add(foldKey(k));
  }
}

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

function nameBudget(dir: string): number {
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
}

/**
 * Names the children of one folder (`dir`), in tree order: each keeps `previous(id)` when that
 * is still one of its candidates and free, then the others claim their first free candidate.
 * Childless links own no name (null).
 */
export function nameFolder(dir: string, children: readonly NameInput[], previous: (id: string) => string | null = () => null): Map<string, string | null> {
  const folder = new FolderNames(FOLDER_RESERVED);
  const budget = nameBudget(dir);
  const names = new Map<string, string | null>();
  const owners = children.filter((p) => p.kind !== 'link' || p.hasChildren);
  const candidatesOf = (p: NameInput) => nameCandidates(cleanName(p.slug ?? '') || cleanName(slugFromTitle(String(p.title ?? ''))) || 'page', p.id, budget);
  const claim = (p: NameInput, name: string): boolean => {
    const keys = [name, `${name}.md`];
    if (!folder.isFree(keys)) return false;
    folder.claim(keys);
    names.set(p.id, name);
    return true;
  };
  for (const p of owners) {
    const before = previous(p.id);
    if (before && isCandidate(before, candidatesOf(p))) claim(p, before);
  }
  for (const p of owners) {
    if (names.has(p.id)) continue;
    for (const candidate of candidatesOf(p)) if (claim(p, candidate)) break;
  }
  for (const p of children) if (!names.has(p.id)) names.set(p.id, null);
  return names;
}

/** True when `name` is one the layout could give a page asking for `slug` in `dir` (its own, or a clash-avoiding variant). */
export function isNameFor(name: string, page: { id: string; slug: string | null; title: string }, dir: string): boolean {
  const base = cleanName(page.slug ?? '') || cleanName(slugFromTitle(String(page.title ?? ''))) || 'page';
  return isCandidate(name, nameCandidates(base, page.id, nameBudget(dir)));
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
    const names = nameFolder(dir, inputs, (id) => {
      const before = previous?.get(id);
      return before?.name && before.parentId === parentId ? before.name : null;
    });
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
 * Plans `.gitbook/assets/<name>` for each file (returns file id -> relative path), with the same safety rules as pages.
 * The 120-byte limit applies to the name before the extension. Clashes: the file that
 * had the path in `previous` keeps it, then input order; others get `<base>-<short id>.<ext>`.
 */
export function planAssetPaths(files: readonly AssetFile[], options: { previous?: ReadonlyMap<string, string> } = {}): Map<string, string> {
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.id)) throw new LayoutError(`File id "${f.id}" appears twice in the file list; every file needs its own id.`);
    seen.add(f.id);
  }
  const folder = new FolderNames([]);
  const names = new Map<string, string>();
  const candidatesOf = (f: AssetFile) => {
    const { base, extension } = splitExtension(cleanName(String(f.name ?? '')));
    const budget = MAX_SEGMENT_BYTES + byteLength(extension);
    return nameCandidates(cleanName(base) || 'file', f.id, budget, extension);
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
      if (isCandidate(name, candidatesOf(f))) claim(f, name);
    }
  }
  for (const f of files) {
    if (names.has(f.id)) continue;
    for (const candidate of candidatesOf(f)) if (claim(f, candidate)) break;
  }
  return new Map(files.map((f) => [f.id, prefix + (names.get(f.id) as string)]));
}
