/**
 * The names and paths of one folder's pages: GitBook's Git Sync layout, under what the volume
 * holds (names.ts). tree.ts lays a whole tree out with it; the planner, folder by folder.
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

import type { PageKind } from '../content';
import { README_FILE, SUMMARY_FILE } from './files';
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

const MAX_RELATIVE_PATH_BYTES = 1024;
/** Names never shrink below this, however deep the tree. */
const MIN_SEGMENT_BYTES = 48;

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
