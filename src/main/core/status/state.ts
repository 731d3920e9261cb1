/**
 * The one sync state, as every host shows it: a pure function of what the mirror records (facts.ts
 * reads it) and what the host knows only at run time (a cycle running now).
 *
 *   not-set-up  no space chosen, or none reached the server yet
 *   syncing     a cycle is running, or edits or review actions wait for the next one
 *   in-sync     the last cycle reached the server and completed, and nothing waits
 *   needs-you   something only the writer can settle (see NEEDS_YOU)
 *   offline     the last attempt could not reach the API
 *   paused      automatic sync is paused (edits wait)
 *
 * Precedence: needs-you > offline > paused > syncing > in-sync. `not-set-up` comes first when
 * no space is chosen (nothing else can be said; a rejected token still needs you), and in place
 * of in-sync when no chosen space ever reached the server.
 *
 * Every state comes with its reasons, each `{ kind, spaceId, path?, message, action }`: what
 * happened, in the words every host shows, and an action each host offers in its own terms (a
 * button in the app, a command on the command line).
 */
import { INFORMS, NEEDS_YOU, type SyncStateAction, type SyncStateName } from '../../../shared/sync-state';
import type { FailureKind } from '../mirror';
import { editCount, type SpaceFacts, type SyncFacts } from './facts';
import { earliest, FOLDER_WIDE, latest, reasonsOf } from './reasons';

export type { SyncStateName };

export { INFORMS, NEEDS_YOU };

export type ReasonKind = (typeof NEEDS_YOU)[number] | (typeof INFORMS)[number];

/** What the writer can do about a reason (shared with the hosts' contract). */
export type ReasonAction = SyncStateAction;

export interface StateReason {
  kind: ReasonKind;
  /** The space it is about; null for the whole folder (no space chosen, a rejected token, queued review actions). */
  spaceId: string | null;
  /** The file, relative to the space folder. */
  path?: string;
  /** What happened, and what to do, in plain words. */
  message: string;
  action: ReasonAction;
  /** A second action offered beside the first (a stop: restore the files, or let the deletes through). */
  also?: ReasonAction;
  /** What it is about, one line each (the files and titles a stop holds): hosts fold or indent them. */
  details?: string[];
  /** The pages `allow-deletes` lets through: exactly those the details name. */
  pageIds?: string[];
  /** A review action the server refused: its number in the queue (`quire review --dismiss <n>`). */
  reviewAction?: number;
}

export interface SpaceState {
  spaceId: string;
  title: string;
  state: SyncStateName;
  reasons: StateReason[];
  /** The last cycle of the space that reached the server and completed (ISO), or null. */
  lastReachedServerAt: string | null;
  /** Offline: the first attempt since then that could not reach the API. */
  offlineSince: string | null;
}

export interface SyncState {
  state: SyncStateName;
  reasons: StateReason[];
  /** The latest cycle that reached the server and completed, of any chosen space (ISO), or null. */
  lastReachedServerAt: string | null;
  /** Offline: since when the API could not be reached. */
  offlineSince: string | null;
  /** Local edits not on the server yet, across the chosen spaces. */
  editsWaiting: number;
  /** Review actions (replies, resolutions…) queued to be sent. */
  actionsWaiting: number;
  spaces: SpaceState[];
}

/** What only the host knows: whether a cycle runs now, and on which space when it says. */
export interface RuntimeFacts {
  syncing: boolean;
  /** Who runs it, when another process does (`quire status` sees the folder's lock held). */
  syncingBy?: string;
  /**
   * The last cycle this host ran (started at `since`) failed: said unless the mirror recorded it
   * (it could not when the mirror itself failed: a full disk, another program writing it).
   */
  failure?: { kind: FailureKind; message: string; since: string } | null;
  /** The space the running cycle is on, when known (its state reads `syncing`; the others keep theirs). */
  syncingSpaceId?: string | null;
}

const NEEDS: ReadonlySet<string> = new Set(NEEDS_YOU);
export const needsYouReason = (r: StateReason): boolean => NEEDS.has(r.kind);

/** The state of the folder and of each chosen space (see the module comment for the rule). */
export function syncState(facts: SyncFacts, runtime: RuntimeFacts): SyncState {
  const spaces = facts.spaces.map((s) => spaceState(s, facts, runtime));
  // Folder-wide reasons are said once, for the folder; each space keeps its own for its state.
  const reasons = [...reasonsOf.folder(facts, runtime), ...spaces.flatMap((s) => s.reasons.filter((r) => !FOLDER_WIDE.has(r.kind)))];
  const reached = spaces.map((s) => s.lastReachedServerAt).filter((t): t is string => t !== null);
  const offline = spaces.map((s) => s.offlineSince).filter((t): t is string => t !== null);
  const state = decide(reasons, {
    noSpace: facts.spaces.length === 0,
    neverReached: reached.length === 0,
    syncing: runtime.syncing,
  });
  return {
    state,
    reasons: order(reasons),
    lastReachedServerAt: latest(reached),
    offlineSince: earliest(offline),
    editsWaiting: facts.spaces.reduce((n, s) => n + editCount(s), 0),
    actionsWaiting: facts.actionsWaiting.length,
    spaces,
  };
}

function spaceState(space: SpaceFacts, facts: SyncFacts, runtime: RuntimeFacts): SpaceState {
  const syncingHere = runtime.syncing && (runtime.syncingSpaceId == null || runtime.syncingSpaceId === space.spaceId);
  const reasons = reasonsOf.space(space, facts, { syncing: syncingHere });
  return {
    spaceId: space.spaceId,
    title: space.title,
    state: decide(reasons, { noSpace: false, neverReached: space.reachedAt === null, syncing: syncingHere }),
    reasons: order(reasons),
    lastReachedServerAt: space.reachedAt,
    offlineSince: space.failureKind === 'offline' ? space.failingSince : null,
  };
}

function decide(reasons: readonly StateReason[], f: { noSpace: boolean; neverReached: boolean; syncing: boolean }): SyncStateName {
  const has = (kind: ReasonKind) => reasons.some((r) => r.kind === kind);
  if (reasons.some(needsYouReason)) return 'needs-you';
  if (f.noSpace) return 'not-set-up';
  if (has('offline')) return 'offline';
  if (has('paused')) return 'paused';
  if (f.syncing || has('edits-waiting') || has('actions-waiting')) return 'syncing';
  if (f.neverReached) return 'not-set-up';
  return 'in-sync';
}

/** Needs-you reasons first (in the order above), then the rest; stable within a kind. */
function order(reasons: StateReason[]): StateReason[] {
  const rank = (r: StateReason) => {
    const i = (NEEDS_YOU as readonly string[]).indexOf(r.kind);
    return i >= 0 ? i : NEEDS_YOU.length + (INFORMS as readonly string[]).indexOf(r.kind);
  };
  return reasons
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map(({ r }) => r);
}
