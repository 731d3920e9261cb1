/**
 * The set-up of the folder-lock tests (issue 9, item 1), with real processes: the guide synced
 * into a folder, `quire` processes started from the bundle (killed after each test, even one that
 * failed halfway), and a `quire sync --once` holding the folder, stopped by a proxy just before
 * its push reaches the server.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../bench/cli-process';
import { startFakeApi, type FakeApi, type SpaceRec } from '../fake';
import { tempDir } from './cli';
import { buildCli } from './cli-process';
import { holdingProxy, seedGuide, syncOnce } from './sync';

export interface Running {
  pid: number;
  /** Resolves once stdout or stderr matches. */
  saw(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

export interface FolderHolderWorld {
  fake: FakeApi;
  space: SpaceRec;
  root: string;
  /** `quire <args>` as its own process, with the fake's token. */
  quireProcess(...args: string[]): Running;
  /** A `quire sync --once` holding the folder, stopped by a proxy just before its push reaches the server. */
  holderMidPush(): Promise<{ proxy: Awaited<ReturnType<typeof holdingProxy>>; holder: Running }>;
}

const isContentBatch = (m: string, p: string) => m === 'POST' && /\/change-requests\/[^/]+\/content$/.test(p);

/** Registers the set-up for each test of the file; `use` receives each test's world. */
export function folderHolderEachTest(use: (world: FolderHolderWorld) => void): void {
  let fake: FakeApi | undefined;
  /** Every process a test started: killed afterwards, even when the test failed halfway. */
  const started: Running[] = [];
  beforeAll(() => buildCli(), 120_000);
  beforeEach(async () => {
    const api = await startFakeApi();
    fake = api;
    const space = seedGuide(api);
    const root = tempDir();
    expect((await syncOnce(api, root)).code).toBe(0);
    const quireProcess = (...args: string[]): Running => {
      const running = startRunning(args, { ...process.env, QUIRE_TOKEN: api.token });
      started.push(running);
      return running;
    };
    const holderMidPush = async () => {
      const proxy = await holdingProxy(api.url, { match: isContentBatch, when: 'before' });
      const holder = quireProcess('sync', '--api', proxy.url, '--dir', root, '--once');
      await Promise.race([proxy.held, holder.exited.then((r) => Promise.reject(new Error(`the holder ended early: ${r.stderr}`)))]);
      return { proxy, holder };
    };
    use({ fake: api, space, root, quireProcess, holderMidPush });
  });
  afterEach(async () => {
    for (const p of started.splice(0)) p.kill('SIGKILL');
    await fake?.close();
  });
}

function startRunning(args: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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
  return {
    pid: child.pid!,
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
}
