/** Change requests, their diffs, reviews and actions, the inbox, and which change request receives edits. */
import type { LineSpan } from '../line-blocks';
import type { ThreadVM } from './comments';
import type { UserVM } from './session';

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
  /** Who made it: the API's name, as the core's `ChangeRequestView` has it. */
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

/**
 * Which change request receives a space's edits: the core's ChangeRequestTarget (core/sync/targets.ts)
 * with the space's title. The contract cannot import the core; the service builds one from the other.
 */
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
