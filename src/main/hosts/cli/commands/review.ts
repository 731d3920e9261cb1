import type { ApiClient } from '../../../core/api';
import { isOtherWriter, type Mirror } from '../../../core/mirror';
import {
  type ChangeRequestSummary,
  changeRequestSummary,
  ReviewService,
  suggestionOf,
  type ChangeRequestView,
  type CommentView,
  type InboxItem,
  type InboxReason,
  type ReplyView,
  type ThreadPlace,
} from '../../../core/review';
import { dirFlag, flag, has, switchFlag, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { errorMessage } from '../messages';
import { tryApi, UNREACHABLE, whyNotRefreshed } from '../review-lookup';
import { safeField } from '../terminal-text';
import { retryTime, when } from '../../../../shared/when';
import { clipText } from '../../../../shared/clip-text';

/** What the review and comment commands need from the CLI host. */
export interface ReviewCliContext {
  openMirror(dir: string): Mirror;
  /** An authenticated client for the API this folder syncs with; throws when there is no token or address. */
  apiFor(mirror: Pick<Mirror, 'catalog' | 'syncFolder'>): Promise<ApiClient>;
}

interface ReactionJson {
  emoji: string;
  count: number;
  users: string[];
  mine: boolean;
}

export interface ReviewJson {
  /** When review data was last refreshed from the server (ISO), or null. */
  refreshedAt: string | null;
  inbox: {
    key: string;
    reasons: InboxReason[];
    unread: boolean;
    activityAt: string;
    by: string | null;
    spaceId: string;
    changeRequest: { id: string; number: number; subject: string } | null;
    commentId: string | null;
  }[];
  changeRequests: ChangeRequestSummary[];
  comments: {
    id: string;
    spaceId: string;
    changeRequestId: string | null;
    pageId: string | null;
    author: string | null;
    body: string;
    status: 'open' | 'resolved';
    reactions: ReactionJson[];
    replies: { id: string; author: string | null; body: string; reactions: ReactionJson[]; pending: boolean }[];
    pending: boolean;
    /** On a line of a page of a change request: the line of its block there now (null when the block is gone). */
    line?: number | null;
    /** Its block changed or went away since the comment was made. */
    outdated?: boolean;
    /** The lines a ```suggestion block would put in place of the block's lines. */
    suggestion?: string[];
  }[];
}

const reactionsJson = (list: CommentView['reactions']): ReactionJson[] =>
  list.map((r) => ({ emoji: r.emoji, count: r.count, users: r.users.map((u) => u.displayName), mine: r.mine }));

function reviewJson(
  refreshedAt: string | null,
  inbox: InboxItem[],
  changeRequests: ChangeRequestView[],
  comments: CommentView[],
  replies: Map<string, ReplyView[]>,
  places: Map<string, ThreadPlace>,
): ReviewJson {
  return {
    refreshedAt,
    inbox: inbox.map((i) => ({
      key: i.key,
      reasons: i.reasons,
      unread: i.unread,
      activityAt: i.activityAt,
      by: i.by?.displayName ?? null,
      spaceId: i.spaceId,
      changeRequest: i.changeRequest ? { id: i.changeRequest.id, number: i.changeRequest.number, subject: i.changeRequest.subject } : null,
      commentId: i.comment?.id ?? null,
    })),
    changeRequests: changeRequests.map(changeRequestSummary),
    comments: comments.map((c) => ({
      id: c.id,
      spaceId: c.spaceId,
      changeRequestId: c.changeRequestId,
      pageId: c.pageId,
      author: c.author?.displayName ?? null,
      body: c.body,
      status: c.status,
      reactions: reactionsJson(c.reactions),
      replies: (replies.get(c.id) ?? []).map((r) => ({
        id: r.id,
        author: r.author?.displayName ?? null,
        body: r.body,
        reactions: reactionsJson(r.reactions),
        pending: r.pending,
      })),
      pending: c.pending,
      ...lineJson(c, places.get(c.id)),
    })),
  };
}

function lineJson(c: CommentView, place: ThreadPlace | undefined): Pick<ReviewJson['comments'][number], 'line' | 'outdated' | 'suggestion'> {
  const suggestion = suggestionOf(c.body);
  return {
    ...(place ? { line: place.line, outdated: place.outdated } : {}),
    ...(suggestion !== null ? { suggestion } : {}),
  };
}

/** Where each comment on a line shows now (threads on blocks of change requests). */
function placesOf(review: ReviewService, comments: readonly CommentView[]): Map<string, ThreadPlace> {
  const places = new Map<string, ThreadPlace>();
  const crs = new Set(comments.filter((c) => c.nodeId && c.changeRequestId).map((c) => c.changeRequestId!));
  for (const cr of crs) for (const [id, place] of review.threadPlaces(cr)) places.set(id, place);
  return places;
}

/**
 * `quire review --dir <folder> [--json] [--mark-read] [--dismiss <n>]`: the inbox (what asks
 * something of you, new first), open change requests and unresolved comments, then the actions
 * that need you (refused, or waiting after the server failed on them), each with its number.
 * When the API is reachable it first sends queued actions and refreshes; otherwise it lists what
 * the mirror holds and says since when. The text form marks the inbox read once shown; `--json`
 * leaves the marks unless given `--mark-read`. `--dismiss <n>` puts one of those actions away,
 * offline.
 */
export async function run(args: ParsedArgs, io: CliIo, ctx: ReviewCliContext): Promise<number> {
  const dir = dirFlag(args);
  const markRead = switchFlag(args, 'mark-read');
  const dismiss = flag(args, 'dismiss');
  const mirror = ctx.openMirror(dir);
  try {
    const review = new ReviewService(mirror);
    if (dismiss !== undefined) return dismissAction(review, dismiss, io);
    const { api, why } = await tryApi(ctx, mirror);
    const local = (reason: string) => {
      const at = review.refreshedAt();
      io.stderr(`Showing the local mirror, ${at ? `last refreshed ${when(at)}` : 'never refreshed from the server'} (${safeField(reason)})`);
    };
    let otherWriter = false;
    if (api) {
      try {
        const { replay, refresh } = await mirror.withRepair(() => review.sync(api, { signal: io.signal }), io.stderr);
        if (!refresh) local(replay.unreachable ? UNREACHABLE : (replay.stoppedBy ?? UNREACHABLE));
      } catch (err) {
        if (io.signal.aborted) throw err;
        otherWriter = isOtherWriter(err);
        local(whyNotRefreshed(err, dir));
      }
    } else {
      local(why ?? 'no API');
    }

    const inbox = review.inbox();
    const changeRequests = review.changeRequests({ statuses: ['open'] });
    const comments = review.unresolvedComments();
    const replies = review.repliesFor(comments.map((c) => c.id));
    const places = placesOf(review, comments);
    if (has(args, 'json')) {
      for (const a of review.failingActions()) {
        io.stderr(`Not sent yet, the server failed on it: ${a.seq}. ${safeField(review.describeAction(a))} — ${safeField(a.message)}`);
      }
      for (const a of review.refusedActions()) io.stderr(`Refused by the server: ${a.seq}. ${safeField(review.describeAction(a))} — ${safeField(a.message)}`);
      io.stdout(JSON.stringify(reviewJson(review.refreshedAt(), inbox, changeRequests, comments, replies, places), null, 2));
      if (markRead) markShownRead(mirror, review, inbox, otherWriter);
      return EXIT.ok;
    }
    io.stdout([formatText(mirror, inbox, changeRequests, comments, replies, places), ...needingYou(review)].join('\n'));
    markShownRead(mirror, review, inbox, otherWriter);
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

/**
 * Looking counts as reading: what was shown is not new the next time. When another program held
 * the mirror past the refresh's wait, only if it is done by now (no second wait, and no error
 * after the list): else what was shown is new again next time.
 */
function markShownRead(mirror: Pick<Mirror, 'withoutWaiting'>, review: ReviewService, inbox: readonly InboxItem[], otherWriter: boolean): void {
  if (!otherWriter) {
    review.markShownRead(inbox);
    return;
  }
  try {
    mirror.withoutWaiting(() => review.markShownRead(inbox));
  } catch (err) {
    if (!isOtherWriter(err)) throw err;
  }
}

/** The first line of a comment, shortened, safe for a terminal. */
function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0] ?? '';
  return safeField(clipText(line, max));
}

const REASON_WORDS: Record<InboxReason, string> = {
  'review-requested': 'your review is requested',
  reviewed: 'reviewed',
  'comment-on-my-change-request': 'on your change request',
  'comment-on-my-page': 'on a page you edited',
  mention: 'mentions you',
  'reply-to-me': 'replies to you',
};

function inboxLine(mirror: Pick<Mirror, 'content'>, i: InboxItem): string {
  const mark = i.unread ? 'new ' : '    ';
  const at = when(i.activityAt);
  const why = i.reasons.map((r) => REASON_WORDS[r]).join(', ');
  const by = safeField(i.by?.displayName ?? 'someone');
  if (!i.comment) {
    const cr = i.changeRequest!;
    return `  ${mark}#${cr.number} ${safeField(cr.subject) || '(no subject)'} — ${why} (${by}, ${at})`;
  }
  const page = i.comment.pageId ? mirror.content.page(i.spaceId, i.comment.pageId)?.title : null;
  const where = [page ? `“${safeField(page)}”` : null, i.changeRequest ? `#${i.changeRequest.number}` : null].filter(Boolean).join(' in ') || 'main content';
  const latest = [i.comment, ...i.replies].filter((p) => p.author?.displayName === i.by?.displayName).at(-1) ?? i.comment;
  return `  ${mark}${safeField(i.comment.id)} on ${where} — ${why}: ${by}: ${firstLine(latest.body, 60)} (${at})`;
}

function reactionsText(list: CommentView['reactions']): string {
  if (list.length === 0) return '';
  return `  [${list.map((r) => `${r.emoji} ${r.count}: ${r.users.map((u) => safeField(u.displayName)).join(', ')}`).join('; ')}]`;
}

function formatText(
  mirror: Pick<Mirror, 'content'>,
  inbox: InboxItem[],
  changeRequests: ChangeRequestView[],
  comments: CommentView[],
  replies: Map<string, ReplyView[]>,
  places: Map<string, ThreadPlace>,
): string {
  const numberOf = new Map(changeRequests.map((cr) => [cr.id, cr.number]));
  const lines: string[] = [];
  const unread = inbox.filter((i) => i.unread).length;
  lines.push(inbox.length ? `Inbox (${inbox.length}, ${unread} new):` : 'Inbox: nothing asks for you.');
  for (const i of inbox) lines.push(inboxLine(mirror, i));
  lines.push('');
  lines.push(changeRequests.length ? `Open change requests (${changeRequests.length}):` : 'No open change requests.');
  for (const cr of changeRequests) {
    const notes = [cr.outdated ? 'outdated' : '', cr.reviewRequested ? 'review requested' : '', cr.pending ? 'pending' : ''].filter(Boolean);
    lines.push(
      `  #${cr.number} ${safeField(cr.subject) || '(no subject)'}  [${safeField(cr.id)} in ${safeField(cr.spaceId)}]${notes.length ? ` — ${notes.join(', ')}` : ''}`,
    );
  }
  lines.push('');
  lines.push(comments.length ? `Unresolved comments (${comments.length}):` : 'No unresolved comments.');
  for (const c of comments) {
    const where = c.changeRequestId ? `change request #${numberOf.get(c.changeRequestId) ?? c.changeRequestId}` : 'main content';
    const pageTitle = c.pageId ? mirror.content.page(c.spaceId, c.pageId)?.title : undefined;
    const page = c.pageId ? `, page ${pageTitle ? `“${pageTitle}”` : c.pageId}` : '';
    const place = places.get(c.id);
    const line = place ? (place.line !== null ? `, line ${place.line}` : '') + (place.outdated ? ' (outdated)' : '') : '';
    lines.push(
      `  ${safeField(c.id)}${c.pending ? ' (pending)' : ''} — ${safeField(c.author?.displayName ?? 'unknown')} on ${safeField(where)}${safeField(page)}${line}: ${firstLine(c.body)}${reactionsText(c.reactions)}`,
    );
    lines.push(...suggestionText(c, place));
    for (const r of replies.get(c.id) ?? []) {
      lines.push(
        `      ↳ ${safeField(r.author?.displayName ?? 'unknown')}${r.pending ? ' (pending)' : ''}: ${firstLine(r.body, 70)}${reactionsText(r.reactions)}`,
      );
    }
  }
  return lines.join('\n');
}

/** A comment's suggested change: the lines it replaces (as they were) and what it puts instead, and how to apply it. */
function suggestionText(c: CommentView, place: ThreadPlace | undefined): string[] {
  const suggestion = suggestionOf(c.body);
  if (suggestion === null || !place) return [];
  const old = place.madeAt?.lines ?? [];
  const out = [`      suggested change${place.outdated ? ' (outdated: its lines changed since)' : ''}:`];
  for (const l of old) out.push(`        - ${safeField(l)}`);
  for (const l of suggestion) out.push(`        + ${safeField(l)}`);
  if (!place.outdated) out.push(`      \`quire comment apply ${safeField(c.id)}\` applies it to your file`);
  return out;
}

/** The actions that need the user, each by its number (what `--dismiss` takes) and in words. */
function needingYou(review: ReviewService): string[] {
  const lines: string[] = [];
  const failing = review.failingActions();
  if (failing.length > 0) lines.push('', 'Not sent yet, the server failed on it — `quire review --dismiss <n>` gives up on one:');
  for (const a of failing) {
    lines.push(`  ${a.seq}. ${safeField(review.describeAction(a))}: ${safeField(a.message ?? 'the server failed')}; tried again ${retryTime(a.retryAt)}`);
  }
  const refused = review.refusedActions();
  if (refused.length > 0) lines.push('', 'Refused by the server, not retried — `quire review --dismiss <n>` clears one:');
  for (const a of refused)
    lines.push(`  ${a.seq}. ${safeField(review.describeAction(a))} (${when(a.createdAt)}): ${safeField(a.message ?? 'no reason given')}`);
  return lines;
}

/** `--dismiss <n>`: a refused action put away, or one not sent (yet, or again) given up on. */
function dismissAction(review: ReviewService, handle: string, io: CliIo): number {
  const a = review.findAction(handle);
  if (!a || (a.state !== 'queued' && a.state !== 'sending' && a.state !== 'refused')) {
    io.stderr(`No review action ${safeField(handle)} waits or was refused: \`quire review\` lists them with their numbers.`);
    return EXIT.error;
  }
  const words = safeField(review.describeAction(a));
  try {
    review.dismiss(a.id);
  } catch (err) {
    io.stderr(`Action ${a.seq} (${words}) was not dismissed: ${safeField(errorMessage(err))}`);
    return EXIT.error;
  }
  const after = {
    refused: '',
    queued: ' It is not sent.',
    sending: ' It is not sent again (should the server have taken it after all, the next refresh shows it).',
  }[a.state];
  io.stdout(`Dismissed action ${a.seq}: ${words}.${after}`);
  return EXIT.ok;
}
