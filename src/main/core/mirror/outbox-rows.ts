/** The rows of the push side of the mirror (outbox.ts): what each table holds, as the store hands it over. */
/** new: the next push opens it (`quire cr new`); creating: its create was sent, answer not seen yet; open: pushes go into it. */
export type ChangeRequestRowState = 'new' | 'creating' | 'open';

export interface ChangeRequestRow {
  spaceId: string;
  changeRequestId: string | null;
  number: number | null;
  /** The subject it has: the user's, or the last one Quire gave it. */
  subject: string;
  state: ChangeRequestRowState;
  createdAt: string;
  /** The user chose it (`quire cr new` / `cr use`): pushes keep going there whatever its review state. */
  chosen: boolean;
  /** The user set its subject: Quire never replaces it. */
  subjectByUser: boolean;
  /** Its status when Quire last looked (draft, open). */
  status: string | null;
}

/** A change request pushes went to before another took over, with what it holds. */
export interface ParkedChangeRequest {
  changeRequestId: string;
  number: number | null;
  subject: string;
  subjectByUser: boolean;
  chosen: boolean;
  pages: PushedPageRow[];
  files: PushedFile[];
  parkedAt: string;
}

export type OutboxState = 'sending' | 'applied' | 'not-applied' | 'refused' | 'reconciled';

export interface OutboxRow<Change = unknown, Effect = unknown> {
  seq: number;
  spaceId: string;
  changeRequestId: string;
  changes: Change[];
  effects: Effect[];
  state: OutboxState;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

/** What the open change request holds for a page sync changed in it (sync's PushedPage fits). */
export interface PushedPageRow {
  id: string;
  /** The page's file when it was pushed. */
  path: string | null;
  parentId: string | null;
  name: string | null;
  /** The file text pushed; null when the page was deleted in the change request. */
  text: string | null;
  deleted: boolean;
  /** The change request places the page (a move, a rename or an insert), rather than main. */
  moved: boolean;
  /** The change request sets its place among its siblings: after `after` (null: first). */
  ordered: boolean;
  after: string | null;
}

export interface PushedFile {
  path: string;
  name: string;
  size: number;
  fileId: string | null;
}

export interface RefusedChange {
  pageKey: string;
  path: string | null;
  textHash: string;
  message: string;
  at: string;
}

/** A space sync stopped for the user to decide: the mass-delete fail-safe, with what it counted. */
export interface HoldRow {
  kind: 'mass-delete';
  /** Pages the cycle would delete on the server (their files are gone here). */
  localDeletes: number;
  /** Page files the cycle would delete here (their pages are gone on the server). */
  remoteDeletes: number;
  /** Pages the space has. */
  pages: number;
  /** The pages it holds (none recorded by a Quire before migration 19: worked out again by count). */
  deletes: HeldDeletesRow;
  at: string;
}

/** Page ids a stop holds: pages it would delete on the server, page files it would delete here. */
export interface HeldDeletesRow {
  server: string[];
  here: string[];
}

/** Something the last completed cycle of a space did not push and left for the writer (sync's Held fits). */
export interface AttentionRow {
  reason: string;
  path: string;
  line?: number;
  title?: string;
  /** The page it is about, when there is one. */
  key: string | null;
}

export interface LocalEditRow {
  spaceId: string;
  path: string;
  kind: string;
  seenAt: string;
}
