/**
 * Issue 10, item 5: how soon the bundled CLI reaches the API. Spawns `quire sync --once`
 * into an empty folder against the fake and measures from the spawn to the first request
 * the fake receives (both clocks are this machine's wall clock).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApi, type FakeApi } from '../fake';
import { CLI, CLI_NODE_FLAGS } from './cli-process';
const RUNS = 11;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function toFirstRequest(fake: FakeApi): Promise<number> {
  fake.resetLog();
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-start-'));
  try {
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, 'sync', '--api', fake.url, '--dir', dir, '--once'], {
      env: { ...process.env, QUIRE_TOKEN: fake.token },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) throw new Error(`sync exited ${code}: ${stderr.slice(-2000)}`);
    const first = Math.min(...fake.requests.map((r) => r.at));
    return first - spawnedAt;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<Record<string, string | number>> {
  const fake = await startFakeApi();
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    fake.store.addSpace(org.id, { title: 'Start', pages: [{ title: 'Home', markdown: 'Hello.\n' }] });
    await toFirstRequest(fake); // warm the file cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await toFirstRequest(fake));
    return {
      [`sync --once: process start to first request (median of ${RUNS})`]: `${median(times).toFixed(0)} ms`,
      'sync --once: fastest / slowest': `${Math.min(...times).toFixed(0)} / ${Math.max(...times).toFixed(0)} ms`,
    };
  } finally {
    await fake.close();
  }
}
