/**
 * One sync cycle and what hosts need around it: the engine (scan, plan, apply, push per
 * space), continuous sync (watcher, debounce, interval), pending edits, conflicts.
 * Hosts import sync from here only.
 */
export { refreshCatalog } from './catalog';
export { type ConflictChoice, ConflictNotFoundError, readConflict, resolveConflict } from './conflicts';
export { ContinuousSync } from './continuous';
export { type CycleReport, type CycleRequest, explainMirrorError, SyncEngine } from './engine';
export { describeMassDelete } from './hold';
export { detectLocalChanges, pendingEdits } from './local-changes';
export type { SyncProgress } from './progress';
export { resolveInside } from './safe-fs';
