/** Comments, replies, reactions and suggested changes. */
import type { UserVM } from './session';

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
