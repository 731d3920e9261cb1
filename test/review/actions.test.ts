import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput, ReviewService } from '../../src/main/core/review';
import type { FakeStore } from '../fake';
import type { CommentRec } from '../fake/model';
import { reviewWorld, seedReview, type ReviewWorld } from './setup';

let w: ReviewWorld;
let seeded: ReturnType<typeof seedReview> & { mine: CommentRec; myReply: string };

beforeEach(async () => {
  w = await reviewWorld();
  const base = seedReview(w);
  const { store } = w.fake;
  const mine = store.addComment(w.space.id, { body: 'My own note', page: w.pages.Guide });
  const myReply = store.addReply(w.space.id, base.spaceComment.id, { body: 'My reply' }).id;
  store.updateComment(base.crComment, { addedReactions: ['🎉'] });
  store.org(w.org.id).memberIds.push(w.alice.id, w.bob.id);
  base.open.requestedReviewers = [w.bob.id];
  seeded = { ...base, mine, myReply };
  await w.review.refresh(w.api, { sites: false });
});
afterEach(async () => {
  await w.close();
});

const me = () => w.fake.store.currentUser.id;
const serverComment = (id: string): CommentRec => w.fake.store.comments.get(id)!;
const myReactions = (target: { reactions: { emoji: string; userId: string }[] }) => target.reactions.filter((r) => r.userId === me()).map((r) => r.emoji);

interface Case {
  name: string;
  input: () => ActionInput;
  /** What the mirror shows once the action is taken (before or after sending). */
  local: (review: ReviewService) => void;
  /** What the server holds once the action was sent. */
  server: (store: FakeStore) => void;
}

const cases: Case[] = [
  {
    name: 'reply to a comment',
    input: () => ({ kind: 'reply', commentId: seeded.spaceComment.id, body: 'Agreed.' }),
    local: (r) => {
      expect(r.replies(seeded.spaceComment.id).map((x) => x.body)).toContain('Agreed.');
      expect(r.comment(seeded.spaceComment.id)?.replyCount).toBe(4);
    },
    server: () => expect(serverComment(seeded.spaceComment.id).replies.map((x) => x.markdown)).toContain('Agreed.'),
  },
  {
    name: 'reply to a change request comment',
    input: () => ({ kind: 'reply', commentId: seeded.crComment.id, body: 'Looks good now.' }),
    local: (r) => expect(r.replies(seeded.crComment.id).map((x) => x.body)).toContain('Looks good now.'),
    server: () => expect(serverComment(seeded.crComment.id).replies.map((x) => x.markdown)).toContain('Looks good now.'),
  },
  {
    name: 'post a comment on a page',
    input: () => ({ kind: 'postComment', spaceId: w.space.id, pageId: w.pages.Welcome, body: 'Add a picture here.' }),
    local: (r) => expect(r.unresolvedComments({ pageId: w.pages.Welcome }).map((c) => c.body)).toContain('Add a picture here.'),
    server: (s) =>
      expect([...s.comments.values()].find((c) => c.markdown === 'Add a picture here.')).toMatchObject({ pageId: w.pages.Welcome, postedBy: me() }),
  },
  {
    name: 'post a comment on a change request',
    input: () => ({ kind: 'postComment', spaceId: w.space.id, changeRequestId: seeded.open.id, body: 'Please also update the index.' }),
    local: (r) => expect(r.unresolvedComments({ changeRequestId: seeded.open.id }).map((c) => c.body)).toContain('Please also update the index.'),
    server: (s) =>
      expect([...s.comments.values()].find((c) => c.markdown === 'Please also update the index.')).toMatchObject({ changeRequestId: seeded.open.id }),
  },
  {
    name: 'edit one’s own comment',
    input: () => ({ kind: 'editComment', commentId: seeded.mine.id, body: 'My own note, clarified' }),
    local: (r) => expect(r.comment(seeded.mine.id)?.body).toBe('My own note, clarified'),
    server: () => expect(serverComment(seeded.mine.id).markdown).toBe('My own note, clarified'),
  },
  {
    name: 'edit one’s own reply',
    input: () => ({ kind: 'editReply', commentId: seeded.spaceComment.id, replyId: seeded.myReply, body: 'My reply, edited' }),
    local: (r) => expect(r.replies(seeded.spaceComment.id).find((x) => x.id === seeded.myReply)?.body).toBe('My reply, edited'),
    server: () => expect(serverComment(seeded.spaceComment.id).replies.find((x) => x.id === seeded.myReply)?.markdown).toBe('My reply, edited'),
  },
  {
    name: 'add a reaction to a comment',
    input: () => ({ kind: 'addReaction', commentId: seeded.spaceComment.id, emoji: '👍' }),
    local: (r) => expect(r.comment(seeded.spaceComment.id)?.reactions).toMatchObject([{ emoji: '👍', count: 2, mine: true }]),
    server: () => expect(myReactions(serverComment(seeded.spaceComment.id))).toEqual(['👍']),
  },
  {
    name: 'remove a reaction from a comment',
    input: () => ({ kind: 'removeReaction', commentId: seeded.crComment.id, emoji: '🎉' }),
    local: (r) => expect(r.comment(seeded.crComment.id)?.reactions).toEqual([]),
    server: () => expect(myReactions(serverComment(seeded.crComment.id))).toEqual([]),
  },
  {
    name: 'add a reaction to a reply',
    input: () => ({ kind: 'addReaction', commentId: seeded.spaceComment.id, replyId: seeded.myReply, emoji: '❤️' }),
    local: (r) => expect(r.replies(seeded.spaceComment.id).find((x) => x.id === seeded.myReply)?.reactions).toMatchObject([{ emoji: '❤️', mine: true }]),
    server: () => expect(myReactions(serverComment(seeded.spaceComment.id).replies.find((x) => x.id === seeded.myReply)!)).toEqual(['❤️']),
  },
  {
    name: 'resolve a comment',
    input: () => ({ kind: 'resolve', commentId: seeded.spaceComment.id }),
    local: (r) => {
      expect(r.comment(seeded.spaceComment.id)?.status).toBe('resolved');
      expect(r.unresolvedComments().map((c) => c.id)).not.toContain(seeded.spaceComment.id);
    },
    server: () => expect(serverComment(seeded.spaceComment.id)).toMatchObject({ status: 'resolved', resolvedBy: me() }),
  },
  {
    name: 'reopen a comment',
    input: () => ({ kind: 'reopen', commentId: seeded.resolvedComment.id }),
    local: (r) => expect(r.unresolvedComments().map((c) => c.id)).toContain(seeded.resolvedComment.id),
    server: () => expect(serverComment(seeded.resolvedComment.id).status).toBe('open'),
  },
  {
    name: 'change a change request’s subject and status',
    input: () => ({ kind: 'editChangeRequest', spaceId: w.space.id, changeRequestId: seeded.draft.id, subject: 'Ready idea', status: 'open' }),
    local: (r) => expect(r.changeRequest(seeded.draft.id)).toMatchObject({ subject: 'Ready idea', status: 'open' }),
    server: (s) => expect(s.changeRequest(w.space.id, seeded.draft.id)).toMatchObject({ subject: 'Ready idea', status: 'open' }),
  },
  {
    name: 'update a change request from main',
    input: () => ({ kind: 'updateFromMain', spaceId: w.space.id, changeRequestId: seeded.open.id }),
    local: (r) => expect(r.changeRequest(seeded.open.id)?.outdated).toBe(false),
    server: (s) => expect(s.isOutdated(s.changeRequest(w.space.id, seeded.open.id))).toBe(false),
  },
  {
    name: 'delete one’s own comment',
    input: () => ({ kind: 'deleteComment', commentId: seeded.mine.id }),
    local: (r) => {
      expect(r.comment(seeded.mine.id)).toBeUndefined();
      expect(r.unresolvedComments().map((c) => c.id)).not.toContain(seeded.mine.id);
      expect(w.mirror.search.search('clarified OR own').map((h) => ('commentId' in h ? h.commentId : null))).not.toContain(seeded.mine.id);
    },
    server: () => expect(w.fake.store.comments.has(seeded.mine.id)).toBe(false),
  },
  {
    name: 'delete one’s own reply',
    input: () => ({ kind: 'deleteReply', commentId: seeded.spaceComment.id, replyId: seeded.myReply }),
    local: (r) => {
      expect(r.replies(seeded.spaceComment.id).map((x) => x.id)).not.toContain(seeded.myReply);
      expect(r.comment(seeded.spaceComment.id)?.replyCount).toBe(2);
    },
    server: () => expect(serverComment(seeded.spaceComment.id).replies.map((x) => x.id)).not.toContain(seeded.myReply),
  },
  {
    name: 'ask a member to review',
    input: () => ({ kind: 'requestReviewer', spaceId: w.space.id, changeRequestId: seeded.open.id, userId: w.alice.id, displayName: 'Alice Reviewer' }),
    local: (r) =>
      expect(
        r
          .requestedReviewers(seeded.open.id)
          .map((x) => x.displayName)
          .sort(),
      ).toEqual(['Alice Reviewer', 'Bob Writer']),
    server: (s) => expect(s.changeRequest(w.space.id, seeded.open.id).requestedReviewers).toEqual([w.bob.id, w.alice.id]),
  },
  {
    name: 'withdraw a review request',
    input: () => ({ kind: 'removeReviewer', spaceId: w.space.id, changeRequestId: seeded.open.id, userId: w.bob.id }),
    local: (r) => expect(r.requestedReviewers(seeded.open.id).filter((x) => x.pending !== 'remove')).toEqual([]),
    server: (s) => expect(s.changeRequest(w.space.id, seeded.open.id).requestedReviewers).toEqual([]),
  },
  {
    name: 'merge a change request',
    input: () => ({ kind: 'merge', spaceId: w.space.id, changeRequestId: seeded.open.id }),
    local: (r) => expect(r.changeRequest(seeded.open.id)?.status).toBe('merged'),
    server: (s) => expect(s.changeRequest(w.space.id, seeded.open.id).status).toBe('merged'),
  },
];

describe('review actions online', () => {
  it.each(cases)('$name: sent at once', async ({ input, local, server }) => {
    const result = await w.review.act(input(), w.api);
    expect(result).toMatchObject({ outcome: 'sent', message: null });
    server(w.fake.store);
    local(w.review);
    expect(w.review.actions()).toEqual([]);
    // What the server answered is what the mirror holds: a refresh changes nothing the user sees.
    await w.review.refresh(w.api, { sites: false, full: true });
    local(w.review);
  });
});

describe('review actions offline', () => {
  it.each(cases)('$name: queued, shown as pending, sent on replay', async ({ input, local, server }) => {
    w.fake.faults.offline = true;
    const result = await w.review.act(input(), w.api);
    expect(result.outcome).toBe('queued');
    expect(result.message).toMatch(/connection|reach/i);
    local(w.review);
    expect(() => server(w.fake.store)).toThrow();
    const pendingSomewhere =
      w.review.comments({ status: 'all' }).some((c) => c.pending) ||
      w.review.changeRequests().some((cr) => cr.pending) ||
      w.review.comments({ status: 'all' }).some((c) => w.review.replies(c.id).some((r) => r.pending)) ||
      // A deletion takes the comment or reply out of view at once; the queue shows it waiting.
      w.review.actions().some((a) => a.kind === 'deleteComment' || a.kind === 'deleteReply');
    expect(pendingSomewhere).toBe(true);

    w.fake.faults.offline = false;
    const report = await w.review.replay(w.api);
    expect(report).toMatchObject({ remaining: 0, stoppedBy: null, refused: [] });
    expect(report.sent).toHaveLength(1);
    server(w.fake.store);
    local(w.review);
    expect(w.review.comments({ status: 'all' }).some((c) => c.pending)).toBe(false);
    expect(w.review.changeRequests().some((cr) => cr.pending)).toBe(false);
  });
});

describe('deleting', () => {
  it('a comment posted offline and deleted before it was sent is withdrawn: nothing reaches the server', async () => {
    // No connection at all: nothing was tried, so nothing can have reached the server.
    const posted = await w.review.act({ kind: 'postComment', spaceId: w.space.id, pageId: w.pages.Guide, body: 'Never mind' }, null);
    await w.review.act({ kind: 'reply', commentId: posted.targetId!, body: 'and this' }, null);
    const deleted = await w.review.act({ kind: 'deleteComment', commentId: posted.targetId! }, null);
    expect(deleted.outcome).toBe('withdrawn');
    expect(w.review.comment(posted.targetId!)).toBeUndefined();
    expect(w.review.actions()).toEqual([]);
    w.fake.faults.offline = false;
    w.fake.resetLog();
    expect((await w.review.replay(w.api)).sent).toEqual([]);
    expect(w.fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a comment whose sending may have reached the server is deleted after it, in order', async () => {
    w.fake.faults.offline = true; // the connection drops: the post may have arrived
    const posted = await w.review.act({ kind: 'postComment', spaceId: w.space.id, body: 'Sent into the void' }, w.api);
    const deleted = await w.review.act({ kind: 'deleteComment', commentId: posted.targetId! }, w.api);
    expect(deleted.outcome).toBe('queued');
    expect(w.review.comment(posted.targetId!)).toBeUndefined();
    w.fake.faults.offline = false;
    const report = await w.review.replay(w.api);
    expect(report.sent.map((a) => a.kind)).toEqual(['postComment', 'deleteComment']);
    expect([...w.fake.store.comments.values()].map((c) => c.markdown)).not.toContain('Sent into the void');
    expect(w.review.comment(posted.targetId!)).toBeUndefined();
  });

  it('a deletion the server refuses brings the comment back with the reason, and the rest of the queue goes on', async () => {
    w.fake.faults.offline = true;
    await w.review.act({ kind: 'deleteComment', commentId: seeded.mine.id }, w.api);
    await w.review.act({ kind: 'resolve', commentId: seeded.spaceComment.id }, w.api);
    expect(w.review.comment(seeded.mine.id)).toBeUndefined();
    // Someone else's comment now, on the server: the deletion will be refused (403).
    serverComment(seeded.mine.id).postedBy = w.alice.id;
    w.fake.faults.offline = false;
    const report = await w.review.replay(w.api);
    expect(report.refused.map((a) => [a.kind, a.message])).toEqual([['deleteComment', expect.stringMatching(/only delete your own.*\(403\)/)]]);
    expect(report.sent.map((a) => a.kind)).toEqual(['resolve']);
    expect(w.review.comment(seeded.mine.id)).toMatchObject({ body: 'My own note', pending: false });
    expect(w.review.refusedActions().map((a) => a.commentId)).toEqual([seeded.mine.id]);
  });

  it('refuses at once to delete someone else’s comment (the server’s permissions say so)', async () => {
    await expect(w.review.act({ kind: 'deleteComment', commentId: seeded.spaceComment.id }, w.api)).rejects.toThrow(/only delete your own/);
  });
});

describe('the offline queue', () => {
  it('replays in order, including actions on things created offline', async () => {
    w.fake.faults.offline = true;
    const posted = await w.review.act({ kind: 'postComment', spaceId: w.space.id, pageId: w.pages.Guide, body: 'Offline thought' }, w.api);
    const localCommentId = posted.targetId!;
    expect(localCommentId).toMatch(/^local:/);
    const replied = await w.review.act({ kind: 'reply', commentId: localCommentId, body: 'And a follow-up' }, w.api);
    await w.review.act({ kind: 'editReply', commentId: localCommentId, replyId: replied.targetId!, body: 'And a better follow-up' }, w.api);
    await w.review.act({ kind: 'resolve', commentId: localCommentId }, w.api);
    expect(w.review.comment(localCommentId)).toMatchObject({ status: 'resolved', pending: true, replyCount: 1 });
    expect(w.review.replies(localCommentId).map((r) => [r.body, r.pending])).toEqual([['And a better follow-up', true]]);

    w.fake.faults.offline = false;
    w.fake.resetLog();
    const report = await w.review.replay(w.api);
    expect(report.sent.map((a) => a.kind)).toEqual(['postComment', 'reply', 'editReply', 'resolve']);
    const writes = w.fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/\/(comment|reply)_[^/]+/g, '/:id')}`);
    expect(writes).toEqual([
      `POST /v1/spaces/${w.space.id}/comments`,
      `POST /v1/spaces/${w.space.id}/comments/:id/replies`,
      `PUT /v1/spaces/${w.space.id}/comments/:id/replies/:id`,
      `PUT /v1/spaces/${w.space.id}/comments/:id`,
    ]);

    const onServer = [...w.fake.store.comments.values()].find((c) => c.markdown === 'Offline thought')!;
    expect(onServer).toMatchObject({ status: 'resolved', pageId: w.pages.Guide });
    expect(onServer.replies.map((r) => r.markdown)).toEqual(['And a better follow-up']);
    // The local id still leads to the comment, now under its server id.
    expect(w.review.comment(localCommentId)).toMatchObject({ id: onServer.id, status: 'resolved', pending: false });
  });

  it('records a refused replay with the server message and goes on with the rest', async () => {
    w.fake.faults.offline = true;
    await w.review.act({ kind: 'resolve', commentId: seeded.spaceComment.id }, w.api);
    await w.review.act({ kind: 'reply', commentId: seeded.crComment.id, body: 'Still sent' }, w.api);
    w.fake.store.deleteComment(w.space.id, seeded.spaceComment.id); // someone deleted it meanwhile
    w.fake.faults.offline = false;

    const report = await w.review.replay(w.api);
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0]).toMatchObject({ kind: 'resolve', state: 'refused', commentId: seeded.spaceComment.id });
    expect(report.refused[0]!.message).toMatch(/does not exist.*\(404\)/);
    expect(report.sent.map((a) => a.kind)).toEqual(['reply']);
    expect(serverComment(seeded.crComment.id).replies.map((r) => r.markdown)).toContain('Still sent');
    // The optimistic effect is withdrawn; the refusal stays visible until dismissed.
    expect(w.review.comment(seeded.spaceComment.id)).toMatchObject({ status: 'open', pending: false });
    expect(w.review.refusedActions().map((a) => a.kind)).toEqual(['resolve']);
    w.review.dismiss(report.refused[0]!.id);
    expect(w.review.refusedActions()).toEqual([]);
  });

  it('refuses what depends on a refused creation without sending it', async () => {
    w.fake.faults.offline = true;
    const posted = await w.review.act({ kind: 'postComment', spaceId: w.space.id, pageId: 'no-such-page', body: 'On a page that is gone' }, w.api);
    await w.review.act({ kind: 'reply', commentId: posted.targetId!, body: 'Reply to it' }, w.api);
    w.fake.faults.offline = false;
    w.fake.resetLog();

    const report = await w.review.replay(w.api);
    expect(report.refused.map((a) => a.kind)).toEqual(['postComment', 'reply']);
    expect(report.refused[1]!.message).toMatch(/depends on a comment that was never posted/);
    expect(w.fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(w.fake.takeViolations()).toEqual([]);
    expect(w.review.comment(posted.targetId!)).toBeUndefined();
  });

  it('keeps queued actions and their pending effect across a restart', async () => {
    w.fake.faults.offline = true;
    await w.review.act({ kind: 'resolve', commentId: seeded.spaceComment.id }, w.api);
    await w.review.act({ kind: 'reply', commentId: seeded.crComment.id, body: 'Written on the train' }, w.api);
    w.reopen();
    expect(w.review.actions().map((a) => a.kind)).toEqual(['resolve', 'reply']);
    expect(w.review.comment(seeded.spaceComment.id)).toMatchObject({ status: 'resolved', pending: true });
    expect(w.review.replies(seeded.crComment.id).find((r) => r.body === 'Written on the train')?.pending).toBe(true);

    w.fake.faults.offline = false;
    const { replay, refresh } = await w.review.sync(w.api, { sites: false });
    expect(replay.sent).toHaveLength(2);
    expect(refresh).not.toBeNull();
    expect(serverComment(seeded.spaceComment.id).status).toBe('resolved');
    expect(w.review.replies(seeded.crComment.id).find((r) => r.body === 'Written on the train')?.pending).toBe(false);
  });

  it('keeps a pending effect through a refresh that runs before the replay', async () => {
    w.fake.faults.offline = true;
    await w.review.act({ kind: 'resolve', commentId: seeded.spaceComment.id }, w.api);
    w.fake.faults.offline = false;
    await w.review.refresh(w.api, { sites: false, full: true });
    expect(w.review.comment(seeded.spaceComment.id)).toMatchObject({ status: 'resolved', pending: true });
  });

  it('refuses at once an action on something the mirror does not know', () => {
    expect(() => w.review.enqueue({ kind: 'resolve', commentId: 'nope' })).toThrow(/comment nope is not in the mirror/);
    expect(() => w.review.enqueue({ kind: 'reply', commentId: seeded.spaceComment.id, body: '  ' })).toThrow(/body is empty/);
    expect(w.review.actions()).toEqual([]);
  });
});

describe('no action is sent twice', () => {
  /** A fetch that lets the server apply matching requests but loses the answer, as a crash would. */
  const losingAnswers = (match: (method: string, url: string) => boolean, times: number, beforeSending = false) => {
    let left = times;
    const lossy: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (left > 0 && match(request.method, request.url)) {
        left -= 1;
        if (!beforeSending) await fetch(request);
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      }
      return fetch(request);
    };
    return w.client({ fetch: lossy });
  };
  const isReplyPost = (method: string, url: string) => method === 'POST' && url.endsWith('/replies');
  const repliesSaying = (commentId: string, body: string) => serverComment(commentId).replies.filter((r) => r.markdown === body);

  it('after the server applied a reply but the answer was lost, and the app restarted', async () => {
    const result = await w.review.act({ kind: 'reply', commentId: seeded.spaceComment.id, body: 'Exactly once' }, losingAnswers(isReplyPost, 1));
    expect(result.outcome).toBe('queued');
    expect(result.action.state).toBe('sending');
    expect(repliesSaying(seeded.spaceComment.id, 'Exactly once')).toHaveLength(1);

    w.reopen();
    w.fake.resetLog();
    const report = await w.review.replay(w.api);
    expect(report.sent).toHaveLength(1);
    expect(w.fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(repliesSaying(seeded.spaceComment.id, 'Exactly once')).toHaveLength(1);
    const reply = w.review.replies(seeded.spaceComment.id).filter((r) => r.body === 'Exactly once');
    expect(reply).toMatchObject([{ pending: false, id: repliesSaying(seeded.spaceComment.id, 'Exactly once')[0]!.id }]);
  });

  it('even when a refresh mirrored the lost reply before the replay', async () => {
    await w.review.act({ kind: 'reply', commentId: seeded.spaceComment.id, body: 'Seen by refresh' }, losingAnswers(isReplyPost, 1));
    w.reopen();
    await w.review.refresh(w.api, { sites: false });
    expect(w.review.replies(seeded.spaceComment.id).filter((r) => r.body === 'Seen by refresh')).toHaveLength(2); // server's + pending
    await w.review.replay(w.api);
    expect(repliesSaying(seeded.spaceComment.id, 'Seen by refresh')).toHaveLength(1);
    expect(w.review.replies(seeded.spaceComment.id).filter((r) => r.body === 'Seen by refresh')).toMatchObject([{ pending: false }]);
    expect(w.review.comment(seeded.spaceComment.id)?.replyCount).toBe(serverComment(seeded.spaceComment.id).replies.length);
  });

  it('after a crash before the request left: sent once on replay', async () => {
    await w.review.act({ kind: 'reply', commentId: seeded.spaceComment.id, body: 'Never arrived' }, losingAnswers(isReplyPost, 1, true));
    expect(repliesSaying(seeded.spaceComment.id, 'Never arrived')).toHaveLength(0);
    w.reopen();
    await w.review.replay(w.api);
    expect(repliesSaying(seeded.spaceComment.id, 'Never arrived')).toHaveLength(1);
  });

  it('two identical replies, the first lost in flight: each reaches the server exactly once', async () => {
    w.fake.faults.offline = true;
    await w.review.act({ kind: 'reply', commentId: seeded.spaceComment.id, body: '+1' }, w.api);
    await w.review.act({ kind: 'reply', commentId: seeded.spaceComment.id, body: '+1' }, w.api);
    w.fake.faults.offline = false;
    const first = await w.review.replay(losingAnswers(isReplyPost, 1));
    expect(first.stoppedBy).toMatch(/may or may not have been applied/);
    w.reopen();
    const second = await w.review.replay(w.api);
    expect(second.sent).toHaveLength(2);
    expect(repliesSaying(seeded.spaceComment.id, '+1')).toHaveLength(2);
    expect(w.review.replies(seeded.spaceComment.id).filter((r) => r.body === '+1')).toHaveLength(2);
  });

  it('a comment posted, then lost in flight, is found on the server rather than posted again', async () => {
    const isCommentPost = (method: string, url: string) => method === 'POST' && /\/change-requests\/[^/]+\/comments$/.test(url);
    await w.review.act({ kind: 'postComment', spaceId: w.space.id, changeRequestId: seeded.open.id, body: 'Once only' }, losingAnswers(isCommentPost, 1));
    w.reopen();
    await w.review.replay(w.api);
    expect([...w.fake.store.comments.values()].filter((c) => c.markdown === 'Once only')).toHaveLength(1);
    expect(w.review.unresolvedComments({ changeRequestId: seeded.open.id }).filter((c) => c.body === 'Once only')).toMatchObject([{ pending: false }]);
  });

  it('a merge whose answer was lost is recognised as done', async () => {
    const isMerge = (method: string, url: string) => method === 'POST' && url.endsWith('/merge');
    const result = await w.review.act({ kind: 'merge', spaceId: w.space.id, changeRequestId: seeded.open.id }, losingAnswers(isMerge, 1));
    expect(result.outcome).toBe('queued');
    w.reopen();
    w.fake.resetLog();
    const report = await w.review.replay(w.api);
    expect(report).toMatchObject({ refused: [], remaining: 0 });
    expect(w.fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(w.review.changeRequest(seeded.open.id)).toMatchObject({ status: 'merged', pending: false });
  });
});
