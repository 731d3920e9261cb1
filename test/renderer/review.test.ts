/**
 * The Review view in Chromium against a scripted bridge (issue 19): what a reviewer sees and which
 * contract requests each action makes — the refresh when the view opens and what it says offline,
 * the inbox and its read marks, comments started, edited and deleted, reactions with who, a
 * change request's reviews, reviewers and lifecycle (each blocked action disabled with its reason
 * beside it, a refusal in the server's words), refused actions put away, and a writer's change
 * requests by topic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ActOutcomeVM, RequestName } from '../../src/shared/contract';
import { type Answers, harnessBridge, openHarness, type HarnessPage } from './harness-page';
import * as fx from './fixtures';
import * as rx from './review-fixtures';

let harness: HarnessPage;
let page: Page;

beforeAll(async () => {
  harness = await openHarness();
  page = harness.page;
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const BASE: Answers = {
  'session.get': fx.signedIn,
  'sync.status': fx.status(),
  'settings.get': fx.settings,
  'catalog.get': fx.catalog,
  'conflicts.list': [],
  'review.refresh': rx.reviewState(),
  'review.state': rx.reviewState(),
  'review.inbox': [],
  'review.attention': [],
  'review.comments': [],
};

const { mount, calls, respond, fail } = harnessBridge(() => page, BASE, '#review');

const paramsOf = async (name: RequestName) => (await calls(name)).map((c) => c.params);
const outcome = (o: ActOutcomeVM['outcome'], patch: Partial<ActOutcomeVM> = {}): ActOutcomeVM => ({
  outcome: o,
  message: null,
  targetId: null,
  actionId: 'a1',
  ...patch,
});

describe('opening the view', () => {
  it('refreshes review data once, says so, and shows the inbox first', async () => {
    await mount({ 'review.inbox': [rx.inboxItem()] });
    const row = page.getByTestId('inbox-list').getByRole('option').filter({ hasText: '#7 Fix intro' });
    await row.getByText('New', { exact: true }).waitFor();
    await row.getByText('review requested').waitFor();
    await expect.poll(() => page.getByTestId('review-freshness').textContent()).toMatch(/^Refreshed just now\./);
    expect(await calls('review.refresh')).toHaveLength(1);
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Inbox 1 new');
  });

  it('offline, says when review data was last refreshed and what waits to be sent', async () => {
    const offline = rx.reviewState({ online: false, refreshedAt: '2026-01-02T03:04:05.000Z', pendingActions: 2 });
    await mount({ 'review.refresh': offline, 'review.state': offline });
    const words = page.getByTestId('review-freshness');
    await expect.poll(() => words.textContent()).toMatch(/^Offline: showing review data as last refreshed [^(]+\. 2 actions waiting to be sent\./);
    expect(await words.getAttribute('data-refreshed-at')).toBe('2026-01-02T03:04:05.000Z');
  });

  it('says so when review data was never refreshed', async () => {
    const never = rx.reviewState({ online: false, refreshedAt: null });
    await mount({ 'review.refresh': never, 'review.state': never });
    await expect.poll(() => page.getByTestId('review-freshness').textContent()).toMatch(/^Offline, and review data was never refreshed/);
  });

  it('lists what the server refused with its reason, and puts one away', async () => {
    const refused = rx.reviewState({
      refused: [{ actionId: 'a9', kind: 'reply', targetId: 'c1', message: 'comment "c1" does not exist here (404)', at: new Date().toISOString() }],
    });
    await mount({ 'review.refresh': refused, 'review.state': refused, 'review.dismiss': null });
    const list = page.getByTestId('review-refused');
    await list.getByText('1 action refused by the server').waitFor();
    await list.getByText('A reply, just now: comment "c1" does not exist here (404)').waitFor();
    await list.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => paramsOf('review.dismiss')).toEqual([{ actionId: 'a9' }]);
  });

  it('lists an action the server keeps failing on with when it is tried again, and gives up on it', async () => {
    const retryAt = new Date(Date.now() + 60_000).toISOString();
    const failing = rx.reviewState({
      refused: [{ actionId: 'a7', kind: 'reply', targetId: 'c1', message: 'Internal error (500)', at: new Date().toISOString(), retryAt }],
    });
    await mount({ 'review.refresh': failing, 'review.state': failing, 'review.dismiss': null });
    const list = page.getByTestId('review-refused');
    await list.getByText('1 action the server failed on, waiting to be sent again').waitFor();
    await list.getByText(/^A reply, just now: Internal error \(500\) — tried again (in \d+ (min|h)|with the next try)$/).waitFor();
    await list.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => paramsOf('review.dismiss')).toEqual([{ actionId: 'a7' }]);
  });
});

describe('the inbox', () => {
  it('opening an item marks it read and opens it; Mark all read marks the rest', async () => {
    const t = fx.thread({ id: 'c5', markdown: 'What do you think, @Casey Quire?' });
    // A thread in a change request is shown, and opened, as the thread.
    await mount({
      'review.inbox': [rx.inboxItem(), rx.threadItem(t, { changeRequest: rx.changeRequest() })],
      'review.changeRequest': rx.detail(),
      'review.markRead': null,
      'review.thread': t,
    });
    const list = page.getByTestId('inbox-list');
    await list.getByText('mentions you').waitFor();
    await list.getByText('#7 Fix intro').click();
    await page
      .getByTestId('cr-detail')
      .getByRole('heading', { name: /Fix intro/ })
      .waitFor();
    expect(await paramsOf('review.markRead')).toEqual([{ keys: ['cr:cr1'] }]);
    const mention = list.getByRole('option').filter({ hasText: 'What do you think, @Casey Quire?' });
    expect(await mention.locator('.row-meta').textContent()).toBe('mentions you API · #7 · Welcome · Robin Reviewer · just now');
    await mention.click();
    await page.getByTestId('thread-c5').waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => paramsOf('review.markRead')).toEqual([{ keys: ['cr:cr1'] }, { keys: ['thread:c5'] }, {}]);
  });

  it('sorts items into groups, shows what a blocked one waits on, and pins or snoozes the chosen one', async () => {
    const cr = (number: number, subject: string) => rx.changeRequest({ id: `cr${number}`, number, subject });
    await mount({
      'review.inbox': [
        rx.inboxItem({ key: 'cr:cr7', changeRequest: cr(7, 'Fix intro') }),
        rx.inboxItem({ key: 'cr:cr8', group: 'changes-requested', reasons: ['reviewed'], changeRequest: cr(8, 'My setup') }),
        rx.inboxItem({ key: 'cr:cr9', group: 'ready-to-merge', reasons: [], pinned: true, changeRequest: cr(9, 'My typo fix') }),
        rx.inboxItem({
          key: 'cr:cr10',
          group: 'blocked',
          reasons: [],
          unread: false,
          waitingOn: ['the merge rules ask for approval from Sam Okafor', 'a review from Sam Okafor (asked)'],
          changeRequest: cr(10, 'My big rewrite'),
        }),
        rx.inboxItem({ key: 'cr:cr11', group: 'blocked', reasons: [], snoozed: { until: null }, changeRequest: cr(11, 'Snoozed one') }),
      ],
      'review.changeRequest': rx.detail(),
      'review.markRead': null,
      'review.pin': null,
      'review.snooze': null,
    });
    const list = page.getByTestId('inbox-list');
    await list.getByText('#7 Fix intro').waitFor();
    expect(await page.getByTestId('inbox-group-all').textContent()).toBe('All 4');
    expect(await page.getByTestId('inbox-group-blocked').textContent()).toBe('Blocked 1');
    expect(await page.getByTestId('inbox-group-snoozed').textContent()).toBe('Snoozed 1');
    expect(await list.getByText('Snoozed one').count()).toBe(0);
    const ready = list.getByRole('option').filter({ hasText: 'My typo fix' });
    expect(await ready.locator('.badge.pinned').textContent()).toBe('Pinned');
    expect(await ready.locator('.badge.group').textContent()).toBe('Ready to merge');

    await page.getByTestId('inbox-group-blocked').click();
    await expect.poll(() => list.getByRole('option').count()).toBe(1);
    await list.getByText('Waits on the merge rules ask for approval from Sam Okafor; a review from Sam Okafor (asked)').waitFor();
    await list.getByText('#10 My big rewrite').click();
    const marks = page.getByTestId('inbox-marks');
    await marks.getByRole('button', { name: 'Pin' }).click();
    await expect.poll(() => paramsOf('review.pin')).toEqual([{ key: 'cr:cr10', pinned: true }]);
    await marks.getByRole('button', { name: 'Snooze until it changes' }).click();
    await marks.getByLabel('Snooze until the date').fill('2999-01-31');
    await marks.getByRole('button', { name: 'Snooze until the date' }).click();
    await expect.poll(() => paramsOf('review.snooze')).toEqual([{ key: 'cr:cr10' }, { key: 'cr:cr10', until: '2999-01-31T00:00:00.000Z' }]);

    await page.getByTestId('inbox-group-snoozed').click();
    await list.getByText('Snoozed until it changes').waitFor();
    await list.getByText('#11 Snoozed one').click();
    await marks.getByRole('button', { name: 'Bring back' }).click();
    await expect.poll(() => paramsOf('review.snooze')).toContainEqual({ key: 'cr:cr11', off: true });
  });

  it('says when nothing asks for you', async () => {
    await mount({ 'review.inbox': [] });
    await page.getByText('Nothing asks for you: no review requested from you').waitFor();
    expect(await page.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);
  });
});

describe('comments', () => {
  it('renders 5,000 comments as a short window of rows and walks them from the keyboard', async () => {
    await mount({ 'review.comments': fx.comments(5000) }, '#review/comments');
    const list = page.getByTestId('comment-list');
    await list.getByText('Comment number 0:').waitFor();
    expect(await page.getByTestId('comment-count').textContent()).toBe('5000 of 5000');
    expect(await list.getByRole('option').count()).toBeLessThan(60);

    await list.focus();
    await page.keyboard.press('End');
    await list.getByText('Comment number 4999:').waitFor();
    await page.keyboard.press('ArrowUp');
    expect(await list.getAttribute('aria-activedescendant')).toBe('row-comment-list-c4998');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await calls('review.thread')).at(-1)?.params).toEqual({ spaceId: 's2', commentId: 'c4998' });
  });

  it('filters by author and text', async () => {
    await mount({ 'review.comments': fx.comments(40) }, '#review/comments');
    await page.getByTestId('comment-count').waitFor();
    await page.getByLabel('Author').selectOption({ label: 'Sam Okafor' });
    expect(await page.getByTestId('comment-count').textContent()).toBe('20 of 40');
    await page.getByLabel('Search comments').fill('number 13:');
    expect(await page.getByTestId('comment-count').textContent()).toBe('1 of 40');
  });

  it('replies, reacts and resolves in a thread, and marks pending and refused actions', async () => {
    const t = fx.thread({
      replies: [
        {
          id: 'r1',
          author: { id: 'u1', displayName: 'Casey Quire' },
          postedAt: new Date().toISOString(),
          markdown: 'Queued reply',
          reactions: [],
          pending: true,
        },
        {
          id: 'r2',
          author: null,
          postedAt: new Date().toISOString(),
          markdown: 'Refused reply',
          reactions: [],
          pending: false,
          failure: 'comment was deleted',
        },
      ],
    });
    await mount(
      { 'review.comments': fx.comments(3), 'review.thread': t, 'review.reply': null, 'review.resolve': null, 'review.react': null },
      '#review/comments',
    );
    await page.getByTestId('comment-list').getByText('Comment number 0:').click();
    const thread = page.getByTestId('thread-c0');
    await thread.getByTestId('reply-r1').getByText('Pending').waitFor();
    await thread.getByTestId('reply-r2').getByText('Refused: comment was deleted').waitFor();

    await thread.getByRole('textbox', { name: 'Reply' }).fill('Looks good');
    await thread.getByRole('textbox', { name: 'Reply' }).press('Control+Enter');
    await thread.getByRole('group', { name: 'Reactions to the comment' }).getByRole('button', { name: 'React with 👍' }).click();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await expect
      .poll(async () => (await calls()).filter((c) => ['review.reply', 'review.react', 'review.resolve'].includes(c.name)))
      .toEqual([
        { name: 'review.reply', params: { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', markdown: 'Looks good' } },
        { name: 'review.react', params: { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', emoji: '👍', remove: false } },
        { name: 'review.resolve', params: { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1' } },
      ]);
    expect(await thread.getByRole('textbox', { name: 'Reply' }).inputValue()).toBe('');
  });

  it('shows reactions with their count and who, in the title and to screen readers', async () => {
    const t = fx.thread({
      reactions: [
        {
          emoji: '👍',
          count: 3,
          mine: true,
          users: [
            { id: 'u1', displayName: 'Casey Quire' },
            { id: 'u2', displayName: 'Robin Reviewer' },
            { id: 'u3', displayName: 'Sam Okafor' },
          ],
        },
        { emoji: '🎉', count: 2, mine: false, users: [{ id: 'u2', displayName: 'Robin Reviewer' }] },
      ],
    });
    await mount({ 'review.comments': fx.comments(1), 'review.thread': t, 'review.react': null }, '#review/comments');
    await page.getByTestId('comment-list').getByText('Comment number 0:').click();
    const group = page.getByTestId('thread-c0').getByRole('group', { name: 'Reactions to the comment' });
    const thumbs = group.getByRole('button', { name: '👍 3, from Casey Quire, Robin Reviewer and Sam Okafor. Remove your reaction' });
    expect(await thumbs.textContent()).toBe('👍 3');
    expect(await thumbs.getAttribute('title')).toBe('Casey Quire, Robin Reviewer and Sam Okafor');
    expect(await thumbs.getAttribute('aria-pressed')).toBe('true');
    const party = group.getByRole('button', { name: '🎉 2, from Robin Reviewer and 1 other. Add yours' });
    expect(await party.getAttribute('title')).toBe('Robin Reviewer and 1 other');
    await thumbs.click();
    await expect.poll(() => paramsOf('review.react')).toEqual([{ spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', emoji: '👍', remove: true }]);
  });

  it('links a comment to its page in the Pages view', async () => {
    const t = fx.thread({ pagePath: 'guides/welcome.md' });
    await mount({ 'review.comments': fx.comments(1), 'review.thread': t }, '#review/comments');
    await page.getByTestId('comment-list').getByText('Comment number 0:').click();
    const link = page.getByTestId('thread-c0').getByRole('link', { name: 'Welcome' });
    expect(await link.getAttribute('href')).toBe('#pages/s2/guides%2Fwelcome.md');
    await link.click();
    await page.getByRole('heading', { name: 'Pages', exact: true }).waitFor();
    await expect.poll(() => calls('pages.get')).toEqual([{ name: 'pages.get', params: { spaceId: 's2', path: 'guides/welcome.md' } }]);
  });

  it('edits and deletes one’s own comment and reply; another’s has no such buttons', async () => {
    const mine = fx.thread({
      mine: true,
      replies: [
        {
          id: 'r1',
          author: { id: 'u1', displayName: 'Casey Quire' },
          postedAt: new Date().toISOString(),
          markdown: 'My reply',
          reactions: [],
          pending: false,
          mine: true,
        },
        {
          id: 'r2',
          author: { id: 'u3', displayName: 'Sam Okafor' },
          postedAt: new Date().toISOString(),
          markdown: 'Their reply',
          reactions: [],
          pending: false,
          mine: false,
        },
      ],
    });
    await mount(
      {
        'review.comments': fx.comments(1),
        'review.thread': mine,
        'review.editComment': outcome('queued', { message: 'The API is not reachable now: it is sent when it is back.' }),
        'review.deleteComment': outcome('sent'),
      },
      '#review/comments',
    );
    await page.getByTestId('comment-list').getByText('Comment number 0:').click();
    const thread = page.getByTestId('thread-c0');
    expect(
      await thread
        .getByTestId('reply-r2')
        .getByRole('button', { name: /Edit|Delete/ })
        .count(),
    ).toBe(0);

    await thread.getByRole('button', { name: 'Edit your comment' }).click();
    await thread.getByRole('textbox', { name: 'Edit your comment' }).fill('Better words.');
    await thread.getByRole('button', { name: 'Save' }).click();
    await thread.getByText('Queued, shown as pending: The API is not reachable now: it is sent when it is back.').waitFor();

    const reply = thread.getByTestId('reply-r1');
    await reply.getByRole('button', { name: 'Edit your reply' }).click();
    await reply.getByRole('textbox', { name: 'Edit your reply' }).fill('My reply, shorter.');
    await reply.getByRole('textbox', { name: 'Edit your reply' }).press('Control+Enter');
    await reply.getByRole('button', { name: 'Delete your reply' }).click();
    await reply.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => paramsOf('review.deleteComment')).toEqual([{ spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', replyId: 'r1' }]);

    await thread.getByRole('button', { name: 'Delete your comment' }).click();
    await thread.getByRole('button', { name: 'Keep it' }).click();
    await thread.getByRole('button', { name: 'Delete your comment' }).click();
    await thread.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByTestId('review-notice').getByText('Comment deleted.').waitFor();
    expect(await paramsOf('review.editComment')).toEqual([
      { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', markdown: 'Better words.' },
      { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', replyId: 'r1', markdown: 'My reply, shorter.' },
    ]);
    expect(await paramsOf('review.deleteComment')).toEqual([
      { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', replyId: 'r1' },
      { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1' },
    ]);
  });

  it('keeps an edit the server refused in its form, with the server’s reason', async () => {
    await mount(
      {
        'review.comments': fx.comments(1),
        'review.thread': fx.thread({ mine: true }),
        'review.editComment': outcome('refused', { message: 'You can only edit your own comments (403)' }),
      },
      '#review/comments',
    );
    await page.getByTestId('comment-list').getByText('Comment number 0:').click();
    const thread = page.getByTestId('thread-c0');
    await thread.getByRole('button', { name: 'Edit your comment' }).click();
    await thread.getByRole('textbox', { name: 'Edit your comment' }).fill('Second thoughts.');
    await thread.getByRole('button', { name: 'Save' }).click();
    await thread.getByRole('alert').getByText('Refused by the server: You can only edit your own comments (403)').waitFor();
    expect(await thread.getByRole('textbox', { name: 'Edit your comment' }).inputValue()).toBe('Second thoughts.');
  });

  it('starts a comment on a page of main: the place, then the text; queued offline it opens pending', async () => {
    const queued = outcome('queued', { message: 'The API is not reachable now.', targetId: 'local:a1' });
    await mount(
      {
        'pages.tree': rx.pagesTree,
        'review.newComment': queued,
        'review.thread': fx.thread({ id: 'local:a1', pending: true }),
        'review.attention': [rx.changeRequest()],
      },
      '#review/comments',
    );
    await page.getByRole('button', { name: 'New comment', exact: true }).click();
    const form = page.getByTestId('new-comment');
    const send = form.getByRole('button', { name: 'Comment', exact: true });
    await form.getByRole('textbox', { name: /^Comment/ }).fill('Is this still true?');
    expect(await send.isDisabled()).toBe(true); // main content needs a page
    const pages = await form.getByLabel('Page').locator('option').allTextContents();
    expect(pages.map((p) => p.trim())).toEqual(['Choose a page…', 'Welcome', 'Install']); // no group, no page not pushed yet
    await form.getByLabel('Page').selectOption({ label: '\u00a0\u00a0Install' });
    await send.click();
    await page.getByTestId('review-notice').getByText('Queued, shown as pending: The API is not reachable now.').waitFor();
    await page.getByTestId('thread-local:a1').getByText('Pending').waitFor();
    expect(await paramsOf('review.newComment')).toEqual([{ spaceId: 's1', pageId: 'p3', markdown: 'Is this still true?' }]);
  });

  it('starts a comment on a change request, and shows a refusal in the server’s words', async () => {
    await mount(
      {
        'pages.tree': rx.pagesTree,
        'review.newComment': outcome('refused', { message: 'You cannot comment in this space (403)' }),
        'review.attention': [rx.changeRequest()],
      },
      '#review/comments',
    );
    await page.getByRole('button', { name: 'New comment', exact: true }).click();
    const form = page.getByTestId('new-comment');
    await form.getByLabel('In').selectOption({ label: '#7 Fix intro' });
    await form.getByRole('textbox', { name: /^Comment/ }).fill('Whole request: good.');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    await form.getByRole('alert').getByText('Refused by the server: You cannot comment in this space (403)').waitFor();
    expect(await form.getByRole('textbox', { name: /^Comment/ }).inputValue()).toBe('Whole request: good.');
    expect(await paramsOf('review.newComment')).toEqual([{ spaceId: 's1', changeRequestId: 'cr1', markdown: 'Whole request: good.' }]);
  });
});

describe('a change request', () => {
  const open = async (answers: Answers) => {
    await mount({ 'review.attention': [rx.changeRequest()], ...answers }, '#review/change-requests');
    await page.getByTestId('cr-list').getByText('Fix intro').click();
    const detail = page.getByTestId('cr-detail');
    await detail.getByRole('heading', { name: /Fix intro/ }).waitFor();
    return detail;
  };

  it('disables each action it cannot do, with the reason beside it', async () => {
    const detail = await open({
      'review.changeRequest': rx.detail({
        changeRequest: rx.changeRequest({ status: 'draft' }),
        canMerge: false,
        actions: {
          ...rx.noBlockers,
          merge: [
            { code: 'no-permission', message: 'you do not have permission to merge change requests in this space' },
            { code: 'draft', message: 'it is a draft: mark it ready for review (reopen it) first' },
          ],
          update: [{ code: 'up-to-date', message: 'it already has everything main has' }],
          review: [{ code: 'no-permission', message: 'you do not have permission to review change requests in this space' }],
        },
      }),
    });
    const merge = detail.getByTestId('action-merge');
    expect(await merge.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    expect(await merge.textContent()).toBe(
      'MergeNot possible: you do not have permission to merge change requests in this space; it is a draft: mark it ready for review (reopen it) first.',
    );
    // The reason is the button's description for screen readers too.
    const describedBy = await merge.getByRole('button').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('it is a draft');
    expect(await detail.getByTestId('action-update').textContent()).toBe('Update from mainNot needed: it already has everything main has.');
    expect(await detail.getByTestId('action-reopen').getByRole('button', { name: 'Ready for review' }).isEnabled()).toBe(true);
    expect(await detail.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await detail.getByText('Not possible: you do not have permission to review change requests in this space.').waitFor();
  });

  it('merges, and shows the server’s refusal in its words; offline it says merge needs the server', async () => {
    const detail = await open({ 'review.changeRequest': rx.detail() });
    const merge = detail.getByTestId('action-merge');
    expect(await merge.textContent()).toBe('MergeMerges into main once you confirm; only this button does, never a sync.');
    const confirm = () => detail.getByTestId('merge-confirm').getByRole('button', { name: 'Merge into main' }).click();
    await fail(
      'review.merge',
      'invalid-request',
      'The server refused to merge the change request: The merge rules of this space are not met: at least one approved review is required.',
    );
    await merge.getByRole('button', { name: 'Merge' }).click();
    expect(await calls('review.merge')).toHaveLength(0);
    await confirm();
    await detail
      .getByRole('alert')
      .getByText('The server refused to merge the change request: The merge rules of this space are not met: at least one approved review is required.')
      .waitFor();
    await respond('review.merge', null);
    await confirm();
    await detail.getByText('Merged into main. The next sync brings the result into the folder.').waitFor();
    expect(await calls('review.merge')).toHaveLength(2);

    const offline = rx.reviewState({ online: false });
    await mount(
      { 'review.attention': [rx.changeRequest({ outdated: true })], 'review.changeRequest': rx.detail(), 'review.refresh': offline, 'review.state': offline },
      '#review/change-requests',
    );
    await page.getByTestId('cr-list').getByText('Fix intro').click();
    const note = 'Needs the server, which cannot be reached now: it is not queued. Try again when online.';
    await expect.poll(() => page.getByTestId('action-merge').textContent()).toBe(`Merge${note}`);
    expect(await page.getByTestId('action-update').textContent()).toBe(`Update from main${note}`);
  });

  it('edits subject and description, archives, and updates from main', async () => {
    const detail = await open({
      'review.changeRequest': rx.detail({ changeRequest: rx.changeRequest({ outdated: true }) }),
      'review.setSubject': null,
      'review.setDescription': outcome('sent'),
      'review.setStatus': null,
      'review.updateFromMain': null,
    });
    await detail.getByRole('button', { name: 'Edit subject' }).click();
    await detail.getByLabel('Subject').fill('Fix the intro');
    await detail.getByRole('button', { name: 'Save' }).click();
    await detail.getByRole('button', { name: 'Add a description' }).click();
    await detail.getByRole('textbox', { name: /^Description/ }).fill('Why: the intro was *wrong*.');
    await detail.getByRole('button', { name: 'Save' }).click();
    await detail.getByTestId('action-archive').getByRole('button', { name: 'Archive' }).click();
    await detail.getByTestId('action-update').getByRole('button', { name: 'Update from main' }).click();
    await detail.getByText('Updated: it now has everything main has.').waitFor();
    const ref = { spaceId: 's1', changeRequestId: 'cr1' };
    expect(await paramsOf('review.setSubject')).toEqual([{ ...ref, subject: 'Fix the intro' }]);
    expect(await paramsOf('review.setDescription')).toEqual([{ ...ref, markdown: 'Why: the intro was *wrong*.' }]);
    expect(await paramsOf('review.setStatus')).toEqual([{ ...ref, status: 'archived' }]);
    expect(await paramsOf('review.updateFromMain')).toEqual([ref]);
  });

  it('reopens an archived one', async () => {
    const detail = await open({
      'review.changeRequest': rx.detail({
        changeRequest: rx.changeRequest({ status: 'archived' }),
        actions: { ...rx.noBlockers, merge: [{ code: 'archived', message: 'it is archived: reopen it first' }] },
      }),
      'review.setStatus': null,
    });
    expect(await detail.getByTestId('action-archive').count()).toBe(0);
    await detail.getByTestId('action-reopen').getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(() => paramsOf('review.setStatus')).toEqual([{ spaceId: 's1', changeRequestId: 'cr1', status: 'open' }]);
  });

  it('lists reviews and requested reviewers; approves with a comment, asks a member by name and withdraws one', async () => {
    const detail = await open({
      'review.changeRequest': rx.detail(),
      'review.submitReview': {
        id: 'rv2',
        reviewer: { id: 'u1', displayName: 'Casey Quire' },
        status: 'approved',
        outdated: false,
        comment: 'Ship it.',
        at: new Date().toISOString(),
      },
      'review.members': [
        { id: 'u1', displayName: 'Casey Quire' },
        { id: 'u4', displayName: 'Alex Rivera', email: 'alex@example.com' },
      ],
      'review.requestReviewer': outcome('sent'),
      'review.removeReviewer': outcome('queued', { message: 'The API is not reachable now.' }),
    });
    const reviews = detail.getByTestId('cr-reviews');
    await reviews.getByTestId('review-rv1').getByText('requested changes').waitFor();
    await reviews.getByText('Say who it is for.').waitFor();
    await reviews.getByTestId('reviewer-u1').getByText('asked by Robin Reviewer').waitFor();

    await reviews.getByRole('textbox', { name: /^Your review/ }).fill('Ship it.');
    await reviews.getByRole('button', { name: 'Approve' }).click();
    await reviews.getByText('You approved it.').waitFor();

    await reviews.getByRole('button', { name: 'Ask someone to review…' }).click();
    const options = await reviews.getByLabel('Ask').locator('option').allTextContents();
    expect(options).toEqual(['Choose a member…', 'Alex Rivera (alex@example.com)']); // Casey is asked already
    await reviews.getByLabel('Ask').selectOption({ label: 'Alex Rivera (alex@example.com)' });
    await reviews.getByRole('button', { name: 'Ask to review' }).click();
    await reviews.getByRole('button', { name: 'Remove Casey Quire from the reviewers' }).click();
    await reviews.getByText('Queued, shown as pending: The API is not reachable now.').waitFor();

    const ref = { spaceId: 's1', changeRequestId: 'cr1' };
    expect(await paramsOf('review.submitReview')).toEqual([{ ...ref, status: 'approved', markdown: 'Ship it.' }]);
    expect(await paramsOf('review.members')).toEqual([{ spaceId: 's1' }]);
    expect(await paramsOf('review.requestReviewer')).toEqual([{ ...ref, user: 'u4' }]);
    expect(await paramsOf('review.removeReviewer')).toEqual([{ ...ref, userId: 'u1' }]);
  });

  it('shows a pending reviewer request and removal', async () => {
    const detail = await open({
      'review.changeRequest': rx.detail({
        requestedReviewers: [
          { id: 'u4', displayName: 'Alex Rivera', requestedBy: null, pending: 'add' },
          { id: 'u1', displayName: 'Casey Quire', requestedBy: null, pending: 'remove' },
        ],
      }),
    });
    await detail.getByTestId('reviewer-u4').getByText('Pending', { exact: true }).waitFor();
    await detail.getByTestId('reviewer-u1').getByText('Pending removal').waitFor();
    expect(
      await detail
        .getByTestId('reviewer-u1')
        .getByRole('button', { name: /Remove/ })
        .count(),
    ).toBe(0);
  });

  it('comments on one of its pages, and on the whole change request', async () => {
    const detail = await open({ 'review.changeRequest': rx.detail(), 'review.newComment': outcome('sent', { targetId: 'c9' }) });
    await detail.getByRole('button', { name: 'Comment on Intro' }).click();
    const form = detail.getByTestId('new-comment');
    await form.getByText('New comment on “Intro” in change request #7').waitFor();
    await form.getByRole('textbox', { name: /^Comment/ }).fill('This line reads oddly.');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    await detail.getByRole('button', { name: 'New comment on #7' }).click();
    await form.getByRole('textbox', { name: /^Comment/ }).fill('Nice overall.');
    await form.getByRole('textbox', { name: /^Comment/ }).press('Control+Enter');
    await expect
      .poll(() => paramsOf('review.newComment'))
      .toEqual([
        { spaceId: 's1', changeRequestId: 'cr1', pageId: 'p1', markdown: 'This line reads oddly.' },
        { spaceId: 's1', changeRequestId: 'cr1', markdown: 'Nice overall.' },
      ]);
  });

  it('says it receives your edits, or offers to send them there when it is yours', async () => {
    const mine = rx.changeRequest({ createdBy: { id: 'u1', displayName: 'Casey Quire' }, reasons: ['mine'] });
    const detail = await open({
      'review.attention': [mine],
      'review.changeRequest': rx.detail({ changeRequest: mine }),
      'review.useChangeRequest': rx.target(),
    });
    await detail.getByRole('button', { name: 'Send my edits here' }).click();
    await expect.poll(() => paramsOf('review.useChangeRequest')).toEqual([{ spaceId: 's1', changeRequestId: 'cr1' }]);

    await mount(
      { 'review.attention': [mine], 'review.changeRequest': rx.detail({ changeRequest: mine, receivesYourEdits: true }) },
      '#review/change-request/s1/cr1',
    );
    await page.getByTestId('cr-detail').getByText('receives your edits').waitFor();
    expect(await page.getByRole('button', { name: 'Send my edits here' }).count()).toBe(0);
  });
});

describe('your change requests', () => {
  it('says which change request receives each space’s edits, starts a new one with a subject, and points the pushes at another', async () => {
    await mount(
      {
        'review.targets': [
          rx.target(),
          rx.target({ spaceId: 's2', spaceTitle: 'API', state: 'none', changeRequestId: null, number: null, subject: null, setAside: [] }),
        ],
        'review.attention': [rx.changeRequest({ id: 'cr5', number: 5, subject: 'Mine too', reasons: ['mine'] })],
        'review.startChangeRequest': rx.target({ state: 'open', number: 8, subject: 'New topic', chosen: true }),
        'review.useChangeRequest': rx.target(),
      },
      '#review/yours',
    );
    const handbook = page.getByTestId('target-s1');
    await expect.poll(() => handbook.getByTestId('target-state').textContent()).toBe('Your edits go to #3 “Edit ‘Install’” (1 page so far). Open #3');
    expect(await page.getByTestId('target-s2').getByTestId('target-state').textContent()).toMatch(/^Your next push opens a new change request/);
    const others = handbook.getByRole('listitem');
    expect(await others.allTextContents()).toEqual(['#2 Earlier topic 4 pagesSend my edits here', '#5 Mine tooSend my edits here']);

    await handbook.getByLabel('New topic').fill('  New topic ');
    await handbook.getByRole('button', { name: 'Start a change request' }).click();
    await page.getByTestId('target-s2').getByRole('button', { name: 'Start a change request' }).click();
    await others.filter({ hasText: '#2 Earlier topic' }).getByRole('button', { name: 'Send my edits here' }).click();
    await expect.poll(() => paramsOf('review.useChangeRequest')).toEqual([{ spaceId: 's1', changeRequestId: 'cr2' }]);
    expect(await paramsOf('review.startChangeRequest')).toEqual([{ spaceId: 's1', subject: 'New topic' }, { spaceId: 's2' }]);

    await handbook.getByRole('button', { name: 'Open #3' }).click();
    await expect.poll(async () => (await calls('review.changeRequest')).at(-1)?.params).toEqual({ spaceId: 's1', changeRequestId: 'cr3' });
    expect(harness.browser.pageErrors).toEqual([]);
  });
});
