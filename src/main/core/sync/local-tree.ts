/**
 * Turns the page files found in a space folder into the local tree: which page each
 * file is, and where in the page tree it sits (pure; scan.ts does the reading).
 *
 * Identity: a file at the path where a page's file was last seen is that page. A page
 * whose file vanished and a file that appeared are the same page moved or renamed when
 * their text says the same (samePageText), or else when they carry the same title and
 * no other vanished page or new file does. Every other new file is a new page.
 *
 * Place: `<dir>/README.md` is the page of folder `<dir>`; any other file belongs to the
 * page of its folder: the page whose README is there, else the page that owned that
 * folder when last synced (groups, the first page), else the page of the folder above.
 * SUMMARY.md, when it lists a file, gives its position among its siblings.
 */
import { posix } from 'node:path';
import { canonicalPageText, pageTitleOf, type PageKind, type SummaryEntry } from '../content';
import { newPageKey, type LocalPage, type LocalTree } from './trees';

/** What the mirror knows about a page, to recognise its file. */
export interface KnownPage {
  id: string;
  kind: PageKind;
  parentId: string | null;
  name: string | null;
  /** Where its file was last seen; null for groups and links. */
  path: string | null;
  /** Its last synced (or pushed) text, to recognise it after a move. */
  text: string | null;
}

export interface ScannedFile {
  path: string;
  text: string;
}

const README = 'README.md';

/**
 * `held`: pages a conflict holds. Their file stays where it was, so it keeps the place in
 * the tree it had (whatever happened to the folders around it). A held page whose file is
 * gone (deleted here, edited on the server) comes with the path where its file belongs:
 * it still owns its folder, and a file put back there is its own.
 */
export function buildLocalTree(
  files: readonly ScannedFile[],
  known: readonly KnownPage[],
  summary?: readonly SummaryEntry[],
  held: ReadonlyMap<string, string | null> = new Map(),
): LocalTree {
  known = known.map((k) => (k.path === null && held.get(k.id) ? { ...k, path: held.get(k.id)! } : k));
  const knownById = new Map(known.map((k) => [k.id, k]));
  const knownByPath = new Map<string, KnownPage>();
  for (const k of known) if (k.path !== null && k.kind === 'document') knownByPath.set(k.path, k);
  const stillThere = new Set([...held].filter(([, path]) => path !== null).map(([id]) => id));

  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const idOf = new Map<string, { id: string; movedFrom: string | null }>();
  const present = new Set<string>();
  for (const f of sorted) {
    const k = knownByPath.get(f.path);
    if (k && !present.has(k.id)) {
      idOf.set(f.path, { id: k.id, movedFrom: null });
      present.add(k.id);
    }
  }
  matchMoves(
    sorted.filter((f) => !idOf.has(f.path)),
    known.filter((k) => k.kind === 'document' && k.path !== null && !present.has(k.id)),
    (file, page) => {
      idOf.set(file.path, { id: page.id, movedFrom: page.path });
      present.add(page.id);
    },
  );

  const byPath = new Map<string, string>();
  for (const f of sorted) byPath.set(f.path, idOf.get(f.path)?.id ?? newPageKey(f.path));

  const owners = knownFolderOwners(known, knownById, new Set([...present, ...stillThere]));
  const ownerOf = (folder: string, self: string): string | null => {
    for (let dir = folder; dir !== '' && dir !== '.'; dir = posix.dirname(dir)) {
      const readme = byPath.get(`${dir}/${README}`);
      if (readme !== undefined && readme !== self) return readme;
      const owner = owners.get(dir);
      if (owner !== undefined && owner !== self) return owner;
    }
    return null;
  };

  const positions = summary ? summaryPositions(summary) : new Map<string, number>();
  const pages = new Map<string, LocalPage>();
  for (const f of sorted) {
    const key = byPath.get(f.path)!;
    const identity = idOf.get(f.path);
    const k = identity ? knownById.get(identity.id) : undefined;
    let parentKey: string | null;
    let name: string;
    if (k && held.has(k.id) && f.path !== README) {
      parentKey = k.parentId;
      name = posix.basename(f.path) === README ? posix.basename(posix.dirname(f.path)) : posix.basename(f.path).replace(/\.md$/i, '');
    } else if (f.path === README) {
      parentKey = k && (k.parentId === null || present.has(k.parentId) || isContainer(knownById.get(k.parentId))) ? k.parentId : null;
      name = k?.name ?? 'readme';
    } else if (posix.basename(f.path) === README) {
      const dir = posix.dirname(f.path);
      name = posix.basename(dir);
      parentKey = ownerOf(posix.dirname(dir), key);
    } else {
      name = posix.basename(f.path).replace(/\.md$/i, '');
      parentKey = ownerOf(posix.dirname(f.path), key);
    }
    pages.set(key, {
      key,
      id: identity?.id ?? null,
      path: f.path,
      text: f.text,
      parentKey,
      name,
      position: positions.get(f.path) ?? null,
      movedFrom: identity?.movedFrom ?? null,
    });
  }
  breakCycles(pages);
  return { pages, byPath };
}

const isContainer = (k: KnownPage | undefined): boolean => k !== undefined && k.kind !== 'document';

/** Pairs vanished pages with new files: same text first, then a title both sides hold alone. */
function matchMoves(newFiles: ScannedFile[], vanished: KnownPage[], pair: (file: ScannedFile, page: KnownPage) => void): void {
  const byText = new Map<string, KnownPage[]>();
  for (const v of vanished) {
    if (v.text === null) continue;
    const key = canonicalPageText(v.text);
    byText.set(key, [...(byText.get(key) ?? []), v]);
  }
  const paired = new Set<string>();
  const unpaired: ScannedFile[] = [];
  for (const f of newFiles) {
    const candidates = (byText.get(canonicalPageText(f.text)) ?? []).filter((v) => !paired.has(v.id));
    const choice = candidates.find((v) => posix.basename(v.path!) === posix.basename(f.path)) ?? candidates[0];
    if (choice) {
      paired.add(choice.id);
      pair(f, choice);
    } else {
      unpaired.push(f);
    }
  }

  const titleCounts = <T>(items: T[], title: (item: T) => string | null) => {
    const map = new Map<string, T[]>();
    for (const item of items) {
      const t = title(item);
      if (t) map.set(t, [...(map.get(t) ?? []), item]);
    }
    return map;
  };
  const vanishedByTitle = titleCounts(
    vanished.filter((v) => !paired.has(v.id)),
    (v) => (v.text === null ? null : pageTitleOf(v.text)),
  );
  const filesByTitle = titleCounts(unpaired, (f) => pageTitleOf(f.text));
  for (const [title, pages] of vanishedByTitle) {
    const candidates = filesByTitle.get(title);
    if (pages.length === 1 && candidates?.length === 1) pair(candidates[0]!, pages[0]!);
  }
}

/** Folder -> page that owned it when last synced, for pages still there (groups and links always are). */
function knownFolderOwners(known: readonly KnownPage[], byId: Map<string, KnownPage>, present: Set<string>): Map<string, string> {
  const folders = new Map<string, string | null>();
  const folderOf = (k: KnownPage, depth = 0): string | null => {
    if (folders.has(k.id)) return folders.get(k.id)!;
    // A file says where its folder is: `x/README.md` owns `x`, `x.md` would own `x`.
    if (k.path !== null && k.path !== README) {
      const folder = posix.basename(k.path) === README ? posix.dirname(k.path) : k.path.replace(/\.md$/i, '');
      folders.set(k.id, folder);
      return folder;
    }
    if (k.name === null || depth > 256) return null;
    const parent = k.parentId === null ? undefined : byId.get(k.parentId);
    const parentFolder = k.parentId === null ? '' : parent ? folderOf(parent, depth + 1) : null;
    const folder = parentFolder === null ? null : parentFolder === '' ? k.name : `${parentFolder}/${k.name}`;
    folders.set(k.id, folder);
    return folder;
  };
  const owners = new Map<string, string>();
  for (const k of known) {
    if (k.kind === 'document' && !present.has(k.id)) continue;
    const folder = folderOf(k);
    if (folder !== null && !owners.has(folder)) owners.set(folder, k.id);
  }
  return owners;
}

/** Path -> index among its siblings in SUMMARY.md. */
function summaryPositions(entries: readonly SummaryEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (list: readonly SummaryEntry[]) => {
    list.forEach((entry, index) => {
      if (entry.kind === 'page' && entry.path !== null && !out.has(entry.path)) out.set(entry.path, index);
      walk(entry.children);
    });
  };
  walk(entries);
  return out;
}

/** A parent chain that loops (possible after odd moves of READMEs) is cut at the root. */
function breakCycles(pages: Map<string, LocalPage>): void {
  for (const start of pages.values()) {
    const seen = new Set<string>([start.key]);
    for (let p = start.parentKey; p !== null; p = pages.get(p)?.parentKey ?? null) {
      if (seen.has(p)) {
        start.parentKey = null;
        break;
      }
      seen.add(p);
    }
  }
}
