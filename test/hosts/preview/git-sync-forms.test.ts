/**
 * Issue 29, item 5, in Debian's chromium: the preview shows the forms GitBook's Git Sync writes as
 * GitBook shows them. A block closed right after an HTML line (`</figure>` then `{% endcolumn %}`,
 * `</table>` then `{% endtab %}`) is a block: columns side by side and the rest of the page at full
 * width, three tabs that switch, no tag left as text, and the problem panel agreeing (none). Then
 * a page with `layout:` frontmatter (its cover above one title), the updates timeline, GitBook's
 * search button, a SUMMARY.md group heading with its anchor, a page opening with `<meta>`, and a
 * link to an expandable block's summary landing on it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../../src/main/hosts/preview';
import { snap } from '../../e2e/screenshots';
import { launchBrowser, type Browser } from '../../helpers/chromium';
import { tempDir } from '../../helpers/cli';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

const BLOCKS = `# Blocks after HTML

{% columns %}
{% column %}
<figure><img src=".gitbook/assets/shot.png" alt="A screenshot"><figcaption><p>The home screen</p></figcaption></figure>
{% endcolumn %}

{% column %}
Lawnchair puts the apps you use where you reach them.
{% endcolumn %}
{% endcolumns %}

{% tabs %}
{% tab title="Stable" %}
<table><thead><tr><th>Channel</th><th>Where</th></tr></thead><tbody><tr><td>Stable</td><td>Play Store</td></tr></tbody></table>
{% endtab %}

{% tab title="Beta" %}
<table><thead><tr><th>Channel</th><th>Where</th></tr></thead><tbody><tr><td>Beta</td><td>GitHub releases</td></tr></tbody></table>
{% endtab %}

{% tab title="Nightly" %}
<figure><img src=".gitbook/assets/shot.png" alt="Nightly"><figcaption></figcaption></figure>
{% endtab %}
{% endtabs %}

The paragraph after the blocks, as wide as the page.
`;

const WELCOME = `---
description: Everything about Lawnchair.
cover: .gitbook/assets/shot.png
coverY: 0
layout:
  cover:
    visible: true
    size: full
  title:
    visible: true
  description:
    visible: true
---

# Welcome

<p align="center"><button type="button" class="button primary" data-action="search" data-icon="magnifying-glass">Search help contents</button></p>

See [what Match dock does](faq.md#what-does-match-dock-search-bar-actions-do).

{% updates format="full" %}
{% update date="2026-04-09" tags="release" %}
## Lawnchair 15

Themed icons everywhere.
{% endupdate %}

{% update date="2026-03-01" %}
## Lawnchair 14.1

Fixes.
{% endupdate %}
{% endupdates %}
`;

const FAQ = `<meta name="description" content="Questions." />

# Questions and answers

${'Text to scroll past.\n\n'.repeat(40)}<details>

<summary>What does <strong>Match dock search bar actions</strong> do?</summary>

It opens your search provider from the dock.

</details>
`;

const SUMMARY = `# Table of contents

## Getting started <a href="#start" id="start"></a>

* [Welcome](README.md)
* [Blocks after HTML](blocks.md)
* [Frequently asked](faq.md)
`;

describe('the preview of Git Sync’s own forms, in a browser', () => {
  let dir: string;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = tempDir('quire-preview-forms-');
    mkdirSync(join(dir, '.gitbook', 'assets'), { recursive: true });
    writeFileSync(join(dir, '.gitbook', 'assets', 'shot.png'), PNG);
    writeFileSync(join(dir, 'SUMMARY.md'), SUMMARY);
    writeFileSync(join(dir, 'README.md'), WELCOME);
    writeFileSync(join(dir, 'blocks.md'), BLOCKS);
    writeFileSync(join(dir, 'faq.md'), FAQ);
    server = await startPreview({ dir, log: () => undefined });
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
  const box = (selector: string) => page.locator(selector).first().boundingBox();

  it('shows blocks closed right after HTML as blocks: columns side by side, three tabs, nothing raw, no problem', async () => {
    await open('blocks.md');
    expect(await page.locator('#pv-page').textContent()).not.toContain('{%');
    expect(await page.locator('#pv-page .gb-error').count()).toBe(0);
    expect(await page.locator('#pv-problems').textContent()).toContain('No problems on this page.');
    // Two columns, side by side, and the paragraph after them as wide as the page.
    const columns = page.locator('.gb-column');
    expect(await columns.count()).toBe(2);
    const [left, right] = [await columns.nth(0).boundingBox(), await columns.nth(1).boundingBox()];
    expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
    expect(Math.abs(right!.y - left!.y)).toBeLessThan(2);
    const after = page.getByText('The paragraph after the blocks, as wide as the page.');
    expect((await after.boundingBox())!.width).toBeGreaterThan((await box('.gb-columns'))!.width * 0.6);
    expect(await page.locator('.gb-column figure figcaption').textContent()).toBe('The home screen');
    // Three tabs, each showing its own table or figure.
    const tabs = page.getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['Stable', 'Beta', 'Nightly']);
    const panels = page.getByRole('tabpanel', { includeHidden: true });
    expect(await panels.count()).toBe(3);
    await tabs.nth(1).click();
    await expect.poll(() => panels.nth(1).isVisible()).toBe(true);
    expect(await panels.nth(1).locator('td').allTextContents()).toEqual(['Beta', 'GitHub releases']);
    await tabs.nth(2).click();
    await expect.poll(() => panels.nth(2).locator('img').isVisible()).toBe(true);
    await snap(page, 'preview-blocks-after-html');
  });

  it('shows a page with `layout:` frontmatter with its cover above one title, the updates timeline and GitBook’s search button', async () => {
    await open('README.md');
    const cover = page.locator('.gb-cover img');
    await expect.poll(() => cover.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect((await box('.gb-cover'))!.y).toBeLessThan((await box('h1.gb-title'))!.y);
    expect(await page.locator('#pv-page h1').allTextContents()).toEqual(['Welcome']);
    // The timeline: each entry's date beside its text, a dot on the line.
    const entries = page.locator('.gb-update');
    expect(await entries.count()).toBe(2);
    expect(await entries.nth(0).locator('time').textContent()).toBe('April 9, 2026');
    expect(await entries.nth(0).locator('.gb-update-tag').textContent()).toBe('release');
    const [date, text] = [await box('.gb-update time'), await box('.gb-update-body')];
    expect(date!.x + date!.width).toBeLessThanOrEqual(text!.x);
    expect(Math.abs(date!.y - text!.y)).toBeLessThan(20);
    // The search button reads as the field it opens: its icon, its shortcut.
    const search = page.locator('button.gb-action-search');
    expect(await search.locator('.gb-icon svg').count()).toBe(1);
    expect(await search.locator('kbd').textContent()).toBe('Ctrl K');
    expect((await search.boundingBox())!.width).toBeGreaterThan(250);
    await snap(page, 'preview-layout-updates');
  });

  it('titles a page opening with `<meta>` by its SUMMARY.md entry, shows group headings without their anchor, and lands a link on an expandable block', async () => {
    await open('README.md');
    const nav = page.getByRole('navigation', { name: 'Table of contents' });
    expect(await nav.locator('h2').allTextContents()).toEqual(['Getting started']);
    await page.locator('#pv-page a', { hasText: 'what Match dock does' }).click();
    await page.waitForURL(`${server.url}faq.md#what-does-match-dock-search-bar-actions-do`);
    expect(await page.locator('h1.gb-title').textContent()).toBe('Frequently asked');
    // The link's target is the summary (`:target`), not a place the page does not have.
    const target = () =>
      page.evaluate(() => {
        const el = (globalThis as unknown as { document: { querySelector(s: string): { tagName: string; id: string } | null } }).document.querySelector(
          ':target',
        );
        return el ? `${el.tagName}#${el.id}` : null;
      });
    await expect.poll(target).toBe('SUMMARY#what-does-match-dock-search-bar-actions-do');
  });
});
