/**
 * `quire check` over a folder on disk: finds the spaces (from the mirror when the folder is a
 * Quire sync folder, else as GitBook's Git Sync finds them: the folder its `.gitbook.yaml` names,
 * the folder itself, or its subfolders holding a SUMMARY.md or a `.gitbook.yaml`), reads them,
 * and checks them. The only I/O of the check module besides
 * space-files.ts.
 */
import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { type Mirror, STATE_DIR } from '../mirror';
import { LocalSpecs } from '../openapi';
import { readExtras } from '../sync';
import { type SpaceReport, checkingSpaces } from './check-space';
import { type CheckedSpace, FolderIndex, joinRoot, type MirrorFacts, type SpaceGitbookYaml } from './folder-index';
import { CONFIG_FILE, readGitbookConfig } from './gitbook-config';
import { countBySeverity, type SeverityCounts } from './problem';
import { readingSpaceFolder, SUMMARY_FILE, type SpaceStructure } from './space-files';
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
export function mirrorFacts(mirror: Pick<Mirror, 'catalog' | 'content'>): MirrorFacts {
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

interface FoundSpace {
  spaceId: string | null;
  title: string;
  folder: string;
  structure?: SpaceStructure;
  gitbookYaml?: SpaceGitbookYaml;
}

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The space a `.gitbook.yaml` in the folder `at` (root-relative, '' for the root) lays out: its `root`, `structure` and redirects. */
function configuredSpace(root: string, at: string, title: string, read: NonNullable<ReturnType<typeof readGitbookConfig>>): FoundSpace {
  const { config } = read;
  const folder = joinRoot(at, config.root).replace(/\/$/, '');
  const problems = [...read.problems];
  if (!isFolder(join(root, folder))) {
    problems.push({
      line: null,
      message: `root in .gitbook.yaml is ./${config.root}/, which is not a folder here, so GitBook finds no page in it.`,
      fix: 'Point root at the folder holding the pages and SUMMARY.md, from the folder of .gitbook.yaml.',
    });
  }
  return {
    spaceId: null,
    title,
    folder,
    structure: { readme: config.readme, summary: config.summary },
    gitbookYaml: { path: joinRoot(at, CONFIG_FILE), config, problems, layoutApplied: true },
  };
}

/**
 * The `.gitbook.yaml` above `root` whose `root` is this very folder (`quire check --dir docs` in a
 * repository whose .gitbook.yaml says `root: ./docs/`), up to the repository's top; null when none.
 */
function configAbove(root: string): FoundSpace | null {
  let dir = root;
  for (let depth = 0; depth < 16; depth++) {
    if (existsSync(join(dir, '.git'))) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
    const read = readGitbookConfig(dir);
    if (!read) continue;
    if (resolve(dir, read.config.root) !== resolve(root)) return null;
    const path = relative(root, join(dir, CONFIG_FILE)).split(sep).join('/');
    return {
      spaceId: null,
      title: basename(root),
      folder: '',
      structure: { readme: read.config.readme, summary: read.config.summary },
      gitbookYaml: { path, ...read, layoutApplied: true },
    };
  }
  return null;
}

/**
 * The spaces of a folder without a mirror: the one its `.gitbook.yaml` lays out; else itself when
 * it holds pages (with the `.gitbook.yaml` above it that names it as root, if any); else its
 * subfolders with a SUMMARY.md or a `.gitbook.yaml` (a monorepo's project folders).
 */
function discoverSpaces(root: string): FoundSpace[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (err) {
    throw new CheckSetupError(`Cannot read ${root}: ${(err as Error).message}. Check the --dir path.`);
  }
  const here = readGitbookConfig(root);
  if (here) return [configuredSpace(root, '', basename(root), here)];
  if (entries.some((e) => e.isFile() && (e.name === SUMMARY_FILE || /\.md$/i.test(e.name)))) {
    return [configAbove(root) ?? { spaceId: null, title: basename(root), folder: '' }];
  }
  const spaces: FoundSpace[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const read = readGitbookConfig(join(root, e.name));
    if (read) spaces.push(configuredSpace(root, e.name, e.name, read));
    else if (existsSync(join(root, e.name, SUMMARY_FILE))) spaces.push({ spaceId: null, title: e.name, folder: e.name });
  }
  return spaces.sort((a, b) => (a.folder < b.folder ? -1 : 1));
}

/** Reads the spaces of `root` into an index; `spaceIds` narrows what is checked (it needs the mirror). */
export function loadFolder(root: string, mirror: Pick<Mirror, 'catalog' | 'content' | 'openapi'> | null, spaceIds: readonly string[] = []): LoadedFolder {
  return atOnce(loadingFolder(root, mirror, spaceIds));
}

function* loadingFolder(root: string, mirror: Pick<Mirror, 'catalog' | 'content' | 'openapi'> | null, spaceIds: readonly string[]): Steps<LoadedFolder> {
  const facts = mirror ? mirrorFacts(mirror) : null;
  let found: FoundSpace[];
  if (mirror) {
    found = mirror.catalog
      .selectedSpaces()
      .filter((s) => s.folder !== null)
      .map((s) => {
        // Quire lays a synced space out itself: its .gitbook.yaml's redirects are checked, its root and structure not used.
        const read = readGitbookConfig(join(root, s.folder!));
        const gitbookYaml = read ? { path: joinRoot(s.folder!, CONFIG_FILE), ...read, layoutApplied: false } : undefined;
        return { spaceId: s.id, title: s.title, folder: s.folder!, ...(gitbookYaml ? { gitbookYaml } : {}) };
      });
    if (found.length === 0)
      throw new CheckSetupError(`Nothing synced in ${root} yet, so there is nothing to check. Run \`quire sync --dir ${root} --once\` first.`);
  } else {
    if (spaceIds.length > 0)
      throw new CheckSetupError(
        `--space needs a Quire sync folder (one with ${STATE_DIR}/mirror.db); ${root} is not one. Leave --space out to check the folder as it is.`,
      );
    found = discoverSpaces(root);
    if (found.length === 0)
      throw new CheckSetupError(
        `${root} holds no markdown pages nor a .gitbook.yaml, and no space folders with a SUMMARY.md: nothing to check. Point --dir at a sync folder, a Git Sync repository or a space folder.`,
      );
  }
  for (const id of spaceIds) {
    if (!found.some((s) => s.spaceId === id)) {
      throw new CheckSetupError(`No synced space has the id ${id} in ${root} (synced: ${found.map((s) => `${s.spaceId} "${s.title}"`).join(', ')}).`);
    }
  }
  const spaces: CheckedSpace[] = [];
  for (const s of found) spaces.push({ ...s, files: yield* readingSpaceFolder(s.folder === '' ? root : join(root, s.folder), s.structure) });
  const index = new FolderIndex(spaces, facts, (rootPath) => existsSync(join(root, rootPath)));
  index.specs = LocalSpecs.of(root, mirror);
  const selected = spaceIds.length === 0 ? spaces : spaces.filter((s) => s.spaceId !== null && spaceIds.includes(s.spaceId));
  return { index, selected };
}

/** Checks a folder on disk. Throws CheckSetupError when there is nothing it can check. */
export function checkFolder(root: string, mirror: Pick<Mirror, 'catalog' | 'content' | 'openapi'> | null, spaceIds: readonly string[] = []): FolderCheck {
  return atOnce(checkingFolder(root, mirror, spaceIds));
}

/**
 * checkFolder in turns that leave the event loop free (steps.ts): a host shows `onProgress`
 * (files checked of how many) and stops it with `signal`, which it throws once aborted.
 */
export function checkFolderInTurns(
  root: string,
  mirror: Pick<Mirror, 'catalog' | 'content' | 'openapi'> | null,
  spaceIds: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (p: StepProgress) => void },
): Promise<FolderCheck> {
  return inTurns(checkingFolder(root, mirror, spaceIds), options);
}

function* checkingFolder(root: string, mirror: Pick<Mirror, 'catalog' | 'content' | 'openapi'> | null, spaceIds: readonly string[]): Steps<FolderCheck> {
  const { index, selected } = yield* loadingFolder(root, mirror, spaceIds);
  const spaces = yield* checkingSpaces(index, selected);
  return { root, spaces, counts: countBySeverity(spaces.flatMap((s) => s.problems)) };
}
