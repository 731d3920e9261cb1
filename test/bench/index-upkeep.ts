/**
 * Issue 13's figure for keeping the search index current: the initial pull of a 2,000-page
 * space (~3 KB a page, 20 ms latency) run by the engine in this process, with the index kept as
 * always and with page indexing switched off (for this measure only), in pairs back to back; the
 * fake answers from a process of its own. The median of the pairs' differences is what the index adds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../src/main/core/api';
import { Mirror } from '../../src/main/core/mirror';
import { SearchIndex } from '../../src/main/core/mirror/search';
import { SyncEngine } from '../../src/main/core/sync';
import { against, median } from './cli-process';

const PAGES = 2000;
const RUNS = 5;
const TARGET = 0.1;
const SERVER = fileURLToPath(new URL('./fake-server.ts', import.meta.url));

async function startServer(): Promise<{ child: ChildProcess; url: string; token: string; spaceId: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], { env: { ...process.env, PAGES: String(PAGES) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the fake API exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { child, ...(JSON.parse(first) as { url: string; token: string; spaceId: string }) };
}

async function pull(server: { url: string; token: string; spaceId: string }): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'quire-bench-index-'));
  const mirror = Mirror.open(root);
  try {
    const api = new ApiClient({ baseUrl: server.url, token: server.token });
    const started = performance.now();
    await new SyncEngine({ api, mirror, root, spaces: { ids: [server.spaceId] } }).runCycle();
    return performance.now() - started;
  } finally {
    mirror.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchIndexUpkeep(): Promise<Record<string, string | number>> {
  const server = await startServer();
  const indexPage = SearchIndex.prototype.indexPage;
  const withIndex: number[] = [];
  const without: number[] = [];
  try {
    await pull(server); // warm up: code compiled, the fake's caches filled
    for (let i = 0; i < RUNS; i++) {
      withIndex.push(await pull(server));
      SearchIndex.prototype.indexPage = () => undefined;
      try {
        without.push(await pull(server));
      } finally {
        SearchIndex.prototype.indexPage = indexPage;
      }
    }
  } finally {
    server.child.kill();
  }
  const a = median(withIndex);
  const b = median(without);
  // Each pair ran back to back: the median of the pairs' differences is steadier than the difference of the medians.
  const share = median(withIndex.map((t, i) => (t - without[i]!) / without[i]!));
  return {
    [`initial pull of ${PAGES.toLocaleString('en')} pages, index kept (median of ${RUNS})`]: `${(a / 1000).toFixed(2)} s`,
    [`initial pull of ${PAGES.toLocaleString('en')} pages, pages not indexed (median of ${RUNS})`]: `${(b / 1000).toFixed(2)} s`,
    [`keeping the index current adds (target < ${TARGET * 100}%)`]: against(`${(share * 100).toFixed(1)}%`, share < TARGET),
  };
}
