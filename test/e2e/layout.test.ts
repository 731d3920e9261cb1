/**
 * Every view at 800×600 and at 1280×800, in light and dark (issue 18, item 7), the app as the
 * browser host serves it with real data (the demo organisation, a page created here, an edit in
 * the change request, a conflict): no text below 4.5:1 contrast against what it is drawn on (the
 * rendered colours, from getComputedStyle), none under 12 px, none cut off or drawn over other
 * text, nothing wider than the window; the Pages view reads as a page. Each view's screenshot at
 * both sizes, light and dark (`-dark`), goes to test-artifacts/e2e (and docs/screenshots with
 * QUIRE_DOCS_SCREENSHOTS=1).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSeed } from '../fake/seed';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { inspectLegibility, type LegibilityProblem } from '../helpers/legibility';
import type { PageGlobals } from '../helpers/page-globals';
import { startStack, type Stack } from '../helpers/stack';
import { snap } from './screenshots';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

describe('every view, at 800×600 and 1280×800, light and dark', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let demo: DemoSeed;
  const routes: Record<string, { hash: string; ready: (page: Page) => Promise<unknown> }> = {};

  beforeAll(async () => {
    const rendererDir = await buildPage();
    stack = await startStack({ rendererDir, signedIn: true, seed: (fake) => (demo = seedDemo(fake.store)) });
    const { service } = stack;
    await service.request('catalog.refresh', {});
    await service.request('spaces.select', { spaceIds: [demo.handbook.id, demo.api.id], selected: true });
    await service.syncOnce();
    const handbook = join(stack.dir, (await service.request('catalog.get', {})).spaces.find((s) => s.id === demo.handbook.id)!.folder!);
    // The writer's own work: a page created here and an edit, pushed into the change request; a conflict.
    await writeFile(join(handbook, 'release-notes.md'), '# Release notes\n\nWhat changed in this version, written here.\n');
    await writeFile(join(handbook, 'getting-started/setup.md'), '# Setup\n\nFirst setup, with one more step written here.\n');
    await service.syncOnce();
    const readme = join(handbook, 'README.md');
    await writeFile(readme, (await readFile(readme, 'utf8')).replace('Welcome to the **handbook**.', 'Welcome to our **handbook**, edited here.'));
    const welcome = stack.fake.store.pageByPath(demo.handbook.id, 'welcome');
    stack.fake.store.editPage(demo.handbook.id, welcome.id, { markdown: 'Welcome to the **team handbook**, edited on the server.' });
    await service.syncOnce();
    await writeFile(join(handbook, 'draft-idea.md'), '# A draft idea 💡\n\nNot pushed yet.\n');

    const history = (await service.request('history.pages', {})).find((p) => p.path === 'getting-started/setup.md')!;
    const comment = (await service.request('review.comments', {}))[0]!;
    const polish = (await service.request('review.attention', {})).find((cr) => cr.subject === 'Polish the welcome page')!;
    const heading = (name: string) => (p: Page) => p.getByRole('heading', { name, exact: true }).first().waitFor();
    Object.assign(routes, {
      spaces: { hash: '#spaces', ready: (p: Page) => p.getByTestId(`space-${demo.handbook.id}`).waitFor() },
      conflicts: { hash: '#conflicts', ready: (p: Page) => p.getByTestId('side-remote').waitFor() },
      review: {
        hash: `#review/comment/${demo.handbook.id}/${comment.id}`,
        ready: (p: Page) => p.locator('.thread-pane [data-testid^="thread-"]').first().waitFor(),
      },
      'review-inbox': { hash: '#review/inbox', ready: (p: Page) => p.getByTestId('inbox-list').getByRole('option').first().waitFor() },
      'review-change-request': {
        hash: `#review/change-request/${demo.handbook.id}/${polish.id}`,
        ready: (p: Page) => p.getByTestId('cr-reviews').getByText('requested changes').waitFor(),
      },
      'review-new-comment': {
        hash: '#review/comments',
        ready: async (p: Page) => {
          await p.getByRole('button', { name: 'New comment', exact: true }).click();
          await p.getByTestId('new-comment').getByLabel('Page').locator('option').nth(1).waitFor({ state: 'attached' });
        },
      },
      'review-yours': { hash: '#review/yours', ready: (p: Page) => p.getByTestId(`target-${demo.handbook.id}`).getByTestId('target-state').waitFor() },
      log: {
        hash: '#log',
        ready: (p: Page) =>
          p
            .getByTestId('log-list')
            .getByText(/pulled/)
            .first()
            .waitFor(),
      },
      sites: { hash: '#sites', ready: (p: Page) => p.getByTestId(`site-${demo.site.id}`).waitFor() },
      pages: {
        hash: `#pages/${demo.handbook.id}/getting-started%2Finstall.md`,
        ready: (p: Page) => p.getByTestId('page-detail').locator('pre').first().waitFor(),
      },
      history: { hash: `#history/${history.spaceId}/${encodeURIComponent(history.pageKey)}`, ready: heading('Setup') },
    });
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await page.goto(stack.host.url);
    await page.getByTestId('sync-state').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function show(view: string): Promise<void> {
    const route = routes[view]!;
    await page.evaluate((hash) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
    }, route.hash);
    await route.ready(page);
    // Let layout settle (fonts, the virtual lists measuring themselves).
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return new Promise((resolve) => g.requestAnimationFrame(() => g.requestAnimationFrame(resolve)));
    });
  }

  const report = (problems: LegibilityProblem[]) => problems.map((p) => `${p.kind}: ${p.where} — ${p.detail}`);

  for (const size of SIZES) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${size.width}×${size.height}, ${scheme}: every view legible, nothing cut off or overlapping`, async () => {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        const views = [
          'spaces',
          'conflicts',
          'review',
          'review-inbox',
          'review-change-request',
          'review-new-comment',
          'review-yours',
          'log',
          'sites',
          'pages',
          'history',
        ];
        for (const view of views) {
          await show(view);
          const problems = await page.evaluate(inspectLegibility, { minContrast: 4.5, minFontPx: 12 });
          expect(report(problems), `${view} at ${size.width}×${size.height}, ${scheme}`).toEqual([]);
          await snap(page, `${view}-${size.width}x${size.height}${scheme === 'dark' ? '-dark' : ''}`);
        }
      });
    }
  }

  it('the Pages view reads as a page at 800×600: the text has room, the code scrolls instead of being cut', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.emulateMedia({ colorScheme: 'light' });
    await show('pages');
    const article = await page.locator('.gb-page').boundingBox();
    expect(article!.width).toBeGreaterThan(400);
    const pre = page.getByTestId('page-detail').locator('pre').first();
    const scrolls = await pre.evaluate((el) => {
      const g = globalThis as unknown as { getComputedStyle(e: unknown): { overflowX: string } };
      return el.scrollWidth <= el.clientWidth || ['auto', 'scroll'].includes(g.getComputedStyle(el).overflowX);
    });
    expect(scrolls).toBe(true);
    // The sidebar is its icons alone, the names still there for screen readers and tooltips.
    const nav = await page.getByRole('navigation', { name: 'Views' }).boundingBox();
    expect(nav!.width).toBeLessThan(80);
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /^Pages/ })
      .waitFor();
  });
});
