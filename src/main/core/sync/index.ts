/**
 * One sync cycle and what hosts need around it: the engine (scan, plan, apply, push per
 * space), continuous sync (watcher, debounce, interval), pending edits, conflicts.
 * Hosts import sync from here only.
 */
export { describeActivity, describeChangeRequest, describeSource } from './activity';
export { deletedAssets } from './assets';
export { describeDeviation, type PathDeviation, pathDeviations } from './deviations';
export { refreshCatalog } from './catalog';
export { describeConflict } from './conflict-words';
export { type ConflictChoice, ConflictNotFoundError, readConflict, resolveConflict } from './conflicts';
export { ContinuousSync } from './continuous';
export { type CycleReport, type CycleRequest, explainMirrorError, type PushGuard, SyncEngine } from './engine';
export type { SpaceChoice } from './engine';
export {
  describeMassDelete,
  describeMissingFolder,
  describeNotPushed,
  describePageFile,
  describeUnreadable,
  type HeldDelete,
  heldDeletes,
  isSummaryHold,
  isUnreadableReason,
} from './hold';
export { changeCount, changedPaths, type LocalChanges as PendingEdits, pendingEdits } from './local-changes';
export { BACK_ONLINE, describeOffline, failureKind, recordFailed as recordAttemptFailed } from './outcome';
export { OwnWrites } from './own-writes';
export type { SyncProgress } from './progress';
export { needsYou, type SpaceReport } from './report';
export { readFileInside, removeFileInside, resolveInside, writeFileAtomic, writeFileAtomicStat } from './safe-fs';
export { includeKey, readExtras } from './extras-record';
export { type ChangeRequestTarget, changeRequestTarget, keepUserSubject, pointPushesAt, startChangeRequest } from './targets';
// A change request written out as a folder (core/review/checkout) is laid out and written as a sync lays out and writes main.
export { sha256 } from './hash';
export { fileMeta, pageFileFromServer } from './page-file';
export type { RemotePage } from './plan';
export { ASSETS_FOLDER, planAssetPaths, planLayout } from '../naming';
export { layoutTree } from './rebuild';
export { flattenRevision, type RemoteFile } from './remote';
export { LinkResolver } from './link-targets';
export { forEachBounded } from './bounded';
export { isIgnoredDir, isTempName } from './ignore';
export { relSpelledOnDisk } from './spelling';
