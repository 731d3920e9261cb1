/**
 * What the review commands (`quire review`, `quire comment`, `quire cr`) share: which space and
 * which change request a command means (`--space` may be left out where the folder syncs one
 * space), and how an action's outcome is said — sent, queued (and why), refused (with the
 * server's reason), or not possible (and why).
 */
import { type ApiClient, isUnreachable } from '../../core/api';
import type { Mirror } from '../../core/mirror';
import { type ActResult, type ChangeRequestView, type ReviewService, ActionNotPossibleError, ServerRefusalError } from '../../core/review';
import { flag, spaceFlags, UsageError, type ParsedArgs } from './args';
import { errorMessage } from './messages';
import { safeField } from './terminal-text';
import { retryTime } from '../../../shared/when';
import { clipText } from '../../../shared/clip-text';

/** The space a command acts in: `--space`, else the folder's only synced space. */
export function spaceFor(mirror: Pick<Mirror, 'catalog'>, args: ParsedArgs): string {
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
  mirror: Pick<Mirror, 'catalog'>,
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

/** The API client when one can be had; otherwise why not (org-lists.ts, which loads no review code). */
export { tryApi } from './org-lists';

/** Why review data could not be refreshed, in one line: the API out of reach said plainly, any other error as it is. */
export function whyNotRefreshed(err: unknown, folder?: string): string {
  return isUnreachable(err) ? UNREACHABLE : errorMessage(err, folder);
}

export const UNREACHABLE = 'the API is not reachable';

/**
 * A comment or reply as a sentence names it: by its id, or, for one posted offline and not sent
 * yet (its id is Quire's own, `local:…`), as "your pending comment “Its first words”".
 */
export function postName(review: ReviewService, commentId: string, replyId: string | null): string {
  const id = replyId ?? commentId;
  if (!id.startsWith('local:')) return `${replyId ? 'reply' : 'comment'} ${safeField(id)}`;
  const body = replyId
    ? review
        .repliesFor([commentId])
        .get(commentId)
        ?.find((r) => r.id === replyId)?.body
    : review.comment(commentId)?.body;
  const words = (body ?? '').trim().split('\n')[0]!;
  const shown = clipText(words, 40);
  return `your pending ${replyId ? 'reply' : 'comment'}${shown ? ` “${safeField(shown)}”` : ''}`;
}

/** An action's outcome in one line: `what` is its subject, e.g. "Comment on “Install”". */
export function describeOutcome(what: string, r: ActResult, sentDetail = ''): string {
  switch (r.outcome) {
    case 'sent':
      return `${what}: sent${sentDetail}.`;
    case 'withdrawn':
      return `${what}: ${r.message}`;
    case 'queued': {
      if (r.action.retryAt !== null) {
        return `${what}: not sent yet — the server failed on it (${safeField(r.message ?? 'no reason given')}). It is tried again ${retryTime(r.action.retryAt)} by \`quire sync\` or \`quire review\`; \`quire review --dismiss ${r.action.seq}\` gives up on it.`;
      }
      // Sent, and its answer lost or unreadable (a dropped connection, a 200 of the wrong shape): the server may hold it.
      if (r.action.state === 'sending' && !r.offline)
        return `${what}: queued — sent, but no answer Quire could use came back (${safeField(r.message ?? 'no answer')}). It shows as pending until the next \`quire sync\` (or \`quire review\`) finds it on the server, or sends it if it never got there.`;
      // Offline, the error of the request that failed (maybe another queued action's) says nothing more.
      const why = r.offline ? '' : ` (${safeField(r.message ?? 'offline')})`;
      return `${what}: queued — the API is not reachable now${why}. It shows as pending and is sent by the next \`quire sync\` (or \`quire review\`).`;
    }
    case 'refused':
      return `${what}: refused by the server — ${safeField(r.message)}. Nothing was changed.`;
    case 'pending':
      return `${what}: kept in your pending review${sentDetail}; it is sent with your verdict.`;
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
  if (isUnreachable(err)) {
    return `${what}: needs the server's answer, and the API is not reachable now. Nothing was queued: run it again when online.`;
  }
  return null;
}

/** `--body`, required and not blank. */
export function bodyFlag(args: ParsedArgs, command: string): string {
  const body = flag(args, 'body');
  if (!body?.trim()) throw new UsageError(`${command} needs --body <markdown>`);
  return body;
}
