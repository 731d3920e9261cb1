/**
 * Issue 30, item 6 from the desktop, end to end in Debian's chromium: the built renderer served by
 * the web host, the real service and core, the fake API with a change request for each group in
 * two organizations (fake/triage-seed.ts). The Review view's inbox sorts them into the five
 * groups, says what a blocked one waits on, and pins and snoozes from the app: a pin holds after
 * a refresh, and an item snoozed until it changes comes back when someone reviews it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedTriage, type TriageSeed } from '../fake/triage-seed';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { startStack, type Stack } from '../helpers/stack';
import { snap } from './screenshots';

describe('the inbox from the desktop', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let seed: TriageSeed;

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({ rendererDir, signedIn: true, seed: (fake) => (seed = seedTriage(fake.store)) });
    browser = await launchBrowser({ width: 1280, height: 800 });
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const list = () => page.getByTestId('inbox-list');
  const group = (id: string) => page.getByTestId(`inbox-group-${id}`);
  const triage = async () =>
    (await stack.service.request('review.inbox', {})).map((i) => [i.group, i.changeRequest?.subject ?? 'thread', i.pinned, !!i.snoozed]);

  it('sorts the organizations’ change requests into the five groups, a blocked one with what it waits on', async () => {
    await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: [seed.guide.id, seed.handbook.id], selected: true });
    expect((await stack.service.syncOnce()).state).toBe('in-sync');
    await page.goto(`${stack.host.url}#review`);
    await list().getByText('Mine, waiting').waitFor();
    expect(await group('needs-review').textContent()).toBe('Needs your review 2');
    expect(await group('changes-requested').textContent()).toBe('Changes requested on yours 1');
    expect(await group('ready-to-merge').textContent()).toBe('Ready to merge 1');
    expect(await group('blocked').textContent()).toBe('Blocked 1');
    expect(await group('mentions').textContent()).toBe('Mentions and replies 2');
    const rows = list().getByRole('option');
    const order = await rows.evaluateAll((els) => els.map((e) => e.querySelector('[data-group]')?.getAttribute('data-group')));
    expect(order).toEqual(['needs-review', 'needs-review', 'changes-requested', 'ready-to-merge', 'blocked', 'mentions', 'mentions']);

    await group('blocked').click();
    await list().getByText('Waits on the merge rules ask for at least one approving review; a review from Sam Okafor (asked)').waitFor();
    await snap(page, 'review-inbox');
    // Mark all read covers every group, your ready and blocked change requests too.
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(async () => (await stack.service.request('review.inbox', {})).filter((i) => i.unread).length).toBe(0);
  });

  it('pins the chosen item first in its group, and the pin holds after a refresh', async () => {
    await group('needs-review').click();
    const last = list().getByRole('option').last();
    const subject = (await last.locator('.inbox-title').textContent())!;
    await last.click();
    await page.getByTestId('inbox-marks').getByRole('button', { name: 'Pin' }).click();
    await expect.poll(async () => (await list().getByRole('option').first().textContent()) ?? '').toContain(subject.replace(/^#\d+ /, ''));
    await stack.service.request('review.refresh', {});
    expect((await triage()).find((t) => t[2] === true)).toEqual(['needs-review', subject.replace(/^#\d+ /, ''), true, false]);
  });

  it('snoozes an item until it changes; it comes back when someone reviews it again', async () => {
    await group('changes-requested').click();
    await list().getByText('Mine, changes asked').click();
    await page.getByTestId('inbox-marks').getByRole('button', { name: 'Snooze until it changes' }).click();
    await page.getByText('Nothing in “Changes requested on yours”.').waitFor();
    expect(await group('snoozed').textContent()).toBe('Snoozed 1');

    stack.fake.store.review.submit(seed.guide.id, 2, { status: 'changes-requested', by: seed.alex.id, comment: 'Still not.' });
    await stack.service.request('review.refresh', {});
    await expect.poll(() => group('changes-requested').textContent()).toBe('Changes requested on yours 1');
    expect(await group('snoozed').textContent()).toBe('Snoozed 0');
  });
});
