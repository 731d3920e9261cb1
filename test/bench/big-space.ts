/**
 * Issue 10's, 21's and 31's figures for one 20,000-page space (~3 KB a page, 20 ms latency): the
 * initial `quire sync --once` (time, peak RSS, three runs), a `sync --once` with nothing to do
 * (CPU, peak RSS), and beside such a no-op, in turn five times each, one that pushes one local
 * edit and the first 120 s of a continuous `quire sync --interval 5` (CPU, as ratios of the
 * no-op's), then what that continuous sync costs idle, in three 20 s windows after its start-up.
 * Each is the bundled CLI's own process.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeApi, startFakeApi } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, type CliRun, cycleRequests, median, megabytes, runCli, runsOf, seconds, spread, startCli, syncOnceArgs } from './cli-process';
import { latencyFloorMs } from './many-spaces';

const PAGES = 20_000;
const RUNS = 3;
const IDLE_WINDOW_MS = 20_000;
const IDLE_WINDOWS = 3;
/** How long the continuous sync's start-up is given to settle before idle is measured. */
const SETTLE_MS = 120_000;
const INTERVAL_S = 5;
const cpu = (v: number) => `${v.toFixed(0)} ms`;
const TARGET = { initialRssMb: 150, noopCpuMs: 600, noopRssMb: 100, editRatio: 1.5, startupRatio: 2, idleCpuMs: 200 };
/** Each ratio's pairs: the measured run right after a no-op sync --once, in turn. */
const PAIRS = 5;
const x = (v: number) => `${v.toFixed(2)}x`;

/** Page files at the top of the space folder (README.md and SUMMARY.md aside), to edit one by one. */
function pageFiles(dir: string): string[] {
  const space = readdirSync(dir).find((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory());
  if (!space) throw new Error(`no space folder in ${dir}`);
  return readdirSync(join(dir, space))
    .filter((name) => name.endsWith('.md') && name !== 'README.md' && name !== 'SUMMARY.md')
    .sort()
    .map((name) => join(dir, space, name));
}

const isSpaceList = (path: string) => /^\/v1\/orgs\/[^/]+\/spaces$/.test(path);

/** Resolves once `test` holds, looking every 50 ms; rejects after `ms`. */
async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!test()) {
    if (performance.now() > deadline) throw new Error(`benchmark step timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Continuous sync left alone, with `idleWindows` windows of idle after its start-up. Its start is
 * work, not idle: the watcher lists every folder and watches each, then one cycle over
 * everything looks at all 20,000 files. So the start-up's CPU is its own figure, from the spawn
 * to SETTLE_MS later; idle is what each of the next windows of 20 s costs after it.
 */
async function continuous(
  fake: FakeApi,
  dir: string,
  idleWindows: number,
): Promise<{ startupCpuMs: number; cpuMs: number[]; cycles: number; requests: number }> {
  const started = performance.now();
  const live = startCli(fake, ['sync', '--api', fake.url, '--dir', dir, '--interval', String(INTERVAL_S)]);
  try {
    const cycles = () => fake.requests.filter((r) => isSpaceList(r.path)).length;
    await until(() => cycles() >= 3, 300_000, 'continuous sync to start');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SETTLE_MS - (performance.now() - started))));
    const startupCpuMs = live.cpuMs();
    const before = { cycles: cycles(), requests: fake.requests.length };
    const cpuMs: number[] = [];
    for (let i = 0; i < idleWindows; i++) {
      const at = live.cpuMs();
      await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
      cpuMs.push(live.cpuMs() - at);
    }
    const windows = Math.max(1, idleWindows);
    return { startupCpuMs, cpuMs, cycles: (cycles() - before.cycles) / windows, requests: (fake.requests.length - before.requests) / windows };
  } finally {
    await live.stop();
  }
}

/** `measure` and a no-op `sync --once` in turn, `times` each (no-op first): both, and the ratio of each pair. */
async function besideNoop<T>(times: number, fake: FakeApi, dir: string, measure: () => Promise<T>, cpuOf: (t: T) => number) {
  const noop: CliRun[] = [];
  const runs: T[] = [];
  for (let i = 0; i < times; i++) {
    noop.push(await runCli(fake, syncOnceArgs(fake, dir)));
    runs.push(await measure());
  }
  return { noop, runs, ratios: runs.map((r, i) => cpuOf(r) / noop[i]!.cpuMs) };
}

export async function benchBigSpace(): Promise<Record<string, string | number>> {
  const fake = await startFakeApi({ latencyMs: 20 });
  const dirs: string[] = [];
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    generateSpace(fake.store, org.id, { pages: PAGES, bytesPerPage: 3000, seed: 20 });
    const initial = await runsOf(
      RUNS,
      (r: CliRun) => r.maxRssMb,
      () => {
        dirs.push(mkdtempSync(join(tmpdir(), 'quire-bench-big-')));
        return runCli(fake, syncOnceArgs(fake, dirs.at(-1)!));
      },
    );
    const dir = dirs.at(-1)!;
    const files = pageFiles(dir);
    let edits = 0;
    const edit = await besideNoop(
      PAIRS,
      fake,
      dir,
      async () => {
        appendFileSync(files[edits++ % files.length]!, `\nEdited for the benchmark (${edits}).\n`);
        const run = await runCli(fake, syncOnceArgs(fake, dir));
        if (!/1 page pushed/.test(run.stdout)) throw new Error(`the edit was not pushed: ${run.stdout}`);
        return run;
      },
      (r) => r.cpuMs,
    );
    let left = PAIRS;
    const started = await besideNoop(
      PAIRS,
      fake,
      dir,
      () => continuous(fake, dir, --left === 0 ? IDLE_WINDOWS : 0),
      (r) => r.startupCpuMs,
    );
    const noopRuns = [...edit.noop, ...started.noop];
    const noopCpu = noopRuns.map((r) => r.cpuMs);
    const noopRss = noopRuns.map((r) => r.maxRssMb);
    const noop = noopRuns.find((r) => r.cpuMs === median(noopCpu)) ?? noopRuns[0]!;
    const idle = started.runs.at(-1)!;
    const run = initial.median;
    return {
      '20,000 pages: initial sync time (the median run by memory)': seconds(run.ms),
      '20,000 pages: initial sync requests, time / latency floor': `${run.requests}, ${(run.ms / latencyFloorMs(run)).toFixed(2)}x`,
      [`20,000 pages: initial sync peak RSS (target <= ${TARGET.initialRssMb} MB)`]: against(
        spread(initial.values, megabytes),
        median(initial.values) <= TARGET.initialRssMb,
      ),
      [`20,000 pages: no-op sync --once CPU (target <= ${TARGET.noopCpuMs} ms)`]: against(spread(noopCpu, cpu), median(noopCpu) <= TARGET.noopCpuMs),
      [`20,000 pages: no-op sync --once peak RSS, the same runs (target <= ${TARGET.noopRssMb} MB)`]: against(
        spread(noopRss, megabytes),
        median(noopRss) <= TARGET.noopRssMb,
      ),
      "20,000 pages: no-op sync --once wall time, the sync's requests": `${noop.ms.toFixed(0)} ms, ${cycleRequests(noop)}`,
      '20,000 pages: one local edit pushed, CPU': spread(
        edit.runs.map((r) => r.cpuMs),
        cpu,
      ),
      [`20,000 pages: one local edit pushed / the no-op sync --once before it, CPU (target <= ${TARGET.editRatio}x)`]: against(
        spread(edit.ratios, x),
        median(edit.ratios) <= TARGET.editRatio,
      ),
      '20,000 pages: one local edit pushed, wall time, requests, peak RSS': `${edit.runs[0]!.ms.toFixed(0)} ms, ${edit.runs[0]!.requests}, ${megabytes(edit.runs[0]!.maxRssMb)}`,
      [`20,000 pages: sync --interval ${INTERVAL_S} start-up, CPU of its first ${SETTLE_MS / 1000} s`]: spread(
        started.runs.map((r) => r.startupCpuMs),
        cpu,
      ),
      [`20,000 pages: sync --interval ${INTERVAL_S} start-up / the no-op sync --once before it, CPU (target <= ${TARGET.startupRatio}x)`]: against(
        spread(started.ratios, x),
        median(started.ratios) <= TARGET.startupRatio,
      ),
      [`20,000 pages: idle sync --interval ${INTERVAL_S}, CPU per ${IDLE_WINDOW_MS / 1000} s after its start-up (target <= ${TARGET.idleCpuMs} ms)`]: against(
        spread(idle.cpuMs, cpu),
        median(idle.cpuMs) <= TARGET.idleCpuMs,
      ),
      [`20,000 pages: idle sync, cycles and requests per ${IDLE_WINDOW_MS / 1000} s`]: `${idle.cycles.toFixed(1)}, ${idle.requests.toFixed(1)}`,
    };
  } finally {
    await fake.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
