/**
 * The mass-delete fail-safe: a cycle that would delete more than half of a space's pages on
 * either side (and at least two) does nothing and reports a hold, unless the caller allows it.
 * An unmounted drive or a wiped folder must never empty a space on the server.
 *
 * A stop is a recorded fact, not a count worked out again: the pages it named stay held, and
 * every cycle stops while one of them is still to delete, whatever else changed (a collaborator's
 * edit that makes one of those deletes a conflict changes the count, never the stop). A page
 * leaves the hold when its file is back, or when the server deleted it too (its delete is done);
 * the writer lets the rest through on purpose: all of them (`allowMassDelete`), or by name
 * (`allowDeletes`: those pages are not counted; the stop still holds any other).
 */
import { emptyPlan } from './emit';
import type { Scope, Views } from './stages';
import type { HeldDeletes, MassDeleteHold, Plan } from './types';

const MASS_DELETE_MIN = 2;

/** The plan, or in its place one that only holds the deletes. */
export function failSafe(input: Views & Scope, plan: Plan): Plan {
  if (input.options.allowMassDelete) return plan;
  // Pages main has whose files are gone here, and files here of pages main deleted.
  const server = plan.push.flatMap((op) => (op.op === 'delete' && input.sides.get(op.id)?.base !== undefined ? [op.id] : []));
  const here = plan.fileOps.flatMap((op) => (op.op === 'delete' ? [op.key] : []));
  const pages = input.view.base.documentCount();
  const held = stillHeld(input, here);
  const massive = (n: number) => n >= MASS_DELETE_MIN && n * 2 > pages;
  const allowed = input.options.allowDeletes;
  if (allowed && allowed.size > 0) {
    // Let through by name: the others decide, and a stop still records every page it would delete.
    const unnamed = (ids: readonly string[]) => ids.filter((id) => !allowed.has(id));
    const heldUnnamed = unnamed(held.server).length + unnamed(held.here).length;
    if (heldUnnamed === 0 && !massive(unnamed(server).length) && !massive(unnamed(here).length)) return plan;
  }
  if (held.server.length + held.here.length > 0) {
    const localDeletes = new Set([...server, ...held.server]).size;
    const remoteDeletes = new Set([...here, ...held.here]).size;
    return stop({ localDeletes, remoteDeletes, pages, deletes: held });
  }
  if (!massive(server.length) && !massive(here.length)) return plan;
  return stop({ localDeletes: server.length, remoteDeletes: here.length, pages, deletes: { server, here } });
}

/** True when the stop is over more than half of the space (else it is one an earlier cycle recorded, still held). */
export function isMostOfTheSpace(hold: Pick<MassDeleteHold, 'localDeletes' | 'remoteDeletes' | 'pages'>): boolean {
  return [hold.localDeletes, hold.remoteDeletes].some((n) => n >= MASS_DELETE_MIN && n * 2 > hold.pages);
}

function stop(hold: MassDeleteHold): Plan {
  return { ...emptyPlan(), massDelete: hold };
}

/**
 * What an earlier stop holds that is still to delete: a page whose file is still gone here and
 * that main still has (edited there or not), and a file here of a page main deleted that this
 * cycle would still delete.
 */
function stillHeld(input: Views & Scope, here: readonly string[]): HeldDeletes {
  const held = input.options.heldDeletes;
  if (!held) return { server: [], here: [] };
  const deletedHere = new Set(here);
  return {
    server: held.server.filter((id) => {
      const s = input.sides.get(id);
      return s?.fileGone === true && s.local === undefined && s.remote !== undefined;
    }),
    here: held.here.filter((id) => deletedHere.has(id)),
  };
}
