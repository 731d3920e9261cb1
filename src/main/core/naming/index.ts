/**
 * Naming: which name, file and folder each page and asset of a space gets — GitBook's Git Sync
 * layout, under what the sync folder's volume holds. Pure: the planner lays folders out with it,
 * `quire check` and `quire status` judge names by it, the engine and the review name files by it
 * (what a volume holds is probed by sync/name-rules.ts).
 *
 * - names.ts: one name — what a volume holds, GitBook's name for a page, the candidates on a clash;
 * - folder.ts: one folder — its pages' names, and the file and folder each page gets;
 * - tree.ts: a whole page tree laid out, and GitBook's own layout of it;
 * - assets.ts: the files under `.gitbook/assets/`;
 * - files.ts: the special files (README.md, SUMMARY.md, conflicts' `.remote.md` copies).
 */
export { type AssetFile, planAssetPaths } from './assets';
export { ASSETS_FOLDER, isRemoteCopy, nameFromPath, README_FILE, remoteCopyPath, SUMMARY_FILE } from './files';
export { type FolderKind, isNameFor, nameBudget, type NameInput, type NameOptions, nameFolder, placeOf, RESERVED_FILES } from './folder';
export {
  byteLength,
  explainName,
  foldKey,
  gitbookName,
  isSafeSegment,
  MAX_SEGMENT_BYTES,
  type NameDeviation,
  nameCandidates,
  nameKey,
  type NameRules,
  type NameUse,
  PORTABLE_NAMES,
  POSIX_NAMES,
  safeSegment,
  slugFromTitle,
} from './names';
export {
  findPageByFile,
  gitbookLayout,
  LayoutError,
  type LayoutOptions,
  type LayoutPage,
  type LayoutPlan,
  type PlannedPage,
  planLayout,
  type PreviousNames,
} from './tree';
