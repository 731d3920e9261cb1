/** The activity log: what each sync pulled and pushed, and who did what. */
export type LogKind = 'pulled' | 'pushed' | 'merged' | 'conflict' | 'retry' | 'error' | 'info';
export const LOG_KINDS = ['pulled', 'pushed', 'merged', 'conflict', 'retry', 'error', 'info'] as const satisfies readonly LogKind[];

export interface LogEntryVM {
  seq: number;
  at: string;
  spaceId: string | null;
  spaceTitle: string | null;
  kind: LogKind;
  /** One line: for a pull or a push, what it carried and where (no revision id: that is in `activity.revision`). */
  message: string;
  /** What a pull or a push carried, page by page (absent for other entries and older ones). */
  activity?: LogActivityVM | null;
}

/** A pull: added, changed, merged (with edits here), moved, deleted, conflict. A push: added, edited, moved, retitled, deleted. */
export type LogPageChange = 'added' | 'changed' | 'merged' | 'moved' | 'deleted' | 'conflict' | 'edited' | 'retitled';

export interface LogPageVM {
  /** The page's id (its key, `new:<path>`, before the server gave it one). */
  pageId: string;
  title: string | null;
  /** Its file, relative to the space folder, after the change (null: none, a deleted page). */
  path: string | null;
  change: LogPageChange;
  /** Where its file was (a move), or last was (a delete). */
  from?: string;
}

export interface LogPersonVM {
  id: string;
  name: string;
}

export interface LogActivityVM {
  direction: 'pull' | 'push';
  /** The entry's line without who made main's change (`source` says it). */
  summary: string;
  /** At most a hundred; `morePages` counts the rest. */
  pages: LogPageVM[];
  morePages: number;
  /** Assets pulled or uploaded (paths relative to the space folder). */
  files: string[];
  moreFiles: number;
  /** Files written again because a page they link to moved. */
  relinked: number;
  /** A push: the change request the pages went to. */
  changeRequest?: { id: string; number: number | null; subject: string | null };
  /** A pull: who made main's change, where the API says (null: it does not, direct edits). */
  source: {
    words: string;
    changeRequest: { id: string; number: number | null; subject: string | null };
    createdBy: LogPersonVM | null;
    mergedBy: LogPersonVM | null;
  } | null;
  /** A pull: main's revision it brought in (for the details). */
  revision: string | null;
}
