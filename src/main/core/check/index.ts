/**
 * Checking a sync folder before pushing (`quire check`, the preview's problem list, the Pages
 * view), the push guard the planner asks before sending a page, and what in the folder holds a
 * change request's merge back. Hosts import it from here.
 */
export { checkPage, checkSpaces, type SpaceReport } from './check-space';
export {
  CheckSetupError,
  checkFolder,
  checkFolderInTurns,
  type FolderCheck,
  type LoadedFolder,
  loadFolder,
  mirrorFacts,
} from './check-folder';
export type { StepProgress } from './steps';
export { type CheckedSpace, FolderIndex, type IndexedFile, joinRoot, type MirrorFacts } from './folder-index';
export { MAX_ASSET_BYTES, MAX_PAGE_BYTES } from './limits';
export { type ChangedPage, type MergeHold, mergeHolds } from './merge-holds';
export { countBySeverity, type Problem, type ProblemCode, type Severity, type SeverityCounts, sortProblems } from './problem';
export { checkPageForPush, pushGuard } from './push-guard';
export { type Resolution, resolveHref } from './resolve';
export { fileKind, isContentPath, readSpaceFile, type SpaceFile, type SpaceFileKind, spelledOnDisk } from './space-files';
export {
  anchorTarget,
  expandableSummaries,
  gitbookAnchor,
  hasAnchor,
  headingSlug,
  type PageAnchors,
  pageAnchors,
  type PageHeading,
  pageHeadings,
} from './anchors';
export { summaryEntries, summaryEntryFile } from './summary';
export { type BlockSpec, specFinding, specOfBlock } from './openapi-blocks';
export { spaceVariables } from './variables';
