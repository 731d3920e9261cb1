/**
 * What each stage of the planner takes and what it gives. Each stage is a function from what the
 * earlier ones gave to its own result, and writes into nothing of theirs:
 *
 *   identify (the views -> Scope) -> decide (-> Decisions) -> place (-> Placements)
 *     -> lay out (-> Paths) -> emit (-> Plan) -> fail-safe (Plan -> Plan)
 */
import type { SummaryKept } from './summary-intent';
import type { Decision, PageSides } from './decide';
import type { Held, PageKind, PlanOptions, SpaceView } from './types';

/** What every stage reads: the views of the space, and how the caller wants it planned. */
export interface Views {
  view: SpaceView;
  options: PlanOptions;
}

/** The pages this plan looks at, and everything each view says about them (identify.ts). */
export interface Scope {
  /** By key: pages that changed somewhere, what they take along, new files. */
  sides: ReadonlyMap<string, PageSides>;
  /** Node keys that stop being what they were (a page the server deleted kept as a new page; an identity lost with a closed change request). */
  rekeyed: ReadonlyMap<string, string>;
  /** The folder's tree with those keys changed (rekeyed-tree.ts). */
  tree: SpaceView['folder'];
  /** New server pages whose text tells whether a new file is that page: fetch them, then plan again. */
  needBodies: readonly string[];
}

/** What happens to each page's content (decide.ts), by key. */
export type Decisions = ReadonlyMap<string, Decision>;

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

/** The folder's tree this cycle, before names and paths (place.ts). */
export interface Placements {
  /** Nodes placed this cycle, by key (every other node stays where it is). */
  placements: ReadonlyMap<string, Placement>;
  /** Nodes gone from the folder's tree this cycle. */
  removed: ReadonlySet<string>;
  /** Groups, links and pages the writer retitled in SUMMARY.md. */
  retitled: ReadonlyMap<string, string>;
  /** Parents whose children's order the writer set in SUMMARY.md (summary-intent.ts). */
  summaryOrder: ReadonlyMap<string | null, readonly string[]>;
  /** What the writer did in SUMMARY.md that Quire will not push. */
  held: readonly Held[];
  /** SUMMARY.md's held lines, kept as the writer wrote them (null: SUMMARY.md was not read). */
  summaryKept: SummaryKept | null;
}

/** Where a node ends up (lay-out.ts). */
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

/** The folders laid out again this cycle: their order, names and paths (lay-out.ts). */
export interface Paths {
  /** Nodes laid out again, by key (every other node keeps its name and path). */
  laid: ReadonlyMap<string, Laid>;
  /** The children of each folder laid out again, in their order after this cycle. */
  order: ReadonlyMap<string | null, readonly string[]>;
  /** The page at the space's README.md before and after. */
  firstPage: { before: string | null; after: string | null };
}

export type PlaceInput = Views & Scope & { decisions: Decisions };
export type LayOutInput = PlaceInput & Placements;
export type EmitInput = LayOutInput & Paths;
