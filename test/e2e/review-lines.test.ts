/**
 * Issue 30, items 1, 2 and 8 from the desktop, end to end in Debian's chromium: the built
 * renderer served by the web host, the real service and core, the fake API. A change request's
 * changed pages unified and side by side, `n` and `p` (and the buttons) going from page to page;
 * a comment made by clicking a line lands on the block holding it on the server and shows under
 * that line (and with its line in the Review view); it is marked outdated once its block changed;
 * a reviewer's suggestion on the writer's own change request is applied with one click, written
 * into the file, pushed by the next sync, and its thread resolved with a reply.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocBlock } from '../fake/document';
import type { ChangeRequestRec, SpaceRec, UserRec } from '../fake/model';
import { buildPage } from '../helpers/build-page';
import { type Browser, launchBrowser } from '../helpers/chromium';
import { type Stack, startStack } from '../helpers/stack';
import { snap } from './screenshots';

describe('a change request’s lines, from the desktop', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let space: SpaceRec;
  let alex: UserRec;
  let cr: ChangeRequestRec;

  const SETUP_AFTER = 'Install the tool, then check it.\n\n1. Download it.\n2. Run the installer.\n\n```sh\nnpm i\n```\n';

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({
      rendererDir,
      signedIn: true,
      seed: (fake) => {
        alex = fake.store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
        const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
        space = fake.store.addSpace(org.id, {
          title: 'Guide',
          pages: [
            { title: 'Welcome', markdown: 'Hi.\n' },
            { title: 'Setup', markdown: 'Install the tool.\n\n1. Download it.\n2. Run the installer.\n\n```sh\nnpm i\n```\n' },
            { title: 'Reference', markdown: 'Ref.\n', pages: [{ title: 'Options', markdown: 'All the options.\n' }] },
          ],
        });
        cr = fake.store.addChangeRequest(space.id, { subject: 'Better setup', createdBy: alex.id });
        const t = { changeRequest: cr.id };
        fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Setup').id, { markdown: SETUP_AFTER }, t);
        fake.store.movePage(space.id, fake.store.pageByTitle(space.id, 'Options').id, { parent: null }, t);
        fake.store.addPage(space.id, { title: 'FAQ', markdown: 'Questions and answers.\n' }, t);
      },
    });
    browser = await launchBrowser({ width: 1280, height: 900 });
    page = browser.page;
    page.setDefaultTimeout(10_000);
    await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: [space.id], selected: true });
    expect((await stack.service.syncOnce()).state).toBe('in-sync');
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const setupId = () => stack.fake.store.pageByTitle(space.id, 'Setup').id;
  const blocksIn = (id: string): DocBlock[] => stack.fake.store.revisionOf(space.id, { changeRequest: id }).pages.get(setupId())!.document!.nodes;
  const children = (b: DocBlock): DocBlock[] => (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block');
  const detail = () => page.getByTestId('cr-detail');
  const setupDiff = () => detail().getByTestId(`page-diff-${setupId()}`);
  const open = async (subject: string) => {
    await page.goto(`${stack.host.url}#review`);
    await page.getByRole('tab', { name: /^Change requests/ }).click();
    await page.getByTestId('cr-list').getByText(subject).click();
    await detail()
      .getByRole('heading', { name: new RegExp(subject) })
      .waitFor();
  };

  it('shows the changed pages unified or side by side, and goes from page to page with n and p or the buttons', async () => {
    await open('Better setup');
    const table = setupDiff().locator('table.line-diff');
    await table.waitFor();
    expect(await table.getAttribute('data-mode')).toBe('unified');
    expect(await table.locator('tr.diff-line.added .diff-text').allTextContents()).toEqual(['added: Install the tool, then check it.']);
    expect(await table.locator('tr.diff-line.removed .diff-text').allTextContents()).toEqual(['removed: Install the tool.']);

    await detail().getByRole('radio', { name: 'Side by side', exact: true }).check();
    await expect.poll(() => table.getAttribute('data-mode')).toBe('split');
    const pair = table.locator('tr.diff-pair', { hasText: 'then check it' });
    expect(await pair.locator('td.diff-text').allTextContents()).toEqual(['removed: Install the tool.', 'added: Install the tool, then check it.']);
    await snap(page, 'change-request-side-by-side');

    const position = detail().getByTestId('page-position');
    expect(await position.textContent()).toBe('4 pages');
    await page.keyboard.press('n');
    await expect.poll(() => position.textContent()).toBe('Page 1 of 4');
    await page.keyboard.press('n');
    await expect.poll(() => position.textContent()).toBe('Page 2 of 4');
    expect(await detail().locator('.page-diff[aria-current="true"] .page-diff-title').textContent()).toBe(
      (await detail().locator('.page-diff .page-diff-title').nth(1).textContent()) ?? '',
    );
    await page.keyboard.press('p');
    await expect.poll(() => position.textContent()).toBe('Page 1 of 4');
    for (let i = 0; i < 3; i++) await detail().getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => position.textContent()).toBe('Page 4 of 4');
    expect(await detail().getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    // A moved page says so, with where it was.
    await detail().locator('.page-diff', { hasText: 'Options' }).getByText('reference/options.md → options.md').waitFor();
    await detail().getByRole('radio', { name: 'Unified', exact: true }).check();
  });

  it('a comment made by clicking a line lands on the block holding it, and shows under that line and in the Review view', async () => {
    await setupDiff().getByRole('button', { name: 'Comment on line 6' }).click();
    const form = setupDiff().getByTestId('new-comment');
    await form.getByText('New comment on line 6 of “Setup” in change request #1').waitFor();
    await form.locator('textarea').fill('Run it as admin?');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect
      .poll(() => stack.fake.store.commentsOf(space.id, cr.id).map((c) => [c.markdown, c.pageId, c.nodeId]))
      .toEqual([['Run it as admin?', setupId(), children(blocksIn(cr.id)[1]!)[1]!.key]]);
    const under = setupDiff().getByTestId('line-threads-6');
    await under.getByText('Run it as admin?').waitFor();
    await under.scrollIntoViewIfNeeded();
    await snap(page, 'change-request-line-comment');

    await page.getByRole('tab', { name: /^Unresolved comments/ }).click();
    await page
      .getByTestId('comment-list')
      .getByText(/· Setup, line 6/)
      .waitFor();
  });

  it('marks the thread outdated once its block changed in the change request', async () => {
    stack.fake.store.editPage(
      space.id,
      setupId(),
      { markdown: SETUP_AFTER.replace('2. Run the installer.', '2. Run the installer as admin.') },
      { changeRequest: cr.id },
    );
    await stack.service.request('review.refresh', {});
    await open('Better setup');
    const thread = setupDiff().getByTestId('line-threads-6');
    await thread.getByText('Run it as admin?').waitFor();
    await thread.getByTestId('thread-outdated').waitFor();
  });

  it('applies a reviewer’s suggestion on the writer’s own change request with one click: written into the file, pushed, resolved with a reply', async () => {
    const file = join(stack.dir, 'guide', 'setup.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('1. Download it.', '1. Download it from the site.'));
    expect((await stack.service.syncOnce()).state).toBe('in-sync');
    const mine = stack.fake.store.changeRequestsOf(space.id).find((c) => c.createdBy === stack.fake.store.currentUser.id)!;
    const item = children(blocksIn(mine.id)[1]!)[0]!;
    const suggestion = stack.fake.store.addComment(space.id, {
      body: 'Say which site:\n\n```suggestion\n1. Download it from the releases page.\n```',
      page: setupId(),
      node: item.key,
      changeRequest: mine.id,
      by: alex.id,
    });
    await stack.service.request('review.refresh', {});
    await open(mine.subject);
    const thread = setupDiff().getByTestId(`thread-${suggestion.id}`);
    const shown = thread.getByTestId('suggestion');
    expect(await shown.locator('.diff-line.removed').textContent()).toContain('1. Download it from the site.');
    expect(await shown.locator('.diff-line.added').textContent()).toContain('1. Download it from the releases page.');
    await shown.scrollIntoViewIfNeeded();
    await snap(page, 'change-request-suggestion');

    // The preview of the page marks the block the thread is on, and the thread says its line.
    await page.goto(`${stack.host.url}#pages/${encodeURIComponent(space.id)}/setup.md`);
    const preview = page.getByTestId('page-detail');
    expect(await preview.locator('.gb-body [data-comment-line="5"]').textContent()).toContain('Download it from the site.');
    await preview.getByTestId('page-comments').getByTestId('thread-line').getByText(', line 5').waitFor();
    await open(mine.subject);
    await shown.getByRole('button', { name: 'Apply suggestion' }).click();
    await shown.getByText(/^Applied to guide\/setup\.md \(line 5\); the next sync pushes it\. The thread is resolved\.$/).waitFor();
    expect(await readFile(file, 'utf8')).toContain('1. Download it from the releases page.\n2. Run the installer.');
    const resolved = stack.fake.store.comment(space.id, suggestion.id, mine.id);
    expect(resolved.status).toBe('resolved');
    expect(resolved.replies.map((r) => r.markdown)).toEqual(['Applied this suggestion to `guide/setup.md`; it is pushed with the next sync.']);
    expect((await stack.service.syncOnce()).state).toBe('in-sync');
    expect(stack.fake.store.pageMarkdown(space.id, setupId(), { changeRequest: mine.id })).toContain('1. Download it from the releases page.');
    expect(browser.pageErrors).toEqual([]);
  });
});
