/**
 * The one object a plan is built in: the views it reads, and what each stage adds. Stages
 * (identify -> decide -> place -> lay out -> emit -> fail-safe) read what earlier ones wrote and
 * add their own part; none reaches back.
 */
import type { Decision, PageSides } from './decide';
import type { Plan, PlanOptions, PageKind, SpaceView } from './types';

/** Where a node goes in the folder's tree this cycle (place.ts). */
export interface Placement {
  key: string;
  kind: PageKind;
  parentKey: string | null;
  /** Placed by the writer (its order comes from the folder), else by main (order from main). */
  placedLocally: boolean;
  /** The writer moved or reordered it this cycle (pushed as a move). */
  movedNow: boolean;
  /** The name it asks for: the one its file has when placed by the writer or held, else main's slug. */
  slug: string | null;
  title: string;
  href: string | null;
  /** A conflict holds it: it stays where its file is. */
  held: boolean;
}

/** Where a node ends up (paths.ts). */
export interface Laid {
  parentKey: string | null;
  position: number;
  name: string | null;
  path: string | null;
  folder: string | null;
  /** Its file (or folder) stays where it is, not where the layout puts it (kept-paths.ts). */
  kept?: boolean;
  /** Why its file moves when that is not main (kept-paths.ts). */
  cause?: 'layout' | 'asked';
}

export interface PlanContext {
  view: SpaceView;
  options: PlanOptions;
  /** Every key this plan looks at (pages that changed somewhere, and what they take along). */
  keys: Set<string>;
  sides: Map<string, PageSides>;
  /** Node keys that stop being what they were (a page the server deleted kept as a new page; an identity lost with a closed change request). */
  rekeyed: Map<string, string>;
  /** The folder's tree with those keys changed (rekeyed-tree.ts); set once identify is done. */
  tree: SpaceView['folder'];
  decisions: Map<string, Decision>;
  placements: Map<string, Placement>;
  laid: Map<string, Laid>;
  /** The children of each folder laid out again, in their order after this cycle. */
  order: Map<string | null, string[]>;
  /** Parents whose children's order the writer set in SUMMARY.md (summary-intent.ts). */
  summaryOrder: Map<string | null, string[]>;
  /** Groups and links the writer retitled in SUMMARY.md. */
  retitled: Map<string, string>;
  /** Nodes with a change to push that must wait (their parent is not on the server yet). */
  waiting: Set<string>;
  /** Nodes gone from the folder's tree this cycle. */
  removed: Set<string>;
  /** Nodes whose file or folder moved this cycle (their links and the links to them change). */
  moved: Set<string>;
  /** The page at the space's README.md before and after. */
  firstPage: { before: string | null; after: string | null };
  plan: Plan;
}

export function emptyPlan(): Plan {
  return {
    massDelete: null,
    needBodies: [],
    fileOps: [],
    push: [],
    base: { upsert: [], remove: [] },
    folder: { upsert: [], remove: [], removeWhenPushed: [] },
    conflicts: { add: [], resolve: [], refresh: [], relocate: [] },
    clearPushed: false,
    pushedPaths: new Map(),
    treeChanged: false,
    held: [],
    summaryKept: null,
    stats: { pulled: 0, merged: 0, conflicts: 0, movedLocally: 0, deletedLocally: 0 },
  };
}

export function createContext(view: SpaceView, options: PlanOptions): PlanContext {
  return {
    view,
    options,
    keys: new Set(),
    sides: new Map(),
    rekeyed: new Map(),
    tree: view.folder,
    decisions: new Map(),
    placements: new Map(),
    laid: new Map(),
    order: new Map(),
    summaryOrder: new Map(),
    retitled: new Map(),
    waiting: new Set(),
    removed: new Set(),
    moved: new Set(),
    firstPage: { before: null, after: null },
    plan: emptyPlan(),
  };
}
