/**
 * The sync state's names (as `quire status --json` and the contract carry them) and the words
 * every host shows for them: the CLI's `State:` line, the app's header, the tray.
 */
export type SyncStateName = 'not-set-up' | 'syncing' | 'in-sync' | 'needs-you' | 'offline' | 'paused';

/** Kinds of reason that need the writer (state `needs-you`). */
export const NEEDS_YOU = [
  'conflict',
  'held-page',
  'editor-only',
  'summary-edit',
  'asset-in-use',
  'unreadable',
  'mass-delete',
  'refused',
  'token-rejected',
  'missing-folder',
  'unsafe-state',
  'sync-failed',
  'review-refused',
] as const;

/** Kinds of reason that explain another state. */
export const INFORMS = ['no-space-chosen', 'never-synced', 'offline', 'paused', 'edits-waiting', 'actions-waiting', 'syncing'] as const;

/** Whether a reason needs the writer (as against one that explains another state): what hosts count as "things". */
export function needsYou(kind: string): boolean {
  return (NEEDS_YOU as readonly string[]).includes(kind);
}

/**
 * What the writer can do about a reason for the state; each host offers it its own way (a button
 * in the app, a command on the command line): resolve the conflict, show the file, restore
 * deleted files from history (all those a stop holds, or the one file the reason names), let the
 * deletes a stop holds through, sign in again, choose spaces, sync now, resume, open review, show
 * the folder.
 */
export type SyncStateAction =
  | 'resolve-conflict'
  | 'show-file'
  | 'restore-deleted'
  | 'restore-file'
  | 'allow-deletes'
  | 'sign-in'
  | 'choose-spaces'
  | 'sync-now'
  | 'resume'
  | 'open-review'
  | 'show-folder'
  | 'none';

export const SYNC_STATE_WORDS: Record<SyncStateName, string> = {
  'not-set-up': 'Not set up',
  syncing: 'Syncing…',
  'in-sync': 'In sync',
  'needs-you': 'Needs you',
  offline: 'Offline',
  paused: 'Paused',
};
