/**
 * Issue 31, target 1: the first `quire sync --once` set against the simplest client that does the
 * same job (simple-client.cjs: keep-alive, 8 in flight, each page's markdown to a file of its own,
 * nothing else), both as whole processes against the same fake at 20 ms latency, in turn (Quire,
 * client, Quire, client…) so a busy moment slows both: the ratio of each pair, its median and spread,
 * of their wall times (the measure, against its target) and of the CPU each used (shown
 * beside it, steadier on a busy machine).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeApi, startFakeApi } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, type CliRun, median, runCli, runScript, seconds, spread, syncOnceArgs } from './cli-process';

const SIMPLE_CLIENT = fileURLToPath(new URL('./simple-client.cjs', import.meta.url));
const LATENCY_MS = 20;
const RUNS = 5;
const TARGET = 1.15;

const x = (v: number) => `${v.toFixed(2)}x`;

/** RUNS pairs, each a first pull by Quire then by the simplest client, each into a fresh folder. */
async function pairs(fake: FakeApi, spaceIds: string[]): Promise<{ quire: CliRun[]; simple: CliRun[] }> {
  const quire: CliRun[] = [];
  const simple: CliRun[] = [];
  const fresh = () => mkdtempSync(join(tmpdir(), 'quire-bench-simplest-'));
  for (let i = 0; i < RUNS; i++) {
    const [a, b] = [fresh(), fresh()];
    try {
      quire.push(await runCli(fake, syncOnceArgs(fake, a)));
      const run = await runScript(fake, SIMPLE_CLIENT, [fake.url, b, ...spaceIds]);
      if (!run.stdout.startsWith(`${pageCount(fake, spaceIds)} pages`)) throw new Error(`the simplest client did not fetch every page: ${run.stdout}`);
      simple.push(run);
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  }
  return { quire, simple };
}

const pageCount = (fake: FakeApi, spaceIds: string[]) =>
  spaceIds.reduce((n, id) => n + [...fake.store.currentRevision(id).pages.values()].filter((p) => p.type === 'document').length, 0);

async function againstSimplest(name: string, spaces: number, pagesEach: number): Promise<Record<string, string>> {
  const fake = await startFakeApi({ latencyMs: LATENCY_MS });
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    const ids: string[] = [];
    for (let i = 0; i < spaces; i++)
      ids.push(generateSpace(fake.store, org.id, { pages: pagesEach, bytesPerPage: 3000, seed: i + 7, title: `Space ${i + 1}` }).id);
    const { quire, simple } = await pairs(fake, ids);
    const ratios = quire.map((q, i) => q.ms / simple[i]!.ms);
    // CPU (user and system, every thread) too: on a busy machine wall times measure the queue for
    // the cores as much as the work, where the CPU each process used does not.
    const cpuRatios = quire.map((q, i) => q.cpuMs / simple[i]!.cpuMs);
    const cpu = (runs: CliRun[]) =>
      spread(
        runs.map((r) => r.cpuMs / 1000),
        (v) => `${v.toFixed(2)} s`,
      );
    return {
      [`${name}: Quire's first pull, whole process`]: `${spread(
        quire.map((r) => r.ms),
        seconds,
      )}, CPU ${cpu(quire)}`,
      [`${name}: the simplest client's, whole process`]: `${spread(
        simple.map((r) => r.ms),
        seconds,
      )}, CPU ${cpu(simple)}`,
      [`${name}: Quire / simplest client, wall time, each pair in turn (target <= ${TARGET}x)`]: against(spread(ratios, x), median(ratios) <= TARGET),
      // The measure is the wall time: the CPU is shown beside it, with no target (Quire also
      // keeps the mirror, the search index and the pages' history, which the simplest client does not).
      [`${name}: Quire / simplest client, CPU time, the same pairs (no target)`]: spread(cpuRatios, x),
    };
  } finally {
    await fake.close();
  }
}

export async function benchSimplestClient(): Promise<Record<string, string>> {
  return { ...(await againstSimplest('1 x 2,000 pages', 1, 2000)), ...(await againstSimplest('200 x 10 pages', 200, 10)) };
}
