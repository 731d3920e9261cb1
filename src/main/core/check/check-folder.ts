/**
 * `quire check` over a folder on disk: finds the spaces (from the mirror when the folder is a
 * Quire sync folder, else the folder itself or its subfolders holding a SUMMARY.md, as Git Sync
 * repositories do), reads them, and checks them. The only I/O of the check module besides
 * space-files.ts.
 */
import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type Mirror, STATE_DIR } from '../mirror';
import { readExtras } from '../sync/extras-record';
import { type SpaceReport, checkingSpaces } from './check-space';
import { type CheckedSpace, FolderIndex, type MirrorFacts } from './folder-index';
import { countBySeverity, type SeverityCounts } from './problem';
import { readingSpaceFolder, SUMMARY_FILE } from './space-files';
import { atOnce, inTurns, type StepProgress, type Steps } from './steps';

/** The check could not run (nothing to check, an unknown space): the host says so and exits 1. */
export class CheckSetupError extends Error {
  override name = 'CheckSetupError';
}

export interface FolderCheck {
  root: string;
  spaces: SpaceReport[];
  counts: SeverityCounts;
}

export interface LoadedFolder {
  index: FolderIndex;
  /** The spaces to check (all of the index's, or those named). */
  selected: CheckedSpace[];
}

/** Spaces, page and file ids as the mirror knows them. */
export function mirrorFacts(mirror: Mirror): MirrorFacts {
  const spaceFolders = new Map<string, string>();
  const pages = new Map<string, Map<string, string | null>>();
  const files = new Map<string, Map<string, string>>();
  const includes = new Map<string, Map<string, string>>();
  for (const s of mirror.catalog.selectedSpaces()) {
    if (s.folder === null) continue;
    spaceFolders.set(s.id, s.folder);
    pages.set(s.id, new Map(mirror.content.pages(s.id).map((p) => [p.id, p.path])));
    files.set(s.id, new Map(mirror.content.files(s.id).map((f) => [f.id, f.path])));
    includes.set(s.id, new Map(readExtras(mirror, s.id).includes.map((i) => [i.id, i.path])));
  }
  return { spaceFolders, pages, files, includes };
}

/** The spaces of a folder without a mirror: itself when it holds pages, else its subfolders with a SUMMARY.md. */
function discoverSpaces(root: string): { title: string; folder: string }[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (err) {
    throw new CheckSetupError(`Cannot read ${root}: ${(err as Error).message}. Check the --dir path.`);
  }
  if (entries.some((e) => e.isFile() && (e.name === SUMMARY_FILE || /\.md$/i.test(e.name)))) return [{ title: basename(root), folder: '' }];
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(join(root, e.name, SUMMARY_FILE)))
    .map((e) => ({ title: e.name, folder: e.name }))
    .sort((a, b) => (a.folder < b.folder ? -1 : 1));
}

/** Reads the spaces of `root` into an index; `spaceIds` narrows what is checked (it needs the mirror). */
export function loadFolder(root: string, mirror: Mirror | null, spaceIds: readonly string[] = []): LoadedFolder {
  return atOnce(loadingFolder(root, mirror, spaceIds));
}

function* loadingFolder(root: string, mirror: Mirror | null, spaceIds: readonly string[]): Steps<LoadedFolder> {
  const facts = mirror ? mirrorFacts(mirror) : null;
  let found: { spaceId: string | null; title: string; folder: string }[];
  if (mirror) {
    found = mirror.catalog
      .selectedSpaces()
      .filter((s) => s.folder !== null)
      .map((s) => ({ spaceId: s.id, title: s.title, folder: s.folder! }));
    if (found.length === 0)
      throw new CheckSetupError(`Nothing synced in ${root} yet, so there is nothing to check. Run \`quire sync --dir ${root} --once\` first.`);
  } else {
    if (spaceIds.length > 0)
      throw new CheckSetupError(
        `--space needs a Quire sync folder (one with ${STATE_DIR}/mirror.db); ${root} is not one. Leave --space out to check the folder as it is.`,
      );
    found = discoverSpaces(root).map((s) => ({ spaceId: null, ...s }));
    if (found.length === 0)
      throw new CheckSetupError(
        `${root} holds no markdown pages and no space folders with a SUMMARY.md: nothing to check. Point --dir at a sync folder or a space folder.`,
      );
  }
  for (const id of spaceIds) {
    if (!found.some((s) => s.spaceId === id)) {
      throw new CheckSetupError(`No synced space has the id ${id} in ${root} (synced: ${found.map((s) => `${s.spaceId} "${s.title}"`).join(', ')}).`);
    }
  }
  const spaces: CheckedSpace[] = [];
  for (const s of found) spaces.push({ ...s, files: yield* readingSpaceFolder(s.folder === '' ? root : join(root, s.folder)) });
  const index = new FolderIndex(spaces, facts, (rootPath) => existsSync(join(root, rootPath)));
  const selected = spaceIds.length === 0 ? spaces : spaces.filter((s) => s.spaceId !== null && spaceIds.includes(s.spaceId));
  return { index, selected };
}

/** Checks a folder on disk. Throws CheckSetupError when there is nothing it can check. */
export function checkFolder(root: string, mirror: Mirror | null, spaceIds: readonly string[] = []): FolderCheck {
  return atOnce(checkingFolder(root, mirror, spaceIds));
}

/**
 * checkFolder in turns that leave the event loop free (steps.ts): a host shows `onProgress`
 * (files checked of how many) and stops it with `signal`, which it throws once aborted.
 */
export function checkFolderInTurns(
  root: string,
  mirror: Mirror | null,
  spaceIds: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (p: StepProgress) => void },
): Promise<FolderCheck> {
  return inTurns(checkingFolder(root, mirror, spaceIds), options);
}

function* checkingFolder(root: string, mirror: Mirror | null, spaceIds: readonly string[]): Steps<FolderCheck> {
  const { index, selected } = yield* loadingFolder(root, mirror, spaceIds);
  const spaces = yield* checkingSpaces(index, selected);
  return { root, spaces, counts: countBySeverity(spaces.flatMap((s) => s.problems)) };
}
