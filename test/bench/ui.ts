/**
 * UI benchmark, web host in headless Debian chromium:
 * - first render of the review view with 5,000 unresolved comments (target < 1 s),
 * - frame work while scrolling that list (target < 16 ms per frame),
 * - a sync state change reaching the window (target < 100 ms).
 * The data goes the real way: fake API -> sync and review refresh into the
 * mirror -> service -> WebSocket -> renderer.
 */
import type { Page } from 'playwright-core';
import { buildPage } from '../helpers/build-page';
import { launchBrowser } from '../helpers/chromium';
import { startStack } from '../helpers/stack';
import type { PageGlobals } from '../helpers/page-globals';

const COMMENTS = 5000;
const SPACES = 4;
const SCROLL_FRAMES = 240;
const STATE_CHANGES = 30;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (n: number) => Math.round(n * 10) / 10;

/** Time from switching to the review view until its first comment row is painted, measured in the page. */
async function reviewFirstRender(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const g = globalThis as unknown as PageGlobals;
        const t0 = g.performance.now();
        g.location.hash = 'review/comments';
        const check = () => {
          if (g.document.querySelector('[data-testid="comment-list"] [role="option"]')) g.requestAnimationFrame(() => resolve(g.performance.now() - t0));
          else g.requestAnimationFrame(check);
        };
        check();
      }),
  );
}

/**
 * Scrolls the virtual list one step per frame. For each frame: the script,
 * React render and layout work of the step (scroll handled synchronously, then
 * layout forced), and the interval between animation frames.
 */
async function scrollFrames(page: Page, frames: number): Promise<{ work: number[]; intervals: number[]; longFrames: number }> {
  return page.evaluate(
    (count) =>
      new Promise<{ work: number[]; intervals: number[]; longFrames: number }>((resolve) => {
        const g = globalThis as unknown as PageGlobals;
        const list = g.document.querySelector('[data-testid="comment-list"]')!;
        const work: number[] = [];
        const intervals: number[] = [];
        let longFrames = 0;
        let observer: InstanceType<PageGlobals['PerformanceObserver']> | null = null;
        try {
          observer = new g.PerformanceObserver((l) => {
            longFrames += l.getEntries().length;
          });
          observer.observe({ type: 'long-animation-frame', buffered: false });
        } catch {
          observer = null;
        }
        let last = 0;
        let i = 0;
        const step = (ts: number) => {
          if (last) intervals.push(ts - last);
          last = ts;
          const t0 = g.performance.now();
          list.scrollTop += 137;
          list.dispatchEvent(new g.Event('scroll'));
          void list.querySelector('[role="option"]')?.getBoundingClientRect();
          work.push(g.performance.now() - t0);
          if (++i < count) g.requestAnimationFrame(step);
          else {
            observer?.disconnect();
            resolve({ work, intervals, longFrames });
          }
        };
        g.requestAnimationFrame(step);
      }),
    frames,
  );
}

export async function benchUi(): Promise<Record<string, string | number>> {
  const rendererDir = await buildPage();
  const stack = await startStack({
    rendererDir,
    signedIn: true,
    seed: (fake) => {
      const org = fake.store.addOrg({ title: 'Bench Org' });
      const reviewer = fake.store.addUser({ displayName: 'Robin Reviewer' });
      for (let s = 0; s < SPACES; s++) {
        const space = fake.store.addSpace(org.id, { title: `Space ${s + 1}`, pages: [{ title: 'Intro', markdown: 'Hello.' }] });
        const page = fake.store.pageByPath(space.id, 'intro');
        for (let c = s; c < COMMENTS; c += SPACES) {
          fake.store.addComment(space.id, { body: `Comment ${c}: could this sentence be clearer?`, page: page.id, by: reviewer.id });
        }
      }
    },
  });
  const browser = await launchBrowser({ width: 1280, height: 900 });
  const { page } = browser;
  try {
    const mirrorStart = performance.now();
    const catalog = await stack.service.request('catalog.refresh', {});
    await stack.service.request('spaces.select', { spaceIds: catalog.spaces.map((s) => s.id), selected: true });
    const after = await stack.service.syncOnce();
    if (after.state !== 'in-sync') throw new Error(`bench sync ended in state ${after.state}: ${after.message ?? ''}`);
    const mirrorMs = performance.now() - mirrorStart;
    const unresolved = (await stack.service.request('review.comments', {})).length;

    await page.goto(stack.host.url);
    await page.getByRole('heading', { name: 'Spaces' }).waitFor({ timeout: 15_000 });

    // Cold: the first switch to the review view; then warm repeats.
    const firstRender = await reviewFirstRender(page);
    const repeats: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.evaluate(() => {
        (globalThis as unknown as PageGlobals).location.hash = 'spaces';
      });
      await page.getByRole('heading', { name: 'Spaces' }).waitFor();
      repeats.push(await reviewFirstRender(page));
    }
    const rows = await page.getByTestId('comment-list').getByRole('option').count();

    const scroll = await scrollFrames(page, SCROLL_FRAMES);

    // Sync state change -> window: the host stamps each status with its clock; the page notes when the new seq is on screen.
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      g.seen = new Map();
      const el = g.document.querySelector('[data-testid="sync-state"]')!;
      new g.MutationObserver(() => {
        const seq = el.getAttribute('data-seq');
        if (seq && !g.seen.has(seq)) g.requestAnimationFrame(() => g.seen.set(seq, Date.now()));
      }).observe(el, { attributes: true, attributeFilter: ['data-seq'] });
    });
    const latencies: number[] = [];
    for (let i = 0; i < STATE_CHANGES; i++) {
      const status = await stack.service.request('sync.setPaused', { paused: i % 2 === 0 });
      // A status newer than this one may replace it before the window paints (resuming starts a cycle):
      // the change is on screen when the window shows this status or a later one.
      const seq = status.seq;
      const shownSince = (s: number) => {
        const at = [...(globalThis as unknown as PageGlobals).seen].filter(([k]) => Number(k) >= s).map(([, t]) => t);
        return at.length ? Math.min(...at) : null;
      };
      const shownAt = (await (await page.waitForFunction(shownSince, seq)).jsonValue()) as number;
      latencies.push(shownAt - status.changedAt);
    }

    return {
      'ui: unresolved comments in the mirror': unresolved,
      'ui: mirror 5,000 comments (sync + review refresh), ms': Math.round(mirrorMs),
      'ui: review view first render, cold, ms (target < 1000)': ms(firstRender),
      'ui: review view first render, warm median, ms': ms(median(repeats)),
      'ui: review rows in the DOM (virtualised)': rows,
      'ui: scroll frame work median, ms (target < 16)': ms(median(scroll.work)),
      'ui: scroll frame work p95, ms': ms(pct(scroll.work, 0.95)),
      'ui: scroll frame work max, ms': ms(Math.max(...scroll.work)),
      'ui: scroll frame interval median, ms': ms(median(scroll.intervals)),
      'ui: long animation frames while scrolling': scroll.longFrames,
      'ui: sync state change to window median, ms (target < 100)': ms(median(latencies)),
      'ui: sync state change to window max, ms': ms(Math.max(...latencies)),
      'ui: page errors': browser.pageErrors.length,
    };
  } finally {
    await browser.close();
    await stack.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/test\/bench\//, '/test/bench/'))) {
  benchUi().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) process.stdout.write(`${k}: ${v}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
