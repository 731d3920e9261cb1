/**
 * Issue 29, item 6, in the app: the Sites view lists each translation of the organizations
 * (source space → target space, languages, status, last run) from what a review refresh listed,
 * and its "Run again" button asks GitBook to run it. Debian's chromium, the built renderer served
 * by the web host, the real service and core, the fake API.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranslationRec } from '../fake';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { startStack, type Stack } from '../helpers/stack';
import { snap } from './screenshots';

describe('translations in the Sites view', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let fr: TranslationRec;
  let de: TranslationRec;

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({
      rendererDir,
      signedIn: true,
      seed: (fake) => {
        const org = fake.store.addOrg({ title: 'Acme' });
        const handbook = fake.store.addSpace(org.id, { title: 'Handbook', pages: [{ title: 'Welcome', markdown: 'Hello.\n' }] });
        const manuel = fake.store.addSpace(org.id, { title: 'Manuel', pages: [{ title: 'Bienvenue', markdown: 'Bonjour.\n' }] });
        fr = fake.store.translations.add(org.id, { source: handbook.id, language: 'fr', target: manuel.id, runs: 2 });
        de = fake.store.translations.add(org.id, { source: handbook.id, language: 'de' });
      },
    });
    const catalog = await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: catalog.spaces.map((s) => s.id), selected: true });
    await stack.service.request('review.refresh', {});
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('lists each translation: source → target, languages, status, last run', async () => {
    await page.goto(stack.host.url);
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Sites/ })
      .click();
    const panel = page.getByRole('region', { name: 'Translations' });
    const row = panel.getByTestId(`translation-${fr.id}`);
    await expect.poll(() => row.locator('.translation-spaces').textContent()).toBe('Handbook → Manuel en → frcompleted');
    expect(await row.textContent()).toMatch(/Last run (just now|\d+ min ago) · 2 runs · Acme/);
    const never = panel.getByTestId(`translation-${de.id}`);
    expect(await never.locator('.translation-spaces').textContent()).toBe('Handbook → no target space yet en → depending');
    expect(await never.textContent()).toContain('Never run');
    await snap(page, 'translations');
  });

  it('runs one again from its button, and shows its status then', async () => {
    const row = page.getByTestId(`translation-${fr.id}`);
    const button = row.getByRole('button', { name: 'Run again' });
    expect(await button.getAttribute('title')).toBe('GitBook translates Handbook again; the result replaces the content of Manuel, edits made there included.');
    await button.click();
    await expect.poll(() => row.getByTestId('translation-status').textContent()).toBe('pending');
    const runs = stack.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/run')).map((r) => r.path);
    expect(runs).toEqual([`/v1/orgs/${fr.orgId}/translations/${fr.id}/run`]);

    stack.fake.faults.offline = true;
    await button.click();
    await row.getByRole('alert').filter({ hasText: 'Could not reach the API to run the translation again' }).waitFor();
    stack.fake.faults.offline = false;
    expect(browser.pageErrors).toEqual([]);
  });
});
