/** Search results over pages and comments. */
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
