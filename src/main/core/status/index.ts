/**
 * The one sync state every host shows (`quire status`, the app's header and banner, the tray,
 * the browser host): computed here from what the mirror records and what the host knows at run
 * time, so they all say the same.
 *
 *   const state = syncState(await readSyncFacts(mirror, root), { syncing: false });
 */
export { editCount, type FactsOptions, PAUSED_META, pausedSince, readSyncFacts, setPaused, type SpaceFacts, type SyncFacts } from './facts';
export { when } from './reasons';
export { rememberSpaceSelection, type SpaceSelection, spaceSelection } from './selection';
export {
  INFORMS,
  NEEDS_YOU,
  needsYouReason,
  type ReasonAction,
  type ReasonKind,
  type RuntimeFacts,
  type SpaceState,
  type StateReason,
  type SyncState,
  type SyncStateName,
  syncState,
} from './state';
