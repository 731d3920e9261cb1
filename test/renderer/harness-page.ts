import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { readStatic } from '../../src/main/hosts/service';
import type { PageGlobals } from '../helpers/page-globals';

export interface HarnessPage {
  page: Page;
  browser: Browser;
  close(): Promise<void>;
}

/** Builds the component harness, serves it on loopback and opens it in chromium. */
export async function openHarness(): Promise<HarnessPage> {
  const dir = await buildPage(fileURLToPath(new URL('./harness', import.meta.url)));
  const server = createServer((req, res) => {
    void readStatic(dir, new URL(req.url ?? '/', 'http://x').pathname).then((file) => {
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchBrowser();
  const page = browser.page;
  page.setDefaultTimeout(5000);
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => !!(globalThis as unknown as PageGlobals).harness);
  return {
    page,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
