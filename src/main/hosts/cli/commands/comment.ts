import { ReviewService, type ActionInput, type ActResult } from '../../../core/review';
import { dirFlag, flag, has, UsageError, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { safeField } from '../terminal-text';
import { tryApi, type ReviewCliContext } from './review';

export type { ReviewCliContext } from './review';

/** The verbs commands.ts declares, each with its arguments. */
type Verb = 'reply' | 'resolve' | 'reopen' | 'react';

function inputFor(verb: Verb, commentId: string, args: ParsedArgs): ActionInput {
  switch (verb) {
    case 'reply': {
      const body = flag(args, 'body');
      if (!body?.trim()) throw new UsageError('--body is empty: write the reply, such as --body "Fixed, thanks."', { usage: false });
      return { kind: 'reply', commentId, body };
    }
    case 'resolve':
      return { kind: 'resolve', commentId };
    case 'reopen':
      return { kind: 'reopen', commentId };
    case 'react': {
      const emoji = flag(args, 'emoji');
      if (!emoji?.trim()) throw new UsageError('--emoji is empty: give the reaction, such as --emoji 👍', { usage: false });
      return { kind: 'addReaction', commentId, emoji };
    }
  }
}

function describe(verb: Verb, commentId: string, r: ActResult): string {
  const what = {
    reply: `Reply to comment ${commentId}`,
    resolve: `Resolving comment ${commentId}`,
    reopen: `Reopening comment ${commentId}`,
    react: `Reaction on comment ${commentId}`,
  }[verb];
  switch (r.outcome) {
    case 'sent':
      return `${what}: sent${verb === 'reply' && r.targetId ? ` (reply ${r.targetId})` : ''}.`;
    case 'queued':
      return `${what}: queued — the API is not reachable now (${safeField(r.message ?? 'offline')}). It shows as pending and is sent by the next \`quire sync\`.`;
    case 'refused':
      return `${what}: refused by the server — ${safeField(r.message)}. Nothing was changed.`;
  }
}

/**
 * `quire comment reply|resolve|reopen|react <commentId> --dir <folder> [--body <markdown>] [--emoji <emoji>] [--json]`.
 * Sends at once when the API is reachable, otherwise queues the action in the mirror.
 */
export async function run(args: ParsedArgs, io: CliIo, ctx: ReviewCliContext): Promise<number> {
  const [verb, commentId] = args.positionals as [Verb, string];
  const dir = dirFlag(args);
  const input = inputFor(verb, commentId, args);

  const mirror = ctx.openMirror(dir);
  try {
    const review = new ReviewService(mirror);
    const { api, why } = await tryApi(ctx, mirror);
    // A comment id seen on the web but not mirrored yet: fetch review data first.
    // Search damaged (comments are indexed as they are written): made again, and the step runs again.
    if (api && !review.comment(commentId)) await mirror.withRepair(() => review.refresh(api, { signal: io.signal }), io.stderr);
    const result = await mirror.withRepair(() => review.act(input, api, io.signal), io.stderr);
    if (!api && result.outcome === 'queued') result.message = why;
    if (has(args, 'json')) {
      io.stdout(JSON.stringify({ outcome: result.outcome, actionId: result.action.id, targetId: result.targetId, message: result.message }, null, 2));
    } else {
      io.stdout(describe(verb, commentId, result));
    }
    return result.outcome === 'refused' ? EXIT.error : EXIT.ok;
  } finally {
    mirror.close();
  }
}
