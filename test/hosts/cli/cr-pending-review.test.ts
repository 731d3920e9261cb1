/**
 * Issue 30, item 3 through the command line against the fake: a pending review. `cr review <n>
 * --start` opens it; comments on the change request made while it is open are kept in the
 * folder (listed with `--pending`, editable, deletable) and sent with the verdict, in order,
 * by `cr review <n> --approve|--request-changes|--comment`; each is sent once, also when the
 * connection drops half-way (the rest is queued and sent by the next sync); `--discard` drops it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { ChangeRequestRec, SpaceRec, UserRec } from '../../fake/model';
import { quire, tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let space: SpaceRec;
let cr: ChangeRequestRec;
let alex: UserRec;

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env: { QUIRE_TOKEN: fake.token } });
const commentId = async (...argv: string[]): Promise<string> => {
  const r = await run('comment', 'new', '--change-request', '1', ...argv, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).targetId as string;
};
const writes = () =>
  fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/^\/v1\/spaces\/[^/]+/, '').replace(/\/cr_[^/]+/, '/:cr')}`);
/** The change request's comments on the server, oldest first. */
const onServer = () => fake.store.commentsOf(space.id, cr.id).map((c) => c.markdown.trim());
const postsOfComments = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith(`/change-requests/${cr.id}/comments`);

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  alex = fake.store.addUser({ displayName: 'Alex Rivera' });
  const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'Setup', markdown: 'Set it up.\n' },
    ],
  });
  cr = fake.store.addChangeRequest(space.id, { subject: 'Better setup', createdBy: alex.id });
  fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Setup').id, { markdown: 'Set it up, well.\n' }, { changeRequest: cr.id });
  expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

describe('a pending review', () => {
  it('keeps its comments here (listed, editable, deletable) and sends them with the verdict, in order, once', async () => {
    const started = await run('cr', 'review', '1', '--start');
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^Started a pending review of #1: /);
    fake.resetLog();

    const kept = await run('comment', 'new', '--change-request', '1', '--body', 'First remark');
    expect(kept.stdout).toMatch(/^Comment on change request #1: kept in your pending review of #1 \(comment local:\S+\); it is sent with your verdict\.$/);
    await commentId('--page', 'guide/setup.md', '--body', 'About this page');
    const third = await commentId('--body', 'Third remark');
    const scrap = await commentId('--body', 'Scrap me');
    expect((await run('comment', 'edit', third, '--body', 'Third remark, clarified')).stdout).toMatch(/kept in your pending review/);
    expect((await run('comment', 'delete', scrap)).stdout).toMatch(/withdrawn, nothing reaches the server/);
    expect((await run('comment', 'resolve', third)).stderr).toMatch(/in your pending review/);

    const pending = await run('cr', 'review', '1', '--pending');
    expect(pending.stdout).toMatch(
      /^Your pending review of #1 \(started .+\): 3 comments\n {2}local:\S+ on change request #1: First remark\n {2}local:\S+ on “Setup”: About this page\n {2}local:\S+ on change request #1: Third remark, clarified$/,
    );
    const listed = JSON.parse((await run('cr', 'review', '1', '--pending', '--json')).stdout);
    expect(listed.pendingReview.comments.map((c: { body: string; pending: boolean }) => c.body)).toEqual([
      'First remark',
      'About this page',
      'Third remark, clarified',
    ]);
    const review = JSON.parse((await run('review', '--json')).stdout);
    expect(review.comments.filter((c: { pending: boolean }) => c.pending).map((c: { body: string }) => c.body)).toHaveLength(3);
    expect(writes()).toEqual([]);
    expect(onServer()).toEqual([]);

    const finished = await run('cr', 'review', '1', '--approve', '--body', 'Ship it.');
    expect(finished.stdout, finished.stderr).toBe('Approving #1: sent, with the 3 comments of your pending review.');
    expect(finished.code).toBe(0);
    expect(writes()).toEqual([
      'POST /change-requests/:cr/comments',
      'POST /change-requests/:cr/comments',
      'POST /change-requests/:cr/comments',
      'POST /change-requests/:cr/reviews',
    ]);
    expect(onServer()).toEqual(['First remark', 'About this page', 'Third remark, clarified', 'Ship it.']);
    expect(fake.store.review.reviewsOf(cr.id).map((r) => [r.status, r.reviewer])).toEqual([['approved', fake.store.currentUser.id]]);
    expect((await run('cr', 'review', '1', '--pending')).stdout).toBe('No pending review of #1: `quire cr review 1 --start` opens one.');
    const after = JSON.parse((await run('review', '--json')).stdout);
    expect(after.comments.every((c: { pending: boolean }) => !c.pending)).toBe(true);
  });

  it('sends each comment and the verdict once when the connection drops half-way; the next sync sends the rest', async () => {
    await run('cr', 'review', '1', '--start');
    for (const body of ['One', 'Two', 'Three']) await commentId('--body', body);
    let posts = 0;
    // The second comment reaches the server and its answer is lost; the third's connection drops before it is read.
    fake.faults.loseAnswer(1, { match: (r) => postsOfComments(r) && ++posts === 2 });
    fake.faults.drop(1, { match: (r) => postsOfComments(r) && posts >= 2 });
    fake.faults.loseAnswer(1, { match: (r) => r.method === 'POST' && r.path.endsWith('/reviews') });

    const first = await run('cr', 'review', '1', '--request-changes', '--body', 'Needs work.');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Requesting changes on #1: 1 of 3 comments sent; the rest of your review \(2 comments and your verdict\) is queued — .+\. The next `quire sync` \(or `quire review`\) sends it, nothing twice\.$/,
    );
    expect(onServer()).toEqual(['One', 'Two']);
    expect((await run('cr', 'review', '1', '--pending')).stdout).toMatch(/^No pending review of #1/);

    for (let i = 0; i < 3 && fake.store.review.reviewsOf(cr.id).length === 0; i++) await run('review');
    await run('sync', '--once');
    expect(onServer()).toEqual(['One', 'Two', 'Three', 'Needs work.']);
    expect(fake.store.review.reviewsOf(cr.id).map((r) => r.status)).toEqual(['changes-requested']);
    expect(fake.faults.pending).toBe(0);
    const review = JSON.parse((await run('review', '--json')).stdout);
    expect(review.comments.filter((c: { pending: boolean }) => c.pending)).toEqual([]);
    expect(JSON.parse((await run('cr', 'show', '1', '--json')).stdout).reviews).toEqual([
      expect.objectContaining({ reviewer: 'Casey Quire', status: 'changes-requested', comment: 'Needs work.' }),
    ]);
  });

  it('holds the verdict back when the server refuses a comment of the review', async () => {
    await run('cr', 'review', '1', '--start');
    for (const body of ['Fine', 'Refused one', 'Also fine']) await commentId('--body', body);
    let posts = 0;
    fake.faults.fail(1, 422, { match: (r) => postsOfComments(r) && ++posts === 2 });
    const finished = await run('cr', 'review', '1', '--approve');
    expect(finished.code).toBe(1);
    expect(finished.stdout).toMatch(
      /^Approving #1: 2 of 3 comments sent; refused by the server — your comment “Refused one” on change request #1: .*\(422\); your review of change request #1 \(approving it\): A comment of this review was never posted .*: the verdict was held back; give it again\./,
    );
    expect(onServer()).toEqual(['Fine', 'Also fine']);
    expect(fake.store.review.reviewsOf(cr.id)).toEqual([]);
  });

  it('finishes with comments only (the API has no comment-only review), or is discarded with nothing sent', async () => {
    await run('cr', 'review', '1', '--start');
    await commentId('--body', 'Just a thought');
    const finished = await run('cr', 'review', '1', '--comment', '--body', 'Overall fine, no verdict from me.');
    expect(finished.stdout).toBe(
      'Commenting on #1: sent, with the 1 comment of your pending review (no verdict: the API takes a review only as an approval or a request for changes).',
    );
    expect(onServer()).toEqual(['Just a thought', 'Overall fine, no verdict from me.']);
    expect(fake.store.review.reviewsOf(cr.id)).toEqual([]);

    await run('cr', 'review', '1', '--start');
    await commentId('--body', 'Never mind');
    fake.resetLog();
    expect((await run('cr', 'review', '1', '--discard')).stdout).toBe('Discarded your pending review of #1 (1 comment): nothing of it was sent.');
    expect(writes()).toEqual([]);
    expect(JSON.parse((await run('review', '--json')).stdout).comments.map((c: { body: string }) => c.body)).not.toContain('Never mind');
    expect((await run('comment', 'new', '--change-request', '1', '--body', 'Now at once')).stdout).toMatch(/: sent \(comment \S+\)\.$/);
  });

  it('offline, the verdict needs the server: the pending review is kept as it is', async () => {
    await run('cr', 'review', '1', '--start');
    await commentId('--body', 'Kept for later');
    fake.faults.offline = true;
    const offline = await run('cr', 'review', '1', '--approve');
    expect(offline.code).toBe(1);
    expect(offline.stdout).toMatch(/^Approving #1: needs the server's answer, and the API is not reachable now .*Your pending review \(1 comment\) is kept\.$/);
    fake.faults.offline = false;
    expect((await run('cr', 'review', '1', '--pending')).stdout).toMatch(/: 1 comment\n {2}local:\S+ on change request #1: Kept for later$/);
    expect((await run('cr', 'review', '1', '--approve')).stdout).toBe('Approving #1: sent, with the 1 comment of your pending review.');
    expect(onServer()).toEqual(['Kept for later']);
  });
});
