/**
 * The sync state's names (as `quire status --json` and the contract carry them) and the words
 * every host shows for them: the CLI's `State:` line, the app's header, the tray.
 */
export type SyncStateName = 'not-set-up' | 'syncing' | 'in-sync' | 'needs-you' | 'offline' | 'paused';

export const SYNC_STATE_WORDS: Record<SyncStateName, string> = {
  'not-set-up': 'Not set up',
  syncing: 'Syncing…',
  'in-sync': 'In sync',
  'needs-you': 'Needs you',
  offline: 'Offline',
  paused: 'Paused',
};
