/** What a sync cycle did, per space and as a whole: structured, for each host to word. */
import type { Held, MassDeleteHold, UnreadableReason } from './plan';
import type { PushReport } from './push';

/** What a cycle brought from the server into one space's folder. */
export interface PullResult {
  revision: string;
  fetchedPages: number;
  /** Page files main changed here (written, moved, deleted), as the log counts them. */
  pages: number;
  written: string[];
  moved: string[];
  deleted: string[];
  conflicts: string[];
  merged: number;
  /** Page files the scan read (the others matched what was recorded). */
  read: number;
}

/** What a cycle would do, without doing it (`--dry-run`), per page. */
export interface DryRunReport {
  pull: { new: string[]; changed: string[]; moved: { from: string; to: string }[]; deleted: string[] };
  push: { insert: string[]; update: string[]; move: string[]; delete: string[]; files: string[] };
  conflicts: { path: string; kind: string }[];
  /** What the sync would not push, and why (`says`: the line the sync prints for it). */
  held: { path: string; reason: string; says: string }[];
  /** The mass-delete fail-safe would stop the cycle. */
  massDelete: MassDeleteHold | null;
  /** Bodies fetched to decide (read-only requests). */
  fetched: number;
}

export interface SpaceReport {
  spaceId: string;
  title: string;
  folder: string;
  /** Null when nothing came in from the server. */
  pull: PullResult | null;
  /** Null when there was nothing to push. */
  push: PushReport | null;
  /** Set when the mass-delete fail-safe stopped this space: what it would have deleted (hosts word it). */
  held?: MassDeleteHold;
  /** The space folder is gone (unmounted drive, moved folder): this space was not synced, nothing was deleted. */
  missingFolder?: boolean;
  /** Paths Quire cannot or will not read: left alone, their pages held. */
  unreadable: { path: string; reason: UnreadableReason }[];
  /** What the writer changed that the API cannot carry (SUMMARY.md lines): said, never pushed as a guess (describeNotPushed). */
  notPushed: Held[];
  /** The mirror had no record of this folder's files: they were matched to the server's pages (count). */
  rebuilt?: number;
  dryRun?: DryRunReport;
  error?: string;
  /**
   * What the writer should know of the change request: why the edits went into another one than
   * before (the previous one was merged, closed, or is under review), or that main's changes
   * came into it with conflicts GitBook's editor settles.
   */
  notice?: string;
}

export interface CycleReport {
  spaces: SpaceReport[];
  /** Spaces with nothing that needs the writer: no open conflict, stop, missing folder, error, path left alone or change not pushed. */
  inSync: number;
  conflicts: number;
  /** Spaces stopped by the mass-delete fail-safe. */
  held: number;
  /** Spaces whose folder is missing. */
  missing: number;
  /** Paths that could not be read, across spaces. */
  unreadable: number;
  /** Changes the API cannot carry, across spaces. */
  notPushed: number;
  requests: number;
  dryRun: boolean;
  /** Search or history was found damaged and made again before the cycle ran again: one line each to show. */
  repaired?: string[];
}

/** True when the writer has to do something (exit code 3 for `sync --once`). */
export const needsYou = (r: CycleReport): boolean => r.conflicts > 0 || r.held > 0 || r.missing > 0 || r.unreadable > 0 || r.notPushed > 0;
