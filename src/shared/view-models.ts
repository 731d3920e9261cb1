/**
 * The view models of the contract (contract.ts): what each request returns and each event
 * carries, shaped for the views. Plain data, so they cross IPC and the WebSocket as JSON.
 */
import type { LineSpan } from './line-blocks';
import type { SyncStateAction, SyncStateName } from './sync-state';

export type { SyncStateName } from './sync-state';
export interface UserVM {
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
}

export type KeychainState = 'ok' | 'unavailable';

export interface SessionVM {
  signedIn: boolean;
  /** API origin the app talks to (the client adds /v1). */
  apiUrl: string;
  user: UserVM | null;
  keychain: KeychainState;
  /** Why the user is signed out, when it was not their choice (e.g. token rejected). */
  reason?: string;
}

export interface OrganizationVM {
  id: string;
  title: string;
}

export interface CollectionVM {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
}

/** A space's sync state (the one state, per space), or `not-chosen` for a space not synced into this folder. */
export type SpaceState = SyncStateName | 'not-chosen';

export interface SpaceVM {
  id: string;
  organizationId: string;
  collectionId: string | null;
  title: string;
  emoji: string | null;
  visibility: string | null;
  selected: boolean;
  /** Folder of this space inside the sync folder, once synced. */
  folder: string | null;
  /** The last cycle of this space that reached the server and completed. */
  lastSyncAt: string | null;
  pendingEdits: number;
  conflicts: number;
  lastError: string | null;
  state: SpaceState;
  /** Why the space is in its state (empty when in sync), as the banner lists them. */
  reasons: StateReasonVM[];
}

export interface CatalogVM {
  organizations: OrganizationVM[];
  collections: CollectionVM[];
  spaces: SpaceVM[];
  refreshedAt: string | null;
}

export type HostKind = 'electron' | 'web';

export interface SettingsVM {
  /** The sync folder: every chosen space gets a folder inside it. */
  folder: string;
  notifications: boolean;
  host: HostKind;
  /** Whether the host can show a native folder picker. */
  canChooseFolder: boolean;
}

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

export interface ReactionVM {
  emoji: string;
  count: number;
  /** Whether the signed-in user is among those who reacted. */
  mine: boolean;
  pending?: boolean;
  /** Who reacted (set by the service). */
  users?: UserVM[];
}

export interface ReplyVM {
  id: string;
  author: UserVM | null;
  postedAt: string;
  markdown: string;
  reactions: ReactionVM[];
  pending: boolean;
  /** Server's message when a queued action was refused. */
  failure?: string;
  /** Written by the signed-in user: theirs to edit or delete (set by the service). */
  mine?: boolean;
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentVM {
  id: string;
  spaceId: string;
  spaceTitle: string;
  changeRequestId: string | null;
  changeRequestNumber: number | null;
  pageId: string | null;
  pageTitle: string | null;
  author: UserVM | null;
  postedAt: string;
  markdown: string;
  status: CommentStatus;
  replyCount: number;
  reactions: ReactionVM[];
  pending: boolean;
  failure?: string;
  /** Written by the signed-in user: theirs to edit or delete (set by the service). */
  mine?: boolean;
  /** Kept in the user's pending review of its change request: sent with the verdict (set by the service). */
  inPendingReview?: boolean;
  /** The page's file relative to its space folder, for a link to the Pages view or the preview (`#pages/<spaceId>/<path>`); null when it has none here. */
  pagePath?: string | null;
  /** On a line of a page of a change request: its block's first line in the page's file there now (null when the block is gone). */
  line?: number | null;
  /** Its block changed or went away since the comment was made (GitHub's "outdated"). */
  outdated?: boolean;
  /** The change it suggests (a ```suggestion block), when it holds one. */
  suggestion?: SuggestionVM | null;
}

/** A suggested change: the lines it replaces (as they were when it was made; null when not read yet) and the lines it puts instead. */
export interface SuggestionVM {
  replaces: string[] | null;
  lines: string[];
}

/** A suggestion written into the writer's file, and its thread resolved with a reply. */
export interface AppliedSuggestionVM {
  /** The file, relative to the sync folder. */
  file: string;
  line: number;
  /** What became of the reply and the resolve: sent, or queued until the API is reachable. */
  message: string;
}

export interface ThreadVM extends CommentVM {
  replies: ReplyVM[];
}

export type AttentionReason = 'review-requested' | 'mine' | 'outdated' | 'open';

export interface ChangeRequestVM {
  spaceId: string;
  spaceTitle: string;
  id: string;
  number: number;
  subject: string;
  status: string;
  outdated: boolean;
  comments: number;
  createdBy: UserVM | null;
  updatedAt: string;
  reasons: AttentionReason[];
  pending: boolean;
  failure?: string;
  url?: string;
}

export type PageChange = 'added' | 'removed' | 'modified' | 'moved';

export interface PageDiffVM {
  pageId: string;
  title: string;
  path: string | null;
  previousPath: string | null;
  change: PageChange;
  /** How its file's place changed: to another folder, or another name in the same one. */
  relocation?: 'moved' | 'renamed' | null;
  /** The page's file (frontmatter and title included) at the base and in the change request. */
  before: string | null;
  after: string | null;
  /** The blocks of the page in the change request, by their lines in `after`: what a comment on a line goes on (empty when not read yet). */
  blocks?: LineSpan[];
  linesAdded: number;
  linesRemoved: number;
  /** Marked viewed by the user, and unchanged since (set by the service). */
  viewed?: boolean;
  /** Marked viewed, then changed by a later revision of the change request (set by the service). */
  changedSinceViewed?: boolean;
}

/** The user's pending review of a change request. */
export interface PendingReviewVM {
  startedAt: string;
  /** Its comments (shown among the threads, marked `inPendingReview`). */
  comments: number;
}

/** What became of a finished review: all sent, the rest queued after a dropped connection, or refused in part. */
export interface FinishedReviewVM {
  outcome: 'sent' | 'queued' | 'refused';
  message: string;
}

/** What in the writer's folder holds a merge back: a page of the change request with a conflict, or with check errors. */
export interface MergeHoldVM {
  code: 'conflict' | 'check';
  pageId: string;
  title: string;
  /** The page's file, relative to its space folder. */
  path: string;
  message: string;
}

export interface ChangeRequestDetailVM {
  changeRequest: ChangeRequestVM;
  /** The description, as text. */
  description: string | null;
  /** Merge is possible as far as Quire knows (`actions.merge` is empty); the server has the last word. */
  canMerge: boolean;
  diff: PageDiffVM[];
  threads: ThreadVM[];
  reviews: ReviewVM[];
  requestedReviewers: RequestedReviewerVM[];
  /** Why each action is not possible now (empty: it is), from permissions, state and the merge rules as last seen. */
  actions: ChangeRequestActionsVM;
  /** The space's pushes go into this change request. */
  receivesYourEdits: boolean;
  /** The user's pending review of it, if one is open (set by the service). */
  pendingReview?: PendingReviewVM | null;
  /** What in the folder holds its merge back (set by the service): `review.merge` needs `force` past these. */
  mergeHolds?: MergeHoldVM[];
}

export interface ReviewVM {
  id: string;
  reviewer: UserVM;
  status: 'approved' | 'changes-requested';
  /** Superseded by a newer review or review request of the same reviewer. */
  outdated: boolean;
  /** The comment given with it, as markdown. */
  comment: string | null;
  at: string;
}

export interface RequestedReviewerVM {
  /** A user id (or `team:<id>`). */
  id: string;
  displayName: string;
  requestedBy: UserVM | null;
  /** Asked for, or withdrawn, by an action not sent yet. */
  pending: 'add' | 'remove' | null;
}

export type BlockerCode = 'no-permission' | 'merged' | 'archived' | 'draft' | 'open' | 'up-to-date' | 'rule' | 'unknown';

/** Why an action cannot be done now. `rule`: the space's merge rules as last seen (the server has the last word). */
export interface BlockerVM {
  code: BlockerCode;
  message: string;
}

export interface ChangeRequestActionsVM {
  merge: BlockerVM[];
  update: BlockerVM[];
  archive: BlockerVM[];
  reopen: BlockerVM[];
  edit: BlockerVM[];
  review: BlockerVM[];
  reviewers: BlockerVM[];
  comment: BlockerVM[];
}

/** What became of an action: sent at once, queued (offline: `message` says why), refused (the server's reason), withdrawn (it undid something never sent), or kept in a pending review. */
export interface ActOutcomeVM {
  /** `pending`: kept in the user's pending review, sent with the verdict. */
  outcome: 'sent' | 'queued' | 'refused' | 'withdrawn' | 'pending';
  message: string | null;
  /** The comment or reply it created or changed (a `local:` id until sent). */
  targetId: string | null;
  actionId: string;
}

export type InboxReasonVM = 'review-requested' | 'reviewed' | 'comment-on-my-change-request' | 'comment-on-my-page' | 'mention' | 'reply-to-me';

/** The inbox's groups, in the order they are shown (core/review/triage.ts). */
export const INBOX_GROUPS = ['needs-review', 'changes-requested', 'ready-to-merge', 'blocked', 'mentions'] as const;
export type InboxGroupVM = (typeof INBOX_GROUPS)[number];

/** Something that asks for the user: a change request, or a thread. */
export interface InboxItemVM {
  group: InboxGroupVM;
  /** Blocked: each merge rule or reviewer it waits on, in words. */
  waitingOn: string[];
  /** Kept first in its group. */
  pinned: boolean;
  /** Out of the groups until a date (`until`, ISO) or, with `until` null, until it changes. */
  snoozed: { until: string | null } | null;
  /** Give it to `review.markRead`. */
  key: string;
  reasons: InboxReasonVM[];
  /** New since the user last looked (`review.markRead`). */
  unread: boolean;
  /** The latest activity by someone else. */
  activityAt: string;
  by: UserVM | null;
  spaceId: string;
  spaceTitle: string;
  changeRequest: ChangeRequestVM | null;
  /** The thread, for a comment item. */
  thread: ThreadVM | null;
}

/** A review action the server refused, with its reason (kept until dismissed); or one it keeps failing on, waiting. */
export interface RefusedActionVM {
  actionId: string;
  kind: string;
  /** The comment, reply or change request it was about. */
  targetId: string | null;
  message: string;
  at: string;
  /** Set when the server failed on it (5xx): not refused, it is tried again then (ISO) unless dismissed. */
  retryAt?: string;
}

export interface ReviewStateVM {
  /** When review data was last refreshed from the server; null: never. */
  refreshedAt: string | null;
  /** The last refresh attempt reached the server. */
  online: boolean;
  pendingActions: number;
  refused: RefusedActionVM[];
}

export interface MemberVM extends UserVM {
  email?: string;
}

/** Which change request receives a space's edits. */
export interface SpaceTargetVM {
  spaceId: string;
  spaceTitle: string;
  /** none: the next push opens one; new: the next push opens the one asked for; open: `number` receives them. */
  state: 'none' | 'new' | 'creating' | 'open';
  changeRequestId: string | null;
  number: number | null;
  subject: string | null;
  /** The user chose it (new / use). */
  chosen: boolean;
  subjectByUser: boolean;
  pages: number;
  /** Change requests the space's pushes went to before, still open. */
  setAside: { changeRequestId: string; number: number | null; subject: string; pages: number }[];
}

export interface ShareLinkVM {
  id: string;
  name: string | null;
  active: boolean;
  createdAt: string;
}

export interface SiteSpaceNodeVM {
  type: 'site-space';
  id: string;
  title: string;
  path: string;
  spaceId: string | null;
  isDefault: boolean;
  hidden: boolean;
}

export interface SiteSectionNodeVM {
  type: 'section';
  id: string;
  title: string;
  path: string;
  isDefault: boolean;
  children: SiteSpaceNodeVM[];
}

export interface SiteGroupNodeVM {
  type: 'group';
  id: string;
  title: string;
  children: (SiteGroupNodeVM | SiteSectionNodeVM)[];
}

export type SiteNodeVM = SiteGroupNodeVM | SiteSectionNodeVM | SiteSpaceNodeVM;

export interface SiteVM {
  id: string;
  organizationId: string;
  organizationTitle: string | null;
  title: string;
  published: boolean;
  visibility: string;
  /** Section groups and sections in site order; site spaces outside any section last. */
  children: SiteNodeVM[];
  shareLinks: ShareLinkVM[];
}

/** A translation of an organization (as last listed): source space → target space, languages, status, last run. */
export interface TranslationVM {
  id: string;
  organizationId: string;
  organizationTitle: string | null;
  source: { spaceId: string; title: string | null; language: string };
  /** The space its runs write into (their content replaces what is there); null before its first run. */
  target: { spaceId: string; title: string | null } | null;
  language: string;
  status: string;
  /** When it last ran (its last change: the API gives no run time), or null when it never ran. */
  lastRunAt: string | null;
  runs: number;
}

/**
 * Where a page stands for the writer: created here and not on main yet (new), edited and not
 * pushed (edited), pushed into Quire's change request (in-change-request), not pushed and why
 * (held), in conflict, or as main has it (synced).
 */
export type PageSyncState = 'synced' | 'new' | 'edited' | 'in-change-request' | 'held' | 'conflict';

export interface PageNodeVM {
  /** The page's id, or `new:<path>` for a file not pushed yet. */
  id: string;
  title: string;
  kind: 'document' | 'group' | 'link';
  /** The page's file, relative to its space folder; null for groups and links. */
  path: string | null;
  sync: PageSyncState;
  /** The number of Quire's change request holding this page's edit, when it holds one. */
  changeRequest: number | null;
  /** Why the page is held (not pushed), when it is. */
  why: string | null;
  children: PageNodeVM[];
}

export interface SpacePagesVM {
  spaceId: string;
  title: string;
  folder: string;
  pages: PageNodeVM[];
}

export interface PageProblemVM {
  line: number | null;
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  fix: string;
}

export interface PageDetailVM {
  spaceId: string;
  spaceTitle: string;
  /** Relative to the space folder. */
  path: string;
  pageId: string | null;
  title: string;
  description: string | null;
  hidden: boolean;
  icon: string | null;
  /** The page rendered as GitBook shows it, safe to insert (sanitised by the host); page links are `#pages/<spaceId>/<path>`. */
  html: string;
  frontmatterError: string | null;
  problems: PageProblemVM[];
  /** Unresolved comments on this page. */
  comments: CommentVM[];
  sync: PageSyncState;
  changeRequest: number | null;
  why: string | null;
}

/** A change request's page before and after, rendered. */
export interface RenderedDiffVM {
  before: string | null;
  after: string | null;
}

/** A stretch of a search snippet; `match` marks the words the query found. */
export interface SnippetPartVM {
  text: string;
  match: boolean;
}

export type SearchKindVM = 'page' | 'comment' | 'reply';
export const SEARCH_KIND_VALUES = ['page', 'comment', 'reply'] as const satisfies readonly SearchKindVM[];

interface SearchResultBase {
  spaceId: string;
  spaceTitle: string;
  /** A page's title; for a comment, its page's title or its change request's subject. */
  title: string;
  snippet: SnippetPartVM[];
  /** The page's file (a comment's: its page's), relative to the sync folder; null when there is none. */
  file: string | null;
}

export interface PageResultVM extends SearchResultBase {
  kind: 'page';
  /** Page id, or `new:<path>` for a file not yet a page. */
  pageKey: string;
  pageId: string | null;
  /** Reusable content (`.gitbook/includes/`), not a page. */
  reusable: boolean;
  /** Relative to the space folder. */
  path: string;
}

export interface CommentResultVM extends SearchResultBase {
  kind: 'comment' | 'reply';
  commentId: string;
  replyId: string | null;
  author: string;
  changeRequestId: string | null;
  changeRequestNumber: number | null;
  pageId: string | null;
}

export type SearchResultVM = PageResultVM | CommentResultVM;

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
