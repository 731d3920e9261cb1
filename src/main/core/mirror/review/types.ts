/**
 * Shapes shared by the review modules and handed to hosts. Server objects are
 * read loosely (only the fields used here), so a server adding fields or
 * leaving optional ones out does not break the mirror.
 */

export interface RemoteUser {
  id: string;
  displayName?: string;
  email?: string;
  photoURL?: string;
}

export interface RemoteReaction {
  emoji: string;
  count: number;
  users: { user: RemoteUser; reactedAt: string }[];
}

/** A comment body: markdown when asked for with `format=markdown`, else a document. */
export interface RemoteBody {
  markdown?: string;
  document?: unknown;
}

export interface RemoteReply {
  id: string;
  postedBy: RemoteUser;
  postedAt: string;
  editedAt?: string;
  reactions?: RemoteReaction[];
  body?: RemoteBody;
  permissions?: { edit?: boolean; reply?: boolean; delete?: boolean };
}

export interface RemoteComment extends RemoteReply {
  replies?: number;
  repliers?: { updatedAt: string; count: number; user: RemoteUser }[];
  target?: {
    node?: { id: string };
    page?: { id: string };
    changeRequest?: string;
    space?: string;
    revision?: string;
  };
  status?: string;
  resolvedAt?: string;
  resolvedBy?: RemoteUser;
}

export interface RemoteChangeRequest {
  id: string;
  number: number;
  status: string;
  subject?: string;
  description?: unknown;
  createdBy?: RemoteUser;
  createdAt?: string;
  updatedAt?: string;
  space?: string;
  revision?: string;
  revisionInitial?: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  comments?: number;
  outdated?: boolean;
}

/** A formal review of a change request (`ChangeRequestReview`). */
export interface RemoteReview {
  id: string;
  reviewer: RemoteUser;
  status: 'approved' | 'changes-requested' | string;
  outdated?: boolean;
  revision?: string;
  requestedBy?: RemoteUser;
  comment?: RemoteComment;
  createdAt: string;
  updatedAt?: string;
}

/** A review asked of a user or a team (`ChangeRequestRequestedReviewer`). */
export interface RemoteRequestedReviewer {
  kind?: 'user' | 'team' | string;
  user?: RemoteUser;
  team?: { id: string; title?: string };
  requestedBy?: RemoteUser;
  createdAt?: string;
}

/** A person as the mirror knows them: enough to show a name. */
export interface Person {
  id: string;
  displayName: string;
}

export interface Reaction {
  emoji: string;
  count: number;
  /** Whether the signed-in user is among those who reacted. */
  mine: boolean;
  users: Person[];
}

export interface ChangeRequestView {
  spaceId: string;
  id: string;
  number: number;
  subject: string;
  status: string;
  outdated: boolean;
  /** Who made it, by the API's name for it from the API to the view (the column `author_id`: views.ts maps it, records.ts writes it). */
  createdBy: Person | null;
  createdAt: string | null;
  updatedAt: string | null;
  revision: string | null;
  /** The revision the change request is compared against: merged ancestor, else initial. */
  baseRevision: string | null;
  /** Count of open comments, as the server last reported it. */
  comments: number;
  reviewRequested: boolean;
  /** A queued action changes this change request. */
  pending: boolean;
}

export interface ReviewView {
  id: string;
  reviewer: Person;
  status: 'approved' | 'changes-requested';
  /** Superseded by a newer review or review request of the same reviewer. */
  outdated: boolean;
  /** The comment given with it, if any (markdown). */
  comment: string | null;
  at: string;
}

export interface RequestedReviewerView {
  /** A user id, or `team:<id>` for a team. */
  id: string;
  displayName: string;
  requestedBy: Person | null;
  /** Asked, or withdrawn, by an action not sent yet. */
  pending: 'add' | 'remove' | null;
}

export interface NeedingUser extends ChangeRequestView {
  reasons: ('review-requested' | 'outdated')[];
}

export interface ReplyView {
  id: string;
  commentId: string;
  author: Person | null;
  body: string;
  postedAt: string;
  editedAt: string | null;
  reactions: Reaction[];
  pending: boolean;
  /** Written by the signed-in user: theirs to edit or delete. */
  mine: boolean;
}

export interface CommentView {
  id: string;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  nodeId: string | null;
  author: Person | null;
  body: string;
  status: 'open' | 'resolved';
  postedAt: string;
  editedAt: string | null;
  resolvedAt: string | null;
  replyCount: number;
  reactions: Reaction[];
  pending: boolean;
  /** Written by the signed-in user: theirs to edit or delete. */
  mine: boolean;
}

export interface CommentFilter {
  spaceId?: string;
  /** A change request id; null for comments on the space's main content only. */
  changeRequestId?: string | null;
  authorId?: string;
  pageId?: string;
  /** Also include comments of merged and archived change requests. Default false. */
  includeClosedChangeRequests?: boolean;
  limit?: number;
}

export type PageChangeKind = 'added' | 'removed' | 'modified' | 'moved';

export interface PageChange {
  pageId: string;
  kind: PageChangeKind;
  title: string;
  /** Path in the change request (or in the base, for a removed page). */
  path: string | null;
  previousPath: string | null;
  before: string | null;
  after: string | null;
  linesAdded: number;
  linesRemoved: number;
}

export interface ChangeRequestDiff {
  spaceId: string;
  changeRequestId: string;
  baseRevision: string;
  headRevision: string;
  pages: PageChange[];
}

export interface SiteSpaceNode {
  type: 'site-space';
  id: string;
  title: string;
  path: string;
  spaceId: string | null;
  isDefault: boolean;
  hidden: boolean;
}

export interface SiteSectionNode {
  type: 'section';
  id: string;
  title: string;
  path: string;
  isDefault: boolean;
  children: SiteSpaceNode[];
}

export interface SiteGroupNode {
  type: 'group';
  id: string;
  title: string;
  children: (SiteGroupNode | SiteSectionNode)[];
}

export interface ShareLinkView {
  id: string;
  name: string | null;
  active: boolean;
  createdAt: string;
}

export interface SiteTree {
  id: string;
  organizationId: string;
  title: string;
  visibility: string;
  published: boolean;
  /** Groups and sections in site order; site spaces not in any section come last. */
  children: (SiteGroupNode | SiteSectionNode | SiteSpaceNode)[];
  shareLinks: ShareLinkView[];
}

// ---- review actions, as stored ---------------------------------------------------

export type ChangeRequestStatusChange = 'draft' | 'open' | 'archived';

/** The actions a user can take (core/review/actions.ts says what each asks for). */
export type ActionKind =
  | 'reply'
  | 'postComment'
  | 'editComment'
  | 'editReply'
  | 'addReaction'
  | 'removeReaction'
  | 'resolve'
  | 'reopen'
  | 'editChangeRequest'
  | 'updateFromMain'
  | 'merge'
  | 'deleteComment'
  | 'deleteReply'
  | 'requestReviewer'
  | 'removeReviewer'
  /** The verdict of a pending review, sent after its comments (core/review/pending-review.ts). */
  | 'submitReview';

/**
 * queued: not sent yet; sending: may have reached the server; done; refused by the server; dismissed
 * by the user; draft: a comment of a pending review, kept until the review is finished (then queued).
 */
export type ActionState = 'queued' | 'sending' | 'done' | 'refused' | 'dismissed' | 'draft';

/** The fields of an input that are not ids: stored as the action's payload. */
export interface ActionPayload {
  body?: string;
  pageId?: string | null;
  /** A comment on a block (a line): the block's key, and the revision its line was read at. */
  nodeId?: string;
  revisionId?: string | null;
  emoji?: string;
  subject?: string;
  description?: unknown;
  status?: ChangeRequestStatusChange;
  /** The user asked to review, or no longer asked. */
  userId?: string;
  /** That user's name when the action was taken (shown while pending). */
  displayName?: string;
  /** The pending review a comment or verdict belongs to (its id): its verdict is sent after its comments. */
  review?: string;
  /** A review's verdict. */
  verdict?: 'approved' | 'changes-requested';
}

/** An action as stored in the mirror, with every id it touches resolved. */
export interface ActionRecord {
  seq: number;
  id: string;
  kind: ActionKind;
  spaceId: string;
  changeRequestId: string | null;
  commentId: string | null;
  replyId: string | null;
  payload: ActionPayload;
  state: ActionState;
  createdAt: string;
  sendingAt: string | null;
  finishedAt: string | null;
  attempts: number;
  /** The server's message when refused, or the last transient failure. */
  message: string | null;
  /** Id of the comment or reply the server created. */
  resultId: string | null;
  /** The process sending it right now (core/review/queue.ts); null when nobody is. */
  claim: ActionClaim | null;
  /** When an action the server failed on is tried again (ISO); null: at the next replay. */
  retryAt: string | null;
}

/** Who took an action to send it, and when: one process at a time sends an action. */
export interface ActionClaim {
  host: string;
  pid: number;
  /** The replaying queue's own id (two in one process are told apart). */
  run: string;
  /** When it was taken (ISO). */
  at: string;
}
