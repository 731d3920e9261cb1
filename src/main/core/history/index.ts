/**
 * Page history for hosts: which page a file or an id names, its versions, and restoring one
 * into the folder. The versions live in the mirror (`mirror.history`), recorded by the sync
 * engine as it pulls, merges, pushes and deletes, and by restore.
 *
 *   const ref = findPage(mirror, root, 'user-guide/install.md');
 *   mirror.history.versions(ref.spaceId, ref.pageKey);            // newest first
 *   await restoreVersion(mirror, root, { target: 'user-guide/install.md', version: 3 });
 */
export { recordSyncedBaselines } from './baseline';
export { fileInSyncFolder, versionListing } from './listing';
export { readText, restoreVersion, type RestoreResult, type RestoreTarget, VersionNotFoundError, writeFileReplacing } from './restore';
export { findPage, PageNotFoundError, type PageRef, refOf } from './target';
export {
  DEFAULT_RETENTION,
  type HistoryPage,
  type HistoryReason,
  type Retention,
  type VersionInfo,
} from '../mirror';
