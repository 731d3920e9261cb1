/**
 * The app end to end in Debian's chromium: the built renderer served by the
 * web host, the real service and core, the fake API. One user story, in order:
 * sign in, choose a space, sync with progress, resolve a conflict, reply to and
 * resolve a comment offline then online, browse the change request, the sites
 * and the sync log. Screenshots land in test-artifacts/e2e.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedDemo, type DemoSeed } from '../fake/seed';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { startStack, type Stack } from '../helpers/stack';
import { snap } from './screenshots';

describe('Quire in a browser', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let demo: DemoSeed;

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({ rendererDir, seed: (fake) => (demo = seedDemo(fake.store)) });
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const nav = (name: string) =>
    page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .click();
  const syncState = () => page.getByTestId('sync-state');
  /** The header's button (the banner may offer its own for a reason). */
  const syncNow = () => page.locator('header.statusbar').getByRole('button', { name: 'Sync now' });
  const spaceFolder = async (spaceId: string) => {
    const catalog = await stack.service.request('catalog.get', {});
    const folder = catalog.spaces.find((s) => s.id === spaceId)?.folder;
    if (!folder) throw new Error(`space ${spaceId} has no folder`);
    return join(stack.dir, folder);
  };

  it('refuses a wrong token with a message, then signs in', async () => {
    await page.goto(stack.host.url);
    expect(page.url()).toBe(stack.host.url); // the secret is the app's path, and no cookie holds it
    expect(await page.context().cookies()).toEqual([]);
    await page.getByLabel('API token').fill('not-a-valid-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'rejected this token' }).waitFor();
    await snap(page, 'sign-in');

    await page.getByLabel('API token').fill(stack.fake.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
    await page.getByText('Casey Quire').waitFor();
  });

  it('lists organizations, collections and spaces, and chooses one to sync', async () => {
    await page.getByRole('heading', { name: 'Quire Demo Co' }).waitFor();
    await page.getByText('Product docs').waitFor();
    const handbook = page.getByTestId(`space-${demo.handbook.id}`);
    await expect.poll(() => handbook.getAttribute('data-state')).toBe('not-chosen');
    await page.getByTestId('choose-spaces').waitFor();
    await expect.poll(() => page.getByTestId('sync-words').textContent()).toBe('Not set up');
    // Ticking it starts its first sync at once (slowed down, so its progress shows in the next test).
    stack.fake.faults.latencyMs = 250;
    await handbook.getByRole('checkbox').check();
    await expect.poll(async () => (await stack.service.request('catalog.get', {})).spaces.find((s) => s.id === demo.handbook.id)?.selected).toBe(true);
  });

  it('syncs with live progress and shows the space in sync', async () => {
    await page.getByTestId('sync-progress').waitFor({ state: 'visible' });
    await expect.poll(() => syncState().textContent(), { interval: 20, timeout: 10_000 }).toMatch(/^Syncing….*Handbook · [1-9]\d*\/\d+/);
    await snap(page, 'sync-progress');
    await page.getByTestId('sync-progress').waitFor({ state: 'detached', timeout: 20_000 });
    stack.fake.faults.latencyMs = 0;
    await expect.poll(() => syncState().textContent()).toContain('In sync');
    await expect.poll(() => page.getByTestId(`space-${demo.handbook.id}`).getAttribute('data-state')).toBe('in-sync');
    const readme = await readFile(join(await spaceFolder(demo.handbook.id), 'README.md'), 'utf8');
    expect(readme).toContain('Welcome to the **handbook**.');
    await snap(page, 'spaces');
  });

  it('shows a clash side by side and resolves it with "take theirs"', async () => {
    const dir = await spaceFolder(demo.handbook.id);
    const file = join(dir, 'README.md');
    const local = (await readFile(file, 'utf8')).replace('Welcome to the **handbook**.', 'Welcome to our **handbook**, edited here.');
    await writeFile(file, local);
    const welcome = stack.fake.store.pageByPath(demo.handbook.id, 'welcome');
    stack.fake.store.editPage(demo.handbook.id, welcome.id, {
      markdown: 'Welcome to the **team handbook**, edited on the server.\n\nStart with [Getting started](getting-started/README.md).',
    });

    await syncNow().click();
    await expect.poll(() => page.getByTestId('sync-words').textContent()).toBe('Needs you');
    await page
      .getByTestId('state-banner')
      .getByText(/README\.md \(“Welcome”\): edited here and on the server/)
      .waitFor();
    await nav('Conflicts');
    await page.getByRole('heading', { name: 'README.md' }).waitFor();
    await expect.poll(() => page.getByTestId('side-local').textContent()).toContain('edited here');
    await expect.poll(() => page.getByTestId('side-remote').textContent()).toContain('edited on the server');
    await snap(page, 'conflicts');

    await page.getByRole('button', { name: 'Open in editor' }).click();
    await expect.poll(() => page.getByTestId('open-path-value').textContent()).toBe(file);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Take theirs' }).click();
    await page.getByTestId('no-conflicts').waitFor();
    expect(await readFile(file, 'utf8')).toContain('edited on the server');
    await expect.poll(() => syncState().textContent()).toContain('In sync');
  });

  it('replies to and resolves a comment offline, then sends both when back online', async () => {
    await nav('Review');
    await page.getByRole('tab', { name: /^Unresolved comments/ }).click();
    const list = page.getByTestId('comment-list');
    await list.getByText('Should we link the install guide here?').click();
    const thread = page.locator('.thread-pane [data-testid^="thread-"]');
    await thread.getByText('Yes, added in the polish change request.').waitFor();

    stack.fake.faults.offline = true;
    await thread.getByRole('textbox', { name: 'Reply' }).fill('Done offline: linked it.');
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await thread.getByText('Done offline: linked it.').waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => thread.getByTestId('thread-status').textContent()).toBe('Resolved');
    await expect.poll(() => thread.getByRole('status').filter({ hasText: 'Pending' }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('sync-state').textContent()).toMatch(/2 pending actions/);
    await snap(page, 'review-offline');
    const question = stack.fake.store.commentsOf(demo.handbook.id).find((c) => c.markdown.startsWith('Should we link'))!;
    expect(question.status).toBe('open');

    stack.fake.faults.offline = false;
    await syncNow().click();
    await expect.poll(() => page.getByTestId('sync-state').textContent(), { timeout: 15_000 }).not.toMatch(/pending action/);
    await expect.poll(() => thread.getByRole('status').filter({ hasText: 'Pending' }).count()).toBe(0);
    const after = stack.fake.store.comment(demo.handbook.id, question.id);
    expect(after.status).toBe('resolved');
    expect(after.replies.map((r) => r.markdown)).toContain('Done offline: linked it.');
  });

  it('opens a change request with its page diff and threads', async () => {
    await page.getByRole('tab', { name: /Change requests/ }).click();
    await page.getByTestId('cr-list').getByText('Polish the welcome page').click();
    const detail = page.getByTestId('cr-detail');
    await detail.getByRole('heading', { name: /Polish the welcome page/ }).waitFor();
    await detail.getByText('Changelog', { exact: true }).waitFor();
    await detail.getByText('Nice wording 👍').waitFor();
    await snap(page, 'change-request');
    await detail.getByRole('radio', { name: 'Rendered, side by side' }).first().check();
    const rendered = detail.getByTestId('rendered-diff').first();
    await expect.poll(() => rendered.locator('.gb-page strong').allTextContents()).toEqual(['handbook', 'Quire']);
    await detail
      .getByRole('radio', { name: 'Rendered, side by side' })
      .first()
      .evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
    await snap(page, 'change-request-rendered');
  });

  it("shows each space's pages rendered, with problems, comments, sync state, the editor, and pages.open", async () => {
    const dir = await spaceFolder(demo.handbook.id);
    const readme = join(dir, 'README.md');
    await writeFile(
      readme,
      `${await readFile(readme, 'utf8')}\n{% hint style="warning" %}\nSee [the missing page](nowhere.md).\n{% endhint %}\n\n{% tabs %}\n{% tab title="One" %}\nfirst tab\n{% endtab %}\n{% tab title="Two" %}\nsecond tab\n{% endtab %}\n{% endtabs %}\n\n$$a^2 + b^2$$\n\n\`\`\`js\nconst x = 1;\n\`\`\`\n`,
    );
    await nav('Pages');
    const tree = page.getByTestId(`pages-${demo.handbook.id}`);
    await tree.getByRole('link', { name: /Welcome/ }).click();
    const detail = page.getByTestId('page-detail');
    await detail.locator('.gb-hint-warning').waitFor();
    expect(await detail.locator('.gb-body strong').first().textContent()).toBe('team handbook');
    // The page behaviour works under the app's CSP too: tabs switch (click and arrows), math is positioned, code can be copied.
    const tabs = detail.getByRole('tab');
    await tabs.nth(1).click();
    await detail.getByText('second tab').waitFor();
    expect(await detail.getByText('first tab').isVisible()).toBe(false);
    await page.keyboard.press('ArrowLeft');
    await detail.getByText('first tab').waitFor();
    expect(
      await detail
        .locator('.katex [data-gb-style]')
        .first()
        .evaluate((el) => (el as unknown as { style: { cssText: string } }).style.cssText),
    ).not.toBe('');
    expect(await detail.locator('.hljs-keyword').first().textContent()).toBe('const');
    expect(await detail.getByRole('button', { name: 'Copy the code' }).isVisible()).toBe(true);
    await expect.poll(() => tree.getByRole('link', { name: /Welcome/ }).getAttribute('data-sync')).toBe('edited');
    const problems = page.getByTestId('page-problems');
    expect(await problems.textContent()).toContain('nowhere.md, which does not exist');
    await detail.getByRole('button', { name: 'Open in editor' }).click();
    await expect.poll(() => page.getByTestId('open-path-value').textContent()).toBe(readme);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await snap(page, 'pages');

    await stack.service.request('pages.open', { spaceId: demo.handbook.id, path: 'getting-started/README.md' });
    await expect.poll(() => page.url()).toContain(`#pages/${demo.handbook.id}/getting-started%2FREADME.md`);
    await detail.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
    await detail.getByText('Install and configure').waitFor();
    await detail
      .getByRole('link', { name: 'Install' })
      .first()
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    await writeFile(readme, (await readFile(readme, 'utf8')).replace(/\n\{% hint[\s\S]*$/, '\n'));
  });

  it('shows each site with its sections, groups and share links', async () => {
    await nav('Sites');
    const site = page.getByTestId(`site-${demo.site.id}`);
    await site.getByRole('heading', { name: 'Quire Docs' }).waitFor();
    await site.getByText('Published').waitFor();
    await site.getByText('Developers').waitFor();
    await site.getByText('API v1').waitFor();
    await site.getByText('Beta testers').waitFor();
    await site.getByText('Old partners').waitFor();
    await snap(page, 'sites');
  });

  it('shows what each cycle did in a filterable sync log: the pages, who changed main, each page one click away', async () => {
    // Sam merges Alex's change request on the server; the next sync pulls it.
    const { editIntro } = demo.changeRequests;
    stack.fake.store.mergeChangeRequest(demo.handbook.id, editIntro.id, demo.users.sam.id);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await nav('Sync log');
    const list = page.getByTestId('log-list');
    const merged = `change request #${editIntro.number} “Polish the welcome page” by Alex Rivera, merged by Sam Okafor`;
    await list.getByText(new RegExp(`^Pulled \\d+ pages? from main — ${merged}$`)).waitFor({ timeout: 15_000 });
    expect(await list.textContent()).not.toMatch(/rev_/);
    await page.getByLabel('Kind').selectOption('conflict');
    await list.getByText(/README.md: edited here and on the server/).waitFor();
    await expect.poll(() => list.getByText(/^Pulled/).count()).toBe(0);
    await page.getByLabel('Kind').selectOption('');

    await list.getByText(new RegExp(`— ${merged}$`)).click();
    const detail = page.getByTestId('log-detail');
    const pages = detail.getByRole('list', { name: 'Pages' });
    await pages.getByText('Changelog', { exact: true }).waitFor();
    await pages.getByText('Welcome', { exact: true }).waitFor();
    await snap(page, 'sync-log');
    await detail.getByRole('button', { name: 'Open Changelog' }).click();
    await page.getByTestId('page-detail').getByRole('heading', { level: 1, name: 'Changelog' }).waitFor();
  });

  it('moves between views from the keyboard', async () => {
    await page.keyboard.press('Alt+1');
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
    await page.keyboard.press('Alt+3');
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await page.keyboard.press('Alt+6');
    await page.getByRole('heading', { name: 'Pages' }).waitFor();
    await page.keyboard.press('Alt+1');
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it('tells the user when the web host goes away', async () => {
    await stack.host.close();
    await page.getByRole('alert').filter({ hasText: 'Lost the connection to Quire' }).waitFor();
    await snap(page, 'connection-lost');
  });
});
