/**
 * Issue 2's figures (targets from issues 10 and 21): initial and incremental `quire sync --once`
 * of a 2,000-page space, under 20 ms latency, under a binding rate limit, and (a figure only)
 * under 150 ms latency, what a desktop far from the API sees. The initial sync is set against
 * the least any client needs: the same requests from a bare HTTP client, right after each run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApi, type FakeApi, type FakeApiOptions } from '../fake';
import { generateSpace } from '../fake/seed';
import {
  against,
  CLI,
  CLI_NODE_FLAGS,
  cliEnv,
  type CliRun,
  cycleRequests,
  initialAgainstBare,
  type PairedRun,
  runCli,
  runsOf,
  spread,
  syncOnceArgs,
} from './cli-process';

const PAGES = 2000;
const WINDOW_MS = 2000;
const CONCURRENCY = 8;
const RUNS = 3;
const INCREMENTAL_RUNS = 5;
const TARGET = { bareRatio: 1.15, incrementalRequests: 3, incrementalMs: 400 };

const x = (v: number) => `${v.toFixed(2)}x`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ms = (v: number) => `${v.toFixed(0)} ms`;

interface Regime {
  name: string;
  options: FakeApiOptions;
  /** The least time the requests a run needed can take here. */
  floorMs: (requests: number) => number;
  floorLabel: string;
  /** The initial sync's target, and whether a run meets it. */
  target?: { label: string; meets: (paired: PairedRun[]) => { shown: string; ok: boolean } };
  /** Also time one remote change synced. */
  incremental: boolean;
  /** Set each run against the bare client's replay of its requests. */
  bare: boolean;
}

async function regime(r: Regime): Promise<Record<string, string | number>> {
  const fake = await startFakeApi(r.options);
  const dirs: string[] = [];
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    const space = generateSpace(fake.store, org.id, { pages: PAGES, bytesPerPage: 3000, seed: 7 });
    const floorOf = (run: CliRun) => r.floorMs(run.requests - run.throttled);
    const paired: PairedRun[] = [];
    const initial = await runsOf(
      RUNS,
      (p: PairedRun) => p.run.ms,
      async () => {
        const p = r.bare ? await initialAgainstBare(fake, dirs, 'quire-bench-') : await initialOnly(fake, dirs);
        paired.push(p);
        return p;
      },
    );
    const run = initial.median.run;
    const figures: Record<string, string | number> = {
      [`${r.name}: initial sync time`]: spread(initial.values, s),
      [`${r.name}: requests, 429 answers (target 0)`]: against(`${run.requests}, ${run.throttled}`, run.throttled === 0),
      [`${r.name}: floor (${r.floorLabel})`]: s(floorOf(run)),
      [`${r.name}: time / floor`]: spread(
        paired.map((p) => p.run.ms / floorOf(p.run)),
        x,
      ),
    };
    if (r.bare) {
      figures[`${r.name}: the same requests from a bare HTTP client (keep-alive, 8 in flight, each answer to a file), right after each run`] = spread(
        paired.map((p) => p.bareMs),
        s,
      );
    }
    if (r.target) {
      const { shown, ok } = r.target.meets(paired);
      figures[`${r.name}: ${r.target.label}`] = against(shown, ok);
    }
    figures[`${r.name}: peak RSS of the sync process`] = spread(
      paired.map((p) => p.run.maxRssMb),
      (v) => `${v.toFixed(0)} MB`,
    );
    if (r.incremental) Object.assign(figures, await incremental(r, fake, space.id, dirs.at(-1)!));
    return figures;
  } finally {
    await fake.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** An initial sync alone (no bare client beside it). */
async function initialOnly(fake: FakeApi, dirs: string[]): Promise<PairedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  dirs.push(dir);
  return { run: await runCli(fake, syncOnceArgs(fake, dir)), bareMs: Number.NaN, ratio: Number.NaN };
}

/** One page changed on the server, synced: its requests (the cycle's own, and with the review refresh `sync --once` ends with) and time. */
async function incremental(r: Regime, fake: FakeApi, spaceId: string, dir: string): Promise<Record<string, string | number>> {
  const pageIds = [...fake.store.currentRevision(spaceId).pages.values()].filter((p) => p.type === 'document').map((p) => p.id);
  let edits = 0;
  const runs = await runsOf(
    INCREMENTAL_RUNS,
    (run: CliRun) => run.ms,
    () => {
      fake.store.editPage(spaceId, pageIds[Math.floor(pageIds.length / 2) + edits]!, { markdown: `One remote change (${++edits}).\n` });
      return runCli(fake, syncOnceArgs(fake, dir));
    },
  );
  const sync = cycleRequests(runs.median);
  return {
    [`${r.name}: one remote change, the sync's requests (target <= ${TARGET.incrementalRequests})`]: against(String(sync), sync <= TARGET.incrementalRequests),
    [`${r.name}: one remote change, all requests of sync --once (with the review refresh it ends with)`]: runs.median.requests,
    [`${r.name}: one remote change, whole process, wall (target <= ${TARGET.incrementalMs} ms)`]: against(
      spread(runs.values, ms),
      median(runs.values) <= TARGET.incrementalMs,
    ),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Wall time of a CLI process that does nothing but start and exit: the part of every figure that is not sync. */
async function startupMs(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, '--help'], { env: cliEnv(process.env), stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return performance.now() - started;
}

/** Quire over the bare client, each pair run back to back: the median pair, and the spread. */
const againstBare = (paired: PairedRun[]) => {
  const ratios = paired.map((p) => p.ratio);
  return { shown: spread(ratios, x), ok: median(ratios) <= TARGET.bareRatio };
};

export async function benchSync(): Promise<Record<string, string | number>> {
  const latency = await regime({
    name: 'a) 20 ms latency',
    options: { latencyMs: 20 },
    floorMs: (n) => (n * 20) / CONCURRENCY,
    floorLabel: `requests x 20 ms / ${CONCURRENCY}`,
    target: { label: `Quire / bare client, each run beside its own (target <= ${TARGET.bareRatio}x)`, meets: againstBare },
    incremental: true,
    bare: true,
  });
  // The window floor: the requests at the limit's rate; a run may end inside the window after it.
  const limited = await regime({
    name: 'b) 100 req / 2 s limit',
    options: { rateLimit: { limit: 100, windowMs: WINDOW_MS } },
    floorMs: (n) => (n / 100) * WINDOW_MS,
    floorLabel: 'requests / rate',
    target: {
      label: 'time within the window floor, one window of slack',
      meets: (paired) => {
        const over = paired.map((p) => p.run.ms - ((p.run.requests - p.run.throttled) / 100) * WINDOW_MS);
        return { shown: `${spread(over, ms)} over the floor`, ok: median(over) <= WINDOW_MS };
      },
    },
    incremental: true,
    bare: false,
  });
  const far = await regime({
    name: 'c) 150 ms latency (a figure only)',
    options: { latencyMs: 150 },
    floorMs: (n) => (n * 150) / CONCURRENCY,
    floorLabel: `requests x 150 ms / ${CONCURRENCY}`,
    incremental: false,
    bare: false,
  });
  const startup = await startupMs();
  return { ...latency, ...limited, ...far, 'CLI process start-up alone (--help; included in the times above)': `${startup.toFixed(0)} ms` };
}
