/**
 * The sync planner: a pure function from the views of one space (types.ts) to what a cycle
 * does. No I/O: the views answer by key, so it runs the same over the mirror (engine.ts) and
 * over maps in tests.
 *
 *   identify -> decide -> place -> lay out -> emit -> fail-safe
 *
 * When a decision needs the server's text of a page that changed, the plan comes back with
 * `needBodies` and nothing else: the caller fetches them and plans again (a second plan
 * never needs more, since every text a decision can ask for is then there).
 */
import { createContext } from './context';
import { decide } from './decide';
import { emit } from './emit';
import { failSafe } from './fail-safe';
import { identify } from './identify';
import { layOut } from './paths';
import { place } from './place';
import { rekeyedTree } from './rekeyed-tree';
import type { Plan, PlanOptions, SpaceView } from './types';

export * from './types';
export { DELETED_REMOTELY_NOTE } from './notes';
export { isMostOfTheSpace } from './fail-safe';
export type { KeptEntry, SummaryKept } from './summary-intent';

export function planSync(view: SpaceView, options: PlanOptions = {}): Plan {
  const ctx = createContext(view, options);
  identify(ctx);
  ctx.tree = rekeyedTree(view.folder, ctx.rekeyed);
  for (const [key, sides] of ctx.sides) {
    const d = decide(sides, options.mergeLimits);
    if (d.kind === 'needs-remote-body') ctx.plan.needBodies.push(key);
    ctx.decisions.set(key, d);
  }
  if (ctx.plan.needBodies.length > 0) return { ...ctx.plan, needBodies: [...new Set(ctx.plan.needBodies)] };
  options.betweenSteps?.();
  place(ctx);
  layOut(ctx);
  options.betweenSteps?.();
  emit(ctx);
  failSafe(ctx);
  return ctx.plan;
}
