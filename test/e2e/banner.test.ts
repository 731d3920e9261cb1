/**
 * The banner under the header, as a writer meets it in a bad hour (issue 28, items 4 to 6): the
 * app in Chromium over the web host, against the fake API. Several kinds of trouble at once — a
 * conflict, two pages the push guard holds, a delete the server refused, the API gone — take one
 * line per kind at 800×600 (the details folded), with one Sync now (the header's); each line's
 * action works from where it is offered. A mass-delete stop names its pages and is let through
 * from the app, as the banner names them. Screenshots of each state at 800×600 and 1280×800 go to
 * test-artifacts/e2e (and docs/screenshots with QUIRE_DOCS_SCREENSHOTS=1).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceRec } from '../fake';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import type { PageGlobals } from '../helpers/page-globals';
import { startStack, type Stack } from '../helpers/stack';
import { seedGuide } from '../helpers/sync';
import { snap } from './screenshots';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

describe('the banner', () => {
  let rendererDir: string;
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let space: SpaceRec;
  const poll = { timeout: 15_000, interval: 25 };
  const banner = () => page.getByTestId('state-banner');
  const dir = () => join(stack.dir, 'guide');
  const kinds = async () => (await stack.service.request('sync.status', {})).reasons.map((r) => r.kind);

  beforeAll(async () => {
    rendererDir = await buildPage();
    stack = await startStack({ rendererDir, signedIn: true, seed: (fake) => (space = seedGuide(fake)) });
    await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: [space.id], selected: true });
    await stack.service.syncOnce();
    browser = await launchBrowser(SIZES[0]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await page.goto(stack.host.url);
    await page.getByTestId('sync-state').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function settle(): Promise<void> {
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return new Promise((resolve) => g.requestAnimationFrame(() => g.requestAnimationFrame(resolve)));
    });
  }

  /** Screenshots of the window as it is, at both sizes. */
  async function snapBoth(name: string): Promise<void> {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await settle();
      await snap(page, `${name}-${size.width}x${size.height}`);
    }
    await page.setViewportSize(SIZES[0]);
  }

  it('several kinds of trouble at once: one line per kind at 800×600, the details folded, one Sync now', async () => {
    const { fake } = stack;
    // A conflict and two pages the push guard holds.
    await writeFile(join(dir(), 'faq.md'), '# FAQ\n\nQuestions, edited here.\n');
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'FAQ').id, { markdown: 'Questions, edited on the server.\n' });
    await writeFile(join(dir(), 'changelog.md'), '# Changelog\n\n{% hint style="info" %}\nNever closed.\n');
    await writeFile(join(dir(), 'README.md'), '# Welcome\n\n{% tabs %}\nNever closed either.\n');
    await stack.service.syncOnce();
    // A delete the server refuses.
    await rm(join(dir(), 'getting-started', 'configure.md'));
    fake.faults.fail(1, 422, { match: (r) => r.method === 'POST' && r.path.endsWith('/content') });
    await stack.service.syncOnce();
    // The API gone.
    fake.faults.offline = true;
    await stack.service.syncOnce();
    await expect.poll(kinds, poll).toEqual(['conflict', 'held-page', 'held-page', 'refused', 'offline']);

    await banner().locator('[data-kind="offline"]').waitFor();
    await settle();
    const lines = banner().locator('.reason');
    expect(await lines.count()).toBe(4);
    for (let i = 0; i < 4; i++) {
      const message = lines.nth(i).locator('.reason-message');
      const fontSize = await message.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      expect((await message.boundingBox())!.height, (await message.textContent()) ?? '').toBeLessThan(fontSize * 2);
    }
    const height = (await banner().boundingBox())!.height;
    expect(height).toBeLessThanOrEqual(4 * 40 + 12);
    expect(await page.getByRole('button', { name: 'Sync now' }).count()).toBe(1);
    await banner().locator('[data-kind="held-page"]').getByText('2 pages not pushed: README.md, changelog.md').waitFor();
    await snapBoth('banner-needs-you');

    // Unfolded: each held page in full, each with its own way to it.
    const held = banner().locator('[data-kind="held-page"]');
    await held.getByRole('button', { name: 'More' }).click();
    expect(await held.getByRole('button', { name: 'Show the file' }).count()).toBe(2);
    await snapBoth('banner-details');
    await held.getByRole('button', { name: 'Less' }).click();

    // The refused delete: it names the file and its title, and puts the file back from where it is offered.
    const refused = banner().locator('[data-kind="refused"]');
    await refused.getByText(/^getting-started\/configure\.md \(“Configure”\): you deleted it here, and the server refused/).waitFor();
    await refused.getByRole('button', { name: 'Restore the file' }).click();
    const configure = () => readFile(join(dir(), 'getting-started', 'configure.md'), 'utf8').catch(() => '');
    await expect.poll(configure, poll).toMatch(/Edit the settings\./);

    // Back online, the guard's pages fixed, the conflict settled: the banner goes.
    fake.faults.offline = false;
    await writeFile(join(dir(), 'changelog.md'), '# Changelog\n\nNothing yet.\n');
    await writeFile(join(dir(), 'README.md'), '# Welcome\n\nHello, reader.\n');
    await writeFile(join(dir(), 'faq.md'), await readFile(join(dir(), 'faq.remote.md'), 'utf8'));
    await rm(join(dir(), 'faq.remote.md'));
    await stack.service.syncOnce();
    await expect.poll(kinds, poll).toEqual([]);
    await expect.poll(() => banner().count(), poll).toBe(0);
  });

  it('a mass-delete stop names its pages, and is let through from the app: exactly those deletes go', async () => {
    const files = ['changelog.md', 'faq.md', 'getting-started/install.md', 'getting-started/configure.md'];
    for (const f of files) await rm(join(dir(), f));
    await stack.service.syncOnce();
    await expect.poll(kinds, poll).toEqual(['mass-delete']);
    const stop = banner().locator('[data-kind="mass-delete"]');
    await stop.getByText(/^Stopped before deleting most of “Guide”: this sync would delete 4 of its 6 pages on the server/).waitFor();
    expect(await stop.getByRole('button', { name: 'Restore deleted files' }).count()).toBe(1);
    await snapBoth('banner-mass-delete');
    await stop.getByRole('button', { name: 'The 4 pages' }).click();
    await stop.getByText('getting-started/configure.md (“Configure”) — deleted here').waitFor();
    await snapBoth('banner-mass-delete-pages');

    await stop.getByRole('button', { name: 'Let these 4 deletes through' }).click();
    await expect.poll(kinds, poll).toEqual([]);
    const cr = stack.fake.store.changeRequestsOf(space.id).find((c) => c.status === 'open')!;
    const left = [...stack.fake.store.revisionOf(space.id, { changeRequest: cr.id }).pages.values()].map((p) => p.title).sort();
    expect(left).toEqual(['Getting Started', 'Welcome']);
    expect(browser.pageErrors).toEqual([]);
  });
});
