/**
 * Component tests: the real renderer (App and its views) in chromium, against
 * a scripted bridge instead of a host. They check what a person sees and which
 * contract requests the views make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ErrorCode, EventMap, EventName, RequestName } from '../../src/shared/contract';
import type { PageGlobals } from '../helpers/page-globals';
import { openHarness, type HarnessPage } from './harness-page';
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

type Answers = Partial<Record<RequestName, unknown>>;

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

async function mount(answers: Answers = {}, hash = ''): Promise<void> {
  // Sent as one JSON string: much faster than letting playwright serialise thousands of objects.
  await page.evaluate(
    ({ json, hash }) => {
      const g = globalThis as unknown as PageGlobals;
      const bridge = g.harness.reset();
      g.location.hash = hash;
      for (const [name, value] of Object.entries(JSON.parse(json) as Record<string, unknown>)) bridge.respond(name as never, value);
      g.harness.mount();
    },
    { json: JSON.stringify({ ...BASE, ...answers }), hash },
  );
}

const calls = (name?: RequestName) =>
  page.evaluate((n) => (globalThis as unknown as PageGlobals).harness.bridge.calls.filter((c) => !n || c.name === n), name) as Promise<
    { name: string; params: unknown }[]
  >;
const respond = (name: RequestName, value: unknown) =>
  page.evaluate(([n, v]) => (globalThis as unknown as PageGlobals).harness.bridge.respond(n as never, v), [name, value] as const);
const fail = (name: RequestName, code: ErrorCode, message: string) =>
  page.evaluate(([n, c, m]) => (globalThis as unknown as PageGlobals).harness.bridge.fail(n as never, c as never, m), [name, code, message] as const);
const emit = <E extends EventName>(name: E, payload: EventMap[E]) =>
  page.evaluate(([n, p]) => (globalThis as unknown as PageGlobals).harness.bridge.emit(n as never, p as never), [name, payload] as const);

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
  it('shows live progress and each state change pushed by the host, in words, with every reason in full and its action', async () => {
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
    await banner.getByRole('button', { name: 'Sync now' }).waitFor();
    const long = `A held page: ${'this reason is long and must be shown whole, '.repeat(8)}the end.`;
    const rejected = { kind: 'token-rejected', spaceId: null, message: 'The API rejected the token.', action: 'sign-in' as const };
    const held = { kind: 'held-page', spaceId: 's1', path: 'guide/intro.md', message: long, action: 'show-file' as const };
    await emit('sync.status', fx.status({ state: 'needs-you', seq: 4, reasons: [rejected, held] }));
    await expect.poll(() => words.textContent()).toBe('Needs you');
    await banner.getByText('the end.').waitFor();
    const message = banner.locator('.reason-message').nth(1);
    expect(await message.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await respond('session.signOut', fx.signedOut);
    await banner.getByRole('button', { name: 'Sign in again' }).click();
    expect((await calls('session.signOut')).length).toBe(1);
    await banner.getByRole('button', { name: 'Show the file' }).click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe('#pages/s1/guide%2Fintro.md');
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
    expect((await calls('sync.setPaused'))[0]!.params).toEqual({ paused: false });
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
    expect((await calls()).map((c) => c.name)).toEqual(expect.arrayContaining(['sync.now', 'sync.setPaused']));
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

describe('review', () => {
  it('renders 5,000 comments as a short window of rows and walks them from the keyboard', async () => {
    await mount({ 'review.comments': fx.comments(5000) }, '#review');
    const list = page.getByTestId('comment-list');
    await list.getByText('Comment number 0:').waitFor();
    expect(await page.getByTestId('comment-count').textContent()).toBe('5000 of 5000');
    expect(await list.getByRole('option').count()).toBeLessThan(60);

    await list.focus();
    await page.keyboard.press('End');
    await list.getByText('Comment number 4999:').waitFor();
    await page.keyboard.press('ArrowUp');
    expect(await list.getAttribute('aria-activedescendant')).toBe('row-comment-list-c4998');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await calls('review.thread')).at(-1)?.params).toEqual({ spaceId: 's2', commentId: 'c4998' });
  });

  it('filters by author and text', async () => {
    await mount({ 'review.comments': fx.comments(40) }, '#review');
    await page.getByTestId('comment-count').waitFor();
    await page.getByLabel('Author').selectOption({ label: 'Sam Okafor' });
    expect(await page.getByTestId('comment-count').textContent()).toBe('20 of 40');
    await page.getByLabel('Search comments').fill('number 13:');
    expect(await page.getByTestId('comment-count').textContent()).toBe('1 of 40');
  });

  it('replies, reacts and resolves in a thread, and marks pending and refused actions', async () => {
    const t = fx.thread({
      replies: [
        {
          id: 'r1',
          author: { id: 'u1', displayName: 'Casey Quire' },
          postedAt: new Date().toISOString(),
          markdown: 'Queued reply',
          reactions: [],
          pending: true,
        },
        {
          id: 'r2',
          author: null,
          postedAt: new Date().toISOString(),
          markdown: 'Refused reply',
          reactions: [],
          pending: false,
          failure: 'comment was deleted',
        },
      ],
    });
    await mount({ 'review.comments': fx.comments(3), 'review.thread': t, 'review.reply': null, 'review.resolve': null, 'review.react': null }, '#review');
    await page.getByTestId('comment-list').getByText('Comment number 0:').click();
    const thread = page.getByTestId('thread-c0');
    await thread.getByTestId('reply-r1').getByText('Pending').waitFor();
    await thread.getByTestId('reply-r2').getByText('Refused: comment was deleted').waitFor();

    await thread.getByRole('textbox', { name: 'Reply' }).fill('Looks good');
    await thread.getByRole('textbox', { name: 'Reply' }).press('Control+Enter');
    await thread.getByRole('group', { name: 'Reactions to the comment' }).getByRole('button', { name: 'React with 👍' }).click();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await expect
      .poll(async () =>
        (await calls()).filter((c) => c.name.startsWith('review.') && !['review.comments', 'review.attention', 'review.thread'].includes(c.name)),
      )
      .toEqual([
        { name: 'review.reply', params: { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', markdown: 'Looks good' } },
        { name: 'review.react', params: { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1', emoji: '👍', remove: false } },
        { name: 'review.resolve', params: { spaceId: 's2', commentId: 'c0', changeRequestId: 'cr1' } },
      ]);
    expect(await thread.getByRole('textbox', { name: 'Reply' }).inputValue()).toBe('');
  });

  it('shows a change request with its diff and sends subject and status edits', async () => {
    const cr = {
      spaceId: 's1',
      spaceTitle: 'Handbook',
      id: 'cr1',
      number: 7,
      subject: 'Fix intro',
      status: 'open',
      outdated: true,
      comments: 0,
      createdBy: { id: 'u2', displayName: 'Robin Reviewer' },
      updatedAt: new Date().toISOString(),
      reasons: ['review-requested'],
      pending: false,
    };
    await mount(
      {
        'review.attention': [cr],
        'review.changeRequest': {
          changeRequest: cr,
          description: null,
          canMerge: true,
          diff: [
            {
              pageId: 'p1',
              title: 'Intro',
              path: 'intro.md',
              previousPath: null,
              change: 'modified',
              before: 'a\nold\nc',
              after: 'a\nnew\nc',
              linesAdded: 1,
              linesRemoved: 1,
            },
          ],
          threads: [],
        },
        'review.setSubject': null,
        'review.setStatus': null,
        'review.updateFromMain': null,
      },
      '#review',
    );
    await page.getByRole('tab', { name: /Change requests/ }).click();
    await page.getByTestId('cr-list').getByText('review requested').waitFor();
    await page.getByTestId('cr-list').getByText('Fix intro').click();
    const detail = page.getByTestId('cr-detail');
    await detail.getByLabel('Changes to Intro').getByText('new').waitFor();
    expect(await detail.locator('.diff-line.removed').textContent()).toContain('old');
    await detail.getByRole('button', { name: 'Edit subject' }).click();
    await detail.getByLabel('Subject').fill('Fix the intro');
    await detail.getByRole('button', { name: 'Save' }).click();
    await detail.getByRole('combobox').selectOption('draft');
    await detail.getByRole('button', { name: 'Update from main' }).click();
    await expect.poll(async () => (await calls('review.setSubject'))[0]?.params).toEqual({ spaceId: 's1', changeRequestId: 'cr1', subject: 'Fix the intro' });
    expect((await calls('review.setStatus'))[0]!.params).toEqual({ spaceId: 's1', changeRequestId: 'cr1', status: 'draft' });
    expect(await calls('review.updateFromMain')).toHaveLength(1);
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
