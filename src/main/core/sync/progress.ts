/** Progress of a sync cycle, for CLI stderr lines, the tray and the window. */
export interface SyncProgress {
  phase: 'catalog' | 'pull' | 'push' | 'done';
  spaceId?: string;
  spaceTitle?: string;
  done: number;
  total: number;
}

export type ProgressListener = (p: SyncProgress) => void;
