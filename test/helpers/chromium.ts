import { type Browser as PlaywrightBrowser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's chromium; never a downloaded browser. */
export const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors, and uncaught exceptions: a test can assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * One headless chromium per test process, launched on first use and shared by the files that
 * process runs (kept on globalThis, so a file run in a fresh module graph finds it too); it ends
 * with the test process, or, in a script (the bench), at `closeSharedChromium`. Each
 * `launchBrowser` is a context of its own in it (its own cookies, storage and permissions, as a
 * fresh profile has): a launch costs about four times a context in CPU, and a test suite opened ~20.
 */
const SHARED = Symbol.for('quire.test.chromium');
type Shared = { [SHARED]?: Promise<PlaywrightBrowser> };

/** The shared chromium, launched (again) when there is none or it went away; each call waits for the one before. */
function sharedChromium(): Promise<PlaywrightBrowser> {
  const holder = globalThis as Shared;
  const earlier = holder[SHARED];
  const next = (async () => {
    const browser = await earlier?.catch(() => undefined);
    if (browser?.isConnected()) return browser;
    return chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
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
  })();
  holder[SHARED] = next;
  return next;
}

/** Ends the shared chromium, if one runs: a script (not a test process, which vitest ends) calls it last, or it keeps the script running. */
export async function closeSharedChromium(): Promise<void> {
  const holder = globalThis as Shared;
  const running = holder[SHARED];
  delete holder[SHARED];
  await (await running?.catch(() => undefined))?.close();
}

/** Headless chromium in a fresh context (no cookies, storage or permissions from another test). */
export async function launchBrowser(options: { width?: number; height?: number } = {}): Promise<Browser> {
  const browser = await sharedChromium();
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 820 } });
  // tsx (esbuild keepNames) wraps functions in __name(...); functions sent to page.evaluate need it defined.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f)');
  const page = await context.newPage();
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
    },
  };
}
