/**
 * The sync planner: a pure function from the views of one space (types.ts) to what a cycle
 * does. No I/O: the views answer by key, so it runs the same over the mirror (engine.ts) and
 * over maps in tests.
 *
 *   identify -> decide -> place -> lay out -> emit -> fail-safe
 *
 * One file per stage, each a function from what the earlier stages gave to its own result
 * (stages.ts has the types). When a decision needs the server's text of a page that changed,
 * the plan comes back with `needBodies` and nothing else: the caller fetches them and plans
 * again (a second plan never needs more, since every text a decision can ask for is then there).
 */
import { decideAll } from './decide';
import { emit, emptyPlan } from './emit';
import { failSafe } from './fail-safe';
import { identify } from './identify';
import { layOut } from './lay-out';
import { place } from './place';
import type { Plan, PlanOptions, SpaceView } from './types';

export * from './types';
export { DELETED_REMOTELY_NOTE } from './notes';
export { isMostOfTheSpace } from './fail-safe';
export type { KeptEntry, SummaryKept } from './summary-intent';

export function planSync(view: SpaceView, options: PlanOptions = {}): Plan {
  const scope = identify({ view, options });
  const { decisions, needBodies } = decideAll(scope, options.mergeLimits);
  if (scope.needBodies.length + needBodies.length > 0) return { ...emptyPlan(), needBodies: [...new Set([...scope.needBodies, ...needBodies])] };
  options.betweenSteps?.();
  const decided = { view, options, ...scope, decisions };
  const placed = { ...decided, ...place(decided) };
  const laidOut = { ...placed, ...layOut(placed) };
  options.betweenSteps?.();
  return failSafe(laidOut, emit(laidOut));
}
export { pairMoves, pairNearlySame, type Vanished } from './pair-moves';
