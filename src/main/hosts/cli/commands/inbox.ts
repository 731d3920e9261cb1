import type { Mirror } from '../../../core/mirror';
import { NotInInboxError, ReviewService, TRIAGE_GROUPS, type TriageGroup, type TriageItem } from '../../../core/review';
import { dirFlag, flag, has, UsageError, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { errorMessage } from '../messages';
import { changeRequestFor, parseNumber, tryApi } from '../review-lookup';
import type { ReviewCliContext } from './review';
import { safeField } from '../terminal-text';
import { localTime, when } from '../../../../shared/when';
import { clipText } from '../../../../shared/clip-text';

export const GROUP_WORDS: Record<TriageGroup, string> = {
  'needs-review': 'Needs your review',
  'changes-requested': 'Changes requested on yours',
  'ready-to-merge': 'Ready to merge',
  blocked: 'Blocked',
  mentions: 'Mentions and replies',
};

const REASON_WORDS: Record<string, string> = {
  'comment-on-my-change-request': 'on your change request',
  'comment-on-my-page': 'on a page you edited',
  mention: 'mentions you',
  'reply-to-me': 'replies to you',
};

const MARKS = ['pin', 'unpin', 'snooze', 'unsnooze'] as const;

/**
 * `quire inbox --dir <folder> [--json] [--pin|--unpin|--snooze|--unsnooze <n>] [--until <date>]`:
 * change requests and threads sorted into what needs you (core/review/triage.ts), refreshed first
 * when the API answers. `<n>` names a change request by its number (`3`, `#3`; `--space` where two
 * spaces have one so numbered) or a thread by its comment id. The text form counts what it shows
 * as read, as `quire review` does; `--json` leaves the marks.
 */
export async function inbox(args: ParsedArgs, io: CliIo, ctx: ReviewCliContext): Promise<number> {
  const dir = dirFlag(args);
  const given = MARKS.filter((m) => has(args, m));
  if (given.length > 1) throw new UsageError(`give one of --${given.join(', --')} at a time`);
  if (has(args, 'until') && given[0] !== 'snooze') throw new UsageError('--until goes with --snooze <n>');
  const until = has(args, 'until') ? parseUntil(flag(args, 'until')!) : null;
  const mirror = ctx.openMirror(dir);
  try {
    const review = new ReviewService(mirror);
    const { api, why } = await tryApi(ctx, mirror);
    let problem = why;
    if (api) {
      try {
        const { replay, refresh } = await mirror.withRepair(() => review.sync(api, { signal: io.signal, sites: false }), io.stderr);
        if (!refresh) problem = replay.stoppedBy ?? 'the API is not reachable';
      } catch (err) {
        if (io.signal.aborted) throw err;
        problem = errorMessage(err, dir);
      }
    }
    if (problem !== null) {
      const at = review.refreshedAt();
      io.stderr(`Showing the local mirror, ${at ? `last refreshed ${when(at)}` : 'never refreshed from the server'} (${safeField(problem)})`);
    }
    const mark = given[0];
    if (mark) return await markItem(review, mirror, args, mark, until, io);
    const items = review.triage();
    if (has(args, 'json')) {
      io.stdout(
        JSON.stringify({ refreshedAt: review.refreshedAt(), groups: groupsJson(items), snoozed: items.filter((i) => i.snoozed).map(itemJson) }, null, 2),
      );
      return EXIT.ok;
    }
    io.stdout(formatText(mirror, items));
    review.markShownRead(items.filter((i) => !i.snoozed));
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

/** `--until`: a date (`2026-03-01`, midnight UTC) or a time (`2026-03-01T09:00Z`), in the future. */
function parseUntil(raw: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const t = day || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(day ? `${raw}T00:00:00Z` : raw) : Number.NaN;
  if (Number.isNaN(t))
    throw new UsageError(`--until takes a date such as 2026-03-01 (midnight UTC) or a time such as 2026-03-01T09:00Z; got "${raw}".`, { usage: false });
  if (t <= Date.now())
    throw new UsageError(`--until ${raw} is not in the future: give a later date, or leave --until out to snooze until it changes.`, { usage: false });
  return new Date(t).toISOString();
}

/** The inbox key `<n>` names: a change request by number, else a thread by its comment id. */
async function keyOf(
  review: ReviewService,
  mirror: Pick<Mirror, 'catalog'>,
  args: ParsedArgs,
  handle: string,
  io: CliIo,
): Promise<{ key: string; what: string }> {
  if (/^#?[0-9]+$/.test(handle)) {
    const cr = await changeRequestFor(review, mirror, args, parseNumber(handle), null, io.signal);
    return { key: `cr:${cr.id}`, what: `#${cr.number} ${safeField(cr.subject) || '(no subject)'}` };
  }
  const post = review.findPost(handle);
  if (!post)
    throw new UsageError(`${safeField(handle)} names no change request (give its number, such as 3) and no comment Quire knows: \`quire inbox\` lists them.`, {
      usage: false,
    });
  return { key: `thread:${post.commentId}`, what: `the thread ${safeField(post.commentId)}` };
}

async function markItem(
  review: ReviewService,
  mirror: Pick<Mirror, 'catalog'>,
  args: ParsedArgs,
  mark: (typeof MARKS)[number],
  until: string | null,
  io: CliIo,
): Promise<number> {
  const { key, what } = await keyOf(review, mirror, args, flag(args, mark)!, io);
  try {
    if (mark === 'pin' || mark === 'unpin') review.pin(key, mark === 'pin');
    else review.snooze(key, until, mark === 'unsnooze');
  } catch (err) {
    if (!(err instanceof NotInInboxError)) throw err;
    io.stderr(`Cannot ${mark} ${what}: ${err.message}. \`quire inbox\` lists what it holds.`);
    return EXIT.error;
  }
  const words = {
    pin: 'pinned: it stays first in its group until you unpin it (`--unpin`)',
    unpin: 'unpinned',
    snooze: until ? `snoozed until ${localTime(until)}` : 'snoozed until it changes (new activity, a new revision, another group)',
    unsnooze: 'back in the inbox',
  }[mark];
  io.stdout(`${what}: ${words}.`);
  return EXIT.ok;
}

function itemJson(i: TriageItem) {
  return {
    key: i.key,
    group: i.group,
    reasons: i.reasons,
    unread: i.unread,
    pinned: i.pinned,
    snoozed: i.snoozed,
    activityAt: i.activityAt,
    by: i.by?.displayName ?? null,
    spaceId: i.spaceId,
    changeRequest: i.changeRequest
      ? { id: i.changeRequest.id, number: i.changeRequest.number, subject: i.changeRequest.subject, status: i.changeRequest.status }
      : null,
    commentId: i.comment?.id ?? null,
    waitingOn: i.waitingOn,
  };
}

function groupsJson(items: TriageItem[]) {
  return Object.fromEntries(TRIAGE_GROUPS.map((g) => [g, items.filter((i) => !i.snoozed && i.group === g).map(itemJson)]));
}

function itemLine(mirror: Pick<Mirror, 'catalog' | 'content'>, i: TriageItem): string {
  const marks = `${i.unread ? 'new ' : '    '}${i.pinned ? '[pinned] ' : ''}`;
  const at = when(i.activityAt || null);
  const by = i.by ? `${safeField(i.by.displayName)}, ` : '';
  if (!i.comment) {
    const cr = i.changeRequest!;
    const space = safeField(mirror.catalog.space(cr.spaceId)?.title ?? cr.spaceId);
    const draft = cr.status === 'draft' ? ' (draft)' : '';
    return `  ${marks}#${cr.number} ${safeField(cr.subject) || '(no subject)'}${draft} — in ${space} (${by}${at})`;
  }
  const page = i.comment.pageId ? mirror.content.page(i.spaceId, i.comment.pageId)?.title : null;
  const where = [page ? `“${safeField(page)}”` : null, i.changeRequest ? `#${i.changeRequest.number}` : null].filter(Boolean).join(' in ') || 'main content';
  const why = i.reasons.map((r) => REASON_WORDS[r] ?? r).join(', ');
  const latest = [i.comment, ...i.replies].filter((p) => p.author?.id === i.by?.id).at(-1) ?? i.comment;
  const line = safeField(clipText(latest.body.trim().split('\n')[0] ?? '', 60));
  return `  ${marks}${safeField(i.comment.id)} on ${where} — ${why}: ${line} (${by}${at})`;
}

function formatText(mirror: Pick<Mirror, 'catalog' | 'content'>, items: TriageItem[]): string {
  const shown = items.filter((i) => !i.snoozed);
  const lines: string[] = [];
  if (shown.length === 0) lines.push('Inbox: nothing needs you.');
  for (const group of TRIAGE_GROUPS) {
    const inGroup = shown.filter((i) => i.group === group);
    if (inGroup.length === 0) continue;
    lines.push(`${GROUP_WORDS[group]} (${inGroup.length}):`);
    for (const i of inGroup) {
      lines.push(itemLine(mirror, i));
      for (const w of i.waitingOn) lines.push(`        waits on ${safeField(w)}`);
    }
  }
  const snoozed = items.filter((i) => i.snoozed);
  if (snoozed.length > 0) {
    const names = snoozed.map(
      (i) =>
        `${i.changeRequest && !i.comment ? `#${i.changeRequest.number}` : safeField(i.comment?.id ?? i.key)} ${i.snoozed!.until ? `until ${localTime(i.snoozed!.until)}` : 'until it changes'}`,
    );
    lines.push(`Snoozed (${snoozed.length}): ${names.join('; ')} — \`quire inbox --unsnooze <n>\` brings one back.`);
  }
  return lines.join('\n');
}
