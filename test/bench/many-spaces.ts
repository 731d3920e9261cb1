/**
 * Issue 10's figures for many small spaces: the initial `quire sync --once` of 200 spaces of 10
 * pages and of 50 spaces of 40 pages (~3 KB each) under 20 ms latency, against the latency floor
 * (the requests needed, 8 at a time), and a cycle with nothing to do over all of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApi } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, bareReplayMs, type CliRun, medianOf, runCli, seconds, syncOnceArgs } from './cli-process';

const LATENCY_MS = 20;
const CONCURRENCY = 8;
const RUNS = 3;
const FLOOR_TARGET = 1.25;
const NOOP_REQUESTS_TARGET = 3;

/** The latency floor of a run: the requests it needed, `CONCURRENCY` at a time, each `LATENCY_MS`. */
export const latencyFloorMs = (run: CliRun): number => ((run.requests - run.throttled) * LATENCY_MS) / CONCURRENCY;

async function spaces(count: number, pagesEach: number): Promise<Record<string, string | number>> {
  const fake = await startFakeApi({ latencyMs: LATENCY_MS });
  const dirs: string[] = [];
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    for (let i = 0; i < count; i++) generateSpace(fake.store, org.id, { pages: pagesEach, bytesPerPage: 3000, seed: i + 1, title: `Space ${i + 1}` });
    // Each initial sync into a fresh folder; the median run by time/floor is reported.
    const initial = await medianOf(
      RUNS,
      (r) => r.ms / latencyFloorMs(r),
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'quire-bench-many-'));
        dirs.push(dir);
        return runCli(fake, syncOnceArgs(fake, dir));
      },
    );
    const bare = await bareReplayMs(fake, fake.requests.slice());
    const noop = await runCli(fake, syncOnceArgs(fake, dirs.at(-1)!));
    const name = `${count} x ${pagesEach} pages`;
    const ratio = initial.ms / latencyFloorMs(initial);
    return {
      [`${name}: initial sync time (median of ${RUNS})`]: seconds(initial.ms),
      [`${name}: requests`]: initial.requests,
      [`${name}: floor (requests x ${LATENCY_MS} ms / ${CONCURRENCY})`]: seconds(latencyFloorMs(initial)),
      [`${name}: time / floor (target <= ${FLOOR_TARGET}x)`]: against(`${ratio.toFixed(2)}x`, ratio <= FLOOR_TARGET),
      [`${name}: the same requests from a bare HTTP client (8 at a time, nothing else)`]: `${seconds(bare)} (${(bare / latencyFloorMs(initial)).toFixed(2)}x)`,
      [`${name}: peak RSS of the sync process`]: `${initial.maxRssMb.toFixed(0)} MB`,
      [`${name}: no-op cycle over all spaces, requests (target <= ${NOOP_REQUESTS_TARGET})`]: against(
        String(noop.requests),
        noop.requests <= NOOP_REQUESTS_TARGET,
      ),
      [`${name}: no-op cycle, whole process`]: `${noop.ms.toFixed(0)} ms, ${noop.cpuMs.toFixed(0)} ms CPU`,
    };
  } finally {
    await fake.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchManySpaces(): Promise<Record<string, string | number>> {
  return { ...(await spaces(200, 10)), ...(await spaces(50, 40)) };
}
