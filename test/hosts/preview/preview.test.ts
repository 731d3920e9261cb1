/**
 * `quire preview` in Debian's chromium: every GitBook block rendered as GitBook shows it, the
 * check's problems on the page, the writer's raw HTML unable to run or send the page away, the
 * secret's path guarding every request (and no cookie ever carrying it). Live reload: live-reload.test.ts.
 * Screenshots land in test-artifacts/e2e (and docs/screenshots with QUIRE_DOCS_SCREENSHOTS=1).
 */
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../../src/main/hosts/preview';
import { snap } from '../../e2e/screenshots';
import { launchBrowser, type Browser } from '../../helpers/chromium';
import { Mirror } from '../../../src/main/core/mirror';
import { startFakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { seedGuide, syncOnce } from '../../helpers/sync';

const CLEAN = fileURLToPath(new URL('../../fixtures/check/clean/', import.meta.url));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the headers a test chooses (Host included); an event stream is answered by its headers alone. */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        res.destroy();
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const HOSTILE = `# Hostile HTML

<script>window.pwned = 'script'</script>

<img src="x" onerror="window.pwned = 'onerror'" alt="broken image">

<a href="javascript:window.pwned='href'">a javascript link</a> and [a markdown one](javascript:alert(1)).

<a href="https://example.com/docs">an external link</a> and <a href="guide/install.md">an internal one</a>.

<iframe src="https://example.com"></iframe><form action="https://example.com"><input name="q"></form>

A [broken link](guide/nowhere.md) for the problem list.

$$\\href{javascript:window.pwned='katex'}{click} \\htmlStyle{background:url(https://example.com/x)}{x} <b onmouseover="window.pwned='tex'">x</b>$$

<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target></th><th data-hidden data-card-cover></th></tr></thead><tbody><tr><td><strong onclick="window.pwned='card'">Card</strong><script>window.pwned='card-script'</script></td><td><a href="javascript:window.pwned='target'">x</a></td><td><a href="javascript:window.pwned='cover'">y</a></td></tr></tbody></table>

<button type="button" class="button primary" onclick="window.pwned='button'" data-action="search">Search</button> <i class="fa-github" onclick="window.pwned='icon'">:github:</i>

{% @evil/block url="javascript:window.pwned='integration'" note="<script>window.pwned='param'</script>" %}
`;

describe('quire preview in a browser', () => {
  let dir: string;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  /** The secret's path, `/s/<secret>/`: every page of the preview lives below it. */
  let base: string;
  let port: number;
  const log: string[] = [];

  beforeAll(async () => {
    dir = tempDir('quire-preview-');
    cpSync(CLEAN, dir, { recursive: true });
    writeFileSync(join(dir, 'hostile.md'), HOSTILE);
    writeFileSync(join(dir, 'SUMMARY.md'), `${readFileSync(join(dir, 'SUMMARY.md'), 'utf8')}* [Hostile HTML](hostile.md)\n`);
    server = await startPreview({ dir, log: (line) => log.push(line) });
    base = new URL(server.url).pathname;
    port = Number(new URL(server.url).port);
    browser = await launchBrowser({ width: 1400, height: 1000 });
    page = browser.page;
    page.setDefaultTimeout(5000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (path: string) => {
    await page.goto(`${server.url}${path}`);
    await page.locator('#pv-page').waitFor();
  };

  it('opens the first page under the secret’s path, and leaves no cookie in the browser', async () => {
    expect(base).toMatch(/^\/s\/[\w-]{43}\/$/);
    await page.goto(server.url);
    expect(new URL(page.url()).pathname).toBe(`${base}README.md`);
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    expect(await browser.context.cookies()).toEqual([]);
  });

  it('links its pages to each other under the secret’s path, so navigation works', async () => {
    await open('README.md');
    const nav = page.getByRole('navigation', { name: 'Table of contents' });
    await nav.getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(`${server.url}guide/install.md`);
    await page.getByRole('heading', { level: 1, name: 'Install' }).waitFor();
    await page.locator('.pv-pager a.pv-next').click();
    await page.waitForURL((url) => url.pathname.startsWith(base) && url.pathname !== `${base}guide/install.md`);
    await page.locator('#pv-page').waitFor();
    await page.locator('a.pv-brand').click(); // the home: one space, so its first page
    await page.waitForURL(`${server.url}README.md`);
    const own = await page.locator('link[rel="stylesheet"], script[src]').evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? e.getAttribute('src')));
    expect(own).toEqual([`${base}_quire/katex/katex.min.css`, `${base}_quire/page.css`, `${base}_quire/preview.css`, `${base}_quire/live.js`]);
    expect(browser.pageErrors).toEqual([]);
  });

  it('applies the frontmatter and renders hints, figures and content-ref cards', async () => {
    await open('README.md');
    await expect.poll(() => page.locator('.gb-description').textContent()).toBe('Everything about Lumen, the self-hosted metrics server.');
    expect(await page.locator('.gb-hint-info').textContent()).toContain('Lumen 2.4 runs on Linux and macOS.');
    expect(await page.locator('.gb-hint-warning').textContent()).toContain('Back up your data');
    expect(await page.locator('figure figcaption').textContent()).toBe('The Lumen logo');
    expect(await page.locator('figure img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const card = page.locator('a.gb-card');
    expect(await card.locator('.gb-card-title').textContent()).toBe('Install');
    expect(await card.getAttribute('href')).toBe(`${base}guide/install.md`);
    await page.locator('#pv-page a[href="#why-back-up"]').click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe('#why-back-up');
    await snap(page, 'preview-welcome');
  });

  it('renders tabs as a tablist that switches by click and by arrow keys, and code blocks with their title', async () => {
    await open('guide/README.md');
    const tablist = page.getByRole('tablist');
    const tabs = tablist.getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['Linux', 'macOS']);
    const panels = page.getByRole('tabpanel', { includeHidden: true });
    expect(await panels.count()).toBe(2);
    await expect.poll(() => panels.nth(0).isVisible()).toBe(true);
    expect(await panels.nth(1).isVisible()).toBe(false);
    expect(await tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    expect(await panels.nth(0).getAttribute('aria-labelledby')).toBe(await tabs.nth(0).getAttribute('id'));
    await tabs.nth(1).click();
    await expect.poll(() => panels.nth(1).isVisible()).toBe(true);
    expect(await panels.nth(0).isVisible()).toBe(false);
    expect(await panels.nth(1).textContent()).toContain('brew install lumen');
    expect(await tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    // The keyboard: the arrow keys move the selection and the focus, wrapping round.
    await tabs.nth(1).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent),
    ).toBe('Linux');
    expect(await tabs.nth(0).getAttribute('tabindex')).toBe('0');
    expect(await tabs.nth(1).getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('End');
    await expect.poll(() => panels.nth(1).isVisible()).toBe(true);
    expect(await page.locator('.gb-code figcaption').textContent()).toBe('lumen.yaml');
    expect(await page.locator('.gb-code pre').textContent()).toContain('retention: 30d');
    await snap(page, 'preview-tabs-code');
  });

  it('renders steppers, embeds as links, files as cards, and includes under their title', async () => {
    await open('guide/install.md');
    expect(await page.locator('.gb-step').count()).toBe(2);
    expect(await page.locator('h2:has(#requirements)').textContent()).toContain('Requirements');
    const embed = page.locator('.gb-embed a');
    expect(await embed.getAttribute('href')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(await embed.getAttribute('target')).toBe('_blank');
    expect(await page.locator('.gb-embed .gb-caption').textContent()).toContain('A five-minute tour');
    const file = page.locator('a.gb-file-card');
    expect(await file.textContent()).toContain('cheatsheet.pdf');
    const download = await page.request.get(`${server.origin}${await file.getAttribute('href')}`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-disposition']).toMatch(/^attachment/);
    expect(await page.locator('.gb-include-title').textContent()).toBe('Reusable content · Getting help');
    expect(await page.locator('.gb-include .gb-hint-info').textContent()).toContain('Stuck? Ask in the community forum');
    await snap(page, 'preview-install');
  });

  it('renders tables, footnotes, task lists, details, math and columns', async () => {
    await open('guide/configure.md');
    expect(await page.locator('table tr').count()).toBe(3);
    expect(await page.locator('.footnotes li').textContent()).toContain('Older samples are compacted');
    expect(await page.locator('input.gb-task').count()).toBe(2);
    expect(await page.locator('input.gb-task[checked]').count()).toBe(1);
    expect(await page.locator('#pv-page details summary').textContent()).toBe('Advanced options');
    // Typeset by KaTeX, the TeX kept in its MathML annotation.
    expect(await page.locator('.gb-math .katex annotation').first().textContent()).toBe('n \\times r');
    expect(await page.locator('.gb-math-block .katex-display annotation').textContent()).toContain('2\\,\\text{bytes}');
    expect(await page.locator('.gb-column').count()).toBe(2);
  });

  it('renders every GitBook block as GitBook shows it: math, highlighted code, cards, buttons, icons, OpenAPI, integrations, the outline', async () => {
    await open('guide/showcase.md');
    // Math: KaTeX's HTML, its positions applied (the CSP refuses inline styles: the page behaviour sets them), its fonts served here.
    const display = page.locator('.gb-math-block .katex-display');
    expect(await display.count()).toBe(2); // the $$ lines block, and a paragraph that is one $$…$$
    expect(await display.first().locator('annotation').textContent()).toContain('\\sqrt{\\frac{1}{N-1}');
    await expect
      .poll(() =>
        page
          .locator('.katex [data-gb-style]')
          .first()
          .evaluate((el) => (el as unknown as { style: { cssText: string } }).style.cssText),
      )
      .not.toBe('');
    expect(
      await page.evaluate(async () => {
        const doc = (globalThis as unknown as { document: { fonts: { ready: Promise<unknown>; check(font: string): boolean } } }).document;
        await doc.fonts.ready;
        return doc.fonts.check('16px KaTeX_Main');
      }),
    ).toBe(true);
    await snap(page, 'preview-blocks-light', { fullPage: true });
    // Code: highlighted, numbered and wrapped as {% code %} asks, with a copy button that copies the code.
    const code = page.locator('.gb-code.gb-line-numbers.gb-wrap');
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('import');
    expect(await code.locator('.gb-line').count()).toBe(3);
    expect(
      await code
        .locator('pre')
        .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string } }).getComputedStyle(el).whiteSpace),
    ).toBe('pre-wrap');
    expect(
      await code
        .locator('.gb-line')
        .nth(1)
        .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown, p: string): { content: string } }).getComputedStyle(el, '::before').content),
    ).toBe('counter(gb-line)');
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await code.getByRole('button', { name: 'Copy the code' }).click();
    await expect.poll(() => code.locator('.gb-copy').textContent()).toBe('Copied');
    const copied = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(copied.split('\n')).toHaveLength(3);
    expect(copied).toContain("import { createServer } from 'node:http';");
    expect(await page.locator('.gb-tabs .hljs-keyword', { hasText: 'def' }).count()).toBe(1); // python, loaded for this page
    // Cards: a grid, each card linked to its target, the cover an image of the folder.
    const cards = page
      .getByRole('list')
      .filter({ has: page.locator('.gb-card-item') })
      .getByRole('listitem');
    expect(await cards.count()).toBe(3);
    expect(await cards.nth(0).locator('.gb-card-heading').textContent()).toBe('Install');
    expect(await cards.nth(0).locator('a.gb-card-target').getAttribute('href')).toBe(`${base}guide/install.md`);
    expect(
      await cards
        .nth(0)
        .locator('img.gb-card-cover')
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    expect(await cards.nth(2).locator('a.gb-card-target').getAttribute('target')).toBe('_blank');
    // Buttons, and icons by their Font Awesome names.
    const primary = page.locator('a.button.primary', { hasText: 'Install Lumen' });
    expect(await primary.getAttribute('href')).toBe(`${base}guide/install.md`);
    expect(
      await primary.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderRadius: string } }).getComputedStyle(el).borderRadius),
    ).not.toBe('0px');
    expect(await page.locator('h1.gb-title .gb-icon').getAttribute('title')).toBe('house');
    expect(await page.locator('.gb-icon-inline[title="github"] svg').count()).toBe(1);
    // GitBook's search button focuses the search box.
    await page.locator('button[data-action="search"]').click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id))
      .toBe('pv-search');
    // OpenAPI and swagger blocks as operation cards; an integration's block as a card naming it.
    const get = page.getByRole('region', { name: 'API operation: GET /pet/{petId}' });
    expect(await get.locator('.gb-method').textContent()).toBe('GET');
    const post = page.getByRole('region', { name: 'API operation: POST https://lumen.example.com/v1/metrics' });
    expect(await post.locator('.gb-op-summary').first().textContent()).toBe('Send samples');
    expect(await post.locator('.gb-op-required').count()).toBe(1);
    const integration = page.getByRole('group', { name: 'Integration block: github-files' });
    expect(await integration.locator('.gb-integration-block').textContent()).toBe('github-code-block');
    expect(await integration.locator('dd a').getAttribute('href')).toBe('https://github.com/lumen/lumen/blob/main/server.js');
    expect(await page.locator('#pv-page').textContent()).not.toContain('{%');
    // The outline: the page's headings, linked to their anchors (GitBook's: "Math & TeX" is #math-and-tex).
    const outline = page.getByRole('navigation', { name: 'On this page' });
    expect(await outline.getByRole('link').allTextContents()).toEqual(['Math & TeX', 'Code', 'Cards', 'API', 'Integrations']);
    expect(await outline.getByRole('link', { name: 'Math & TeX' }).getAttribute('href')).toBe('#math-and-tex');
    expect(browser.pageErrors).toEqual([]); // no CSP refusal, no script error
  });

  it('searches the folder from the box in the header', async () => {
    await open('README.md');
    const box = page.getByRole('searchbox', { name: 'Search the pages' });
    await box.fill('brew');
    const hit = page.locator('#pv-search-results a').first();
    await hit.waitFor();
    expect(await hit.locator('.pv-hit-title').textContent()).toBe('Guide');
    expect(await hit.locator('mark').textContent()).toBe('brew');
    await hit.click();
    await page.waitForURL(`${server.url}guide/README.md`);
    const none = await get(port, `${base}_quire/search?q=${encodeURIComponent('zzz-nothing')}`);
    expect(JSON.parse(none.body)).toEqual({ query: 'zzz-nothing', results: [] });
    expect((await get(port, `/_quire/search?q=brew`)).status).toBe(403);
  });

  it('lays the page out at 800×600 and in dark mode', async () => {
    const small = await launchBrowser({ width: 800, height: 600 });
    try {
      await small.page.goto(`${server.url}guide/showcase.md`);
      await small.page.locator('#pv-page').waitFor();
      const widths = await small.page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
        return [doc.documentElement.scrollWidth, doc.documentElement.clientWidth];
      });
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!); // nothing wider than the window
      // The table of contents starts folded, so the page comes first; it opens on demand.
      const details = small.page.locator('.pv-nav-details');
      expect(await details.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
      const title = await small.page.locator('h1.gb-title').boundingBox();
      expect(title!.y).toBeLessThan(200);
      await snap(small.page, 'preview-blocks-800x600');
      await details.locator('summary').click();
      await small.page.getByRole('navigation', { name: 'Table of contents' }).getByRole('link', { name: 'Install' }).waitFor();
      expect(small.pageErrors).toEqual([]);
    } finally {
      await small.close();
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await open('guide/showcase.md');
      const [body, text] = await page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { body: unknown; querySelector(s: string): unknown };
          getComputedStyle(e: unknown): { backgroundColor: string; color: string };
        };
        return [g.getComputedStyle(g.document.body).backgroundColor, g.getComputedStyle(g.document.querySelector('.gb-page')).color];
      });
      const lightness = (rgb: string) => (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, c) => sum + Number(c), 0) / 3;
      expect(lightness(body)).toBeLessThan(60);
      expect(lightness(text)).toBeGreaterThan(180);
      await snap(page, 'preview-blocks-dark', { fullPage: true });
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('shows hidden pages in the navigation, marked, with groups and link pages', async () => {
    await open('reference.md');
    expect(await page.locator('.gb-pill', { hasText: 'Hidden page' }).count()).toBe(1);
    const icon = page.locator('h1.gb-title .gb-icon');
    expect(await icon.getAttribute('title')).toBe('book');
    expect(await icon.locator('svg path').count()).toBeGreaterThan(0);
    const nav = page.getByRole('navigation', { name: 'Table of contents' });
    expect(await nav.locator('.nav-group h2').textContent()).toBe('Reference');
    expect(await nav.locator('.nav-hidden a').textContent()).toContain('hidden');
    expect(await nav.locator('.nav-link a').getAttribute('href')).toBe('https://status.example.com');
    expect(await nav.locator('[aria-current="page"]').textContent()).toContain('Reference');
    expect(await page.locator('.gb-hint-danger').count()).toBe(1);
    expect(await page.locator('.gb-hint-success').count()).toBe(1);
  });

  it("keeps the writer's HTML from running or leaving the preview, and shows the check's problems", async () => {
    await open('hostile.md');
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: string }).pwned)).toBeUndefined();
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await page.locator('iframe, form, script:not([src])').count()).toBe(0);
    expect(await page.locator('[onclick], [onerror], #pv-page [style]:not(.katex *)').count()).toBe(0);
    expect(await page.locator('a[href^="javascript"], img[src^="javascript"]').count()).toBe(0);
    await page.locator('#pv-page button.button').click();
    await page.locator('.gb-card-item').click();
    await page.locator('.gb-integration').click();
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: string }).pwned)).toBeUndefined();
    expect(await page.locator('.gb-integration dd').nth(1).textContent()).toBe("<script>window.pwned='param'</script>");
    const external = page.locator('a', { hasText: 'an external link' });
    expect(await external.getAttribute('target')).toBe('_blank');
    expect(await external.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await page.locator('a', { hasText: 'an internal one' }).getAttribute('href')).toBe(`${base}guide/install.md`);
    const broken = page.locator('.pv-problem[data-code="broken-link"]');
    expect(await broken.textContent()).toContain('guide/nowhere.md, which does not exist');
    expect(await page.locator('a.gb-broken', { hasText: 'broken link' }).getAttribute('title')).toBe('guide/nowhere.md does not exist');
    expect(await page.locator('.pv-count').textContent()).toBe('2 errors, 0 warnings'); // the broken link, and the image `x`
    const response = await page.request.get(`${server.url}hostile.md`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
    await snap(page, 'preview-problems');
  });

  it('refuses every request without the secret’s path, and logs why without the secret', async () => {
    const secret = base.slice('/s/'.length, -1);
    const other = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const without = [
      '/',
      '/README.md',
      '/guide/install.md',
      '/.gitbook/assets/logo.png',
      '/_quire/live.js',
      '/_quire/events',
      `/?secret=${secret}`,
      `/README.md?secret=${secret}`,
    ];
    for (const path of [...without, '/s/', `/s/${other}/README.md`, `/s/${other}/_quire/events`, `/s/${secret}/../README.md`]) {
      const answer = await get(port, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain('needs the secret');
    }
    // The old scheme's cookie opens nothing.
    expect((await get(port, '/README.md', { cookie: `quire-${port}=${secret}` })).status).toBe(403);
    // DNS rebinding: a foreign Host is refused even with the secret.
    expect((await get(port, `${base}README.md`, { host: `evil.example:${port}` })).status).toBe(403);
    expect(log).toContain('preview: refused GET /README.md: no secret');
    expect(log.some((l) => l.includes(': wrong secret'))).toBe(true);
    expect(log.join('\n')).not.toContain(secret);
  });

  it('sets no cookie on any answer: pages, redirects, files, its own script and the live-reload stream', async () => {
    const answers = {
      bare: await get(port, base.slice(0, -1)),
      home: await get(port, base),
      page: await get(port, `${base}README.md`),
      image: await get(port, `${base}.gitbook/assets/logo.png`),
      script: await get(port, `${base}_quire/live.js`),
      events: await get(port, `${base}_quire/events`),
      missing: await get(port, `${base}nowhere.md`),
      refused: await get(port, '/README.md'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.status]))).toEqual({
      bare: 301,
      home: 302,
      page: 200,
      image: 200,
      script: 200,
      events: 200,
      missing: 404,
      refused: 403,
    });
    for (const [name, answer] of Object.entries(answers)) expect(answer.headers['set-cookie'], name).toBeUndefined();
    expect(answers.bare.headers.location).toBe(base);
    expect(answers.home.headers.location).toBe(`${base}README.md`);
    expect(answers.events.headers['content-type']).toContain('text/event-stream');
    expect(answers.missing.body).toContain('/nowhere.md is not a file of this folder');
    expect(answers.missing.body).toContain(`href="${base}"`);
  });

  it('never serves Quire state or files outside the spaces', async () => {
    expect((await page.request.get(`${server.url}.quire/mirror.db`)).status()).toBe(404);
    expect((await page.request.get(`${server.url}..%2F..%2Fetc%2Fpasswd`)).status()).toBe(404);
    expect((await get(port, `${base}README.md`, {}, 'POST')).status).toBe(405);
  });
});

describe('quire preview and symlinks made after it started', () => {
  it('never serves a file outside the folder: a file or .gitbook/assets replaced by a link, a page replaced by one', async () => {
    const dir = tempDir('quire-preview-links-');
    cpSync(CLEAN, dir, { recursive: true });
    const outside = tempDir('quire-preview-outside-');
    writeFileSync(join(outside, 'logo.png'), 'SECRET-BYTES-OUTSIDE');
    writeFileSync(join(outside, 'secret.md'), '# Secret\n\nSECRET-TEXT-OUTSIDE\n');
    const server = await startPreview({ dir, log: () => {} });
    try {
      const port = Number(new URL(server.url).port);
      const base = new URL(server.url).pathname;
      expect((await get(port, `${base}.gitbook/assets/logo.png`)).status).toBe(200);
      expect((await get(port, `${base}guide/configure.md`)).status).toBe(200);

      // A file replaced by a link out of the folder.
      rmSync(join(dir, '.gitbook/assets/cheatsheet.pdf'));
      symlinkSync(join(outside, 'logo.png'), join(dir, '.gitbook/assets/cheatsheet.pdf'));
      // A page replaced by a link, and a new page that is one.
      rmSync(join(dir, 'guide/configure.md'));
      symlinkSync(join(outside, 'secret.md'), join(dir, 'guide/configure.md'));
      symlinkSync(join(outside, 'secret.md'), join(dir, 'leak.md'));
      // The whole assets folder replaced by a link to a folder holding a file of the same name.
      renameSync(join(dir, '.gitbook/assets'), join(dir, '.gitbook/assets-old'));
      symlinkSync(outside, join(dir, '.gitbook/assets'));
      // Whatever the watcher has seen by the time a later save shows, the answers stay inside the folder.
      writeFileSync(join(dir, 'guide/install.md'), `${readFileSync(join(dir, 'guide/install.md'), 'utf8')}\nSentinel line.\n`);
      await expect.poll(() => server.site.index.get('guide/install.md')?.file.text?.includes('Sentinel line.') ?? false, { timeout: 5000 }).toBe(true);

      for (const path of ['.gitbook/assets/logo.png', '.gitbook/assets/cheatsheet.pdf', 'guide/configure.md', 'leak.md', '.gitbook/assets/secret.md']) {
        const answer = await get(port, `${base}${path}`);
        expect(answer.status, path).toBe(404);
        expect(answer.body, path).not.toContain('SECRET');
      }
      expect((await get(port, `${base}guide/install.md`)).body).toContain('Sentinel line.');
    } finally {
      await server.close();
    }
  });
});

describe('quire preview over a sync folder', () => {
  it('answers its search box from the mirror’s full-text index: ranked, accents and prefixes as `quire search` reads them', async () => {
    const fake = await startFakeApi();
    seedGuide(fake);
    const root = tempDir('quire-preview-fts-');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const mirror = Mirror.open(root);
    const server = await startPreview({ dir: root, mirror, log: () => {} });
    try {
      const port = Number(new URL(server.url).port);
      const base = new URL(server.url).pathname;
      const ask = async (q: string) => JSON.parse((await get(port, `${base}_quire/search?q=${encodeURIComponent(q)}`)).body);
      const answer = await ask('instal*');
      expect(answer.results.map((r: { path: string }) => r.path)).toEqual(['guide/getting-started/install.md']);
      expect(answer.results[0]).toMatchObject({ title: 'Install', url: `${base}guide/getting-started/install.md` });
      // FTS query syntax, as `quire search` has it: a title: term.
      expect((await ask('title:faq')).results.map((r: { title: string }) => r.title)).toEqual(['FAQ']);
      expect((await ask('x'.repeat(201))).error).toMatch(/too long/);
    } finally {
      await server.close();
      mirror.close();
      await fake.close();
    }
  });
});

describe('quire preview on the command line', () => {
  it('prints the address first, serves until stopped, and exits 1 on a folder with nothing to show', async () => {
    const stop = new AbortController();
    const running = quire(['preview', '--dir', CLEAN], { signal: stop.signal });
    let url = '';
    await expect
      .poll(async () => {
        const r = await Promise.race([running, new Promise<null>((resolve) => setTimeout(() => resolve(null), 50))]);
        return r;
      })
      .toBeNull();
    stop.abort();
    const run = await running;
    url = run.stdout.split('\n')[0]!;
    expect(run.code).toBe(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{43}\/$/);
    expect(run.stderr).toContain('Previewing');
    const empty = await quire(['preview', '--dir', tempDir('quire-preview-')]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('nothing to preview');
  });
});

describe('quire preview and variables', () => {
  let server: PreviewServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('quire-preview-vars-');
    writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Release](README.md)\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '---',
        'vars:',
        '  min_ram: 4 GB',
        '---',
        '',
        '# Release',
        '',
        'Lumen <code class="expression">space.vars.latest_version</code> needs <code class="expression">page.vars.min_ram</code>; <code class="expression">space.vars.latest_version === "2.4.1" ? "Latest" : "Outdated"</code>.',
        '',
        'Also <code class="expression">space.vars.latest_versoin</code> and <code class="expression">visitor.claims.plan</code>.',
        '',
        '{% if space.vars.beta %}',
        'Beta features are on.',
        '{% endif %}',
        '',
        '{% if !space.vars.beta %}',
        'Beta features are off.',
        '{% endif %}',
        '',
        '{% include ".gitbook/includes/requirements.md" %}',
        '',
      ].join('\n'),
    );
    mkdirSync(join(dir, '.gitbook/includes'), { recursive: true });
    writeFileSync(join(dir, '.gitbook/vars.yaml'), 'product: Lumen\nlatest_version: 2.4.1\nbeta: true\n');
    writeFileSync(
      join(dir, '.gitbook/includes/requirements.md'),
      '---\ntitle: Requirements\n---\n\n<code class="expression">space.vars.product</code> wants <code class="expression">page.vars.min_ram</code> of memory.\n',
    );
    server = await startPreview({ dir, log: () => undefined });
    browser = await launchBrowser({ width: 1200, height: 900 });
    browser.page.setDefaultTimeout(5000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders expressions and conditions with the values of the space’s and the page’s variables, and follows vars.yaml', async () => {
    const page = browser.page;
    await page.goto(`${server.url}README.md`);
    await page.locator('#pv-page').waitFor();
    const values = () => page.locator('#pv-page span.gb-expression').allTextContents();
    expect(await values()).toEqual(['2.4.1', '4 GB', 'Latest', 'Lumen', '4 GB']);
    const broken = page.locator('#pv-page code.gb-expression.gb-broken');
    expect(await broken.textContent()).toBe('space.vars.latest_versoin');
    expect(await broken.getAttribute('title')).toContain('does not exist');
    expect(await page.locator('#pv-page code.gb-expression-unknown').textContent()).toBe('visitor.claims.plan');
    const shown = page.locator('.gb-if').filter({ hasText: 'Beta features are on.' });
    expect(await shown.locator('.gb-if-label').textContent()).toBe('Shown when space.vars.beta (space.vars.beta is true): shown to readers');
    expect(await page.locator('.gb-if.gb-if-hidden').textContent()).toContain('Beta features are off.');
    // `quire check` and the preview say the same about the unknown variable.
    expect(await page.locator('.pv-problem[data-code="unknown-variable"]').textContent()).toContain('space.vars.latest_versoin');

    writeFileSync(join(dir, '.gitbook/vars.yaml'), 'product: Lumen\nlatest_version: 2.5.0\nbeta: false\n');
    await expect.poll(values, { timeout: 5000 }).toEqual(['2.5.0', '4 GB', 'Outdated', 'Lumen', '4 GB']);
    expect(await page.locator('.gb-if.gb-if-hidden').textContent()).toContain('Beta features are on.');
    expect(browser.pageErrors).toEqual([]);
    await snap(page, 'preview-variables');
  });
});
