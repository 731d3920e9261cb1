/**
 * One honest sync state (issue 18, item 1), end to end: the app in Chromium over the web host,
 * continuous sync running as the app runs it (the watcher), the fake API — and `quire status`
 * on the same folder. Each state is reached as a writer reaches it: never synced, the first sync
 * (started by ticking a space), in sync, a page the push guard holds, a mass-delete stop, a
 * conflict, the API down with review actions waiting, paused with an edit waiting, a rejected
 * token. In each, the header's words and `quire status --json`'s state agree, and the banner
 * names the reason (the same words) and offers its action, which is then taken.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_STATE_WORDS, type SyncStateName } from '../../src/shared/contract';
import type { SpaceRec } from '../fake';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { quire } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';
import { seedGuide } from '../helpers/sync';
import { snap } from './screenshots';

interface StatusJson {
  state: SyncStateName;
  reasons: { kind: string; spaceId: string | null; path?: string; message: string; action: string }[];
  lastReachedServerAt: string | null;
}

describe('the sync state, the same in the app and in quire status', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let space: SpaceRec;
  let commentId: string;

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({
      rendererDir,
      signedIn: true,
      // As the app runs: the watcher sees each save; the timer is far off.
      syncIntervalMs: 600_000,
      seed: (fake) => {
        space = seedGuide(fake);
        commentId = fake.store.addComment(space.id, { body: 'Is this page current?', page: fake.store.pageByTitle(space.id, 'Welcome').id }).id;
      },
    });
    browser = await launchBrowser({ width: 1280, height: 800 });
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await page.goto(stack.host.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const words = () => page.getByTestId('sync-words').textContent();
  const banner = () => page.getByTestId('state-banner');
  const header = () => page.locator('header.statusbar');
  const dir = () => join(stack.dir, 'guide');
  const poll = { timeout: 15_000, interval: 25 };

  async function cliStatus(): Promise<StatusJson> {
    const run = await quire(['status', '--dir', stack.dir, '--json']);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as StatusJson;
  }

  /** The header says `state` in words, `quire status` says `state`, and the banner shows its first reason in the same words. */
  async function agree(state: SyncStateName): Promise<StatusJson> {
    // Both settle on it (a cycle the app starts may be running when quire status looks: it says syncing then).
    await expect
      .poll(async () => ({ app: await words(), cli: (await cliStatus()).state, why: stack.service.status().reasons.map((r) => r.kind) }), poll)
      .toMatchObject({ app: SYNC_STATE_WORDS[state], cli: state });
    const cli = await cliStatus();
    const first = cli.reasons.find((r) => r.action !== 'none');
    if (first) await banner().getByText(first.message, { exact: true }).waitFor();
    // The app may have moved on meanwhile (a cycle its own restore started says its edits wait): it settles too.
    else await expect.poll(() => banner().count(), poll).toBe(0);
    return cli;
  }

  it('never synced: Not set up, and asks to choose spaces', async () => {
    const cli = await agree('not-set-up');
    expect(cli.reasons).toEqual([expect.objectContaining({ kind: 'no-space-chosen', action: 'choose-spaces' })]);
    await banner().getByRole('button', { name: 'Choose spaces' }).click();
    await page.getByTestId('choose-spaces').getByText('No space is chosen for this folder yet.').waitFor();
    await snap(page, 'state-not-set-up');
  });

  it('ticking a space starts its first sync by itself: Syncing… here and in quire status, then In sync', async () => {
    stack.fake.faults.latencyMs = 200;
    stack.fake.resetLog();
    await page.getByTestId(`space-${space.id}`).getByRole('checkbox').check();
    // Nobody pressed Sync now: the tick did.
    await expect.poll(() => stack.fake.requests.some((r) => r.path.includes(space.id)), poll).toBe(true);
    await expect.poll(words, poll).toBe('Syncing…');
    await expect.poll(async () => (await cliStatus()).state, poll).toBe('syncing');
    stack.fake.faults.latencyMs = 0;
    const cli = await agree('in-sync');
    expect(cli.reasons).toEqual([]);
    expect(cli.lastReachedServerAt).not.toBeNull();
    await header()
      .getByText(/last sync just now/)
      .waitFor();
  });

  it('a page the push guard holds: Needs you; Show the file opens it, saying why', async () => {
    await writeFile(join(dir(), 'faq.md'), '# FAQ\n\n{% hint style="info" %}\nNever closed.\n');
    const cli = await agree('needs-you');
    expect(cli.reasons[0]).toMatchObject({ kind: 'held-page', path: 'faq.md', action: 'show-file' });
    await snap(page, 'state-needs-you');
    await banner().getByRole('button', { name: 'Show the file' }).click();
    await page
      .getByTestId('page-held')
      .getByText(/Not pushed: .*hint/)
      .waitFor();
    await expect.poll(() => page.getByTestId(`pages-${space.id}`).getByRole('link', { name: /FAQ/ }).getAttribute('data-sync')).toBe('held');

    await writeFile(join(dir(), 'faq.md'), '# FAQ\n\n{% hint style="info" %}\nClosed now.\n{% endhint %}\n');
    await agree('in-sync');
  });

  it('a mass-delete stop: Needs you; Restore deleted files puts them back from history, and sync goes on', async () => {
    const files = ['changelog.md', 'getting-started/install.md', 'getting-started/configure.md', 'faq.md'];
    for (const f of files) await rm(join(dir(), f));
    const cli = await agree('needs-you');
    expect(cli.reasons[0]).toMatchObject({ kind: 'mass-delete', action: 'restore-deleted' });
    await banner().getByRole('button', { name: 'Restore deleted files' }).click();
    // The files are back, and the sync the restore ran settles it (the banner goes with the stop).
    await agree('in-sync');
    for (const f of files) expect((await readFile(join(dir(), f), 'utf8')).length).toBeGreaterThan(0);
    expect(stack.fake.store.pages(space.id).map((p) => p.title)).toEqual(expect.arrayContaining(['FAQ', 'Changelog', 'Install', 'Configure']));
  });

  it('a conflict: Needs you; Resolve the conflict leads to it, and taking theirs settles it', async () => {
    const faq = stack.fake.store.pageByTitle(space.id, 'FAQ');
    stack.fake.store.editPage(space.id, faq.id, { markdown: 'Questions, edited on the server.\n' });
    await writeFile(join(dir(), 'faq.md'), '# FAQ\n\nQuestions, edited here.\n');
    const cli = await agree('needs-you');
    expect(cli.reasons[0]).toMatchObject({ kind: 'conflict', path: 'faq.md', action: 'resolve-conflict' });
    await banner().getByRole('button', { name: 'Resolve the conflict' }).click();
    await page.getByRole('heading', { name: 'faq.md' }).waitFor();
    await page.getByRole('button', { name: 'Take theirs' }).click();
    await agree('in-sync');
  });

  it('the API down, with review actions waiting: Offline here and in quire status, since when; back online, In sync', async () => {
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Review/ })
      .click();
    await page.getByRole('tab', { name: /^Unresolved comments/ }).click();
    await page.getByTestId('comment-list').getByText('Is this page current?').click();
    stack.fake.faults.offline = true;
    await header().getByRole('button', { name: 'Sync now' }).click();
    const cli = await agree('offline');
    expect(cli.reasons[0]).toMatchObject({ kind: 'offline', action: 'sync-now', message: expect.stringMatching(/could not be reached since/) });
    await header()
      .getByText(/since just now · last sync/)
      .waitFor();

    const thread = page.locator('.thread-pane [data-testid^="thread-"]');
    await thread.getByRole('textbox', { name: 'Reply' }).fill('Yes, checked offline.');
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await header().getByText('1 pending action').waitFor();
    await expect.poll(words).toBe('Offline');
    await expect.poll(async () => (await cliStatus()).reasons.map((r) => r.kind), poll).toEqual(['offline', 'actions-waiting']);
    await banner()
      .getByText(/^1 review action .* waits to be sent/)
      .waitFor();
    await snap(page, 'state-offline');

    stack.fake.faults.offline = false;
    // One Sync now: the header's (the banner's lines ask for it, and leave it there).
    expect(await page.getByRole('button', { name: 'Sync now' }).count()).toBe(1);
    await header().getByRole('button', { name: 'Sync now' }).click();
    await agree('in-sync');
    expect(stack.fake.store.comment(space.id, commentId).replies.map((r) => r.markdown.trim())).toEqual(['Yes, checked offline.']);
  });

  it('paused with an edit waiting: Paused, with the count, here and in quire status; Resume pushes it', async () => {
    await header().getByRole('button', { name: 'Pause' }).click();
    await agree('paused');
    await writeFile(join(dir(), 'changelog.md'), '# Changelog\n\nOne entry, written while paused.\n');
    await header().getByText('1 edit waiting').waitFor();
    const cli = await agree('paused');
    expect(cli.reasons).toEqual([expect.objectContaining({ kind: 'paused', action: 'resume', message: expect.stringMatching(/1 edit waits/) })]);
    await snap(page, 'state-paused');
    await banner().getByRole('button', { name: 'Resume' }).click();
    await agree('in-sync');
    expect(stack.fake.store.changeRequestsOf(space.id).length).toBeGreaterThan(0);
  });

  it('a rejected token: Needs you; Sign in again, then sync goes on', async () => {
    stack.fake.faults.fail(1, 401);
    await header().getByRole('button', { name: 'Sync now' }).click();
    const cli = await agree('needs-you');
    expect(cli.reasons).toEqual([expect.objectContaining({ kind: 'token-rejected', action: 'sign-in' })]);
    await banner().getByRole('button', { name: 'Sign in again' }).click();
    await page.getByLabel('API token').fill(stack.fake.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await header().getByRole('button', { name: 'Sync now' }).click();
    await agree('in-sync');
    expect(browser.pageErrors).toEqual([]);
  });
});
