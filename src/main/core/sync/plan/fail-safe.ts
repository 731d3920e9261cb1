/**
 * The mass-delete fail-safe: a cycle that would delete more than half of a space's pages on
 * either side (and at least two) does nothing and reports a hold, unless the caller allows it.
 * An unmounted drive or a wiped folder must never empty a space on the server.
 */
import type { PlanContext } from './context';
import { emptyPlan } from './context';

const MASS_DELETE_MIN = 2;

export function failSafe(ctx: PlanContext): void {
  if (ctx.options.allowMassDelete) return;
  const localDeletes = ctx.plan.stats.deletedLocally;
  const remoteDeletes = ctx.plan.fileOps.filter((op) => op.op === 'delete').length;
  if (localDeletes < MASS_DELETE_MIN && remoteDeletes < MASS_DELETE_MIN) return; // too few to count the pages for
  const pages = ctx.view.base.documentCount();
  const massive = (n: number) => n >= MASS_DELETE_MIN && n * 2 > pages;
  if (!massive(localDeletes) && !massive(remoteDeletes)) return;
  ctx.plan = { ...emptyPlan(), massDelete: { localDeletes, remoteDeletes, pages } };
}
