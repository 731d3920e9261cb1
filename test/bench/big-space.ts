/**
 * Issue 10's figures for one 20,000-page space (~3 KB a page, 20 ms latency), seeded once and
 * synced into one folder: the initial `quire sync --once` (time, peak RSS), a `sync --once`
 * with nothing to do (CPU, peak RSS), one that pushes one local edit (CPU), and a continuous
 * `quire sync --interval 5` left idle (CPU over 20 s). Each is the bundled CLI's own process.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeApi, startFakeApi } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, type CliRun, megabytes, medianOf, runCli, seconds, startCli, syncOnceArgs } from './cli-process';
import { latencyFloorMs } from './many-spaces';

const PAGES = 20_000;
const RUNS = 3;
const IDLE_WINDOW_MS = 20_000;
const INTERVAL_S = 5;
const TARGET = { initialRssMb: 150, noopCpuMs: 1000, noopRssMb: 120, editCpuMs: 1500, idleCpuMs: 1000 };

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
 * Continuous sync left alone: once it has started (its first cycle, the watcher, the cycle over
 * everything after it) and a timer cycle has begun, the CPU it uses in the next 20 s.
 */
async function idleContinuous(fake: FakeApi, dir: string): Promise<{ cpuMs: number; cycles: number; requests: number }> {
  const live = startCli(fake, ['sync', '--api', fake.url, '--dir', dir, '--interval', String(INTERVAL_S)]);
  try {
    const cycles = () => fake.requests.filter((r) => isSpaceList(r.path)).length;
    await until(() => cycles() >= 3, 300_000, 'continuous sync to start');
    const before = { cpu: live.cpuMs(), cycles: cycles(), requests: fake.requests.length };
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    return { cpuMs: live.cpuMs() - before.cpu, cycles: cycles() - before.cycles, requests: fake.requests.length - before.requests };
  } finally {
    await live.stop();
  }
}

export async function benchBigSpace(): Promise<Record<string, string | number>> {
  const fake = await startFakeApi({ latencyMs: 20 });
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-big-'));
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    generateSpace(fake.store, org.id, { pages: PAGES, bytesPerPage: 3000, seed: 20 });
    const initial = await runCli(fake, syncOnceArgs(fake, dir));
    const noop = await medianOf(
      RUNS,
      (r) => r.cpuMs,
      () => runCli(fake, syncOnceArgs(fake, dir)),
    );
    const files = pageFiles(dir);
    let edits = 0;
    const edit = await medianOf(
      RUNS,
      (r: CliRun) => r.cpuMs,
      async () => {
        appendFileSync(files[edits++ % files.length]!, `\nEdited for the benchmark (${edits}).\n`);
        const run = await runCli(fake, syncOnceArgs(fake, dir));
        if (!/1 change pushed/.test(run.stdout)) throw new Error(`the edit was not pushed: ${run.stdout}`);
        return run;
      },
    );
    const idle = await idleContinuous(fake, dir);
    const ratio = initial.ms / latencyFloorMs(initial);
    return {
      '20,000 pages: initial sync time': seconds(initial.ms),
      '20,000 pages: initial sync requests': initial.requests,
      '20,000 pages: initial sync time / latency floor': `${ratio.toFixed(2)}x`,
      [`20,000 pages: initial sync peak RSS (target <= ${TARGET.initialRssMb} MB)`]: against(
        megabytes(initial.maxRssMb),
        initial.maxRssMb <= TARGET.initialRssMb,
      ),
      [`20,000 pages: no-op sync --once CPU, median of ${RUNS} (target <= ${TARGET.noopCpuMs} ms)`]: against(
        `${noop.cpuMs.toFixed(0)} ms`,
        noop.cpuMs <= TARGET.noopCpuMs,
      ),
      [`20,000 pages: no-op sync --once peak RSS (target <= ${TARGET.noopRssMb} MB)`]: against(megabytes(noop.maxRssMb), noop.maxRssMb <= TARGET.noopRssMb),
      '20,000 pages: no-op sync --once wall time, requests': `${noop.ms.toFixed(0)} ms, ${noop.requests}`,
      [`20,000 pages: one local edit pushed, CPU, median of ${RUNS} (target <= ${TARGET.editCpuMs} ms)`]: against(
        `${edit.cpuMs.toFixed(0)} ms`,
        edit.cpuMs <= TARGET.editCpuMs,
      ),
      '20,000 pages: one local edit pushed, wall time, requests, peak RSS': `${edit.ms.toFixed(0)} ms, ${edit.requests}, ${megabytes(edit.maxRssMb)}`,
      [`20,000 pages: idle sync --interval ${INTERVAL_S}, CPU over ${IDLE_WINDOW_MS / 1000} s (target <= ${TARGET.idleCpuMs} ms)`]: against(
        `${idle.cpuMs.toFixed(0)} ms`,
        idle.cpuMs <= TARGET.idleCpuMs,
      ),
      [`20,000 pages: idle sync, cycles and requests in those ${IDLE_WINDOW_MS / 1000} s`]: `${idle.cycles}, ${idle.requests}`,
    };
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
