/**
 * The offline action queue (core/review/queue.ts) on its own, over a mirror holding what a
 * refresh left: what it refuses at once (nothing bound to fail is queued), what it stores, how
 * an action on something created offline follows it, withdrawing and cancelling, and comments
 * kept in a pending review. Sending is test/review/actions.test.ts's, against the fake API.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../src/main/core/mirror';
import { ActionQueue } from '../../src/main/core/review/queue';

const SPACE = 'space-1';
const ALICE = { id: 'alice', displayName: 'Alice' };
const AT = '2026-05-01T10:00:00.000Z';

let mirror: Mirror;
let queue: ActionQueue;

/** A mirror as a refresh leaves it: an open and a merged change request, a comment of Alice's with a reply, one the user may not edit. */
beforeEach(() => {
  mirror = Mirror.open(mkdtempSync(join(tmpdir(), 'quire-queue-')));
  const { reviewRecords: review } = mirror;
  mirror.transaction(() => {
    review.putChangeRequest(SPACE, { id: 'cr-open', number: 1, status: 'open', subject: 'Rewrite', space: SPACE });
    review.putChangeRequest(SPACE, { id: 'cr-merged', number: 2, status: 'merged', subject: 'Typo', space: SPACE });
    review.putComment(SPACE, null, { id: 'c1', postedBy: ALICE, postedAt: AT, body: { markdown: 'Is this current?' } });
    review.putReply(SPACE, 'c1', { id: 'r1', postedBy: ALICE, postedAt: AT, body: { markdown: 'Yes.' } });
    review.putComment(SPACE, 'cr-open', {
      id: 'c2',
      postedBy: ALICE,
      postedAt: AT,
      body: { markdown: 'Not yours.' },
      permissions: { edit: false, delete: false, reply: true },
    });
  });
  queue = new ActionQueue(mirror);
});
afterEach(() => mirror.close());

const states = () => mirror.reviewActions.actions().map((a) => [a.kind, a.state]);

describe('what the queue refuses at once', () => {
  it.each([
    [{ kind: 'postComment', spaceId: SPACE, changeRequestId: 'cr-unknown', body: 'Hi' }, /change request cr-unknown is not in the mirror; refresh/],
    [{ kind: 'reply', commentId: 'c-unknown', body: 'Hi' }, /comment c-unknown is not in the mirror/],
    [{ kind: 'editReply', commentId: 'c1', replyId: 'r-unknown', body: 'Hi' }, /reply r-unknown is not in the mirror/],
    [{ kind: 'merge', spaceId: SPACE, changeRequestId: 'cr-merged' }, /already merged/],
    [{ kind: 'requestReviewer', spaceId: SPACE, changeRequestId: 'cr-merged', userId: 'bob' }, /#2 is merged/],
    [{ kind: 'editComment', commentId: 'c2', body: 'Mine now' }, /only edit your own/],
    [{ kind: 'deleteComment', commentId: 'c2' }, /only delete your own/],
    [{ kind: 'reply', commentId: 'c1', body: '   ' }, /the body is empty/],
  ] as const)('%o', (input, message) => {
    expect(() => queue.enqueue(input)).toThrow(message);
    expect(states()).toEqual([]);
  });

  it('refuses a merge the space does not allow the user', () => {
    const space = { id: SPACE, organization: 'org-1', title: 'Handbook', revision: 'rev-1' };
    mirror.catalog.upsertSpace(space, { ...space, permissions: { merge: false } });
    expect(() => queue.enqueue({ kind: 'merge', spaceId: SPACE, changeRequestId: 'cr-open' })).toThrow(/permission to merge/);
    expect(states()).toEqual([]);
  });
});

describe('what the queue stores', () => {
  it('queues an action with every id it touches, in the order taken', () => {
    const reply = queue.enqueue({ kind: 'reply', commentId: 'c1', body: 'Thanks' }, AT);
    const resolve = queue.enqueue({ kind: 'resolve', commentId: 'c1' }, AT);
    expect(reply).toMatchObject({ kind: 'reply', state: 'queued', spaceId: SPACE, changeRequestId: null, commentId: 'c1', payload: { body: 'Thanks' } });
    expect(reply.replyId).toMatch(/^local/);
    expect(resolve.seq).toBeGreaterThan(reply.seq);
    const edit = queue.enqueue({ kind: 'editChangeRequest', spaceId: SPACE, changeRequestId: 'cr-open', subject: '  A new\nsubject ' });
    expect(edit.payload.subject).toBe('A new subject');
    expect(states()).toEqual([
      ['reply', 'queued'],
      ['resolve', 'queued'],
      ['editChangeRequest', 'queued'],
    ]);
  });

  it('aims an action on a comment posted offline at that comment, and at its server id once sent', () => {
    const post = queue.enqueue({ kind: 'postComment', spaceId: SPACE, changeRequestId: 'cr-open', body: 'New thread' });
    const local = post.commentId!;
    expect(queue.currentId(local)).toBe(local);
    const reply = queue.enqueue({ kind: 'reply', commentId: local, body: 'And more' });
    expect(reply).toMatchObject({ commentId: local, changeRequestId: 'cr-open' });
    mirror.reviewActions.setActionState(post.id, 'done', { resultId: 'c-server' });
    expect(queue.currentId(local)).toBe('c-server');
    expect(queue.currentId('c1')).toBe('c1');
  });
});

describe('withdrawing and cancelling', () => {
  it('withdraws a comment posted offline, and what was queued on it, instead of queueing its deletion', () => {
    const post = queue.enqueue({ kind: 'postComment', spaceId: SPACE, body: 'Oops' });
    queue.enqueue({ kind: 'reply', commentId: post.commentId!, body: 'Reply to oops' });
    queue.enqueue({ kind: 'resolve', commentId: 'c1' });
    expect(queue.withdrawCreation(post.commentId!)).toBe(true);
    expect(states()).toEqual([
      ['postComment', 'dismissed'],
      ['reply', 'dismissed'],
      ['resolve', 'queued'],
    ]);
    expect(queue.withdrawCreation('c1')).toBe(false); // on the server: its deletion is an action of its own
  });

  it('cancels an action not sent yet, and refuses to cancel one it is sending or one it does not know', () => {
    const resolve = queue.enqueue({ kind: 'resolve', commentId: 'c1' });
    queue.dismiss(resolve.id);
    expect(states()).toEqual([['resolve', 'dismissed']]);
    expect(() => queue.dismiss('no-such-action')).toThrow(/No review action no-such-action/);

    const reopen = queue.enqueue({ kind: 'reopen', commentId: 'c1' });
    mirror.reviewActions.claim(reopen.id, { run: 'another-process', pid: process.pid, host: 'here', at: new Date().toISOString() }, true);
    expect(() => queue.dismiss(reopen.id)).toThrow(/being sent right now/);
  });
});

describe('comments kept in a pending review', () => {
  beforeEach(() => mirror.pendingReviews.open({ id: 'review-1', spaceId: SPACE, changeRequestId: 'cr-open', startedAt: AT }));

  it('keeps a comment on the change request as a draft of the review, editable in place until the review is sent', () => {
    const post = queue.enqueue({ kind: 'postComment', spaceId: SPACE, changeRequestId: 'cr-open', body: 'First draft' });
    expect(post).toMatchObject({ state: 'draft', payload: { review: 'review-1', body: 'First draft' } });
    expect(queue.keptInReview(post.commentId!)?.id).toBe(post.id);

    const amended = queue.amendKept({ kind: 'editComment', commentId: post.commentId!, body: 'Second draft' });
    expect(amended).toMatchObject({ id: post.id, state: 'draft', payload: { body: 'Second draft', review: 'review-1' } });
    expect(queue.amendKept({ kind: 'editComment', commentId: 'c1', body: 'Not kept' })).toBeNull();
    expect(() => queue.enqueue({ kind: 'reply', commentId: post.commentId!, body: 'Too soon' })).toThrow(/in your pending review/);
    expect(states()).toEqual([['postComment', 'draft']]);
  });

  it('takes a withdrawn draft out of its review', () => {
    const post = queue.enqueue({ kind: 'postComment', spaceId: SPACE, changeRequestId: 'cr-open', body: 'Never mind' });
    expect(queue.withdrawCreation(post.commentId!)).toBe(true);
    expect(mirror.reviewActions.action(post.id)).toMatchObject({ state: 'dismissed' });
    expect(mirror.reviewActions.action(post.id)?.payload.review).toBeUndefined();
    expect(mirror.reviewActions.ofReview('review-1')).toEqual([]);
  });

  it('does not keep a comment on the space itself in the review', () => {
    expect(queue.enqueue({ kind: 'postComment', spaceId: SPACE, body: 'On the space' }).state).toBe('queued');
  });
});
