/**
 * One engine per folder (issue 9, item 1), with real processes: while one `quire sync` holds a
 * folder (its cycle held mid-request by a proxy), a second `sync --once` waits briefly, then
 * says who holds it and exits 1 — and nothing is pushed twice; continuous mode waits for its
 * turn; `quire restore` writes nothing until the holder is done (or gives up as `--once` does);
 * `status` and `review` never wait; a lock left by a killed process never blocks.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { contentBatches, holdingProxy, openChangeRequests, pageByTitle, read, seedGuide, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
/** Every process a test started: killed afterwards, even when the test failed halfway. */
const started: Running[] = [];

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  root = tempDir();
  expect((await syncOnce(fake, root)).code).toBe(0);
});
afterEach(async () => {
  for (const p of started.splice(0)) p.kill('SIGKILL');
  await fake.close();
});

interface Running {
  pid: number;
  output(): { stdout: string; stderr: string };
  /** Resolves once stdout or stderr matches. */
  saw(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

function quireProcess(...args: string[]): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/hosts/cli/main.ts', ...args], {
    env: { ...process.env, QUIRE_TOKEN: fake.token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...watchers]) if (w.pattern.test(stdout) || w.pattern.test(stderr)) w.resolve();
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const running: Running = {
    pid: child.pid!,
    output: () => ({ stdout, stderr }),
    saw: (pattern) =>
      new Promise((resolve, reject) => {
        void exited.then(() => (pattern.test(stdout) || pattern.test(stderr) ? resolve() : reject(new Error(`exited without ${pattern}: ${stderr}`))));
        watchers.push({ pattern, resolve });
        check();
      }),
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
  started.push(running);
  return running;
}

const isContentBatch = (m: string, p: string) => m === 'POST' && /\/change-requests\/[^/]+\/content$/.test(p);

/** A `quire sync --once` holding the folder, stopped by a proxy just before its push reaches the server. */
async function holderMidPush() {
  const proxy = await holdingProxy(fake.url, { match: isContentBatch, when: 'before' });
  const holder = quireProcess('sync', '--api', proxy.url, '--dir', root, '--once');
  await Promise.race([proxy.held, holder.exited.then((r) => Promise.reject(new Error(`the holder ended early: ${r.stderr}`)))]);
  return { proxy, holder };
}

it('a second `sync --once` waits briefly, says who holds the folder, exits 1, and pushes nothing twice', async () => {
  write(root, 'guide/recipes.md', '# Recipes\n\nA new page.\n');
  const { proxy, holder } = await holderMidPush();
  try {
    const second = quireProcess('sync', '--api', fake.url, '--dir', root, '--once');
    const { code, stderr } = await second.exited;
    expect(code).toBe(1);
    expect(stderr).toContain(`Another Quire is syncing this folder (pid ${holder.pid} (quire sync --once), since `);
    expect(stderr).toMatch(
      new RegExp(`quire sync: Another Quire is syncing ${root}: pid ${holder.pid} \\(quire sync --once\\), since (just now|\\d+ min ago)\\. Let it finish`),
    );
    expect(contentBatches(fake)).toEqual([]);
    proxy.release();
    expect((await holder.exited).code).toBe(0);
  } finally {
    await proxy.close();
  }
  const crs = openChangeRequests(fake, space.id);
  expect(crs).toHaveLength(1);
  expect([...fake.store.revisionOf(space.id, { changeRequest: crs[0]!.id }).pages.values()].filter((p) => p.title === 'Recipes')).toHaveLength(1);
  expect(contentBatches(fake)).toHaveLength(1);
}, 60_000);

it('continuous mode waits for its turn, then syncs', async () => {
  write(root, 'guide/faq.md', '# FAQ\n\nEdited while another sync ran.\n');
  const { proxy, holder } = await holderMidPush();
  const continuous = quireProcess('sync', '--api', fake.url, '--dir', root, '--interval', '30');
  try {
    await continuous.saw(new RegExp(`Waiting for pid ${holder.pid} \\(quire sync --once\\), since .+ to finish with this folder…`));
    write(root, 'guide/changelog.md', '# Changelog\n\nWritten while it waited.\n');
    proxy.release();
    expect((await holder.exited).code).toBe(0);
    await continuous.saw(/1 page pushed/);
    continuous.kill('SIGTERM');
    expect((await continuous.exited).code).toBe(0);
  } finally {
    await proxy.close();
  }
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Edited while another sync ran.\n');
  expect(pageByTitle(fake, space.id, 'Changelog', cr!.id).markdown).toBe('Written while it waited.\n');
}, 60_000);

const REWRITE = '# FAQ\n\nA rewrite, pushed by the sync that holds the folder.\n';
const PULLED = '# FAQ\n\nQuestions.\n';

it('`quire restore` waits briefly, says who holds the folder, exits 1, and writes nothing', async () => {
  write(root, 'guide/faq.md', REWRITE);
  const { proxy, holder } = await holderMidPush();
  try {
    const restore = quireProcess('restore', 'guide/faq.md', '--version', '1', '--dir', root);
    const { code, stdout, stderr } = await restore.exited;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`Another Quire is syncing this folder (pid ${holder.pid} (quire sync --once), since `);
    expect(stderr).toMatch(new RegExp(`quire restore: Another Quire is syncing ${root}: pid ${holder.pid} \\(quire sync --once\\), since .+\\. Let it finish`));
    expect(read(root, 'guide/faq.md')).toBe(REWRITE);
    proxy.release();
    expect((await holder.exited).code).toBe(0);
  } finally {
    await proxy.close();
  }
  // Nothing was restored, and nothing was kept as "before a restore" either.
  const history = JSON.parse((await quire(['history', 'guide/faq.md', '--dir', root, '--json'])).stdout) as { versions: { reason: string }[] };
  expect(history.versions.map((v) => v.reason)).not.toContain('restored');
  expect(read(root, 'guide/faq.md')).toBe(REWRITE);
}, 60_000);

it('`quire restore` writes once the sync holding the folder is done, not in the middle of its cycle', async () => {
  write(root, 'guide/faq.md', REWRITE);
  const { proxy, holder } = await holderMidPush();
  const restore = quireProcess('restore', 'guide/faq.md', '--version', '1', '--dir', root);
  try {
    await restore.saw(new RegExp(`Another Quire is syncing this folder \\(pid ${holder.pid} \\(quire sync --once\\), since [^;]+; waiting up to 5 s`));
    expect(read(root, 'guide/faq.md')).toBe(REWRITE);
    proxy.release();
    expect((await holder.exited).code).toBe(0);
    const restored = await restore.exited;
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('Restored version 1 into guide/faq.md.');
  } finally {
    await proxy.close();
  }
  expect(read(root, 'guide/faq.md')).toBe(PULLED);
  // The holder pushed the text it read before the restore; the restored one is the next sync's edit.
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('A rewrite, pushed by the sync that holds the folder.\n');
}, 60_000);

it('`status` and `review` never wait for the folder', async () => {
  write(root, 'guide/faq.md', '# FAQ\n\nPending.\n');
  const { proxy, holder } = await holderMidPush();
  try {
    const started = Date.now();
    const status = await quire(['status', '--dir', root]);
    const review = await quire(['review', '--dir', root], { env: { QUIRE_TOKEN: fake.token } });
    expect(status.code).toBe(0);
    expect(review.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(4_000); // well under the 5 s a sync would wait
    proxy.release();
    await holder.exited;
  } finally {
    await proxy.close();
  }
}, 60_000);

it('a lock left by a killed process does not block the next run', async () => {
  write(root, 'guide/faq.md', '# FAQ\n\nWritten before the crash.\n');
  const { proxy, holder } = await holderMidPush();
  holder.kill('SIGKILL');
  expect((await holder.exited).signal).toBe('SIGKILL');
  await proxy.close();

  const started = Date.now();
  const next = await syncOnce(fake, root);
  expect(next.code).toBe(0);
  expect(next.stderr).not.toContain('Another Quire');
  expect(Date.now() - started).toBeLessThan(4_000);
  expect(pageByTitle(fake, space.id, 'FAQ', openChangeRequests(fake, space.id)[0]!.id).markdown).toBe('Written before the crash.\n');
}, 60_000);
