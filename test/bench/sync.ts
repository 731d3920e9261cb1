import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeApi, type FakeApi, type FakeApiOptions } from '../fake';
import { generateSpace } from '../fake/seed';

const REPORT_USAGE = fileURLToPath(new URL('./report-usage.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../../out/cli/quire.mjs', import.meta.url));
const PAGES = 2000;
const CONCURRENCY = 8;

interface Run {
  /** Wall time of the whole CLI process, start-up included. */
  ms: number;
  requests: number;
  throttled: number;
  maxRssMb: number;
  code: number;
}

/** Runs `quire sync --once` as its own process against the fake and counts what it cost. */
async function syncOnce(fake: FakeApi, dir: string): Promise<Run> {
  fake.resetLog();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', REPORT_USAGE, CLI, 'sync', '--api', fake.url, '--dir', dir, '--once'], {
    env: { ...process.env, QUIRE_TOKEN: fake.token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  const ms = performance.now() - started;
  const statsLine = /QUIRE_BENCH (.*)/.exec(stderr);
  if (code !== 0 || !statsLine) throw new Error(`sync exited ${code}: ${stderr.slice(-2000)}`);
  const stats = JSON.parse(statsLine[1]!) as { maxRssMb: number };
  return {
    ms,
    requests: fake.requests.length,
    throttled: fake.requests.filter((r) => r.status === 429).length,
    maxRssMb: stats.maxRssMb,
    code,
  };
}

async function regime(name: string, options: FakeApiOptions, floorMs: (requests: number) => number, floorLabel: string) {
  const fake = await startFakeApi(options);
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    const space = generateSpace(fake.store, org.id, { pages: PAGES, bytesPerPage: 3000, seed: 7 });
    const initial = await syncOnce(fake, dir);
    const needed = initial.requests - initial.throttled;
    const floor = floorMs(needed);

    const pageIds = [...fake.store.currentRevision(space.id).pages.values()].filter((p) => p.type === 'document').map((p) => p.id);
    fake.store.editPage(space.id, pageIds[Math.floor(pageIds.length / 2)]!, { markdown: 'One remote change.\n' });
    const incremental = await syncOnce(fake, dir);

    return {
      [`${name}: initial sync time`]: `${(initial.ms / 1000).toFixed(2)} s`,
      [`${name}: requests`]: initial.requests,
      [`${name}: 429 answers`]: initial.throttled,
      [`${name}: floor (${floorLabel})`]: `${(floor / 1000).toFixed(2)} s`,
      [`${name}: time / floor`]: `${(initial.ms / floor).toFixed(2)}x`,
      [`${name}: peak RSS of the sync process`]: `${initial.maxRssMb.toFixed(0)} MB`,
      [`${name}: incremental sync requests`]: incremental.requests,
      [`${name}: incremental sync time (whole process)`]: `${incremental.ms.toFixed(0)} ms`,
    };
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wall time of a CLI process that does nothing but start and exit: the part of every figure that is not sync. */
async function startupMs(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, '--help'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return performance.now() - started;
}

/** Issue 2's figures: initial and incremental `quire sync --once` of a 2,000-page space in two regimes. */
export async function benchSync(): Promise<Record<string, string | number>> {
  const latency = await regime('a) 20 ms latency', { latencyMs: 20 }, (n) => (n * 20) / CONCURRENCY, `requests x 20 ms / ${CONCURRENCY}`);
  const limited = await regime('b) 100 req / 2 s limit', { rateLimit: { limit: 100, windowMs: 2000 } }, (n) => (n / 100) * 2000, 'requests / rate');
  const startup = await startupMs();
  return { ...latency, ...limited, 'CLI process start-up alone (included in the times above)': `${startup.toFixed(0)} ms` };
}
