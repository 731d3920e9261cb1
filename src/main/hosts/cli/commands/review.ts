import type { ApiClient } from '../../../core/api';
import type { Mirror } from '../../../core/mirror';
import { ReviewService, type ActionRecord, type ChangeRequestView, type CommentView, type ReplyView } from '../../../core/review';
import { dirFlag, has, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { errorMessage } from '../messages';
import { safeField } from '../terminal-text';

/** What the review and comment commands need from the CLI host. */
export interface ReviewCliContext {
  openMirror(dir: string): Mirror;
  /** An authenticated client for the API this folder syncs with; throws when there is no token or address. */
  apiFor(mirror: Mirror): Promise<ApiClient>;
}

export interface ReviewJson {
  changeRequests: { spaceId: string; id: string; number: number; subject: string; status: string; outdated: boolean }[];
  comments: {
    id: string;
    spaceId: string;
    changeRequestId: string | null;
    pageId: string | null;
    author: string | null;
    body: string;
    status: 'open' | 'resolved';
    replies: { id: string; author: string | null; body: string; pending: boolean }[];
    pending: boolean;
  }[];
}

/** The API client when one can be had; otherwise why not. */
export async function tryApi(ctx: ReviewCliContext, mirror: Mirror): Promise<{ api: ApiClient | null; why: string | null }> {
  try {
    return { api: await ctx.apiFor(mirror), why: null };
  } catch (err) {
    return { api: null, why: errorMessage(err) };
  }
}

function reviewJson(changeRequests: ChangeRequestView[], comments: CommentView[], replies: Map<string, ReplyView[]>): ReviewJson {
  return {
    changeRequests: changeRequests.map((cr) => ({
      spaceId: cr.spaceId,
      id: cr.id,
      number: cr.number,
      subject: cr.subject,
      status: cr.status,
      outdated: cr.outdated,
    })),
    comments: comments.map((c) => ({
      id: c.id,
      spaceId: c.spaceId,
      changeRequestId: c.changeRequestId,
      pageId: c.pageId,
      author: c.author?.displayName ?? null,
      body: c.body,
      status: c.status,
      replies: (replies.get(c.id) ?? []).map((r) => ({ id: r.id, author: r.author?.displayName ?? null, body: r.body, pending: r.pending })),
      pending: c.pending,
    })),
  };
}

/**
 * `quire review --dir <folder> [--json]`: open change requests and unresolved
 * comments. When the API is reachable it first sends queued actions and
 * refreshes; otherwise it lists what the mirror holds and says so on stderr.
 */
export async function run(args: ParsedArgs, io: CliIo, ctx: ReviewCliContext): Promise<number> {
  const dir = dirFlag(args);
  const mirror = ctx.openMirror(dir);
  try {
    const review = new ReviewService(mirror);
    const { api, why } = await tryApi(ctx, mirror);
    if (api) {
      try {
        const { replay, refresh } = await mirror.withRepair(() => review.sync(api, { signal: io.signal }), io.stderr);
        if (!refresh) io.stderr(`Showing the local mirror: ${replay.stoppedBy}`);
      } catch (err) {
        if (io.signal.aborted) throw err;
        io.stderr(`Showing the local mirror: ${errorMessage(err)}`);
      }
    } else {
      io.stderr(`Showing the local mirror (${why})`);
    }

    const changeRequests = review.changeRequests({ statuses: ['open'] });
    const comments = review.unresolvedComments();
    const replies = review.repliesFor(comments.map((c) => c.id));
    if (has(args, 'json')) {
      for (const a of review.refusedActions()) {
        io.stderr(`Refused by the server: ${a.kind} on ${a.replyId ?? a.commentId ?? a.changeRequestId} — ${safeField(a.message)}`);
      }
      io.stdout(JSON.stringify(reviewJson(changeRequests, comments, replies), null, 2));
      return EXIT.ok;
    }
    io.stdout(formatText(changeRequests, comments, replies, review.refusedActions()));
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

/** The first line of a comment, shortened, safe for a terminal. */
function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0] ?? '';
  return safeField(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

function formatText(changeRequests: ChangeRequestView[], comments: CommentView[], replies: Map<string, ReplyView[]>, refused: ActionRecord[]): string {
  const numberOf = new Map(changeRequests.map((cr) => [cr.id, cr.number]));
  const lines: string[] = [];
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
    const page = c.pageId ? `, page ${c.pageId}` : '';
    lines.push(
      `  ${safeField(c.id)}${c.pending ? ' (pending)' : ''} — ${safeField(c.author?.displayName ?? 'unknown')} on ${safeField(where)}${safeField(page)}: ${firstLine(c.body)}`,
    );
    for (const r of replies.get(c.id) ?? []) {
      lines.push(`      ↳ ${safeField(r.author?.displayName ?? 'unknown')}${r.pending ? ' (pending)' : ''}: ${firstLine(r.body, 70)}`);
    }
  }
  if (refused.length > 0) {
    lines.push('', `Refused by the server (not retried):`);
    for (const a of refused) lines.push(`  ${a.kind} on ${safeField(a.replyId ?? a.commentId ?? a.changeRequestId)} (${a.createdAt}): ${safeField(a.message)}`);
  }
  return lines.join('\n');
}
