/**
 * The browser globals that code handed to `page.evaluate` touches. Tests that drive a browser
 * run in Node and live in the node project (tsconfig.node.json), which has no DOM types on
 * purpose, so the few page globals they use are typed here, narrowly. Inside a page function:
 * `const g = globalThis as unknown as PageGlobals;` — the cast is erased, so the function still
 * serialises to plain `globalThis`. (A helper function would not exist in the page.)
 */
import type { Harness } from '../renderer/harness/harness-api';

export interface PageElement {
  textContent: string | null;
  scrollTop: number;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  getBoundingClientRect(): unknown;
  dispatchEvent(event: unknown): boolean;
}

export interface PageGlobals {
  location: { hash: string };
  document: { querySelector(selector: string): PageElement | null; activeElement: PageElement | null };
  requestAnimationFrame(callback: (timestamp: number) => void): number;
  performance: { now(): number };
  Event: new (type: string) => unknown;
  PerformanceObserver: new (
    callback: (list: { getEntries(): unknown[] }) => void,
  ) => { observe(options: { type: string; buffered: boolean }): void; disconnect(): void };
  MutationObserver: new (callback: () => void) => { observe(target: PageElement, options: { attributes: boolean; attributeFilter: string[] }): void };
  /** The component harness (test/renderer/harness), when the page is the harness. */
  harness: Harness;
  /** Scratch space a test keeps in the page. */
  seen: Map<string, number>;
}
