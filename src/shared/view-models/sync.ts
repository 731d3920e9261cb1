/** The sync's state, its reasons and progress, and its conflicts. */
import type { SyncStateAction, SyncStateName } from '../sync-state';

/** The one sync state (sync-state.ts), or signed-out before there is a session. */
export type SyncState = SyncStateName | 'signed-out';

/** What the writer can do about a reason (sync-state.ts). */
export type StateActionVM = SyncStateAction;

/** Why the sync is in its state: what happened, and the action that settles it. */
export interface StateReasonVM {
  kind: string;
  /** The space it is about; null for the whole folder. */
  spaceId: string | null;
  /** The file, relative to the space folder. */
  path?: string;
  message: string;
  action: StateActionVM;
}

export interface SyncProgressVM {
  phase: string;
  spaceId: string | null;
  spaceTitle: string | null;
  done: number;
  total: number;
}

export interface SyncStatusVM {
  state: SyncState;
  /** Every reason behind the state, needs-you ones first. */
  reasons: StateReasonVM[];
  progress: SyncProgressVM | null;
  paused: boolean;
  conflicts: number;
  /** Review actions queued to be sent. */
  pendingActions: number;
  /** Local edits not on the server yet. */
  editsWaiting: number;
  /** The last cycle that reached the server and completed (ISO), or null. */
  lastReachedServerAt: string | null;
  /** Offline: since when the API could not be reached. */
  offlineSince: string | null;
  /** A passing line beside the state (waiting for another Quire to finish with the folder, a damaged mirror set aside). */
  message: string | null;
  /** Increases with every change, so late or repeated events can be ignored. */
  seq: number;
  /** Host clock (ms since epoch) when the state changed; lets tests measure delivery latency. */
  changedAt: number;
}

export interface ConflictVM {
  spaceId: string;
  spaceTitle: string;
  /** Path of the local file, relative to the space folder. */
  path: string;
  pageId: string | null;
  kind: string;
  detectedAt: string;
  local: string | null;
  remote: string | null;
  base: string | null;
}
