/**
 * What a cycle holds back from its push, and why: the one decision `sync` and `sync --dry-run`
 * both take, so a dry run says exactly what the sync will do, in the same words and with the same
 * exit code. Held: what the planner cannot carry (SUMMARY.md lines), an image deleted while a page
 * still shows it, a page the push guard finds would be damaged on the server (frontmatter that
 * does not parse, a block never closed), a push into a page that exists only in a change
 * request set aside, and a page whose `vars:` changed (no operation carries page variables:
 * `RevisionPageUpdate` has no such field). Left out without a word: what the server refused before, unchanged since
 * (`quire status` says it; it goes again once changed).
 */
import { PAGE_VARIABLES_KEY, parsePageFile, sameVariables, type VariableValue, variablesOf } from '../content';
import type { Mirror } from '../mirror';
import { deletedAssetsInUse } from './assets';
import type { PushGuard } from './engine';
import type { Held, Plan, PushOp } from './plan';
import { pushKey, pushTextHash } from './push';
import { pushStoreOf } from './outbox';
import { heldForOtherChangeRequests } from './targets';

export interface PushHolds {
  /** What the writer is told is not pushed (SpaceReport.notPushed). */
  notPushed: Held[];
  /** The pushes that go. */
  push: PushOp[];
}

/** `assetsGone`: the assets deleted from the folder; `dryRun`: read only, the mirror left as it is. */
export function pushHolds(
  ctx: { mirror: Pick<Mirror, 'content' | 'folder' | 'outbox' | 'reviewRecords'>; spaceId: string; pushGuard?: PushGuard | undefined; dryRun: boolean },
  plan: Plan,
  assetsGone: readonly string[],
): PushHolds {
  const { mirror, spaceId } = ctx;
  const notPushed = [...deletedAssetsInUse(mirror, spaceId, assetsGone), ...plan.held];
  const held = new Set<string>();
  const unsafe = guarded(ctx.pushGuard, plan.push);
  const unsafeKeys = new Set(unsafe.map((h) => h.key));
  for (const h of [
    ...unsafe,
    ...pageVariablesChanged(mirror, spaceId, plan.push).filter((h) => !unsafeKeys.has(h.key)),
    ...heldForOtherChangeRequests(mirror, spaceId, plan.push, !ctx.dryRun),
  ]) {
    if (h.key !== null) held.add(h.key);
    notPushed.push(h);
  }
  const refused = pushStoreOf(mirror).refused(spaceId);
  const push = plan.push.filter((op) => {
    const key = pushKey(op);
    return key === null || (!held.has(key) && refused.get(key)?.textHash !== pushTextHash(op));
  });
  return { notPushed, push };
}

/** Pages whose `vars:` say otherwise than the server's page variables: held, as the push could not carry them. */
function pageVariablesChanged(mirror: Pick<Mirror, 'content'>, spaceId: string, push: readonly PushOp[]): Held[] {
  return push.flatMap((op): Held[] => {
    if ((op.op !== 'insert' && op.op !== 'update') || op.text === null) return [];
    const mine = pageVariables(op.text);
    if (mine === null) return [];
    const server = op.op === 'update' ? variablesOf(mirror.content.basePage(spaceId, op.id)?.meta[PAGE_VARIABLES_KEY]) : {};
    return sameVariables(mine, server) ? [] : [{ key: op.op === 'insert' ? op.key : op.id, path: op.path, reason: 'page-variables' }];
  });
}

/** The `vars:` a page's text holds ({} for none); null when its frontmatter does not parse (the guard speaks for it). */
function pageVariables(text: string): Record<string, VariableValue> | null {
  try {
    return variablesOf(parsePageFile(text).meta[PAGE_VARIABLES_KEY]);
  } catch {
    return null;
  }
}

/** Pages whose push would damage them on the server: held (they stay pending) with the guard's reason. */
function guarded(pushGuard: PushGuard | undefined, push: readonly PushOp[]): Held[] {
  if (!pushGuard) return [];
  return push.flatMap((op): Held[] => {
    if ((op.op !== 'insert' && op.op !== 'update') || op.text === null) return [];
    const reason = pushGuard(op.text, op.path);
    return reason === null ? [] : [{ key: op.op === 'insert' ? op.key : op.id, path: op.path, title: reason, reason: 'unsafe' }];
  });
}
