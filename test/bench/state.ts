/**
 * The sync state in the window (issue 18), web host in headless Debian chromium:
 * - a state change reaching the header: Pause / Resume clicked in the header until its words
 *   say so, the whole way (WebSocket, service, the mirror's facts read again, the event back,
 *   the render) (target < 200 ms);
 * - ticking a space to its first sync request: the checkbox clicked until the fake API sees a
 *   request for that space (target < 1 s).
 * The space chosen first holds PAGES pages, so reading the facts (the folder's pending edits)
 * costs what it costs on a real folder. `QUIRE_BENCH_STATE_PAGES` changes the size.
 */
import type { Page } from 'playwright-core';
import { buildPage } from '../helpers/build-page';
import { launchBrowser } from '../helpers/chromium';
import { startStack } from '../helpers/stack';
import { generateSpace } from '../fake/seed';

const PAGES = Number(process.env.QUIRE_BENCH_STATE_PAGES ?? 1000);
const CHANGES = 20;
const TICKS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => Math.round(n * 10) / 10;

/** Clicks a header button in the page and times it until the header's words change from `from` (to `to`, when given). */
async function clickUntilChanged(page: Page, button: string, from: string, to?: string): Promise<number> {
  await page.locator('header.statusbar').getByRole('button', { name: button, exact: true }).waitFor();
  await page.waitForFunction((words) => {
    const g = globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } };
    return g.document.querySelector('[data-testid="sync-words"]')?.textContent === words;
  }, from);
  return page.evaluate(
    ({ button, from, to }) =>
      new Promise<number>((resolve, reject) => {
        const g = globalThis as unknown as {
          document: {
            querySelector(s: string): { textContent: string | null } | null;
            querySelectorAll(s: string): Iterable<{ textContent: string | null; click(): void }>;
          };
          MutationObserver: new (
            cb: () => void,
          ) => { observe(t: unknown, o: { subtree: boolean; childList: boolean; characterData: boolean }): void; disconnect(): void };
          setTimeout(cb: () => void, ms: number): void;
        };
        const target = g.document.querySelector('[data-testid="sync-state"]');
        const found = [...g.document.querySelectorAll('header.statusbar button')].find((b) => b.textContent === button);
        if (!target || !found) return reject(new Error(`no header or no ${button} button`));
        const t0 = Date.now();
        const observer = new g.MutationObserver(() => {
          const now = g.document.querySelector('[data-testid="sync-words"]')?.textContent;
          if (now && now !== from && (to === undefined || now === to)) {
            observer.disconnect();
            resolve(Date.now() - t0);
          }
        });
        observer.observe(target, { subtree: true, childList: true, characterData: true });
        found.click();
        g.setTimeout(() => reject(new Error(`the header still said ${from} 10 s after ${button}`)), 10_000);
      }),
    { button, from, to },
  );
}

export async function benchState(): Promise<Record<string, string | number>> {
  const rendererDir = await buildPage();
  const spaces: string[] = [];
  const stack = await startStack({
    rendererDir,
    signedIn: true,
    seed: (fake) => {
      const org = fake.store.addOrg({ title: 'Bench Org' });
      spaces.push(generateSpace(fake.store, org.id, { pages: PAGES, title: 'Big' }).id);
      for (let i = 0; i < TICKS; i++) spaces.push(fake.store.addSpace(org.id, { title: `Small ${i + 1}`, pages: [{ title: 'Intro', markdown: 'Hi.' }] }).id);
    },
  });
  const browser = await launchBrowser({ width: 1280, height: 800 });
  const { page } = browser;
  try {
    await stack.service.request('catalog.refresh', {});
    await page.goto(stack.host.url);
    await page.getByTestId(`space-${spaces[0]}`).waitFor({ timeout: 15_000 });

    // Ticking a space: the click, until the API hears about that space.
    const firstRequest: number[] = [];
    for (const id of spaces) {
      await page.getByTestId(`space-${id}`).getByRole('checkbox').waitFor();
      const clicked = Date.now();
      await page.getByTestId(`space-${id}`).getByRole('checkbox').check();
      const deadline = Date.now() + 30_000;
      let at: number | undefined;
      while (at === undefined && Date.now() < deadline) {
        at = stack.fake.requests.find((r) => r.at >= clicked && r.path.includes(id))?.at;
        if (at === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (at === undefined) throw new Error(`no request for space ${id} within 30 s of ticking it`);
      firstRequest.push(at - clicked);
      await stack.service.syncOnce(); // let its first sync end before the next tick
    }
    const synced = await stack.service.syncOnce();
    if (synced.state !== 'in-sync') throw new Error(`bench sync ended in state ${synced.state}`);

    // Pause / Resume from the header, until its words change.
    const changes: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      changes.push(await clickUntilChanged(page, 'Pause', 'In sync', 'Paused'));
      changes.push(await clickUntilChanged(page, 'Resume', 'Paused'));
      await stack.service.syncOnce(); // resuming runs a cycle: let it end in sync before the next pause
    }
    return {
      'state: pages in the folder': PAGES + TICKS,
      'state: tick a space to its first request median, ms (target < 1000)': ms(median(firstRequest)),
      'state: tick a space to its first request max, ms': ms(Math.max(...firstRequest)),
      'state: state change to header words median, ms (target < 200)': ms(median(changes)),
      'state: state change to header words max, ms': ms(Math.max(...changes)),
      'state: page errors': browser.pageErrors.length,
    };
  } finally {
    await browser.close();
    await stack.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/test\/bench\//, '/test/bench/'))) {
  benchState().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) process.stdout.write(`${k}: ${v}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
