/**
 * What the planner reads and what it returns. Four views of one space, keyed by page id:
 *
 * - base:   main as last synced (the mirror's `pages`), with each page's text in stable form
 *           (references as `/pages/<id>`, `/files/<id>`): the merge base;
 * - remote: main now (the base itself when the space's revision did not move);
 * - folder: the folder's tree as the last cycle left it (the mirror's `folder_nodes`): where each
 *           page's file is, the name it owns, its order, and what its file holds; plus `local`,
 *           what changed in the folder since (from the scan, texts already in stable form);
 * - pushed: what the open change request holds for the pages Quire changed in it.
 *
 * The views answer by key (the engine reads them from SQLite as asked), so a cycle costs what
 * changed, not the size of the space. `full` asks the planner to look at every page: the
 * incremental plan must equal the full one (test/sync/plan).
 */
import type { FolderNode, PageKind, SummaryEntry } from '../../content';
import type { MergeLimits } from './merge';
import type { NameRules } from '../../naming';
import type { SummaryKept } from './summary-intent';

export type { FolderNode, PageKind } from '../../content';

/** A page of main now. */
export interface RemotePage {
  id: string;
  parentId: string | null;
  position: number;
  kind: PageKind;
  title: string;
  slug: string | null;
  meta: Record<string, unknown>;
  href: string | null;
  documentId: string | null;
  updatedAt: string | null;
}

/** A page of main as last synced (text apart: `base.text(id)`). */
export interface BasePage extends RemotePage {
  /** Kept only while a conflict holds it: main deleted it, the folder still has an edited file. */
  goneRemotely: boolean;
}

/** A node after this cycle, with what its file holds: a stable text, the server's text (written this cycle), or as before. */
export type FolderRow = FolderNode & { holds: { text: string } | 'remote' | 'unchanged' | 'none' };

/** What the open change request holds for a page Quire changed in it. */
export interface PushedPage {
  id: string;
  /** The page's file when it was pushed. */
  path: string | null;
  parentId: string | null;
  name: string | null;
  /** The change request sets its place among its siblings: after `after` (null: first). */
  ordered: boolean;
  after: string | null;
  /** The text pushed (stable form); null when the change request did not change its text, or deleted it. */
  text: string | null;
  deleted: boolean;
  /** The change request places the page (a move, a rename, a reorder or an insert), rather than main. */
  moved: boolean;
}

export type ChangeRequestState = 'none' | 'open' | 'merged' | 'closed';

export type ConflictKind =
  /** Both sides changed the same lines. */
  | 'both-changed'
  /** Deleted on the server, edited here. */
  | 'deleted-remotely'
  /** Deleted here, edited on the server. */
  | 'deleted-locally'
  /** A new page from the server lands on a file that is not that page. */
  | 'local-file-in-the-way';

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

/** A file under `.gitbook/assets/` neither main nor the change request has. */
export interface LocalAsset {
  path: string;
  name: string;
  size: number;
}

/** A path the folder holds that Quire cannot or will not read: reported, never taken for a delete. */
export interface UnreadablePath {
  path: string;
  /** The page whose file it is (or was), when known. */
  key: string | null;
  reason: UnreadableReason;
}

export type UnreadableReason = 'symlink' | 'not-a-file' | 'no-permission' | 'bad-name' | 'same-name' | 'not-utf8' | 'binary' | 'too-large' | 'unparseable';

/** What changed in the folder since the last cycle, as the scan found it (texts in stable form). */
export interface LocalChanges {
  /** Files of known nodes whose text changed, by key. */
  edited: ReadonlyMap<string, { path: string; text: string }>;
  /** Known files gone from their path, by key (a file found elsewhere is in `moved`). */
  vanished: ReadonlyMap<string, string>;
  /** Known files found at a new path (the scan paired them), by key; text when it changed too. */
  moved: ReadonlyMap<string, { from: string; to: string; text: string | null }>;
  /** Files not known before. */
  added: readonly { path: string; text: string }[];
  unreadable: readonly UnreadablePath[];
  /** SUMMARY.md as the writer left it, when it changed since the last cycle wrote it. */
  summary: readonly SummaryEntry[] | null;
  /**
   * SUMMARY.md was last written by a cycle (as against found there: a first sync, a mirror rebuilt),
   * so an entry for a file neither there nor known is the writer's line, not an old one.
   */
  summaryWritten?: boolean;
  assets: readonly LocalAsset[];
}

export interface SpaceView {
  base: {
    page(id: string): BasePage | undefined;
    /** The page's stable text as last synced (documents), null otherwise. */
    text(id: string): string | null;
    /** Every page id (full plans only). */
    ids(): Iterable<string>;
    /** Document pages of main as last synced (for the mass-delete fail-safe). */
    documentCount(): number;
  };
  remote: {
    page(id: string): RemotePage | undefined;
    /** The page's stable text now; undefined when it changed and was not fetched yet. */
    text(id: string): string | null | undefined;
    children(parentId: string | null): readonly string[];
    /** Pages whose remote state differs from the base (added, removed, text, place, title, meta). */
    changed(): Iterable<string>;
    /** Parents (null: the root) whose children's order differs from the base's. */
    reordered(): Iterable<string | null>;
    ids(): Iterable<string>;
  };
  folder: {
    node(key: string): FolderNode | undefined;
    /** The stable text the node's file held when the last cycle left it. */
    text(key: string): string | null;
    children(parentKey: string | null): readonly string[];
    byPath(path: string): string | undefined;
    byFolder(folder: string): string | undefined;
    /** Nodes whose file links to one of these pages (their links change when those move). */
    linking(pageIds: readonly string[]): Iterable<string>;
    /** Nodes with a push not confirmed yet. */
    pending(): Iterable<string>;
    keys(): Iterable<string>;
    /**
     * The folder (relative to the space folder) holds, at any depth, files that are not pages:
     * the writer's notes, images, a `.git`. A move never empties it of its pages (kept-paths.ts).
     * Absent: nothing else is there.
     */
    holdsOthers?(dir: string): boolean;
  };
  local: LocalChanges;
  pushed: ReadonlyMap<string, PushedPage>;
  changeRequest: ChangeRequestState;
  conflicts: readonly OpenConflict[];
}

export interface PlanOptions {
  allowMassDelete?: boolean;
  /**
   * Pages whose deletes the writer let through by name (`quire sync --allow-delete <file>`, the
   * app's "Let these deletes through"): the fail-safe does not count them; any other delete it
   * would stop still stops the cycle.
   */
  allowDeletes?: ReadonlySet<string>;
  /** What an earlier cycle's mass-delete stop holds (fail-safe.ts): it stops this cycle too while any of it is still to delete. */
  heldDeletes?: HeldDeletes;
  mergeLimits?: MergeLimits;
  /** Look at every page rather than at what changed (tests compare the two). */
  full?: boolean;
  /** What the folder's volume holds (core/naming); default: what every common file system holds. */
  names?: NameRules;
  /**
   * The folder is laid out anew (Quire's naming changed, or the volume's rules): files Quire laid
   * out move to the new paths, files the writer placed stay (kept-paths.ts).
   */
  relayout?: boolean;
  /** Pages whose files the writer asked to move to GitBook's path (`quire sync --gitbook-path`). */
  toGitbook?: ReadonlySet<string>;
  /**
   * Called between the planner's steps. Each step leaves garbage (laying out 20,000 pages makes
   * over 100 MB of it): a host planning that many collects it there (sync/memory.ts).
   */
  betweenSteps?: () => void;
}

// ---- the plan ------------------------------------------------------------------------

/**
 * File operations, run in order: deletes (freeing paths), moves, writes, remote copies.
 * Every change to a file that exists is guarded: the file must still hold what the scan saw,
 * else it is left alone (and the next cycle sees the edit).
 */
export type FileOp =
  | { op: 'delete'; key: string; path: string }
  /** `cause`: a move that is not main's — the folder laid out anew, or one the writer asked for (kept-paths.ts). */
  | { op: 'move'; key: string; from: string; to: string; cause?: 'layout' | 'asked' }
  /**
   * Write the page's text (stable form; its links become relative paths when written). `text`
   * null: the server's text, fetched while writing. `fresh`: the file must not exist yet.
   * `merged`: the text is the server's merged with edits here (for the log).
   */
  | { op: 'write'; key: string; path: string; text: string | null; fresh: boolean; merged?: true }
  /** Write the file's links again (a page it links to, or the file itself, moved); its text is `text`. */
  | { op: 'relink'; key: string; path: string; text: string }
  /** The server's side of a conflict, beside the writer's file (`text` null: the deleted-remotely note). */
  | { op: 'remote-copy'; key: string; path: string; text: string | null };

/** A change for the change request, in terms of pages (change-request.ts turns it into API changes). */
export type PushOp =
  /** `last`: no sibling the server has comes after it (it is appended, no index needed). */
  | {
      op: 'insert';
      key: string;
      path: string;
      text: string;
      parentKey: string | null;
      after: string | null;
      last: boolean;
      name: string;
      /** Its title where its text carries none (the one the writer typed in SUMMARY.md, else its file name). */
      title?: string;
    }
  | {
      op: 'update';
      id: string;
      path: string;
      /** New text, or null when only its place changed. */
      text: string | null;
      /**
       * The text the change request holds for the page once this is applied, for the record:
       * what it was sent, else what it held, else main's (null: main's, not fetched yet).
       */
      record: string | null;
      /** Move under this parent (page id or new-page key), after this sibling (null: first); `last`: nothing after it there. */
      move: { parentKey: string | null; after: string | null; last: boolean } | null;
      /** New name (slug) when renamed. */
      rename: string | null;
      /** New title: a group's or a link's, or a page's the writer typed in SUMMARY.md (its text carrying none). */
      title: string | null;
      /** The change request deleted the page: bring it back first. */
      restore: boolean;
      /** Parent, sibling and name after the change, for the record. */
      parentKey: string | null;
      after: string | null;
      name: string;
    }
  | { op: 'delete'; id: string; path: string | null }
  | { op: 'files'; assets: LocalAsset[] };

export interface NewConflict {
  pageId: string;
  path: string;
  kind: ConflictKind;
  remotePath: string | null;
  /** The common ancestor, for a three-way view (null when there is none). */
  baseText: string | null;
}

export interface MassDeleteHold {
  localDeletes: number;
  remoteDeletes: number;
  pages: number;
  /** The pages it holds: held, cycle after cycle, until their files are back or the writer lets them through. */
  deletes: HeldDeletes;
}

/** Page ids a mass-delete stop holds: pages it would delete on the server, page files it would delete here. */
export interface HeldDeletes {
  server: readonly string[];
  here: readonly string[];
}

/** Something the writer did that Quire will not push, with the reason. */
export interface Held {
  key: string | null;
  path: string;
  /** SUMMARY.md lines: where, and the entry's title. */
  line?: number;
  title?: string;
  /** A SUMMARY.md line about a page (`page-title`): the page's file, and the title it carries. */
  file?: { path: string; title: string };
  reason:
    | UnreadableReason
    | 'new-group'
    | 'new-link'
    | 'link-target'
    | 'group-removed'
    | 'link-removed'
    /** A page's title typed in SUMMARY.md that its file's own title (heading or frontmatter) contradicts. */
    | 'page-title'
    /** A SUMMARY.md entry for a file that is not in the folder (yet). */
    | 'page-missing'
    | 'asset-in-use'
    | 'unsafe'
    /** A page that exists only in a change request set aside (sync/targets.ts); `title` says what to do. */
    | 'other-change-request'
    /** What no change-request operation carries (space-extras.ts, push-holds.ts): a reusable content's file, `.gitbook/vars.yaml`, a page's `vars:`. */
    | 'reusable-content'
    | 'space-variables'
    | 'page-variables';
}

export interface PlanStats {
  pulled: number;
  merged: number;
  conflicts: number;
  movedLocally: number;
  deletedLocally: number;
}

/** A page row of main after the cycle, with its stable text (null: unchanged, or none). */
export type BaseRow = BasePage & { text: string | null; textChanged: boolean };

export interface Plan {
  /** Set when the mass-delete fail-safe stopped the cycle: nothing else in the plan. */
  massDelete: MassDeleteHold | null;
  /** Pages whose changed text a decision needs: fetch them, then plan again. */
  needBodies: string[];
  fileOps: FileOp[];
  push: PushOp[];
  /** Main as last synced after this cycle: rows to write, ids to forget. */
  base: { upsert: BaseRow[]; remove: string[] };
  /** The folder's tree after this cycle: nodes to write, keys to forget (some once their delete is pushed). */
  folder: { upsert: FolderRow[]; remove: string[]; removeWhenPushed: string[] };
  conflicts: { add: NewConflict[]; resolve: OpenConflict[]; refresh: NewConflict[]; relocate: { from: string; to: string }[] };
  /** The change request was merged or closed: forget what was pushed once the plan is applied. */
  clearPushed: boolean;
  /** New paths of files of pages only the change request has. */
  pushedPaths: Map<string, string>;
  /** The folder's tree changed (places, names, titles): SUMMARY.md must be written again. */
  treeChanged: boolean;
  held: Held[];
  /** SUMMARY.md's lines held this cycle, kept as the writer wrote them when it is written again (null: SUMMARY.md was not read). */
  summaryKept: SummaryKept | null;
  stats: PlanStats;
}

/** Key of a file not yet known as a page. */
export const newPageKey = (path: string): string => `new:${path}`;
export const isNewPageKey = (key: string): boolean => key.startsWith('new:');
