/**
 * Component tests: the real renderer (App and its views) in chromium, against
 * a scripted bridge instead of a host. They check what a person sees and which
 * contract requests the views make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageGlobals } from '../helpers/page-globals';
import { type Answers, harnessBridge, openHarness, type HarnessPage } from './harness-page';
import * as fx from './fixtures';

let harness: HarnessPage;
let page: Page;

beforeAll(async () => {
  harness = await openHarness();
  page = harness.page;
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const BASE: Answers = {
  'session.get': fx.signedIn,
  'sync.status': fx.status(),
  'settings.get': fx.settings,
  'catalog.get': fx.catalog,
  'conflicts.list': [],
  'review.attention': [],
  'review.comments': [],
  'log.list': [],
  'sites.list': [],
};

const { mount, calls, respond, fail, emit } = harnessBridge(() => page, BASE, '');

describe('sign-in', () => {
  it('sends the trimmed address and token, and shows the host’s error', async () => {
    await mount({ 'session.get': fx.signedOut });
    await page.getByLabel('API address').fill(' https://api.example.org ');
    await page.getByLabel('API token').fill('  tok-123  ');
    await fail('session.signIn', 'token-rejected', 'The API rejected this token. Check that you pasted all of it.');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'rejected this token' }).waitFor();
    expect(await calls('session.signIn')).toEqual([{ name: 'session.signIn', params: { apiUrl: 'https://api.example.org', token: 'tok-123' } }]);
    expect(await page.getByLabel('API token').inputValue()).toBe('  tok-123  ');
  });

  it('switches to the app when the host says the session changed', async () => {
    await mount({ 'session.get': fx.signedOut });
    await page.getByRole('heading', { name: 'Sign in to Quire' }).waitFor();
    await emit('session.changed', fx.signedIn);
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
  });

  it('warns when the keychain is unavailable', async () => {
    await mount({ 'session.get': { ...fx.signedOut, keychain: 'unavailable' } });
    await page.getByText('keychain is not available').waitFor();
  });
});

describe('status bar', () => {
  it('hears a status the host sends the moment the window has mounted', async () => {
    await mount();
    const needsYou = fx.status({
      state: 'needs-you',
      seq: 2,
      reasons: [{ kind: 'paused', spaceId: null, message: 'Sync is paused; 1 edit waits.', action: 'resume' }],
    });
    // Mounted again and the status sent in the same task: nothing runs in between to subscribe late.
    await page.evaluate((status) => {
      const { harness } = globalThis as unknown as PageGlobals;
      harness.unmount();
      harness.mount();
      harness.bridge.emit('sync.status', status);
    }, needsYou);
    await page.getByTestId('state-banner').getByRole('button', { name: 'Resume' }).waitFor();
  });

  it('shows live progress and each state change pushed by the host, in words, each reason on one line with its action, in full when unfolded', async () => {
    await mount();
    const state = page.getByTestId('sync-state');
    const words = page.getByTestId('sync-words');
    await expect.poll(() => words.textContent()).toBe('In sync');
    expect(await page.getByTestId('state-banner').count()).toBe(0);
    await emit('sync.status', fx.status({ state: 'syncing', seq: 2, progress: { phase: 'pull', spaceId: 's1', spaceTitle: 'Handbook', done: 3, total: 10 } }));
    await expect.poll(() => words.textContent()).toBe('Syncing…');
    expect(await state.textContent()).toContain('Handbook · 3/10');
    expect(await page.getByTestId('sync-progress').getAttribute('value')).toBe('30');
    const offline = { kind: 'offline', spaceId: null, message: 'The API could not be reached since 2026-01-02 10:00 UTC.', action: 'sync-now' as const };
    await emit('sync.status', fx.status({ state: 'offline', seq: 3, reasons: [offline] }));
    await expect.poll(() => words.textContent()).toBe('Offline');
    const banner = page.getByTestId('state-banner');
    await banner.getByText(offline.message).waitFor();
    // One Sync now: the header's.
    expect(await page.getByRole('button', { name: 'Sync now' }).count()).toBe(1);
    expect(await banner.getByRole('button', { name: 'Sync now' }).count()).toBe(0);
    const long = `A held page: ${'this reason is long and must be shown whole, '.repeat(8)}the end.`;
    const rejected = { kind: 'token-rejected', spaceId: null, message: 'The API rejected the token.', action: 'sign-in' as const };
    const held = { kind: 'held-page', spaceId: 's1', path: 'guide/intro.md', message: long, action: 'show-file' as const };
    await emit('sync.status', fx.status({ state: 'needs-you', seq: 4, reasons: [rejected, held] }));
    await expect.poll(() => words.textContent()).toBe('Needs you');
    // One line, cut: the whole of it a click away.
    const message = banner.locator('.reason-message').nth(1);
    await message.waitFor();
    const fontSize = await message.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect((await message.boundingBox())!.height).toBeLessThan(fontSize * 2);
    await banner.locator('[data-kind="held-page"]').getByRole('button', { name: 'More' }).click();
    await banner.locator('.reason-full').getByText('the end.').waitFor();
    await respond('session.signOut', fx.signedOut);
    await banner.getByRole('button', { name: 'Sign in again' }).click();
    expect((await calls('session.signOut')).length).toBe(1);
    await banner.getByRole('button', { name: 'Show the file' }).click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe('#pages/s1/guide%2Fintro.md');
  });

  it('puts several reasons of a kind on one line, each in full with its own action below; a stop offers restoring and letting its named deletes through', async () => {
    await mount();
    const held = (path: string) => ({
      kind: 'held-page',
      spaceId: 's1',
      path,
      message: `${path} is not pushed: an unclosed hint.`,
      action: 'show-file' as const,
    });
    const reasons = [
      {
        kind: 'mass-delete',
        spaceId: 's1',
        message: 'Stopped before deleting most of “Handbook”: this sync would delete 2 of its 3 pages on the server.',
        action: 'restore-deleted' as const,
        also: 'allow-deletes' as const,
        details: ['a.md (“A”) — deleted here', 'b.md (“B”) — deleted here'],
        pageIds: ['pA', 'pB'],
      },
      held('x.md'),
      held('y.md'),
      held('z.md'),
      {
        kind: 'refused',
        spaceId: 's1',
        path: 'gone.md',
        message: 'gone.md (“Gone”): you deleted it here, and the server refused to delete the page.',
        action: 'restore-file' as const,
      },
    ];
    await emit('sync.status', fx.status({ state: 'needs-you', seq: 2, reasons }));
    const banner = page.getByTestId('state-banner');
    const pages = banner.locator('[data-kind="held-page"]');
    await pages.getByText('3 pages not pushed: x.md, y.md, z.md').waitFor();
    expect(await banner.locator('.reason').count()).toBe(3);
    expect(await pages.getByRole('button', { name: 'Show the file' }).count()).toBe(0);
    await pages.getByRole('button', { name: 'More' }).click();
    await expect.poll(() => pages.getByRole('button', { name: 'Show the file' }).count()).toBe(3);

    const stop = banner.locator('[data-kind="mass-delete"]');
    expect(await stop.getByText('a.md (“A”) — deleted here').count()).toBe(0);
    await stop.getByRole('button', { name: 'The 2 pages' }).click();
    await stop.getByText('a.md (“A”) — deleted here').waitFor();
    await respond('sync.allowDeletes', fx.status({ seq: 3 }));
    await stop.getByRole('button', { name: 'Let these 2 deletes through' }).click();
    // The click returns before the app has asked the host: wait for the request.
    await expect.poll(async () => (await calls('sync.allowDeletes'))[0]?.params).toEqual({ spaceId: 's1', pageIds: ['pA', 'pB'] });

    await respond('history.restoreDeleted', { restored: ['handbook/gone.md'], missing: [] });
    await banner.locator('[data-kind="refused"]').getByRole('button', { name: 'Restore the file' }).click();
    await banner.getByText('1 file restored.').waitFor();
    expect((await calls('history.restoreDeleted'))[0]!.params).toEqual({ spaceId: 's1', paths: ['gone.md'] });
  });

  it('offers each action of the banner: restore deleted files, resolve, choose spaces, resume', async () => {
    await mount();
    const reasons = [
      { kind: 'mass-delete', spaceId: 's1', message: 'Stopped before deleting most of “Handbook”.', action: 'restore-deleted' as const },
      { kind: 'conflict', spaceId: 's1', path: 'a.md', message: 'a.md: edited here and on the server.', action: 'resolve-conflict' as const },
      { kind: 'paused', spaceId: null, message: 'Sync is paused; 1 edit waits.', action: 'resume' as const },
    ];
    await emit('sync.status', fx.status({ state: 'needs-you', seq: 2, reasons }));
    const banner = page.getByTestId('state-banner');
    await respond('history.restoreDeleted', { restored: ['handbook/a.md', 'handbook/b.md'], missing: [] });
    await banner.getByRole('button', { name: 'Restore deleted files' }).click();
    await banner.getByText('2 files restored.').waitFor();
    expect((await calls('history.restoreDeleted'))[0]!.params).toEqual({ spaceId: 's1' });
    await banner.getByRole('button', { name: 'Resolve the conflict' }).click();
    await page.getByRole('heading', { name: 'Conflicts' }).waitFor();
    await respond('sync.setPaused', fx.status({ seq: 3 }));
    await banner.getByRole('button', { name: 'Resume' }).click();
    // The click returns before the app has asked the host: wait for the request.
    await expect.poll(async () => (await calls('sync.setPaused'))[0]?.params).toEqual({ paused: false });
    await emit(
      'sync.status',
      fx.status({
        state: 'not-set-up',
        seq: 4,
        reasons: [{ kind: 'no-space-chosen', spaceId: null, message: 'No space is chosen.', action: 'choose-spaces' }],
      }),
    );
    await page.getByTestId('sync-words').getByText('Not set up').waitFor();
    await page.getByTestId('state-banner').getByRole('button', { name: 'Choose spaces' }).click();
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
  });

  it('asks the host to sync and to pause', async () => {
    await mount();
    await respond('sync.now', fx.status({ state: 'syncing' }));
    await respond('sync.setPaused', fx.status({ paused: true, state: 'paused' }));
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(async () => (await calls()).map((c) => c.name)).toEqual(expect.arrayContaining(['sync.now', 'sync.setPaused']));
    expect((await calls('sync.setPaused'))[0]!.params).toEqual({ paused: true });
  });

  it('says when the connection to the host is lost', async () => {
    await mount();
    await page.evaluate(() => (globalThis as unknown as PageGlobals).harness.bridge.setConnection('lost'));
    await page.getByRole('alert').filter({ hasText: 'Lost the connection to Quire' }).waitFor();
  });
});

describe('spaces', () => {
  it('shows the tree with per-space state and chooses a space at once', async () => {
    await mount();
    await page.getByRole('heading', { name: 'Acme' }).waitFor();
    await page.getByText('Guides').waitFor();
    const handbook = page.getByTestId('space-s1');
    await handbook.getByText('2 local edits').waitFor();
    await handbook.getByText('1 conflict').first().waitFor();
    await page.getByLabel('Sync API').check();
    expect(await page.getByLabel('Sync API').isChecked()).toBe(true);
    expect((await calls('spaces.select'))[0]!.params).toEqual({ spaceIds: ['s2'], selected: true });
  });

  it('shows the progress of the space being synced', async () => {
    await mount({ 'sync.status': fx.status({ state: 'syncing', progress: { phase: 'pull', spaceId: 's1', spaceTitle: 'Handbook', done: 4, total: 8 } }) });
    const row = page.getByTestId('space-s1');
    await expect.poll(() => row.getAttribute('data-state')).toBe('syncing');
    expect(await row.getByRole('progressbar').getAttribute('value')).toBe('4');
  });

  it('re-reads the catalog when the host says it changed, and only then', async () => {
    await mount();
    await page.getByTestId('space-s1').waitFor();
    const before = (await calls('catalog.get')).length;
    await emit('data.changed', { areas: ['log'] });
    await emit('data.changed', { areas: ['catalog'] });
    await expect.poll(async () => (await calls('catalog.get')).length).toBe(before + 1);
  });

  it('edits the sync folder inline where there is no folder picker', async () => {
    await mount();
    await page.getByRole('button', { name: 'Change…' }).click();
    await respond('settings.update', { ...fx.settings, folder: '/data/docs' });
    await page.getByLabel('Sync folder path').fill('/data/docs');
    await page.getByRole('button', { name: 'Use this folder' }).click();
    expect((await calls('settings.update'))[0]!.params).toEqual({ folder: '/data/docs' });
  });
});

describe('conflicts', () => {
  it('shows local, base and remote side by side and resolves through the host', async () => {
    await mount({ 'conflicts.list': [fx.conflict] }, '#conflicts');
    await expect.poll(() => page.getByTestId('side-local').textContent()).toContain('Mine line');
    await expect.poll(() => page.getByTestId('side-base').textContent()).toContain('Base line');
    await expect.poll(() => page.getByTestId('side-remote').textContent()).toContain('Their line');
    await respond('conflicts.resolve', []);
    await page.getByRole('button', { name: 'Keep mine' }).click();
    expect((await calls('conflicts.resolve'))[0]!.params).toEqual({ spaceId: 's1', path: 'guide/intro.md', choice: 'mine' });
    await fail('conflicts.openInEditor', 'internal', 'Could not start xdg-open to open the file. Open it yourself.');
    await page.getByRole('button', { name: 'Open in editor' }).click();
    await page.getByRole('alert').filter({ hasText: 'Open it yourself' }).waitFor();
    // A browser host cannot open the editor: it answers with the path, shown to copy.
    await respond('conflicts.openInEditor', { opened: false, path: '/home/casey/Quire/handbook/guide/intro.md' });
    await page.getByRole('button', { name: 'Open in editor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open the file in your editor' });
    await dialog.getByText('A browser cannot open apps on your computer').waitFor();
    expect(await dialog.getByTestId('open-path-value').textContent()).toBe('/home/casey/Quire/handbook/guide/intro.md');
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: /Copied|Ctrl\+C/ })
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('sites and log', () => {
  it('shows a site tree with groups, sections, site spaces and share links', async () => {
    await mount({ 'sites.list': [fx.site] }, '#sites');
    const card = page.getByTestId('site-site1');
    await card.getByText('Not published').waitFor();
    await card.getByText('share-link').waitFor();
    const tree = card.getByRole('list', { name: 'Structure of Acme Docs' });
    await tree.getByText('Developers').waitFor();
    await tree.getByText('API v1').waitFor();
    await tree.getByText('hidden').waitFor();
    await card.getByText('Partners').waitFor();
  });

  it('asks the host for one kind of log entries and filters by text', async () => {
    const entries = [
      { seq: 2, at: new Date().toISOString(), spaceId: 's1', spaceTitle: 'Handbook', kind: 'conflict', message: 'intro.md: both-changed' },
      { seq: 1, at: new Date().toISOString(), spaceId: 's1', spaceTitle: 'Handbook', kind: 'pulled', message: 'pulled revision r1' },
    ];
    await mount({ 'log.list': entries }, '#log');
    const list = page.getByTestId('log-list');
    await list.getByText('pulled revision r1').waitFor();
    await page.getByLabel('Kind').selectOption('conflict');
    await expect.poll(async () => (await calls('log.list')).at(-1)?.params).toEqual({ kind: 'conflict', limit: 2000 });
    await page.getByLabel('Search the log').fill('both-changed');
    await expect.poll(() => list.getByRole('option').count()).toBe(1);
  });
});

describe('keyboard', () => {
  it('switches views with Alt+digit and moves through the view list with arrows', async () => {
    await mount();
    await page.getByRole('heading', { name: 'Spaces' }).waitFor();
    await page.keyboard.press('Alt+5');
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    await page.getByRole('button', { name: /^Spaces/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.textContent)).toBe('Conflicts');
    expect(harness.browser.pageErrors).toEqual([]);
  });
});
