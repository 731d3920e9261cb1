/**
 * Issue 2's figures (targets from issue 10): initial and incremental `quire sync --once` of a
 * 2,000-page space, under 20 ms latency and under a binding rate limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApi, type FakeApiOptions } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, bareReplayMs, CLI, CLI_NODE_FLAGS, type CliRun, medianOf, runCli, syncOnceArgs } from './cli-process';
import { spawn } from 'node:child_process';

const PAGES = 2000;
const WINDOW_MS = 2000;
const CONCURRENCY = 8;
const TARGET = { floorRatio: 1.25, incrementalRequests: 3, incrementalMs: 500 };

interface Regime {
  name: string;
  options: FakeApiOptions;
  /** The least time the requests a run needed can take here. */
  floorMs: (requests: number) => number;
  floorLabel: string;
  /** Whether an initial sync's time meets the regime's target, and the target as shown. */
  meets: (run: CliRun, floorMs: number) => boolean;
  target: string;
  /** Runs of each figure (the median is reported): noisy figures are run more than once. */
  runs: number;
  /** Also time the initial sync's requests from a bare client (what the floor really allows here). */
  bareClient?: boolean;
}

async function regime(r: Regime) {
  const fake = await startFakeApi(r.options);
  const dirs: string[] = [];
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    const space = generateSpace(fake.store, org.id, { pages: PAGES, bytesPerPage: 3000, seed: 7 });
    const floorOf = (run: CliRun) => r.floorMs(run.requests - run.throttled);
    const initial = await medianOf(
      r.runs,
      (run) => run.ms / floorOf(run),
      () => {
        dirs.push(mkdtempSync(join(tmpdir(), 'quire-bench-')));
        return runCli(fake, syncOnceArgs(fake, dirs.at(-1)!));
      },
    );
    const floor = floorOf(initial);
    const bare = r.bareClient ? await bareReplayMs(fake, fake.requests.slice()) : null;

    const pageIds = [...fake.store.currentRevision(space.id).pages.values()].filter((p) => p.type === 'document').map((p) => p.id);
    let edits = 0;
    const incremental = await medianOf(
      r.runs,
      (run) => run.ms,
      () => {
        fake.store.editPage(space.id, pageIds[Math.floor(pageIds.length / 2) + edits]!, { markdown: `One remote change (${++edits}).\n` });
        return runCli(fake, syncOnceArgs(fake, dirs.at(-1)!));
      },
    );
    const runs = r.runs > 1 ? `, median of ${r.runs}` : '';
    return {
      [`${r.name}: initial sync time${runs}`]: `${(initial.ms / 1000).toFixed(2)} s`,
      [`${r.name}: requests`]: initial.requests,
      [`${r.name}: 429 answers (target 0)`]: against(String(initial.throttled), initial.throttled === 0),
      [`${r.name}: floor (${r.floorLabel})`]: `${(floor / 1000).toFixed(2)} s`,
      [`${r.name}: time / floor (target ${r.target})`]: against(`${(initial.ms / floor).toFixed(2)}x`, r.meets(initial, floor)),
      ...(bare !== null
        ? {
            [`${r.name}: the same requests from a bare HTTP client (8 at a time, nothing else)`]: `${(bare / 1000).toFixed(2)} s (${(bare / floor).toFixed(2)}x)`,
          }
        : {}),
      [`${r.name}: peak RSS of the sync process`]: `${initial.maxRssMb.toFixed(0)} MB`,
      [`${r.name}: incremental sync requests (target <= ${TARGET.incrementalRequests})`]: against(
        String(incremental.requests),
        incremental.requests <= TARGET.incrementalRequests,
      ),
      [`${r.name}: incremental sync time, whole process${runs} (target < ${TARGET.incrementalMs} ms)`]: against(
        `${incremental.ms.toFixed(0)} ms`,
        incremental.ms < TARGET.incrementalMs,
      ),
    };
  } finally {
    await fake.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Wall time of a CLI process that does nothing but start and exit: the part of every figure that is not sync. */
async function startupMs(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, '--help'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return performance.now() - started;
}

/** Issue 2's figures: initial and incremental `quire sync --once` of a 2,000-page space in two regimes. */
export async function benchSync(): Promise<Record<string, string | number>> {
  const latency = await regime({
    name: 'a) 20 ms latency',
    options: { latencyMs: 20 },
    floorMs: (n) => (n * 20) / CONCURRENCY,
    floorLabel: `requests x 20 ms / ${CONCURRENCY}`,
    meets: (run, floor) => run.ms <= floor * TARGET.floorRatio,
    target: `<= ${TARGET.floorRatio}x`,
    runs: 3,
    bareClient: true,
  });
  // The window floor: the requests at the limit's rate; a run may end inside the window after it.
  const limited = await regime({
    name: 'b) 100 req / 2 s limit',
    options: { rateLimit: { limit: 100, windowMs: WINDOW_MS } },
    floorMs: (n) => (n / 100) * WINDOW_MS,
    floorLabel: 'requests / rate',
    meets: (run, floor) => run.ms <= floor + WINDOW_MS,
    target: 'within the window floor, one window of slack',
    runs: 1,
  });
  const startup = await startupMs();
  return { ...latency, ...limited, 'CLI process start-up alone (included in the times above)': `${startup.toFixed(0)} ms` };
}
