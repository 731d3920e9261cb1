/**
 * Issue 3's figures: how fast continuous mode records and pushes a save, and what pushing
 * 100 edited pages costs, against the fake with 20 ms latency per request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/main/core/api';
import { Mirror } from '../../src/main/core/mirror';
import { ContinuousSync } from '../../src/main/core/sync/continuous';
import { SyncEngine, type CycleReport } from '../../src/main/core/sync/engine';
import { startFakeApi, type FakeApi } from '../fake';

const LATENCY_MS = 20;
const SAVES = 15;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function pages(n: number) {
  return Array.from({ length: n }, (_, i) => ({ title: `Page ${i}`, markdown: `Body of page ${i}.\n\n${'Some text. '.repeat(20)}\n` }));
}

/** Waits for `test` to hold, re-checking on every `poke`; rejects after `ms`. */
function waiter() {
  let checks: (() => void)[] = [];
  return {
    poke: () => {
      for (const c of [...checks]) c();
    },
    until(test: () => boolean, ms = 20_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('benchmark step timed out')), ms);
        const check = () => {
          if (!test()) return;
          clearTimeout(timer);
          checks = checks.filter((c) => c !== check);
          resolve();
        };
        checks.push(check);
        check();
      });
    },
  };
}

async function continuousLatency(fake: FakeApi): Promise<{ recordedMedian: number; recordedMax: number; pushedMedian: number; pushedMax: number }> {
  const org = fake.store.addOrg({ title: 'Bench' });
  const space = fake.store.addSpace(org.id, { title: 'Live', pages: pages(20) });
  const root = mkdtempSync(join(tmpdir(), 'quire-bench-live-'));
  const mirror = Mirror.open(root);
  const abort = new AbortController();
  const api = new ApiClient({ baseUrl: fake.url, token: fake.token, signal: abort.signal });
  const engine = new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] }, signal: abort.signal });
  const w = waiter();
  const recordedAt = new Map<string, number>();
  let pushedChanges = 0;
  let lastPushAt = 0;
  const sync = new ContinuousSync({
    mirror,
    root,
    runCycle: () => engine.runCycle(),
    intervalMs: 60_000,
    signal: abort.signal,
    onRecorded: (e) => {
      if (!recordedAt.has(e.path)) recordedAt.set(e.path, performance.now());
      w.poke();
    },
    onReport: (r: CycleReport) => {
      const n = r.spaces.reduce((sum, s) => sum + (s.push?.changes ?? 0), 0);
      if (n > 0) {
        pushedChanges += n;
        lastPushAt = performance.now();
      }
      w.poke();
    },
  });
  try {
    await sync.start();
    const recorded: number[] = [];
    const pushed: number[] = [];
    for (let i = 0; i < SAVES; i++) {
      const rel = `live/page-${1 + (i % 19)}.md`;
      recordedAt.delete(rel);
      const before = pushedChanges;
      writeFileSync(join(root, rel), `# Page ${1 + (i % 19)}\n\nSave ${i} at ${Date.now()}.\n`);
      const savedAt = performance.now();
      await w.until(() => recordedAt.has(rel));
      recorded.push(recordedAt.get(rel)! - savedAt);
      await w.until(() => pushedChanges > before);
      pushed.push(lastPushAt - savedAt);
    }
    return { recordedMedian: median(recorded), recordedMax: Math.max(...recorded), pushedMedian: median(pushed), pushedMax: Math.max(...pushed) };
  } finally {
    abort.abort();
    await sync.stop();
    mirror.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function push100(fake: FakeApi): Promise<{ creates: number; batches: number; requests: number; ms: number }> {
  const org = fake.store.addOrg({ title: 'Bench 100' });
  const space = fake.store.addSpace(org.id, { title: 'Hundred', pages: pages(100) });
  const root = mkdtempSync(join(tmpdir(), 'quire-bench-100-'));
  const mirror = Mirror.open(root);
  try {
    const api = new ApiClient({ baseUrl: fake.url, token: fake.token });
    const engine = new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] } });
    await engine.runCycle();
    for (let i = 0; i < 100; i++) {
      const rel = i === 0 ? 'hundred/README.md' : `hundred/page-${i}.md`;
      writeFileSync(join(root, rel), `# Page ${i}\n\nEdited body of page ${i}.\n`);
    }
    fake.resetLog();
    const started = performance.now();
    const report = await engine.runCycle();
    const ms = performance.now() - started;
    const pushed = report.spaces[0]?.push;
    if (pushed?.changes !== 100) throw new Error(`expected 100 pushed changes, got ${pushed?.changes}`);
    const posts = fake.requests.filter((r) => r.method === 'POST');
    return {
      creates: posts.filter((r) => /\/change-requests$/.test(r.path)).length,
      batches: posts.filter((r) => /\/change-requests\/[^/]+\/content$/.test(r.path)).length,
      requests: fake.requests.length,
      ms,
    };
  } finally {
    mirror.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchPush(): Promise<Record<string, string | number>> {
  const fake = await startFakeApi({ latencyMs: LATENCY_MS });
  try {
    const live = await continuousLatency(fake);
    const hundred = await push100(fake);
    return {
      [`continuous: save -> recorded, median of ${SAVES} (target < 300 ms)`]: `${live.recordedMedian.toFixed(0)} ms`,
      'continuous: save -> recorded, worst': `${live.recordedMax.toFixed(0)} ms`,
      [`continuous: save -> pushed, median (target < 2 s, ${LATENCY_MS} ms latency)`]: `${live.pushedMedian.toFixed(0)} ms`,
      'continuous: save -> pushed, worst': `${live.pushedMax.toFixed(0)} ms`,
      '100 edited pages: change-request creates (target <= 1)': hundred.creates,
      '100 edited pages: content batches (target <= 2)': hundred.batches,
      '100 edited pages: requests in the cycle': hundred.requests,
      [`100 edited pages: cycle time (target < 2 s, ${LATENCY_MS} ms latency)`]: `${hundred.ms.toFixed(0)} ms`,
    };
  } finally {
    await fake.close();
  }
}

// `npx tsx test/bench/push.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchPush();
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(width)}  ${v}`);
}
