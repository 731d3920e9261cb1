import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { buildPage } from '../helpers/build-page';
import { launchBrowser, type Browser } from '../helpers/chromium';
import { readStatic } from '../../src/main/hosts/service';
import type { PageGlobals } from '../helpers/page-globals';
import type { ErrorCode, EventMap, EventName, RequestName } from '../../src/shared/contract';

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
  // As long as a poll waits (vitest.config.ts): on a loaded machine a render can take seconds.
  page.setDefaultTimeout(10_000);
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

/** What the scripted bridge answers, by request. */
export type Answers = Partial<Record<RequestName, unknown>>;

/**
 * The scripted bridge of the harness page (`page()`: the test file's page, once open): `mount`
 * mounts the app afresh at `hash` with the bridge answering `base` and then `answers`; the rest
 * answer, fail and emit as the host would, and read the requests the views made.
 */
export function harnessBridge(page: () => Page, base: Answers, defaultHash: string) {
  return {
    async mount(answers: Answers = {}, hash = defaultHash): Promise<void> {
      // Sent as one JSON string: much faster than letting playwright serialise thousands of objects.
      await page().evaluate(
        ({ json, hash }) => {
          const g = globalThis as unknown as PageGlobals;
          const bridge = g.harness.reset();
          g.location.hash = hash;
          for (const [name, value] of Object.entries(JSON.parse(json) as Record<string, unknown>)) bridge.respond(name as never, value);
          g.harness.mount();
        },
        { json: JSON.stringify({ ...base, ...answers }), hash },
      );
    },
    calls: (name?: RequestName) =>
      page().evaluate((n) => (globalThis as unknown as PageGlobals).harness.bridge.calls.filter((c) => !n || c.name === n), name) as Promise<
        { name: string; params: unknown }[]
      >,
    respond: (name: RequestName, value: unknown) =>
      page().evaluate(([n, v]) => (globalThis as unknown as PageGlobals).harness.bridge.respond(n as never, v), [name, value] as const),
    fail: (name: RequestName, code: ErrorCode, message: string) =>
      page().evaluate(([n, c, m]) => (globalThis as unknown as PageGlobals).harness.bridge.fail(n as never, c as never, m), [name, code, message] as const),
    emit: <E extends EventName>(name: E, payload: EventMap[E]) =>
      page().evaluate(([n, p]) => (globalThis as unknown as PageGlobals).harness.bridge.emit(n as never, p as never), [name, payload] as const),
  };
}
