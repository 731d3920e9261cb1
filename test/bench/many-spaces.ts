/**
 * Issue 10's and 21's figures for many small spaces: the initial `quire sync --once` of 200
 * spaces of 10 pages and of 50 spaces of 40 pages (~3 KB each) under 20 ms latency, set against
 * the same requests from a bare HTTP client right after each run (and against the latency floor:
 * the requests needed, 8 at a time), and a cycle with nothing to do over all of them.
 */
import { rmSync } from 'node:fs';
import { startFakeApi } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, type CliRun, cycleRequests, initialAgainstBare, median, type PairedRun, runCli, runsOf, seconds, spread, syncOnceArgs } from './cli-process';

const LATENCY_MS = 20;
const CONCURRENCY = 8;
const RUNS = 3;
const BARE_TARGET = 1.15;
const NOOP_REQUESTS_TARGET = 3;

/** The latency floor of a run: the requests it needed, `CONCURRENCY` at a time, each `LATENCY_MS`. */
export const latencyFloorMs = (run: CliRun): number => ((run.requests - run.throttled) * LATENCY_MS) / CONCURRENCY;

const x = (v: number) => `${v.toFixed(2)}x`;

async function spaces(count: number, pagesEach: number): Promise<Record<string, string | number>> {
  const fake = await startFakeApi({ latencyMs: LATENCY_MS });
  const dirs: string[] = [];
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    for (let i = 0; i < count; i++) generateSpace(fake.store, org.id, { pages: pagesEach, bytesPerPage: 3000, seed: i + 1, title: `Space ${i + 1}` });
    // Each initial sync into a fresh folder, the bare client right after it.
    const initial = await runsOf(
      RUNS,
      (p: PairedRun) => p.ratio,
      () => initialAgainstBare(fake, dirs, 'quire-bench-many-'),
    );
    const paired = initial.median;
    const ratios = initial.values;
    const noop = await runCli(fake, syncOnceArgs(fake, dirs.at(-1)!));
    const name = `${count} x ${pagesEach} pages`;
    const noopRequests = cycleRequests(noop);
    return {
      [`${name}: initial sync time (the median run by Quire / bare)`]: seconds(paired.run.ms),
      [`${name}: requests`]: paired.run.requests,
      [`${name}: the same requests from a bare HTTP client (keep-alive, 8 in flight, each answer to a file)`]: seconds(paired.bareMs),
      [`${name}: Quire / bare client, each run beside its own (target <= ${BARE_TARGET}x)`]: against(spread(ratios, x), median(ratios) <= BARE_TARGET),
      [`${name}: time / floor (requests x ${LATENCY_MS} ms / ${CONCURRENCY}), Quire and bare`]: `${x(paired.run.ms / latencyFloorMs(paired.run))}, ${x(paired.bareMs / latencyFloorMs(paired.run))}`,
      [`${name}: peak RSS of the sync process`]: `${paired.run.maxRssMb.toFixed(0)} MB`,
      [`${name}: no-op cycle over all spaces, the sync's requests (target <= ${NOOP_REQUESTS_TARGET})`]: against(
        String(noopRequests),
        noopRequests <= NOOP_REQUESTS_TARGET,
      ),
      [`${name}: no-op sync --once, all requests (with the review refresh it ends with), whole process`]: `${noop.requests}, ${noop.ms.toFixed(0)} ms, ${noop.cpuMs.toFixed(0)} ms CPU`,
    };
  } finally {
    await fake.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchManySpaces(): Promise<Record<string, string | number>> {
  return { ...(await spaces(200, 10)), ...(await spaces(50, 40)) };
}
