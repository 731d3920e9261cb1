/**
 * Issue 30, items 3, 4 and 7 from the desktop, end to end in Debian's chromium: the built
 * renderer served by the web host, the real service and core, the fake API with the demo
 * organization. A reviewer starts a review of #1, comments three times (kept, marked “Pending
 * review”, nothing sent), finishes it with an approval — the connection drops half-way, and the
 * next refresh sends the rest, each once; marks pages viewed, and a mark clears when the page
 * changes in a later revision; then merges deliberately: Merge asks first, naming the change
 * request and its pages, and is held back while a page of it has a conflict in the folder, until
 * “Merge anyway” is ticked.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSeed } from '../fake/seed';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { startStack, type Stack } from '../helpers/stack';

describe('a deliberate review from the desktop', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let demo: DemoSeed;

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({ rendererDir, signedIn: true, seed: (fake) => (demo = seedDemo(fake.store)) });
    browser = await launchBrowser({ width: 1280, height: 800 });
    page = browser.page;
    page.setDefaultTimeout(10_000);
    await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: [demo.handbook.id], selected: true });
    expect((await stack.service.syncOnce()).state).toBe('in-sync');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const handbook = () => demo.handbook.id;
  const cr = () => stack.fake.store.changeRequest(handbook(), 1);
  const detail = () => page.getByTestId('cr-detail');
  const onServer = () => stack.fake.store.commentsOf(handbook(), cr().id).map((c) => c.markdown.trim());
  const openChangeRequest = async () => {
    await page.goto(`${stack.host.url}#review/change-request/${handbook()}/${cr().id}`);
    await detail()
      .getByRole('heading', { name: /Polish the welcome page/ })
      .waitFor();
  };
  const comment = async (button: string, text: string) => {
    await detail().getByRole('button', { name: button }).click();
    const form = detail().getByTestId('new-comment');
    await form.getByLabel(/^Comment/).fill(text);
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    await detail().locator('[data-testid^="thread-"]').filter({ hasText: text }).getByText('Pending review').waitFor();
  };

  it('keeps the comments of a pending review, and sends them with the verdict once, also when the connection drops half-way', async () => {
    await openChangeRequest();
    const before = onServer();
    await detail().getByRole('button', { name: 'Start a review' }).click();
    const pending = detail().getByTestId('pending-review');
    await pending.getByText(/^Your pending review: 0 comments/).waitFor();

    await comment('Comment on Welcome', 'Who is the handbook for?');
    await comment('New comment on #1', 'The changelog could link the releases.');
    await comment('New comment on #1', 'Otherwise, lovely.');
    await pending.getByText(/^Your pending review: 3 comments/).waitFor();
    expect(onServer()).toEqual(before);

    // The second comment reaches the server and its answer is lost: the rest waits, and nothing is sent twice.
    let posts = 0;
    stack.fake.faults.loseAnswer(1, { match: (r) => r.method === 'POST' && r.path.endsWith(`/change-requests/${cr().id}/comments`) && ++posts === 2 });
    await pending.getByLabel(/^Summary/).fill('Reads well.');
    await pending.getByRole('button', { name: 'Finish review: Approve' }).click();
    await detail()
      .getByText(/^1 of 3 comments sent; the rest \(2 comments and the verdict\) is queued and sent when the API answers again, nothing twice/)
      .waitFor();
    expect(onServer()).toEqual([...before, 'Who is the handbook for?', 'The changelog could link the releases.']);

    await stack.service.request('review.refresh', {});
    await expect.poll(() => stack.fake.store.review.reviewsOf(cr().id).filter((r) => r.status === 'approved').length).toBe(1);
    expect(onServer()).toEqual([...before, 'Who is the handbook for?', 'The changelog could link the releases.', 'Otherwise, lovely.', 'Reads well.']);
    await detail().getByTestId('start-review').waitFor();
    await expect.poll(() => detail().getByText('Pending review', { exact: true }).count()).toBe(0);
  });

  it('marks pages viewed; a mark clears itself when a later revision changes the page', async () => {
    await expect.poll(() => detail().getByTestId('viewed-count').textContent()).toBe('0 of 2 pages viewed');
    await detail().getByRole('checkbox', { name: 'Welcome viewed' }).check();
    await detail().getByRole('checkbox', { name: 'Changelog viewed' }).check();
    await expect.poll(() => detail().getByTestId('viewed-count').textContent()).toBe('2 of 2 pages viewed');

    const welcome = stack.fake.store.pageByTitle(handbook(), 'Welcome', { changeRequest: cr().id });
    stack.fake.store.editPage(
      handbook(),
      welcome.id,
      { markdown: 'Welcome to the **Quire** handbook, for writers.\n\nRead this first.' },
      { changeRequest: cr().id },
    );
    await stack.service.request('review.refresh', {});
    await expect.poll(() => detail().getByTestId('viewed-count').textContent()).toBe('1 of 2 pages viewed');
    expect(await detail().getByRole('checkbox', { name: 'Welcome viewed' }).isChecked()).toBe(false);
    await detail().getByText('changed since you viewed it').waitFor();
    expect(await detail().getByRole('checkbox', { name: 'Changelog viewed' }).isChecked()).toBe(true);
  });

  it('asks before merging, naming what goes in, and holds the merge back while a page of it has a conflict here, until “Merge anyway”', async () => {
    const folder = join(stack.dir, (await stack.service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!);
    await writeFile(join(folder, 'README.md'), '# Welcome\n\nMy own welcome.\n');
    stack.fake.store.editPage(handbook(), stack.fake.store.pageByTitle(handbook(), 'Welcome').id, { markdown: 'Welcome, from main.' });
    expect((await stack.service.syncOnce()).state).toBe('needs-you');

    await openChangeRequest();
    const merge = detail().getByTestId('action-merge');
    await expect.poll(() => merge.textContent()).toContain('Held back here: “Welcome” (README.md) has an open conflict in your folder: resolve it first.');
    await merge.getByRole('button', { name: 'Merge' }).click();
    const confirm = detail().getByTestId('merge-confirm');
    await confirm.getByRole('heading', { name: 'Merge #1 “Polish the welcome page” into main?' }).waitFor();
    await confirm.getByText(/2 pages change: Welcome \(modified\), Changelog \(added\)\. 2 reviews, 1 approving\./).waitFor();
    await confirm.getByText('Held back: “Welcome” (README.md) has an open conflict in your folder: resolve it first.').waitFor();
    const go = confirm.getByRole('button', { name: 'Merge into main' });
    expect(await go.isDisabled()).toBe(true);
    expect(cr().status).toBe('open');

    await confirm.getByLabel(/Merge anyway/).check();
    await go.click();
    await detail().getByText('Merged into main. The next sync brings the result into the folder.').waitFor();
    expect(cr().status).toBe('merged');
  });
});
