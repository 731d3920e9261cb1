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
export { describeMassDelete, describeMissingFolder, describeNotPushed, describeUnreadable, isUnreadableReason } from './hold';
export { pendingEdits } from './local-changes';
export { recordFailed as recordAttemptFailed } from './outcome';
export { OwnWrites } from './own-writes';
export type { SyncProgress } from './progress';
export { needsYou, type SpaceReport } from './report';
export { resolveInside } from './safe-fs';
export { readExtras, includeKey } from './extras-record';
export { type ChangeRequestTarget, changeRequestTarget, keepUserSubject, startChangeRequest, pointPushesAt } from './targets';
