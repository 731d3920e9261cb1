import { findPage, PageNotFoundError } from '../../../core/history';
import type { Mirror } from '../../../core/mirror';
import { isAbsolute, relative } from 'node:path';
import type { ApiClient } from '../../../core/api';
import { LineCommentError, ReviewService, type ActionInput, type ActResult } from '../../../core/review';
import { errorMessage } from '../messages';
import { applyCommand } from '../comment-apply';
import { dirFlag, flag, has, spaceFlags, UsageError, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { bodyFlag, changeRequestFor, describeOutcome, parseNumber, postName, spaceFor, tryApi } from '../review-lookup';
import { safeField } from '../terminal-text';
import type { ReviewCliContext } from './review';

export type { ReviewCliContext } from './review';

const VERBS = ['new', 'edit', 'delete', 'reply', 'resolve', 'reopen', 'react', 'apply'] as const;
type Verb = (typeof VERBS)[number];

/** What the action is, and how its outcome is said. */
interface Planned {
  input: ActionInput;
  what: string;
  sent: (r: ActResult) => string;
}

/**
 * `quire comment new|edit|delete|reply|resolve|reopen|react|apply …`: starts a comment (on a
 * page of main, on a change request, on a page of one, or on a line of that page: `--line`),
 * edits or deletes one's own comment or reply, replies, resolves, reopens, reacts; `apply`
 * applies a suggestion (comment-apply.ts). Sent at once when the API answers, otherwise queued
 * in the mirror (shown as pending) and sent in order by the next sync.
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
    if (verb === 'apply') return await applyCommand(mirror, dir, target!, api, why, io, has(args, 'json'));
    const planned =
      verb === 'new'
        ? await planNew(review, mirror, dir, args, api, io.signal)
        : await planOnPost(review, verb as Exclude<Verb, 'new' | 'apply'>, target!, args, api, io);
    // Search damaged (comments are indexed as they are written): made again, and the step runs again.
    const result = await mirror.withRepair(() => review.act(planned.input, api, io.signal), io.stderr);
    if (!api && result.outcome === 'queued') result.message = why;
    if (has(args, 'json')) {
      io.stdout(JSON.stringify({ outcome: result.outcome, actionId: result.action.id, targetId: result.targetId, message: result.message }, null, 2));
    } else {
      io.stdout(describeOutcome(planned.what, result, detail(review, planned, result)));
    }
    return result.outcome === 'refused' ? EXIT.error : EXIT.ok;
  } finally {
    mirror.close();
  }
}

/** What follows "sent" (the new id), or "kept in your pending review" (of which change request, and the comment's id). */
function detail(review: ReviewService, planned: Planned, r: ActResult): string {
  if (r.outcome === 'sent') return planned.sent(r);
  if (r.outcome !== 'pending') return '';
  const n = r.action.changeRequestId ? review.changeRequest(r.action.changeRequestId)?.number : undefined;
  return `${n !== undefined ? ` of #${n}` : ''}${planned.input.kind === 'postComment' ? ` (comment ${r.targetId})` : ''}`;
}

/** `comment new`: where it goes — a page (a file or a page id), a change request, or a page of one. */
async function planNew(
  review: ReviewService,
  mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'search'>,
  dir: string,
  args: ParsedArgs,
  api: Parameters<typeof changeRequestFor>[4],
  signal: AbortSignal,
): Promise<Planned> {
  const body = bodyFlag(args, 'quire comment new');
  const pageArg = flag(args, 'page');
  const crArg = flag(args, 'change-request');
  const lineArg = flag(args, 'line');
  if (pageArg === undefined && crArg === undefined) throw new UsageError('quire comment new needs --page <file or page id>, --change-request <n>, or both');
  if (lineArg !== undefined && (pageArg === undefined || crArg === undefined))
    throw new UsageError('--line is a line of a page in a change request: give --page and --change-request too');
  const line = lineArg === undefined ? null : parseNumber(lineArg, 'a line number');
  let spaceId: string | undefined = spaceFlags(args)[0];
  let pageId: string | null = null;
  let pageName = '';
  /** A file the folder does not have: looked for among the change request's pages. */
  let pageAsFile: string | null = null;
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
      // A page only a change request has is named by its id (the server checks it is there), or by its file there (found below).
      if (!(err instanceof PageNotFoundError) || crArg === undefined) throw err;
      if (/[/\\]|\.md$/i.test(pageArg)) pageAsFile = pageArg;
      else {
        pageId = pageArg;
        pageName = pageArg;
      }
    }
  }
  spaceId ??= spaceFor(mirror, args);
  const changeRequest = crArg !== undefined ? await changeRequestFor(review, mirror, withSpace(args, spaceId), parseNumber(crArg), api, signal) : null;
  if (changeRequest && (line !== null || pageAsFile !== null)) {
    // The change request as it is now: its pages and their lines.
    const note = await readContent(review, changeRequest.id, api, dir, signal);
    if (pageAsFile !== null) {
      const page = changedPage(review, mirror, changeRequest.id, dir, pageAsFile);
      if (!page)
        throw new PageNotFoundError(`${pageAsFile} is neither a page of this folder nor a page #${changeRequest.number} changes${note ? ` (${note})` : ''}.`);
      pageId = page.pageId;
      pageName = page.title;
    }
  }
  let target: { nodeId: string; revisionId: string } | null = null;
  if (changeRequest && pageId !== null && line !== null) {
    try {
      target = await review.lineTarget(api, changeRequest.id, pageId, line);
    } catch (err) {
      if (!(err instanceof LineCommentError)) throw err;
      if (err.reason === 'line') throw new UsageError(`--line ${line}: ${err.message}.`, { usage: false });
      throw new Error(`A comment on line ${line} of “${safeField(pageName)}”: ${err.message}. Run it again when the API is reachable.`);
    }
  }
  const where = [
    pageId !== null ? `${line !== null ? `line ${line} of ` : ''}“${safeField(pageName)}”` : null,
    changeRequest ? `change request #${changeRequest.number}` : null,
  ]
    .filter(Boolean)
    .join(' in ');
  return {
    input: { kind: 'postComment', spaceId, changeRequestId: changeRequest?.id ?? null, pageId, body, ...(target ?? {}) },
    what: `Comment on ${where}`,
    sent: (r) => ` (comment ${r.targetId})`,
  };
}

/** Reads the change request and its content from the server when it answers; what went wrong otherwise (null: read). */
async function readContent(review: ReviewService, changeRequestId: string, api: ApiClient | null, dir: string, signal: AbortSignal): Promise<string | null> {
  if (!api) return 'the API is not reachable';
  try {
    await review.readChangeRequest(api, changeRequestId, signal);
    await review.loadChangeRequestDiff(api, changeRequestId);
    return null;
  } catch (err) {
    if (signal.aborted) throw err;
    return errorMessage(err, dir);
  }
}

/** A page the change request adds, moves or changes, named by its file there (from the sync folder, or its space folder). */
function changedPage(
  review: ReviewService,
  mirror: Pick<Mirror, 'catalog'>,
  changeRequestId: string,
  dir: string,
  given: string,
): { pageId: string; title: string } | null {
  const files = review.changeRequestFiles(changeRequestId);
  if (!files) return null;
  const folder = mirror.catalog.space(files.spaceId)?.folder ?? '';
  const wanted = (isAbsolute(given) ? relative(dir, given) : given).replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const inSpace = folder !== '' && wanted.startsWith(`${folder}/`) ? wanted.slice(folder.length + 1) : wanted;
  return files.pages.find((p) => p.path === inSpace || p.previousPath === inSpace) ?? null;
}

/** The other verbs act on a comment or a reply, named by its id. */
async function planOnPost(
  review: ReviewService,
  verb: Exclude<Verb, 'new' | 'apply'>,
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
