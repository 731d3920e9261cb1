/** A space's pages as the Pages view shows them, with their problems and rendered diffs. */
import type { CommentVM } from './comments';

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
