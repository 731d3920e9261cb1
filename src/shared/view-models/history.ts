/** Kept versions of pages, restoring them, and opening files. */
export type HistoryReasonVM = 'pulled' | 'pushed' | 'merged' | 'conflict-copy' | 'deleted-locally' | 'deleted-remotely' | 'restored' | 'local';

/** A page with kept versions, as of its latest. */
export interface HistoryPageVM {
  spaceId: string;
  spaceTitle: string;
  /** Page id, or `new:<path>` for a file not yet a page. */
  pageKey: string;
  /** Where its file is (or was, for a deleted page), relative to the space folder. */
  path: string | null;
  /** The same, relative to the sync folder. */
  file: string | null;
  title: string | null;
  versions: number;
  lastAt: string;
  lastReason: HistoryReasonVM;
  deleted: boolean;
}

export interface VersionVM {
  number: number;
  at: string;
  reason: HistoryReasonVM;
  /** Where it went or came from: `change request #12`, `main`, `version 3`. */
  detail: string | null;
  path: string | null;
  title: string | null;
  /** Bytes of text. */
  size: number;
}

export interface PageHistoryVM {
  page: HistoryPageVM;
  /** Newest first. */
  versions: VersionVM[];
}

export interface VersionTextVM {
  number: number;
  text: string;
}

export interface RestoreResultVM {
  version: number;
  /** Where the text went, relative to the sync folder. */
  file: string;
  /** written: the file now holds the version; unchanged: it already did. */
  outcome: 'written' | 'unchanged';
  /** The number the file's previous text was kept as, when it was not in history yet. */
  savedVersion: number | null;
  /** The page's own path holds another page's file, so the version went beside it. */
  besideOther: boolean;
}

/**
 * A file or folder the user asked to open. The desktop app opens it (`opened`); a browser cannot
 * start apps on the computer, so the browser host answers with the absolute path to copy instead.
 */
export interface OpenedVM {
  opened: boolean;
  /** Absolute path on the computer Quire runs on. */
  path: string;
}

/** What `sync.restoreDeleted` put back. */
export interface RestoredDeletedVM {
  /** Files written back, relative to the sync folder. */
  restored: string[];
  /** Deleted pages history had no version of (left deleted). */
  missing: string[];
}
