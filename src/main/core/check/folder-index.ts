/**
 * What the checker and the preview know about the folder being checked, in memory: every
 * space's files by path (exact and case-folded, for suggestions), the anchors of each page
 * (computed when first asked), and what the mirror says about page and file ids. Pure: the
 * files come from space-files.ts (or a test), and the preview updates them one at a time as
 * the watcher reports saves.
 */
import { posix } from 'node:path';
import type { LocalSpecs } from '../openapi';
import { type PageAnchors, pageAnchors } from './anchors';
import type { ConfigProblem, GitbookConfig } from './gitbook-config';
import type { SpaceFile, SpaceStructure } from './space-files';

export interface CheckedSpace {
  /** The space's id when the mirror knows it. */
  spaceId: string | null;
  title: string;
  /** The space folder relative to the checked root; '' when the root is the space itself. */
  folder: string;
  files: SpaceFile[];
  /** Its first page and table of contents, from its folder (Git Sync's `.gitbook.yaml`); README.md and SUMMARY.md when absent. */
  structure?: SpaceStructure;
  /** The `.gitbook.yaml` about it (`gitbook-yaml.ts`), when there is one. */
  gitbookYaml?: SpaceGitbookYaml;
}

export interface SpaceGitbookYaml {
  /** Its path from the checked root (`../.gitbook.yaml` when it lies above). */
  path: string;
  config: GitbookConfig;
  problems: ConfigProblem[];
  /** Whether its root and structure lay the space out: not in a sync folder, which Quire lays out as GitBook does by default. */
  layoutApplied: boolean;
}

/** What the mirror knows, for stable references (`/pages/<id>`, `/files/<id>`) left in files. */
export interface MirrorFacts {
  /** Spaces the mirror syncs: id -> folder (relative to the checked root). */
  spaceFolders: ReadonlyMap<string, string>;
  /** Per space: page id -> the page's file (relative to its space folder), null for groups and links. */
  pages: ReadonlyMap<string, ReadonlyMap<string, string | null>>;
  /** Per space: file id -> the asset's path (relative to its space folder). */
  files: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Per space: reusable content id -> its file in `.gitbook/includes/` (relative to its space folder). */
  includes?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

export interface IndexedFile {
  space: CheckedSpace;
  file: SpaceFile;
  /** Relative to the checked root. */
  rootPath: string;
}

export const joinRoot = (folder: string, path: string): string => (folder === '' ? path : `${folder}/${path}`);

const fold = (path: string): string => path.normalize('NFC').toLowerCase();

export class FolderIndex {
  /** Increases with every setFile and removeFile, so results derived from the files can be reused until then. */
  revision = 0;
  /** The specification files OpenAPI blocks render from (set by the loader; null: none looked for). */
  specs: LocalSpecs | null = null;
  private readonly byPath = new Map<string, IndexedFile>();
  private readonly byFold = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();
  private readonly anchorCache = new Map<string, PageAnchors>();

  constructor(
    readonly spaces: readonly CheckedSpace[],
    readonly mirror: MirrorFacts | null = null,
    /** Whether a root-relative path exists outside the indexed spaces (another space's folder); default: no. */
    private readonly existsElsewhere: (rootPath: string) => boolean = () => false,
  ) {
    for (const space of spaces) for (const file of space.files) this.add(space, file);
  }

  get(rootPath: string): IndexedFile | undefined {
    return this.byPath.get(rootPath);
  }

  /** Whether anything is at `rootPath`: an indexed file, or a file outside the indexed spaces. */
  exists(rootPath: string): boolean {
    return this.byPath.has(rootPath) || this.existsElsewhere(rootPath);
  }

  /** Indexed paths equal to `rootPath` but for case. */
  caseVariants(rootPath: string): string[] {
    return (this.byFold.get(fold(rootPath)) ?? []).filter((p) => p !== rootPath);
  }

  /** Indexed paths whose last segment is `name`. */
  withName(name: string): string[] {
    return this.byName.get(name.normalize('NFC')) ?? [];
  }

  /** The anchors the markdown file at `rootPath` defines; null when it is not an indexed, readable markdown file. */
  anchors(rootPath: string): PageAnchors | null {
    const cached = this.anchorCache.get(rootPath);
    if (cached) return cached;
    const text = this.byPath.get(rootPath)?.file.text;
    if (text === null || text === undefined) return null;
    const anchors = pageAnchors(text);
    this.anchorCache.set(rootPath, anchors);
    return anchors;
  }

  /** Replaces (or adds) one file of a space, e.g. after a save. */
  setFile(space: CheckedSpace, file: SpaceFile): void {
    const at = space.files.findIndex((f) => f.path === file.path);
    if (at >= 0) space.files[at] = file;
    else space.files.push(file);
    this.drop(joinRoot(space.folder, file.path));
    this.add(space, file);
    this.revision++;
  }

  removeFile(space: CheckedSpace, path: string): void {
    const at = space.files.findIndex((f) => f.path === path);
    if (at >= 0) space.files.splice(at, 1);
    this.drop(joinRoot(space.folder, path));
    this.revision++;
  }

  /** The space whose folder holds `rootPath` (the deepest match), or null. */
  spaceOf(rootPath: string): CheckedSpace | null {
    let best: CheckedSpace | null = null;
    for (const s of this.spaces) {
      if (s.folder !== '' && !rootPath.startsWith(`${s.folder}/`)) continue;
      if (!best || s.folder.length > best.folder.length) best = s;
    }
    return best;
  }

  private add(space: CheckedSpace, file: SpaceFile): void {
    const rootPath = joinRoot(space.folder, file.path);
    this.byPath.set(rootPath, { space, file, rootPath });
    push(this.byFold, fold(rootPath), rootPath);
    push(this.byName, posix.basename(rootPath), rootPath);
  }

  private drop(rootPath: string): void {
    this.anchorCache.delete(rootPath);
    if (!this.byPath.delete(rootPath)) return;
    pull(this.byFold, fold(rootPath), rootPath);
    pull(this.byName, posix.basename(rootPath), rootPath);
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function pull(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)?.filter((v) => v !== value) ?? [];
  if (list.length > 0) map.set(key, list);
  else map.delete(key);
}
