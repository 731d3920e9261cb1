/**
 * The search box (Ctrl+K) and the History view in chromium, against a scripted bridge: what a
 * person sees, what the keyboard does, which requests the views make and where Enter goes (a page
 * to the Pages view, a comment to its thread in the review view), and the sync log's way to both.
 * Screenshots: docs/screenshots/search.png and history.png (QUIRE_DOCS_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPageVM, LogEntryVM, PageDetailVM, PageHistoryVM, RequestName, SearchResultVM, SpacePagesVM, ThreadVM } from '../../src/shared/contract';
import { snap } from '../e2e/screenshots';
import type { PageGlobals } from '../helpers/page-globals';
import * as fx from './fixtures';
import { openHarness, type HarnessPage } from './harness-page';

let harness: HarnessPage;
let page: Page;

beforeAll(async () => {
  harness = await openHarness();
  page = harness.page;
}, 60_000);
afterAll(async () => {
  await harness?.close();
});

const BASE: Partial<Record<RequestName, unknown>> = {
  'session.get': fx.signedIn,
  'sync.status': fx.status(),
  'settings.get': fx.settings,
  'catalog.get': fx.catalog,
  'conflicts.list': [],
  'review.attention': [],
  'review.comments': [],
  'sites.list': [],
};

const TREE: SpacePagesVM[] = [
  {
    spaceId: 's1',
    title: 'Handbook',
    folder: 'handbook',
    pages: [
      {
        id: 'p-install',
        title: 'Installation',
        kind: 'document',
        path: 'getting-started/install.md',
        sync: 'synced',
        changeRequest: null,
        why: null,
        children: [],
      },
    ],
  },
];
const INSTALL_PAGE: PageDetailVM = {
  spaceId: 's1',
  spaceTitle: 'Handbook',
  path: 'getting-started/install.md',
  pageId: 'p-install',
  title: 'Installation',
  description: null,
  hidden: false,
  icon: null,
  html: '<p>Download the installer, then run it with the defaults.</p>',
  frontmatterError: null,
  problems: [],
  comments: [],
  sync: 'synced',
  changeRequest: null,
  why: null,
};

const RESULTS: SearchResultVM[] = [
  {
    kind: 'page',
    spaceId: 's1',
    spaceTitle: 'Handbook',
    title: 'Installation',
    pageKey: 'p-install',
    pageId: 'p-install',
    reusable: false,
    path: 'getting-started/install.md',
    file: 'handbook/getting-started/install.md',
    snippet: [
      { text: 'Download the ', match: false },
      { text: 'installer', match: true },
      { text: ', then run it with the defaults.', match: false },
    ],
  },
  {
    kind: 'page',
    spaceId: 's1',
    spaceTitle: 'Handbook',
    title: 'Upgrade notes',
    pageKey: 'new:drafts/upgrade.md',
    pageId: null,
    reusable: false,
    path: 'drafts/upgrade.md',
    file: 'handbook/drafts/upgrade.md',
    snippet: [
      { text: 'Before you ', match: false },
      { text: 'install', match: true },
      { text: ' the new version, back up the config.', match: false },
    ],
  },
  {
    kind: 'comment',
    spaceId: 's1',
    spaceTitle: 'Handbook',
    title: 'Installation',
    commentId: 'c1',
    replyId: null,
    author: 'Alice Reviewer',
    changeRequestId: 'cr1',
    changeRequestNumber: 12,
    pageId: 'p-install',
    file: 'handbook/getting-started/install.md',
    snippet: [
      { text: 'The ', match: false },
      { text: 'installer', match: true },
      { text: ' link in step two is broken.', match: false },
    ],
  },
  {
    kind: 'page',
    spaceId: 's1',
    spaceTitle: 'Handbook',
    title: 'Install steps',
    pageKey: 'include:rcSteps',
    pageId: null,
    reusable: true,
    path: '.gitbook/includes/install-steps.md',
    file: 'handbook/.gitbook/includes/install-steps.md',
    snippet: [
      { text: 'Run the ', match: false },
      { text: 'installer', match: true },
    ],
  },
];

const PAGES: HistoryPageVM[] = [
  {
    spaceId: 's1',
    spaceTitle: 'Handbook',
    pageKey: 'p-install',
    path: 'getting-started/install.md',
    file: 'handbook/getting-started/install.md',
    title: 'Installation',
    versions: 3,
    lastAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    lastReason: 'pushed',
    deleted: false,
  },
  {
    spaceId: 's1',
    spaceTitle: 'Handbook',
    pageKey: 'p-faq',
    path: 'faq.md',
    file: 'handbook/faq.md',
    title: 'FAQ',
    versions: 2,
    lastAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    lastReason: 'deleted-remotely',
    deleted: true,
  },
];

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const INSTALL_HISTORY: PageHistoryVM = {
  page: PAGES[0]!,
  versions: [
    { number: 3, at: ago(5), reason: 'pushed', detail: 'change request #12', path: 'getting-started/install.md', title: 'Installation', size: 120 },
    { number: 2, at: ago(30), reason: 'local', detail: null, path: 'getting-started/install.md', title: 'Installation', size: 110 },
    { number: 1, at: ago(2000), reason: 'pulled', detail: 'main', path: 'getting-started/install.md', title: 'Installation', size: 90 },
  ],
};
const TEXTS = {
  1: '# Installation\n\nDownload the installer.\n\nRun it.\n',
  2: '# Installation\n\nDownload the installer.\n\nRun it with the defaults.\n',
  3: '# Installation\n\nDownload the installer, then run it with the defaults.\n\nSee also: upgrading.\n',
};

const LOG: LogEntryVM[] = [
  {
    seq: 7,
    at: INSTALL_HISTORY.versions[1]!.at,
    spaceId: 's1',
    spaceTitle: 'Handbook',
    kind: 'pulled',
    message: 'Pulled 2 pages from main — change request #12 “Polish the install guide” by Alice Reviewer, merged by Bob Maintainer',
    activity: {
      direction: 'pull',
      summary: 'Pulled 2 pages from main',
      pages: [
        { pageId: 'p-install', title: 'Installation', path: 'getting-started/install.md', change: 'changed' },
        { pageId: 'p-faq', title: 'FAQ', path: null, change: 'deleted', from: 'faq.md' },
      ],
      morePages: 0,
      files: ['.gitbook/assets/installer.png'],
      moreFiles: 0,
      relinked: 0,
      source: {
        words: 'change request #12 “Polish the install guide” by Alice Reviewer, merged by Bob Maintainer',
        changeRequest: { id: 'cr1', number: 12, subject: 'Polish the install guide' },
        createdBy: { id: 'u1', name: 'Alice Reviewer' },
        mergedBy: { id: 'u2', name: 'Bob Maintainer' },
      },
      revision: 'rev_0042',
    },
  },
  { seq: 6, at: ago(40), spaceId: 's1', spaceTitle: 'Handbook', kind: 'info', message: 'faq.md: conflict resolved, kept the version here', activity: null },
];

const THREAD: ThreadVM = fx.thread({ id: 'c1', spaceId: 's1', markdown: 'The installer link in step two is broken.' });

async function mount(hash = ''): Promise<void> {
  await page.evaluate(
    ({ base, results, log, pages, history, texts, thread, tree, installPage, hash }) => {
      const g = globalThis as unknown as PageGlobals;
      const bridge = g.harness.reset();
      g.location.hash = hash;
      for (const [name, value] of Object.entries(JSON.parse(base) as Record<string, unknown>)) bridge.respond(name as never, value);
      bridge.respond('search.query', JSON.parse(results));
      bridge.respond('log.list', JSON.parse(log));
      bridge.respond('history.pages', JSON.parse(pages));
      bridge.respond('history.versions', JSON.parse(history));
      bridge.respond('review.thread', JSON.parse(thread));
      bridge.respond('pages.tree', JSON.parse(tree));
      bridge.respondFor('pages.get', { spaceId: 's1', path: 'getting-started/install.md' }, JSON.parse(installPage));
      for (const [n, text] of Object.entries(JSON.parse(texts) as Record<string, string>)) {
        bridge.respondFor('history.text', { spaceId: 's1', pageKey: 'p-install', version: Number(n) }, { number: Number(n), text });
      }
      g.harness.mount();
    },
    {
      base: JSON.stringify(BASE),
      results: JSON.stringify(RESULTS),
      log: JSON.stringify(LOG),
      pages: JSON.stringify(PAGES),
      history: JSON.stringify(INSTALL_HISTORY),
      texts: JSON.stringify(TEXTS),
      thread: JSON.stringify(THREAD),
      tree: JSON.stringify(TREE),
      installPage: JSON.stringify(INSTALL_PAGE),
      hash,
    },
  );
}

const calls = (name: RequestName) =>
  page.evaluate((n) => (globalThis as unknown as PageGlobals).harness.bridge.calls.filter((c) => c.name === n), name) as Promise<
    { name: string; params: unknown }[]
  >;
const hash = () => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash);
const dialog = () => page.getByRole('dialog', { name: 'Search pages and comments' });
const box = () => page.getByRole('combobox', { name: 'Search pages and comments' });

describe('the search box', () => {
  it('opens with Ctrl+K, searches as you type, and highlights what matched', async () => {
    await mount();
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
    await page.keyboard.press('Control+k');
    await dialog().waitFor();
    expect(await box().evaluate((el) => el === (globalThis as unknown as PageGlobals).document.activeElement)).toBe(true);
    await box().pressSequentially('inst', { delay: 20 });
    await page.getByRole('option').first().waitFor();
    // The last, unfinished word is searched as a prefix; one request once typing pauses.
    await expect.poll(async () => (await calls('search.query')).at(-1)?.params).toEqual({ query: 'inst*', limit: 30 });
    expect((await calls('search.query')).length).toBeLessThanOrEqual(2);
    expect(await page.getByTestId('search-status').textContent()).toContain('4 results');
    const first = page.getByRole('option').first();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await first.locator('mark').textContent()).toBe('installer');
    expect(await page.getByRole('option').nth(1).textContent()).toContain('new, not pushed yet');
    expect(await page.getByRole('option').nth(2).textContent()).toContain('Comment by Alice Reviewer · change request #12');
    // Reusable content is said as such, never as a page waiting to be pushed.
    const shared = await page.getByRole('option').nth(3).textContent();
    expect(shared).toContain('handbook/.gitbook/includes/install-steps.md · reusable content');
    expect(shared).not.toContain('not pushed');
    await snap(page, 'search');
  });

  it('Enter opens the chosen page in the Pages view', async () => {
    await mount();
    await page.getByRole('button', { name: /^Search…/ }).click();
    await box().fill('install');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    expect(await hash()).toBe('#pages/s1/getting-started%2Finstall.md');
    await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor();
    await page.getByTestId('page-detail').getByRole('heading', { name: 'Installation' }).waitFor();
    expect((await calls('pages.get')).at(-1)?.params).toEqual({ spaceId: 's1', path: 'getting-started/install.md' });
  });

  it('Enter on a comment opens its thread in the review view', async () => {
    await mount();
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
    await page.keyboard.press('Control+k');
    await box().fill('broken link');
    await page.getByRole('option').nth(2).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await hash()).toBe('#review/comment/s1/c1');
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    await page.getByText('The installer link in step two is broken.').waitFor();
    expect((await calls('review.thread')).at(-1)?.params).toEqual({ spaceId: 's1', commentId: 'c1' });
  });

  it('Escape closes it and gives focus back; a phrase is sent as typed', async () => {
    await mount();
    const opener = page.getByRole('button', { name: /^Search…/ });
    await opener.waitFor();
    await opener.focus();
    await page.keyboard.press('Control+k');
    await box().fill('"run it"');
    await expect.poll(async () => (await calls('search.query')).at(-1)?.params).toEqual({ query: '"run it"', limit: 30 });
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === (globalThis as unknown as PageGlobals).document.activeElement)).toBe(true);
  });
});

describe('the History view', () => {
  it('lists pages with history, deleted ones marked, and shows what a version changed', async () => {
    await mount('#history');
    await page.getByRole('heading', { name: 'History' }).waitFor();
    const list = page.getByTestId('history-pages');
    await list.getByText('FAQ', { exact: true }).waitFor();
    expect(await list.textContent()).toContain('deleted on the server');
    await list.getByText('Installation', { exact: true }).click();
    expect(await hash()).toBe('#history/s1/p-install');
    const diff = page.getByRole('figure', { name: 'Changes from version 2 to version 3' });
    await diff.waitFor();
    expect(await diff.locator('.diff-line.added').allTextContents()).toEqual([
      expect.stringContaining('Download the installer, then run it with the defaults.'),
      expect.stringContaining('See also: upgrading.'),
    ]);
    // Any two versions.
    await page.getByLabel('Compare from version').selectOption('1');
    await page.getByRole('figure', { name: 'Changes from version 1 to version 3' }).waitFor();
    await page.getByRole('button', { name: 'Show what version 2 changed' }).click();
    const second = page.getByRole('figure', { name: 'Changes from version 1 to version 2' });
    await second.waitFor();
    expect(await second.locator('.diff-line.removed').allTextContents()).toEqual([expect.stringContaining('Run it.')]);
    await page.getByLabel('Compare from version').selectOption('2');
    await page.getByLabel('Compare to version').selectOption('3');
    await page.getByRole('figure', { name: 'Changes from version 2 to version 3' }).waitFor();
    await snap(page, 'history');
  });

  it('restores a version and says where it went and what the next sync does', async () => {
    await mount('#history/s1/p-install');
    await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).harness.bridge.respond('history.restore', {
        version: 1,
        file: 'handbook/getting-started/install.md',
        outcome: 'written',
        savedVersion: 4,
        besideOther: false,
      }),
    );
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page
      .getByText('Restored version 1 into handbook/getting-started/install.md. Its previous text is kept as version 4. The next sync pushes it.')
      .waitFor();
    expect((await calls('history.restore')).map((c) => c.params)).toEqual([{ spaceId: 's1', pageKey: 'p-install', version: 1 }]);
  });
});

describe('the sync log', () => {
  it('names each page a cycle carried and opens it, what the cycle changed in it, or its history; the revision only in the details', async () => {
    await mount('#log');
    const list = page.getByTestId('log-list');
    await list.getByText(/^Pulled 2 pages from main/).click();
    const detail = page.getByTestId('log-detail');
    await detail.getByRole('heading', { name: 'Pulled 2 pages from main', exact: true }).waitFor();
    await detail.getByText('Main’s change came from change request #12 “Polish the install guide” by Alice Reviewer, merged by Bob Maintainer.').waitFor();
    const pages = detail.getByRole('list', { name: 'Pages' });
    expect(await pages.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^changedInstallationgetting-started\/install\.mdOpenChangesHistory/),
      expect.stringMatching(/^deletedFAQfaq\.mdHistory/),
    ]);
    expect(await detail.getByRole('list', { name: 'Files' }).textContent()).toBe('.gitbook/assets/installer.png');
    expect(await list.textContent()).not.toContain('rev_0042');
    expect(await detail.locator('details').getAttribute('open')).toBeNull();
    await detail.getByText('Details').click();
    await detail.getByText('rev_0042').waitFor();

    await detail.getByRole('button', { name: 'Open Installation' }).click();
    await expect.poll(async () => (await calls('pages.open')).map((c) => c.params)).toEqual([{ spaceId: 's1', pageId: 'p-install' }]);

    await detail.getByRole('button', { name: 'What this changed in Installation' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    expect(await hash()).toBe(`#history/s1/p-install/${encodeURIComponent(LOG[0]!.at)}`);
    await page.getByRole('figure', { name: 'Changes from version 1 to version 2' }).waitFor();
  });

  it('finds an entry by a page’s title or file', async () => {
    await mount('#log');
    const list = page.getByTestId('log-list');
    await list.getByText(/conflict resolved/).waitFor();
    await page.getByLabel('Search the log').fill('install.md');
    await expect.poll(() => list.getByRole('option').count()).toBe(1);
    await page.getByLabel('Search the log').fill('installation');
    await expect.poll(() => list.getByRole('option').count()).toBe(1);
    await page.getByLabel('Search the log').fill('kept the version');
    await expect.poll(async () => (await list.getByRole('option').allTextContents()).join()).toContain('conflict resolved');
  });
});
