/** Comments, replies and commenters, on a space or on one of its change requests. */
import { documentInputToMarkdown, type DocumentInput } from '../batch';
import { ApiError } from '../errors';
import { serializeCommentMarkdown } from '../markdown';
import type { CommentRec, ReplyRec } from '../model';
import { paginate } from '../paging';
import type { BodyFormat } from '../serialize';
import { noContent, ok, type RouteContext, type RouteTable } from './types';

/** A body a client wrote, as the fake stores it (markdown-settings.ts `commentMarkdown`). */
const stored = (ctx: RouteContext, body: unknown): string => {
  const markdown = documentInputToMarkdown(body as DocumentInput);
  return ctx.store.markdown.commentMarkdown === 'serialized' ? serializeCommentMarkdown(markdown) : markdown;
};

/** The change request of the route, when the path has one. */
const crOf = (ctx: RouteContext): string | undefined => ctx.params.changeRequestId;

const commentOf = (ctx: RouteContext): CommentRec => ctx.store.comment(ctx.param('spaceId'), ctx.param('commentId'), crOf(ctx));

const listComments = (ctx: RouteContext) => {
  const { store, json, query, pageSize } = ctx;
  const authors = Array.isArray(query.authors) ? (query.authors as string[]) : undefined;
  const list = store
    .commentsOf(store.space(ctx.param('spaceId')).id, crOf(ctx))
    .filter((c) => query.status === 'all' || c.status === query.status)
    .filter((c) => query.targetPage === undefined || c.pageId === query.targetPage)
    .filter((c) => authors === undefined || authors.includes(c.postedBy))
    .sort((a, b) => (a.postedAt < b.postedAt ? -1 : a.postedAt > b.postedAt ? 1 : 0));
  if (query.order !== 'asc') list.reverse();
  return ok(paginate(list, query, pageSize, (c) => json.comment(c, query.format as BodyFormat)));
};

const postComment = (ctx: RouteContext) => {
  const { store, json, body } = ctx;
  const comment = store.addComment(ctx.param('spaceId'), {
    body: stored(ctx, body.body),
    ...(typeof body.page === 'string' ? { page: body.page } : {}),
    ...(typeof body.node === 'string' ? { node: body.node } : {}),
    ...(crOf(ctx) !== undefined ? { changeRequest: crOf(ctx) } : {}),
  });
  return ok(json.comment(comment, undefined));
};

/** Only its author may change what a comment or reply says, or delete it (its permissions say so). */
function mustOwn(ctx: RouteContext, post: CommentRec | ReplyRec, what: string): void {
  if (post.postedBy !== ctx.store.currentUser.id) throw new ApiError(403, `You can only ${what} your own comments and replies.`);
}

const getComment = (ctx: RouteContext) => ok(ctx.json.comment(commentOf(ctx), ctx.query.format as BodyFormat));

const updateComment = (ctx: RouteContext) => {
  const { body } = ctx;
  const target = commentOf(ctx);
  if (body.body !== undefined) mustOwn(ctx, target, 'edit');
  const comment = ctx.store.updateComment(target, {
    ...(typeof body.resolved === 'boolean' ? { resolved: body.resolved } : {}),
    ...(body.body !== undefined ? { body: stored(ctx, body.body) } : {}),
    ...(Array.isArray(body.addedReactions) ? { addedReactions: body.addedReactions as string[] } : {}),
    ...(Array.isArray(body.removedReactions) ? { removedReactions: body.removedReactions as string[] } : {}),
  });
  return ok(ctx.json.comment(comment, undefined));
};

const deleteComment = (ctx: RouteContext) => {
  mustOwn(ctx, commentOf(ctx), 'delete');
  ctx.store.deleteComment(ctx.param('spaceId'), ctx.param('commentId'), crOf(ctx));
  return noContent();
};

const listReplies = (ctx: RouteContext) => {
  const comment = commentOf(ctx);
  return ok(paginate(comment.replies, ctx.query, ctx.pageSize, (r) => ctx.json.reply(comment, r, ctx.query.format as BodyFormat)));
};

const postReply = (ctx: RouteContext) => {
  const comment = commentOf(ctx);
  const reply = ctx.store.addReply(comment.spaceId, comment.id, {
    body: stored(ctx, ctx.body.body),
    ...(crOf(ctx) !== undefined ? { changeRequest: crOf(ctx) } : {}),
  });
  return ok(ctx.json.reply(comment, reply, undefined));
};

const getReply = (ctx: RouteContext) => {
  const comment = commentOf(ctx);
  return ok(ctx.json.reply(comment, ctx.store.reply(comment, ctx.param('commentReplyId')), ctx.query.format as BodyFormat));
};

const updateReply = (ctx: RouteContext) => {
  const comment = commentOf(ctx);
  const { body } = ctx;
  const target = ctx.store.reply(comment, ctx.param('commentReplyId'));
  if (body.body !== undefined) mustOwn(ctx, target, 'edit');
  const reply = ctx.store.updateReply(target, {
    ...(body.body !== undefined ? { body: stored(ctx, body.body) } : {}),
    ...(Array.isArray(body.addedReactions) ? { addedReactions: body.addedReactions as string[] } : {}),
    ...(Array.isArray(body.removedReactions) ? { removedReactions: body.removedReactions as string[] } : {}),
  });
  return ok(ctx.json.reply(comment, reply, undefined));
};

const deleteReply = (ctx: RouteContext) => {
  const comment = commentOf(ctx);
  mustOwn(ctx, ctx.store.reply(comment, ctx.param('commentReplyId')), 'delete');
  comment.replies = comment.replies.filter((r) => r.id !== ctx.param('commentReplyId'));
  return noContent();
};

const listCommenters = (ctx: RouteContext) => {
  const firstSeen = new Map<string, string>();
  for (const comment of ctx.store.commentsOf(ctx.store.space(ctx.param('spaceId')).id, crOf(ctx))) {
    for (const post of [comment, ...comment.replies]) {
      if (!firstSeen.has(post.postedBy)) firstSeen.set(post.postedBy, post.postedAt);
    }
  }
  return ok(paginate([...firstSeen], ctx.query, ctx.pageSize, ([userId, at]) => ctx.json.member(userId, at)));
};

export const commentRoutes: RouteTable = {
  listCommentsInSpace: listComments,
  postCommentInSpace: postComment,
  getCommentInSpace: getComment,
  updateCommentInSpace: updateComment,
  deleteCommentInSpace: deleteComment,
  listCommentRepliesInSpace: listReplies,
  postCommentReplyInSpace: postReply,
  getCommentReplyInSpace: getReply,
  updateCommentReplyInSpace: updateReply,
  deleteCommentReplyInSpace: deleteReply,
  listCommentersInSpace: listCommenters,

  listCommentsInChangeRequest: listComments,
  postCommentInChangeRequest: postComment,
  getCommentInChangeRequest: getComment,
  updateCommentInChangeRequest: updateComment,
  deleteCommentInChangeRequest: deleteComment,
  listCommentRepliesInChangeRequest: listReplies,
  postCommentReplyInChangeRequest: postReply,
  getCommentReplyInChangeRequest: getReply,
  updateCommentReplyInChangeRequest: updateReply,
  deleteCommentReplyInChangeRequest: deleteReply,
  listCommentersInChangeRequest: listCommenters,
};
