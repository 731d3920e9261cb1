/**
 * Issue 10's and 21's figures for one 20,000-page space (~3 KB a page, 20 ms latency): the initial
 * `quire sync --once` (time, peak RSS), a `sync --once` with nothing to do (CPU, peak RSS), one
 * that pushes one local edit (CPU), and a continuous `quire sync --interval 5` left idle (CPU in
 * each of three 20 s windows once its start-up has settled, and the start-up's own CPU). Each is
 * the bundled CLI's own process, run three times (the median is shown beside the target, with
 * the spread).
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
const TARGET = { initialRssMb: 150, noopCpuMs: 600, noopRssMb: 100, editCpuMs: 1500, idleCpuMs: 200 };

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
 * Continuous sync left alone. Its start is work, not idle: the first cycle looks at all 20,000
 * files, the watcher (chokidar) walks them and sets a watch on each, a cycle over everything
 * follows, and V8 then gives back what they left: its memory reducer runs three full collections
 * of a heap that chokidar's 20,000 watches make ~85 MB, at times from ~25 s to ~100 s after the
 * start (~0.5 s of CPU each, across V8's helper threads), then none while nothing changes. So the
 * start-up's CPU is its own figure, from the spawn to SETTLE_MS later; idle is what each of the
 * next IDLE_WINDOWS windows of 20 s costs after it.
 */
async function idleContinuous(fake: FakeApi, dir: string): Promise<{ startupCpuMs: number; cpuMs: number[]; cycles: number; requests: number }> {
  const started = performance.now();
  const live = startCli(fake, ['sync', '--api', fake.url, '--dir', dir, '--interval', String(INTERVAL_S)]);
  try {
    const cycles = () => fake.requests.filter((r) => isSpaceList(r.path)).length;
    await until(() => cycles() >= 3, 300_000, 'continuous sync to start');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SETTLE_MS - (performance.now() - started))));
    const startupCpuMs = live.cpuMs();
    const before = { cycles: cycles(), requests: fake.requests.length };
    const cpuMs: number[] = [];
    for (let i = 0; i < IDLE_WINDOWS; i++) {
      const at = live.cpuMs();
      await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
      cpuMs.push(live.cpuMs() - at);
    }
    return { startupCpuMs, cpuMs, cycles: (cycles() - before.cycles) / IDLE_WINDOWS, requests: (fake.requests.length - before.requests) / IDLE_WINDOWS };
  } finally {
    await live.stop();
  }
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
    const noop = await runsOf(
      RUNS,
      (r: CliRun) => r.cpuMs,
      () => runCli(fake, syncOnceArgs(fake, dir)),
    );
    const noopRss = noop.runs.map((r) => r.maxRssMb);
    const files = pageFiles(dir);
    let edits = 0;
    const edit = await runsOf(
      RUNS,
      (r: CliRun) => r.cpuMs,
      async () => {
        appendFileSync(files[edits++ % files.length]!, `\nEdited for the benchmark (${edits}).\n`);
        const run = await runCli(fake, syncOnceArgs(fake, dir));
        if (!/1 page pushed/.test(run.stdout)) throw new Error(`the edit was not pushed: ${run.stdout}`);
        return run;
      },
    );
    const idle = await idleContinuous(fake, dir);
    const run = initial.median;
    return {
      '20,000 pages: initial sync time (the median run by memory)': seconds(run.ms),
      '20,000 pages: initial sync requests, time / latency floor': `${run.requests}, ${(run.ms / latencyFloorMs(run)).toFixed(2)}x`,
      [`20,000 pages: initial sync peak RSS (target <= ${TARGET.initialRssMb} MB)`]: against(
        spread(initial.values, megabytes),
        median(initial.values) <= TARGET.initialRssMb,
      ),
      [`20,000 pages: no-op sync --once CPU (target <= ${TARGET.noopCpuMs} ms)`]: against(spread(noop.values, cpu), median(noop.values) <= TARGET.noopCpuMs),
      [`20,000 pages: no-op sync --once peak RSS, the same runs (target <= ${TARGET.noopRssMb} MB)`]: against(
        spread(noopRss, megabytes),
        median(noopRss) <= TARGET.noopRssMb,
      ),
      "20,000 pages: no-op sync --once wall time, the sync's requests": `${noop.median.ms.toFixed(0)} ms, ${cycleRequests(noop.median)}`,
      [`20,000 pages: one local edit pushed, CPU (target <= ${TARGET.editCpuMs} ms)`]: against(
        spread(edit.values, cpu),
        median(edit.values) <= TARGET.editCpuMs,
      ),
      '20,000 pages: one local edit pushed, wall time, requests, peak RSS': `${edit.median.ms.toFixed(0)} ms, ${edit.median.requests}, ${megabytes(edit.median.maxRssMb)}`,
      [`20,000 pages: idle sync --interval ${INTERVAL_S}, CPU per ${IDLE_WINDOW_MS / 1000} s (target <= ${TARGET.idleCpuMs} ms)`]: against(
        spread(idle.cpuMs, cpu),
        median(idle.cpuMs) <= TARGET.idleCpuMs,
      ),
      [`20,000 pages: idle sync, cycles and requests per ${IDLE_WINDOW_MS / 1000} s`]: `${idle.cycles.toFixed(1)}, ${idle.requests.toFixed(1)}`,
      [`20,000 pages: sync --interval ${INTERVAL_S} start-up, CPU of its first ${SETTLE_MS / 1000} s (before idle is measured)`]: cpu(idle.startupCpuMs),
    };
  } finally {
    await fake.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
