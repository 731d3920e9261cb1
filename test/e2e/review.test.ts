/**
 * Issue 19 from the desktop, end to end in Debian's chromium: the built renderer served by the
 * web host, the real service and core, the fake API with the demo organization. One reviewer's
 * day, in order: the first sync's data in the Review view with nothing else done, a refresh when
 * the view opens, the inbox and its read marks, a change request's reviews, reviewers and
 * lifecycle (a merge blocked with its reason, refused by the server in its words, then merged),
 * comments started, edited and deleted, every action offline (queued and pending, or saying it
 * needs the server) and the queue replayed in order once back, a refusal with the server's
 * reason, and a writer's change requests by topic. Screenshots land in test-artifacts/e2e (and
 * docs/screenshots with QUIRE_DOCS_SCREENSHOTS=1); layout.test.ts measures these views' legibility.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { seedDemo, type DemoSeed } from '../fake/seed';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { startStack, type Stack } from '../helpers/stack';
import { snap } from './screenshots';

describe('review from the desktop', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let demo: DemoSeed;
  /** Ids the later steps act on. */
  let shorter: string;
  let mention: string;

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({ rendererDir, signedIn: true, seed: (fake) => (demo = seedDemo(fake.store)) });
    browser = await launchBrowser({ width: 1280, height: 800 });
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const handbook = () => demo.handbook.id;
  const crOf = (n: number) => stack.fake.store.changeRequest(handbook(), n);
  const nav = (name: string) =>
    page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .click();
  const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  const freshness = () => page.getByTestId('review-freshness');
  const detail = () => page.getByTestId('cr-detail');
  const action = (name: string) => detail().getByTestId(`action-${name}`);
  const writes = () => stack.fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/^\/v1\/spaces\/[^/]+/, '')}`);
  const openThread = () => page.locator('.thread-pane [data-testid^="thread-"]');
  const spaceFolder = async () => join(stack.dir, (await stack.service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!);
  const pending = (where: Locator) => where.getByRole('status').filter({ hasText: /^Pending/ });
  /** Merge asks first (issue 30): confirm it. */
  const confirmMerge = () => detail().getByTestId('merge-confirm').getByRole('button', { name: 'Merge into main' }).click();

  it('shows the first sync’s change requests and comments with no other action (here, offline: the view’s own refresh cannot reach the API)', async () => {
    await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: [handbook()], selected: true });
    expect((await stack.service.syncOnce()).state).toBe('in-sync');
    stack.fake.faults.offline = true;

    await page.goto(`${stack.host.url}#review`);
    await expect.poll(() => freshness().textContent()).toMatch(/^Offline: showing review data as last refreshed just now \(/);
    const inbox = page.getByTestId('inbox-list');
    const item = inbox.getByRole('option').filter({ hasText: 'Polish the welcome page' });
    await item.getByText('review requested').waitFor();
    expect(await item.getAttribute('aria-selected')).toBe('false');
    await item.getByText('New', { exact: true }).waitFor();

    await tab('Change requests');
    await page.getByTestId('cr-list').getByText('Polish the welcome page').waitFor();
    await page.getByTestId('cr-list').getByText('More FAQ entries').waitFor();
    await tab('Unresolved comments');
    await page.getByTestId('comment-list').getByText('Should we link the install guide here?').waitFor();
    await page.getByTestId('comment-list').getByText('Nice wording 👍').waitFor();
  });

  it('refreshes when the view opens online, and puts first what asks for you, unread until looked at', async () => {
    stack.fake.faults.offline = false;
    stack.fake.store.addComment(handbook(), { body: 'Could @Casey Quire check the install steps?', by: demo.users.sam.id });
    await nav('Spaces');
    await nav('Review');
    await tab('Inbox');
    const inbox = page.getByTestId('inbox-list');
    const mention = inbox.getByRole('option').filter({ hasText: 'Could @Casey Quire check' });
    await mention.getByText('mentions you').waitFor();
    await expect.poll(() => freshness().textContent()).toMatch(/^Refreshed just now\./);
    await mention.click();
    await openThread().getByText('Could @Casey Quire check the install steps?').waitFor();
    await snap(page, 'review');

    await inbox.getByRole('option').filter({ hasText: 'Polish the welcome page' }).click();
    await detail()
      .getByRole('heading', { name: /Polish the welcome page/ })
      .waitFor();
    await expect.poll(async () => (await stack.service.request('review.inbox', {})).find((i) => i.changeRequest?.number === 1)?.unread).toBe(false);
    await expect.poll(() => inbox.getByRole('option').filter({ hasText: 'Polish the welcome page' }).getAttribute('data-unread')).toBe(null);
  });

  it('shows a change request’s reviews and requested reviewers, and a merge blocked with its reason', async () => {
    const reviews = detail().getByTestId('cr-reviews');
    await reviews.getByText('requested changes').waitFor();
    await reviews.getByText('Sam Okafor').first().waitFor();
    await expect.poll(() => action('merge').getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    expect(await action('merge').textContent()).toContain('Not possible: the merge rules ask for at least one approving review.');
    await snap(page, 'change-request-review');
    // The page itself never scrolls: the panes do, and what they hold (screen-reader labels too) stays inside them.
    expect(
      await page.evaluate(() => {
        const g = globalThis as unknown as { document: { documentElement: { scrollHeight: number } }; innerHeight: number };
        return g.document.documentElement.scrollHeight - g.innerHeight;
      }),
    ).toBeLessThanOrEqual(0);
  });

  it('online: asks a member to review by name and withdraws, edits subject and description, comments on a page of it, reacts — each sent at once', async () => {
    const reviews = detail().getByTestId('cr-reviews');
    await reviews.getByRole('button', { name: 'Ask someone to review…' }).click();
    await reviews.getByLabel('Ask').selectOption({ label: 'Alex Rivera (alex@example.com)' });
    await reviews.getByRole('button', { name: 'Ask to review' }).click();
    const alex = reviews.getByTestId(`reviewer-${demo.users.alex.id}`);
    await alex.waitFor();
    await expect.poll(() => stack.fake.store.review.requestedOf(crOf(1)).map((r) => r.userId)).toContain(demo.users.alex.id);
    await alex.getByRole('button', { name: 'Remove Alex Rivera from the reviewers' }).click();
    await alex.waitFor({ state: 'detached' });
    await expect.poll(() => stack.fake.store.review.requestedOf(crOf(1)).map((r) => r.userId)).not.toContain(demo.users.alex.id);

    await detail().getByRole('button', { name: 'Edit subject' }).click();
    await detail().getByLabel('Subject').fill('Polish the welcome page and add a changelog');
    await detail().getByRole('button', { name: 'Save' }).click();
    await detail()
      .getByRole('heading', { name: /and add a changelog/ })
      .waitFor();
    await expect.poll(() => crOf(1).subject).toBe('Polish the welcome page and add a changelog');
    await detail().getByRole('button', { name: 'Add a description' }).click();
    await detail().getByLabel('Description').fill('Friendlier welcome, and a changelog page.');
    await detail().getByRole('button', { name: 'Save' }).click();
    await detail().getByText('Friendlier welcome, and a changelog page.').waitFor();
    await expect.poll(() => JSON.stringify(crOf(1).description ?? null)).toContain('Friendlier welcome');

    await detail().getByRole('button', { name: 'Comment on Welcome' }).click();
    const form = detail().getByTestId('new-comment');
    await form.getByText('New comment on “Welcome” in change request #1').waitFor();
    await form.getByLabel(/^Comment/).fill('Could this say **who** the handbook is for?');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    const posted = detail().locator('[data-testid^="thread-"]').filter({ hasText: 'Could this say **who** the handbook is for?' });
    await posted.waitFor();
    await expect
      .poll(() => stack.fake.store.commentsOf(handbook(), 1).find((c) => c.markdown.includes('who'))?.pageId)
      .toBe(stack.fake.store.pageByTitle(handbook(), 'Welcome').id);
    await posted.getByRole('link', { name: 'Welcome' }).waitFor();

    const nice = detail().locator('[data-testid^="thread-"]').filter({ hasText: 'Nice wording 👍' });
    await nice.getByRole('group', { name: 'Reactions to the comment' }).getByRole('button', { name: 'React with 🎉' }).click();
    const reaction = nice.getByRole('button', { name: /^🎉/ });
    await expect.poll(() => reaction.getAttribute('aria-label')).toBe('🎉 1, from Casey Quire. Remove your reaction');
    expect(await reaction.getAttribute('title')).toBe('Casey Quire');
    expect(await reaction.textContent()).toBe('🎉 1');
    await nice.getByText('Nice wording 👍').waitFor();
  });

  it('approves with a comment, shows a merge the server refuses in its words, then merges; the next sync pulls it', async () => {
    const reviews = detail().getByTestId('cr-reviews');
    await reviews.getByRole('textbox', { name: /^Your review/ }).fill('Reads well.');
    await reviews.getByRole('button', { name: 'Approve' }).click();
    await reviews.getByText('You approved it.').waitFor();
    await reviews.locator('li').filter({ hasText: 'Casey Quire' }).getByText('approved').waitFor();
    expect(stack.fake.store.review.reviewsOf(crOf(1).id).map((r) => r.status)).toEqual(['changes-requested', 'approved']);

    // The rules change on the server since the last refresh: the mirror lets Merge be pressed, the server says no.
    await expect.poll(() => action('merge').getByRole('button', { name: 'Merge' }).isEnabled()).toBe(true);
    stack.fake.store.review.setMergeRules({ space: handbook() }, { type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }] });
    await action('merge').getByRole('button', { name: 'Merge' }).click();
    await confirmMerge();
    await detail()
      .getByRole('alert')
      .filter({
        hasText: 'The server refused to merge the change request: The merge rules of this space are not met: every review must approve the change request.',
      })
      .waitFor();
    expect(crOf(1).status).toBe('open');
    await snap(page, 'change-request-merge-refused');

    stack.fake.store.review.setMergeRules({ space: handbook() }, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
    await action('merge').getByRole('button', { name: 'Merge' }).click();
    await confirmMerge();
    await detail().getByText('Merged into main. The next sync brings the result into the folder.').waitFor();
    await expect.poll(() => detail().getByTestId('cr-status').textContent()).toBe('merged');
    expect(crOf(1).status).toBe('merged');
    expect(await action('merge').textContent()).toContain('Not possible: it is already merged.');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(async () => readFile(join(await spaceFolder(), 'README.md'), 'utf8')).toContain('Welcome to the **Quire** handbook.');
  });

  it('moves a draft through ready, updated from main, archived and reopened', async () => {
    stack.fake.store.editPage(handbook(), stack.fake.store.pageByTitle(handbook(), 'Setup').id, { markdown: 'First setup, revised on main.' });
    await tab('Change requests');
    await page.getByTestId('cr-list').getByText('More FAQ entries').click();
    await detail()
      .getByRole('heading', { name: /More FAQ entries/ })
      .waitFor();
    expect(await action('merge').textContent()).toContain('it is a draft');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => action('update').getByRole('button').isEnabled()).toBe(true);
    await action('update').getByRole('button', { name: 'Update from main' }).click();
    await detail().getByText('Updated: it now has everything main has.').waitFor();
    expect(stack.fake.store.isOutdated(crOf(2))).toBe(false);

    await action('reopen').getByRole('button', { name: 'Ready for review' }).click();
    await expect.poll(() => crOf(2).status).toBe('open');
    await action('archive').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => crOf(2).status).toBe('archived');
    await action('reopen').getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(() => crOf(2).status).toBe('open');
    await expect.poll(() => detail().getByTestId('cr-status').textContent()).toBe('open');
    // Approved, it meets the merge rules: Merge can be pressed (it is, offline, below).
    await detail().getByTestId('cr-reviews').getByRole('button', { name: 'Approve' }).click();
    await detail().getByText('You approved it.').waitFor();
    await expect.poll(() => action('merge').getByRole('button', { name: 'Merge' }).isEnabled()).toBe(true);
  });

  it('starts a comment on a page of main from the comments list, and edits it — online, sent at once', async () => {
    await tab('Unresolved comments');
    await page.getByRole('button', { name: 'New comment', exact: true }).click();
    const form = page.getByTestId('new-comment');
    await form.getByLabel('Space').selectOption({ label: 'Handbook' });
    await form.getByLabel('In').selectOption({ label: 'Main content' });
    await form.getByLabel('Page').selectOption({ label: 'Welcome' });
    await form.getByRole('textbox', { name: /^Comment/ }).fill('Shorter, please: two sentences are enough.');
    await snap(page, 'new-comment');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = openThread();
    await thread.getByText('Shorter, please: two sentences are enough.').waitFor();
    await expect
      .poll(() => [...stack.fake.store.comments.values()].find((c) => c.markdown.startsWith('Shorter'))?.pageId)
      .toBe(stack.fake.store.pageByTitle(handbook(), 'Welcome').id);
    await thread.getByRole('button', { name: 'Edit your comment' }).click();
    await thread.getByRole('textbox', { name: 'Edit your comment' }).fill('Shorter, please.');
    await thread.getByRole('button', { name: 'Save' }).click();
    await thread.getByText('Shorter, please.', { exact: true }).waitFor();
    await expect.poll(() => [...stack.fake.store.comments.values()].some((c) => c.markdown === 'Shorter, please.')).toBe(true);
    await expect.poll(() => pending(thread).count()).toBe(0);
    shorter = [...stack.fake.store.comments.values()].find((c) => c.markdown === 'Shorter, please.')!.id;
  });

  it('offline: what can wait is queued and shown pending at once, in order; merge and reviews say they need the server', async () => {
    mention = stack.fake.store.commentsOf(handbook()).find((c) => c.markdown.startsWith('Could @Casey'))!.id;
    stack.fake.faults.offline = true;
    stack.fake.resetLog();

    // 1. A new comment on a page of main.
    await page.getByRole('button', { name: 'New comment', exact: true }).click();
    const form = page.getByTestId('new-comment');
    await form.getByLabel('Page').selectOption({ label: 'Install' });
    await form.getByRole('textbox', { name: /^Comment/ }).fill('Does this work on Windows too?');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    await page
      .getByTestId('review-notice')
      .getByText(/^Queued, shown as pending:/)
      .waitFor();
    await pending(openThread()).first().waitFor();
    await openThread().getByText('Does this work on Windows too?').waitFor();

    // 2. An edit of one's own comment, 3. a reply the server will refuse, 4. a reaction, 5. deleting one's own comment.
    const list = page.getByTestId('comment-list');
    await list.getByText('Shorter, please.').click();
    await openThread().getByRole('button', { name: 'Edit your comment' }).click();
    await openThread().getByRole('textbox', { name: 'Edit your comment' }).fill('Shorter, please!');
    await openThread().getByRole('button', { name: 'Save' }).click();
    await openThread().getByText('Queued, shown as pending', { exact: false }).waitFor();
    await pending(openThread()).first().waitFor();

    await list.getByText('Could @Casey Quire check').click();
    await openThread().getByRole('textbox', { name: 'Reply' }).fill('On it.');
    await openThread().getByRole('button', { name: 'Reply', exact: true }).click();
    await pending(openThread().locator('.reply').filter({ hasText: 'On it.' })).waitFor();

    await list.getByText('Should we link the install guide here?').click();
    await openThread().getByRole('group', { name: 'Reactions to the comment' }).getByRole('button', { name: 'React with 👀' }).click();
    await openThread().getByRole('button', { name: '👀 1, from Casey Quire. Remove your reaction' }).waitFor();
    await pending(openThread().locator('.comment-head').first()).waitFor();

    await list.getByText('Shorter, please!').click();
    await openThread().getByRole('button', { name: 'Delete your comment' }).click();
    await openThread().getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByTestId('review-notice')
      .getByText(/^Queued, shown as pending:/)
      .waitFor();
    await list.getByText('Shorter, please!').waitFor({ state: 'detached' });

    // 6. Asking for a review and 7. archiving, on #2.
    await tab('Change requests');
    await page.getByTestId('cr-list').getByText('More FAQ entries').click();
    const reviews = detail().getByTestId('cr-reviews');
    await reviews.getByRole('button', { name: 'Ask someone to review…' }).click();
    await reviews.getByLabel('Ask').selectOption({ label: 'Alex Rivera (alex@example.com)' });
    await reviews.getByRole('button', { name: 'Ask to review' }).click();
    await reviews.getByTestId(`reviewer-${demo.users.alex.id}`).getByText('Pending').waitFor();
    await detail().getByRole('button', { name: 'Edit subject' }).click();
    await detail().getByLabel('Subject').fill('More FAQ entries: offline work');
    await detail().getByRole('button', { name: 'Save' }).click();
    await detail()
      .getByRole('heading', { name: /offline work/ })
      .waitFor();
    await detail().getByRole('button', { name: 'Add a description' }).click();
    await detail()
      .getByRole('textbox', { name: /^Description/ })
      .fill('Written on the plane.');
    await detail().getByRole('button', { name: 'Save' }).click();
    await detail().locator('.cr-head').getByText('Queued, shown as pending', { exact: false }).waitFor();
    await detail().locator('.cr-head').getByText('Written on the plane.').waitFor();
    await action('archive').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => detail().getByTestId('cr-status').textContent()).toBe('archived');
    await pending(detail().locator('.cr-meta')).waitFor();

    // Merge and reviews need the server's answer: they say so, and nothing is queued.
    await action('reopen').getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(() => detail().getByTestId('cr-status').textContent()).toBe('open');
    expect(await action('merge').textContent()).toContain('Needs the server, which cannot be reached now: it is not queued.');
    await action('merge').getByRole('button', { name: 'Merge' }).click();
    await confirmMerge();
    await detail().getByRole('alert').filter({ hasText: "To merge the change request needs the server's answer" }).waitFor();
    await reviews.getByRole('button', { name: 'Approve' }).click();
    await reviews.getByRole('alert').filter({ hasText: "To approve the change request needs the server's answer" }).waitFor();
    expect(crOf(2).status).toBe('open');
    expect(stack.fake.store.review.reviewsOf(crOf(2).id).map((r) => r.status)).toEqual(['approved']);
    await expect.poll(() => page.getByTestId('review-pending').textContent()).toBe(' 10 actions waiting to be sent.');
    await snap(page, 'review-offline-actions');

    // The server deletes the comment replied to: that reply will be refused, the rest goes on.
    stack.fake.store.deleteComment(handbook(), mention);
  });

  it('sends the queue in the order it was taken once the API is back, and shows a refusal with the server’s reason', async () => {
    stack.fake.resetLog();
    stack.fake.faults.offline = false;
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByTestId('review-pending').count(), { timeout: 15_000 }).toBe(0);
    const cr2 = crOf(2).id;
    const question = stack.fake.store.commentsOf(handbook()).find((c) => c.markdown.startsWith('Should we link'))!.id;
    expect(writes()).toEqual([
      'POST /comments',
      `PUT /comments/${shorter}`,
      `POST /comments/${mention}/replies`,
      `PUT /comments/${question}`,
      `DELETE /comments/${shorter}`,
      `POST /change-requests/${cr2}/requested-reviewers`,
      `PATCH /change-requests/${cr2}`,
      `PATCH /change-requests/${cr2}`,
      `PATCH /change-requests/${cr2}`,
      `PATCH /change-requests/${cr2}`,
    ]);
    // What the server took.
    const onServer = [...stack.fake.store.comments.values()];
    expect(onServer.find((c) => c.markdown === 'Does this work on Windows too?')?.pageId).toBe(stack.fake.store.pageByTitle(handbook(), 'Install').id);
    expect(stack.fake.store.comments.has(shorter)).toBe(false);
    expect(stack.fake.store.review.requestedOf(crOf(2)).map((r) => r.userId)).toContain(demo.users.alex.id);
    expect(crOf(2)).toMatchObject({ status: 'open', subject: 'More FAQ entries: offline work' });
    expect(JSON.stringify(crOf(2).description ?? null)).toContain('Written on the plane.');
    // The one it refused, in its words, and nothing after it lost.
    const refused = page.getByTestId('review-refused');
    await refused.getByText('1 action refused by the server').waitFor();
    await refused.getByText(`A reply, just now: comment "${mention}" does not exist here (404)`).waitFor();
    await tab('Unresolved comments');
    await page.getByTestId('comment-list').getByText('Should we link the install guide here?').click();
    await openThread().getByRole('button', { name: '👀 1, from Casey Quire. Remove your reaction' }).waitFor();
    await expect.poll(() => pending(openThread()).count()).toBe(0);
    // Read, put away: the app no longer says it needs you for it.
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await refused.waitFor({ state: 'detached' });
    await expect.poll(async () => (await stack.service.request('sync.status', {})).reasons.map((r) => r.kind)).not.toContain('review-refused');
  });

  it('lists the writer’s own change request right after the push that created it, and moves the pushes between topics', async () => {
    await appendFile(join(await spaceFolder(), 'getting-started', 'install.md'), '\nOne more line.\n');
    await tab('Change requests');
    await page.getByRole('button', { name: 'Sync now' }).click();
    const mine = page.getByTestId('cr-list').getByRole('option').filter({ hasText: 'Edit “Install”' });
    await mine.getByText('yours').waitFor({ timeout: 20_000 });
    await mine.click();
    await detail().getByText('receives your edits').waitFor();
    await detail().getByRole('button', { name: 'Send my edits here' }).waitFor({ state: 'detached' });

    await tab('Your change requests');
    const target = page.getByTestId(`target-${handbook()}`);
    const state = () => target.getByTestId('target-state').textContent();
    await expect.poll(state).toMatch(/^Your edits go to #3 “Edit “Install”” \(1 page so far\)\./);
    await target.getByLabel('New topic').fill('The FAQ, reworked');
    await target.getByRole('button', { name: 'Start a change request' }).click();
    await expect.poll(state).toMatch(/^Your edits go to #4 “The FAQ, reworked” \(0 pages so far, chosen by you\)\./);
    expect(crOf(4).subject).toBe('The FAQ, reworked');
    await snap(page, 'your-change-requests');
    await target.getByRole('listitem').filter({ hasText: '#3' }).getByRole('button', { name: 'Send my edits here' }).click();
    await expect.poll(state).toMatch(/^Your edits go to #3 “Edit “Install”” \(1 page so far, chosen by you\)\./);
    await target.getByRole('listitem').filter({ hasText: '#4 The FAQ, reworked' }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
