import { findPage, PageNotFoundError } from '../../../core/history';
import type { Mirror } from '../../../core/mirror';
import { ReviewService, type ActionInput, type ActResult } from '../../../core/review';
import { dirFlag, flag, has, spaceFlags, UsageError, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { bodyFlag, changeRequestFor, describeOutcome, parseNumber, postName, spaceFor, tryApi } from '../review-lookup';
import { safeField } from '../terminal-text';
import type { ReviewCliContext } from './review';

export type { ReviewCliContext } from './review';

const VERBS = ['new', 'edit', 'delete', 'reply', 'resolve', 'reopen', 'react'] as const;
type Verb = (typeof VERBS)[number];

/** What the action is, and how its outcome is said. */
interface Planned {
  input: ActionInput;
  what: string;
  sent: (r: ActResult) => string;
}

/**
 * `quire comment new|edit|delete|reply|resolve|reopen|react …`: starts a comment (on a page of
 * main, on a change request, or on a page of a change request), edits or deletes one's own
 * comment or reply, replies, resolves, reopens, reacts. Sent at once when the API answers,
 * otherwise queued in the mirror (shown as pending) and sent in order by the next sync.
 */
export async function run(args: ParsedArgs, io: CliIo, ctx: ReviewCliContext): Promise<number> {
  const [verb, target, ...extra] = args.positionals;
  if (!verb || !(VERBS as readonly string[]).includes(verb)) throw new UsageError(`quire comment takes one of ${VERBS.join(', ')}; got "${verb ?? ''}"`);
  if (verb === 'new' ? target !== undefined : !target)
    throw new UsageError(verb === 'new' ? `unexpected argument "${target}"` : `quire comment ${verb} needs a comment id`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const dir = dirFlag(args);
  if (verb === 'reply') bodyFlag(args, 'quire comment reply');
  if (verb === 'new' || verb === 'edit') bodyFlag(args, `quire comment ${verb}`);
  if (verb === 'react' && !flag(args, 'emoji')?.trim()) throw new UsageError('quire comment react needs --emoji <emoji>');

  const mirror = ctx.openMirror(dir);
  try {
    const review = new ReviewService(mirror);
    const { api, why } = await tryApi(ctx, mirror);
    const planned =
      verb === 'new'
        ? await planNew(review, mirror, dir, args, api, io.signal)
        : await planOnPost(review, verb as Exclude<Verb, 'new'>, target!, args, api, io);
    // Search damaged (comments are indexed as they are written): made again, and the step runs again.
    const result = await mirror.withRepair(() => review.act(planned.input, api, io.signal), io.stderr);
    if (!api && result.outcome === 'queued') result.message = why;
    if (has(args, 'json')) {
      io.stdout(JSON.stringify({ outcome: result.outcome, actionId: result.action.id, targetId: result.targetId, message: result.message }, null, 2));
    } else {
      io.stdout(describeOutcome(planned.what, result, result.outcome === 'sent' ? planned.sent(result) : ''));
    }
    return result.outcome === 'refused' ? EXIT.error : EXIT.ok;
  } finally {
    mirror.close();
  }
}

/** `comment new`: where it goes — a page (a file or a page id), a change request, or a page of one. */
async function planNew(
  review: ReviewService,
  mirror: Mirror,
  dir: string,
  args: ParsedArgs,
  api: Parameters<typeof changeRequestFor>[4],
  signal: AbortSignal,
): Promise<Planned> {
  const body = bodyFlag(args, 'quire comment new');
  const pageArg = flag(args, 'page');
  const crArg = flag(args, 'change-request');
  if (pageArg === undefined && crArg === undefined) throw new UsageError('quire comment new needs --page <file or page id>, --change-request <n>, or both');
  let spaceId: string | undefined = spaceFlags(args)[0];
  let pageId: string | null = null;
  let pageName = '';
  if (pageArg !== undefined) {
    try {
      const ref = findPage(mirror, dir, pageArg);
      if (ref.pageKey.startsWith('new:'))
        throw new Error(`${pageArg} is not on GitBook yet (it is pushed by the next sync): comment on it once it is, or on its change request.`);
      if (spaceId !== undefined && ref.spaceId !== spaceId)
        throw new UsageError(`${pageArg} is a page of space ${ref.spaceId}, not of --space ${spaceId}.`, { usage: false });
      spaceId = ref.spaceId;
      pageId = ref.pageKey;
      pageName = mirror.content.page(ref.spaceId, ref.pageKey)?.title ?? ref.path ?? pageArg;
    } catch (err) {
      // A page only a change request has is named by its id (the server checks it is there).
      if (!(err instanceof PageNotFoundError) || crArg === undefined || /[/\\]|\.md$/i.test(pageArg)) throw err;
      pageId = pageArg;
      pageName = pageArg;
    }
  }
  spaceId ??= spaceFor(mirror, args);
  const changeRequest = crArg !== undefined ? await changeRequestFor(review, mirror, withSpace(args, spaceId), parseNumber(crArg), api, signal) : null;
  const where = [pageId !== null ? `“${safeField(pageName)}”` : null, changeRequest ? `change request #${changeRequest.number}` : null]
    .filter(Boolean)
    .join(' in ');
  return {
    input: { kind: 'postComment', spaceId, changeRequestId: changeRequest?.id ?? null, pageId, body },
    what: `Comment on ${where}`,
    sent: (r) => ` (comment ${r.targetId})`,
  };
}

/** The other verbs act on a comment or a reply, named by its id. */
async function planOnPost(
  review: ReviewService,
  verb: Exclude<Verb, 'new'>,
  id: string,
  args: ParsedArgs,
  api: Parameters<typeof changeRequestFor>[4],
  io: CliIo,
): Promise<Planned> {
  let post = review.findPost(id);
  // An id seen on the web but not mirrored yet: fetch review data first.
  if (!post && api) {
    await review.refresh(api, { signal: io.signal, sites: false });
    post = review.findPost(id);
  }
  const commentId = post?.commentId ?? id;
  const replyId = post?.replyId ?? null;
  const thing = postName(review, commentId, replyId);
  const none = () => '';
  switch (verb) {
    case 'edit':
      return {
        input: replyId
          ? { kind: 'editReply', commentId, replyId, body: bodyFlag(args, 'quire comment edit') }
          : { kind: 'editComment', commentId, body: bodyFlag(args, 'quire comment edit') },
        what: `Editing ${thing}`,
        sent: none,
      };
    case 'delete':
      return { input: replyId ? { kind: 'deleteReply', commentId, replyId } : { kind: 'deleteComment', commentId }, what: `Deleting ${thing}`, sent: none };
    case 'reply':
      if (replyId) throw new UsageError(`${id} is a reply: reply to its comment, ${commentId}.`, { usage: false });
      return {
        input: { kind: 'reply', commentId, body: bodyFlag(args, 'quire comment reply') },
        what: `Reply to ${postName(review, commentId, null)}`,
        sent: (r) => (r.targetId ? ` (reply ${r.targetId})` : ''),
      };
    case 'resolve':
    case 'reopen':
      if (replyId) throw new UsageError(`${id} is a reply: ${verb} its comment, ${commentId}.`, { usage: false });
      return { input: { kind: verb, commentId }, what: `${verb === 'resolve' ? 'Resolving' : 'Reopening'} ${postName(review, commentId, null)}`, sent: none };
    case 'react':
      return { input: { kind: 'addReaction', commentId, replyId, emoji: flag(args, 'emoji')! }, what: `Reaction on ${thing}`, sent: none };
  }
}

/** The same arguments with `--space` set (a page's file names its space). */
function withSpace(args: ParsedArgs, spaceId: string): ParsedArgs {
  return { ...args, flags: new Map([...args.flags, ['space', [spaceId]]]) };
}
