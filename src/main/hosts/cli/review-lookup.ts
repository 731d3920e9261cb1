/**
 * What the review commands (`quire review`, `quire comment`, `quire cr`) share: which space and
 * which change request a command means (`--space` may be left out where the folder syncs one
 * space), and how an action's outcome is said — sent, queued (and why), refused (with the
 * server's reason), or not possible (and why).
 */
import { type ApiClient, NetworkError } from '../../core/api';
import type { Mirror } from '../../core/mirror';
import { type ActResult, type ChangeRequestView, type ReviewService, ActionNotPossibleError, ServerRefusalError } from '../../core/review';
import { flag, spaceFlags, UsageError, type ParsedArgs } from './args';
import { AddressNotGivenError } from './context';
import { errorMessage } from './messages';
import { safeField } from './terminal-text';
import { retryTime } from '../../../shared/when';

/** The space a command acts in: `--space`, else the folder's only synced space. */
export function spaceFor(mirror: Mirror, args: ParsedArgs): string {
  const [given] = spaceFlags(args);
  const synced = mirror.catalog.selectedSpaces();
  if (given !== undefined) {
    if (!mirror.catalog.space(given))
      throw new UsageError(`--space ${given} is not a space this folder knows; \`quire status\` lists its spaces.`, { usage: false });
    return given;
  }
  if (synced.length === 1) return synced[0]!.id;
  if (synced.length === 0) throw new UsageError('this folder syncs no space yet: run `quire sync --once` first, or give --space <id>.', { usage: false });
  const list = synced.map((s) => `${s.id} (${safeField(s.title)})`).join(', ');
  throw new UsageError(`this folder syncs ${synced.length} spaces: say which with --space <id> (${list}).`, { usage: false });
}

/** A change request number as typed: `3` or `#3`, decimal digits only (`0x1`, `1e1`, `+3`, `3.` name no number). */
export function parseNumber(raw: string | undefined, what = 'a change request number'): number {
  const digits = /^#?([0-9]{1,15})$/.exec(raw ?? '')?.[1];
  const n = digits === undefined ? 0 : Number(digits);
  if (n < 1) throw new UsageError(`give ${what}, such as 3 or #3; got "${raw ?? ''}".`, { usage: false });
  return n;
}

/**
 * The change request numbered `n` in the space `--space` names (or in the only synced space
 * that has one so numbered). Not in the mirror and online: review data is refreshed first.
 */
export async function changeRequestFor(
  review: ReviewService,
  mirror: Mirror,
  args: ParsedArgs,
  n: number,
  api: ApiClient | null,
  signal: AbortSignal,
): Promise<ChangeRequestView> {
  const [given] = spaceFlags(args);
  const find = () => review.changeRequests(given !== undefined ? { spaceId: given } : {}).filter((cr) => cr.number === n);
  let found = find();
  if (found.length === 0 && api) {
    await review.refresh(api, { signal, sites: false });
    found = find();
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    const spaces = found.map((cr) => `${cr.spaceId} (${safeField(mirror.catalog.space(cr.spaceId)?.title ?? '')})`).join(', ');
    throw new UsageError(`change request #${n} is in several spaces: say which with --space <id> (${spaces}).`, { usage: false });
  }
  const where = given !== undefined ? ` in space ${given}` : '';
  throw new Error(
    `No change request #${n}${where} in the mirror${api ? '' : ' (the API is not reachable, so it was not looked for)'}. \`quire cr list --status all\` lists those Quire knows.`,
  );
}

/** The API client when one can be had; otherwise why not. */
export async function tryApi(ctx: { apiFor(mirror: Mirror): Promise<ApiClient> }, mirror: Mirror): Promise<{ api: ApiClient | null; why: string | null }> {
  try {
    return { api: await ctx.apiFor(mirror), why: null };
  } catch (err) {
    // Not "offline": an address no token may go to stops the command (nothing is queued for it either).
    if (err instanceof AddressNotGivenError) throw err;
    return { api: null, why: errorMessage(err, mirror.syncFolder) };
  }
}

/** An action's outcome in one line: `what` is its subject, e.g. "Comment on “Install”". */
export function describeOutcome(what: string, r: ActResult, sentDetail = ''): string {
  switch (r.outcome) {
    case 'sent':
      return `${what}: sent${sentDetail}.`;
    case 'withdrawn':
      return `${what}: ${r.message}`;
    case 'queued':
      if (r.action.retryAt !== null) {
        return `${what}: not sent yet — the server failed on it (${safeField(r.message ?? 'no reason given')}). It is tried again ${retryTime(r.action.retryAt)} by \`quire sync\` or \`quire review\`; \`quire review --dismiss ${r.action.seq}\` gives up on it.`;
      }
      // Sent, and its answer lost or unreadable (a dropped connection, a 200 of the wrong shape): the server may hold it.
      if (r.action.state === 'sending')
        return `${what}: queued — sent, but no answer Quire could use came back (${safeField(r.message ?? 'no answer')}). It shows as pending until the next \`quire sync\` (or \`quire review\`) finds it on the server, or sends it if it never got there.`;
      return `${what}: queued — the API is not reachable now (${safeField(r.message ?? 'offline')}). It shows as pending and is sent by the next \`quire sync\` (or \`quire review\`).`;
    case 'refused':
      return `${what}: refused by the server — ${safeField(r.message)}. Nothing was changed.`;
  }
}

/**
 * Why an action that needs the server's answer (merge, update, a review) did not happen, in one
 * line; null when the error is not one of those (the caller rethrows).
 */
export function whyNotDone(what: string, err: unknown, apiMissing: string | null): string | null {
  if (err instanceof ActionNotPossibleError) return `${what}: not possible — ${safeField(err.message)}.`;
  if (err instanceof ServerRefusalError) return `${what}: refused by the server — ${safeField(err.serverMessage)}`;
  if (apiMissing !== null) return `${what}: needs the server's answer, and Quire cannot ask it now (${safeField(apiMissing)}). Nothing was queued.`;
  if (err instanceof NetworkError) {
    return `${what}: needs the server's answer, and the API is not reachable now (${safeField(errorMessage(err))}). Nothing was queued: run it again when online.`;
  }
  return null;
}

/** `--body`, required and not blank. */
export function bodyFlag(args: ParsedArgs, command: string): string {
  const body = flag(args, 'body');
  if (!body?.trim()) throw new UsageError(`${command} needs --body <markdown>`);
  return body;
}
