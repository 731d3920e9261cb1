/**
 * A node of a space folder's tree, in GitBook's Git Sync layout: a page with a file, a group,
 * a link, or a file not yet a page, with the name it owns and its place among its siblings.
 * One definition for the planner, which reads the tree (sync/plan), and the mirror, which
 * stores it with what each file held when last seen (mirror/folder.ts, `FolderNodeRow`).
 */
import type { PageKind } from './page-kind';

export interface FolderNode {
  /** The page id, or `newPageKey(path)` (sync/plan) for a file that is not a page yet. */
  key: string;
  kind: PageKind;
  parentKey: string | null;
  /** Order among its siblings in the folder's tree (SUMMARY.md order). */
  position: number;
  title: string;
  /** The name it owns in its parent folder (null: a link without children). */
  name: string | null;
  /** Its markdown file (documents only). */
  path: string | null;
  /** The folder it owns (pages with children, groups). */
  folder: string | null;
  /** Link pages: where the link points. */
  href: string | null;
  /** Placed by the writer (a move, rename, reorder or new file main does not have yet), not by main. */
  placedLocally: boolean;
  /** A push for it is not confirmed yet: the next cycle looks at it again. */
  pending: boolean;
  /**
   * Its file stays where the writer put it (or beside files of the writer's), not where the
   * layout would put it: only main moving or renaming the page, or the writer asking, moves it.
   */
  pathKept: boolean;
}
