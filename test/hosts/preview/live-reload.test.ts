/**
 * `quire preview`'s live reload in Debian's chromium: a save shows in the open page within a
 * second, keeping the scroll position; the table of contents and the check's problems follow.
 * Apart from preview.test.ts because it bounds how long a save takes to show (vitest.config.ts
 * runs it with the timed files).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../../src/main/hosts/preview';
import { launchBrowser, type Browser } from '../../helpers/chromium';
import { tempDir } from '../../helpers/cli';

const CLEAN = fileURLToPath(new URL('../../fixtures/check/clean/', import.meta.url));

describe('quire preview in a browser', () => {
  let dir: string;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = tempDir('quire-preview-');
    cpSync(CLEAN, dir, { recursive: true });
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

  it('shows a save in the open page within a second, keeping the scroll position', async () => {
    await open('guide/install.md');
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 300));
    const before = await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    const file = join(dir, 'guide', 'install.md');
    const saved = Date.now();
    writeFileSync(file, readFileSync(file, 'utf8').replace('Get the archive from the', 'Download the signed archive from the'));
    await page.getByText('Download the signed archive from the').waitFor({ timeout: 5000 });
    const latency = Date.now() - saved;
    console.log(`preview live reload: save to browser in ${latency} ms`);
    expect(latency).toBeLessThan(1000);
    expect(await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).toBe(before);

    writeFileSync(join(dir, 'SUMMARY.md'), readFileSync(join(dir, 'SUMMARY.md'), 'utf8').replace('[Install]', '[Installing Lumen]'));
    await page.getByRole('navigation', { name: 'Table of contents' }).getByText('Installing Lumen').waitFor();
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nA [new broken link](gone.md).\n`);
    await page.locator('.pv-problem[data-code="broken-link"]').waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
