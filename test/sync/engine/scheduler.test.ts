/**
 * ContinuousSync as the one scheduler (issue 10, item 1), with a recording stand-in for the
 * engine: what each cycle is told (`changed` paths or 'all'), debounce, pause and resume,
 * sync now, the safety net, a failed cycle, a graceful stop.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/core/mirror';
import { ContinuousSync } from '../../../src/main/core/sync/continuous';
import type { CycleReport, CycleRequest } from '../../../src/main/core/sync/engine';
import { tempDir } from '../../helpers/cli';

const EMPTY: CycleReport = { spaces: [], inSync: 0, conflicts: 0, held: 0, missing: 0, unreadable: 0, notPushed: 0, requests: 0, dryRun: false };

let root: string;
let mirror: Mirror;
let abort: AbortController;
let requests: CycleRequest[];
let recorded: string[];
let sync: ContinuousSync;
let clock: number;
let fail: Error | null;
let hold: Promise<void> | null;
const checks: (() => void)[] = [];
const poke = () => {
  for (const c of [...checks]) c();
};

/** Resolves once `test()` holds, re-checked on every cycle and record; rejects after 10 s with what was seen. */
function until(test: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out; cycles: ${JSON.stringify(requests)}, recorded: ${JSON.stringify(recorded)}`)), 10_000);
    const check = () => {
      if (!test()) return;
      clearTimeout(timer);
      checks.splice(checks.indexOf(check), 1);
      resolve();
    };
    checks.push(check);
    check();
  });
}

function start(options: { paused?: boolean; intervalMs?: number } = {}) {
  sync = new ContinuousSync({
    mirror,
    root,
    intervalMs: options.intervalMs ?? 60_000,
    paused: options.paused,
    debounceMs: 100,
    fullScanEveryMs: 60_000,
    now: () => clock,
    signal: abort.signal,
    runCycle: async (request) => {
      requests.push(request);
      poke();
      if (hold) await hold;
      if (fail) throw fail;
      return EMPTY;
    },
    onError: () => false,
    onRecorded: (e) => {
      recorded.push(e.path);
      poke();
    },
  });
  return sync.start();
}

beforeEach(() => {
  root = tempDir();
  mkdirSync(join(root, 'guide'));
  writeFileSync(join(root, 'guide/faq.md'), '# FAQ\n');
  mirror = Mirror.open(root);
  mirror.catalog.upsertOrganization({ id: 'org', title: 'Acme' }, {}, '2024-01-01T00:00:00Z');
  mirror.catalog.upsertSpace({ id: 'space', organization: 'org', title: 'Guide', revision: 'r1' }, {});
  mirror.catalog.setFolder('space', 'guide');
  abort = new AbortController();
  requests = [];
  recorded = [];
  clock = 1_000_000;
  fail = null;
  hold = null;
});
afterEach(async () => {
  abort.abort();
  await sync.stop();
  mirror.close();
});

it('tells the first cycle to look at everything, then each cycle the paths saved since the last, a burst as one cycle', async () => {
  await start();
  expect(requests).toEqual([{ changed: 'all' }]); // once the watch is set: what was saved before it, this cycle sees

  for (const name of ['faq.md', 'new.md', 'faq.md']) writeFileSync(join(root, 'guide', name), `# ${name} ${Date.now()}\n`);
  await until(() => requests.length === 2);
  expect(requests[1]).toEqual({ changed: ['guide/faq.md', 'guide/new.md'] });
  expect(
    mirror.outbox
      .localEdits('space')
      .map((e) => e.path)
      .sort(),
  ).toEqual(['faq.md', 'new.md']);
});

it('reports a folder that appears or goes away, and an edit outside any space, without recording those as page edits', async () => {
  await start();
  mkdirSync(join(root, 'guide/section'));
  writeFileSync(join(root, 'notes.txt'), 'outside');
  await until(() => requests.some((r) => r.changed !== 'all' && r.changed.includes('guide/section') && r.changed.includes('notes.txt')));
  expect(recorded).toEqual([]);
});

it('after a failed cycle, and at least every fullScanEveryMs, the next cycle looks at everything', async () => {
  await start();
  fail = new Error('offline');
  writeFileSync(join(root, 'guide/faq.md'), '# FAQ\n\nFirst.\n');
  await until(() => requests.length === 2);
  expect(requests[1]).toEqual({ changed: ['guide/faq.md'] });
  fail = null;
  await sync.syncNow();
  expect(requests[2]).toEqual({ changed: 'all' });

  await sync.syncNow();
  expect(requests[3]).toEqual({ changed: [] }); // the interval's poll: nothing changed here
  clock += 60_000;
  await sync.syncNow();
  expect(requests[4]).toEqual({ changed: 'all' });
});

it('paused: edits are recorded but no cycle runs; sync now still runs one; resume runs one for what was saved', async () => {
  await start({ paused: true });
  expect(requests).toEqual([]);
  expect(sync.paused).toBe(true);
  writeFileSync(join(root, 'guide/faq.md'), '# FAQ\n\nWhile paused.\n');
  await until(() => recorded.includes('guide/faq.md'));

  await sync.syncNow();
  expect(requests).toEqual([{ changed: 'all' }]);
  writeFileSync(join(root, 'guide/faq.md'), '# FAQ\n\nStill paused.\n');
  await until(() => recorded.length === 2);
  expect(requests).toHaveLength(1);

  sync.resume();
  await until(() => requests.length === 2);
  expect(requests[1]).toEqual({ changed: ['guide/faq.md'] });
});

it('sync now during a cycle runs one more after it, never two at once; stop lets the running cycle finish', async () => {
  await start();
  let release!: () => void;
  hold = new Promise((r) => (release = r));
  const first = sync.syncNow();
  await until(() => requests.length === 2);
  const second = sync.syncNow();
  const third = sync.syncNow();
  expect(requests).toHaveLength(2); // still the one cycle
  release();
  hold = null;
  await Promise.all([first, second, third]);
  expect(requests).toHaveLength(3); // both asks satisfied by one more cycle

  let finish!: () => void;
  hold = new Promise((r) => (finish = r));
  void sync.syncNow();
  await until(() => requests.length === 4);
  let stopped = false;
  const stopping = sync.stop().then(() => (stopped = true));
  await Promise.resolve();
  expect(stopped).toBe(false);
  finish();
  await stopping;
  expect(stopped).toBe(true);
});
