import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium; never a downloaded browser. */
export const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors, and uncaught exceptions: a test can assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** Headless chromium on a fresh profile (a persistent context: `launch()` refuses --user-data-dir). */
export async function launchBrowser(options: { width?: number; height?: number } = {}): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'quire-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 820 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // tsx (esbuild keepNames) wraps functions in __name(...); functions sent to page.evaluate need it defined.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f)');
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
