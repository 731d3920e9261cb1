/**
 * The views of one space that sync compares, each keyed by page id:
 *
 * - base:   main as of the last sync, and where each page's file was then (the merge base);
 * - remote: main now;
 * - local:  the folder now (scan.ts builds it);
 * - pushed: what the open change request holds for the pages Quire wrote into it.
 *
 * Page files are compared with samePageText (page-text.ts), never byte by byte.
 */
import type { PageKind } from '../content';

/** A page of main as last synced. */
export interface BasePage {
  id: string;
  parentId: string | null;
  position: number;
  kind: PageKind;
  title: string;
  slug: string | null;
  /** Name the page owns in its parent folder (layout.ts). */
  name: string | null;
  /** Where the page's file is in the folder (its identity on disk); null for groups, links, and files not on disk. */
  path: string | null;
  /** The page file text last synced: the common ancestor for merges. Null for groups and links. */
  text: string | null;
  href?: string;
  documentId?: string | null;
  updatedAt?: string | null;
  meta?: Record<string, unknown>;
  /** Kept only while a conflict holds it: main deleted it, the folder still has an edited file. */
  goneRemotely?: boolean;
}

/** A page of main now. */
export interface RemotePage {
  id: string;
  parentId: string | null;
  position: number;
  kind: PageKind;
  title: string;
  slug: string | null;
  /** The page file text (frontmatter, title heading, body); null for groups and links, and while `pending`. */
  text: string | null;
  /**
   * The body changed and was not fetched yet because no decision needs it (see
   * bodiesNeeded in planner.ts): the file just takes the server's text when written.
   */
  pending?: boolean;
  href?: string;
  /** Carried into the base for the next pull's comparisons. */
  documentId?: string | null;
  updatedAt?: string | null;
  meta?: Record<string, unknown>;
}

/** What the open change request holds for a page Quire changed in it. */
export interface PushedPage {
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
}

/** Key of a file not yet known as a page. */
export const newPageKey = (path: string): string => `new:${path}`;
export const isNewPageKey = (key: string): boolean => key.startsWith('new:');

/** A page file in the folder. */
export interface LocalPage {
  /** The page id, or newPageKey(path) for a file that is not a page yet. */
  key: string;
  id: string | null;
  path: string;
  text: string;
  /** Key of the page that contains it, by its folder; null at the root. */
  parentKey: string | null;
  /** Name it owns in its parent folder: the file name without `.md`, or the folder name for a README. */
  name: string;
  /** Place among its siblings when SUMMARY.md lists it; null otherwise. */
  position: number | null;
  /** Set when the file was found at a new path: the path it had before. */
  movedFrom: string | null;
}

export interface LocalTree {
  pages: Map<string, LocalPage>;
  /** Path -> key. */
  byPath: Map<string, string>;
}

/** A file under `.gitbook/assets/` that the mirror does not know. */
export interface LocalAsset {
  path: string;
  name: string;
  size: number;
}

/** An open conflict, as the mirror records it. */
export interface OpenConflict {
  pageId: string | null;
  /** The page's file (the one the writer edits). */
  path: string;
  kind: ConflictKind;
  /** The `.remote.md` file beside it. */
  remotePath: string | null;
  /** False once the writer deleted the `.remote.md` file: the conflict is resolved. */
  remoteFilePresent: boolean;
}

export type ConflictKind =
  /** Both sides changed the same lines. */
  | 'both-changed'
  /** Deleted on the server, edited here. */
  | 'deleted-remotely'
  /** Deleted here, edited on the server. */
  | 'deleted-locally'
  /** A new page from the server lands on a file that is not that page. */
  | 'local-file-in-the-way';
