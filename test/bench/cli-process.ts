/**
 * The bundled `quire` command as the benchmark runs it: its own process against the fake,
 * measured from outside. Wall time is this process's clock; CPU time (every thread of the
 * child) and peak RSS come from report-usage.cjs, preloaded into the child, as it exits. A
 * long-running `quire sync` is also read while it runs, from /proc (Linux).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeApi } from '../fake';

const REPORT_USAGE = fileURLToPath(new URL('./report-usage.cjs', import.meta.url));
/** The installed `quire` command's file (package.json's `bin`): the launcher of the bundle in out/cli. */
export const CLI = fileURLToPath(new URL('../../bin/quire.cjs', import.meta.url));
/** The launcher's first line: `#!/usr/bin/env -S [NAME=VALUE ...] node [flags]`, as env -S splits it. */
const SHEBANG = readFileSync(CLI, 'utf8').split('\n', 1)[0]!.split(/\s+/).slice(2);
const NODE_AT = SHEBANG.indexOf('node');
/** The node flags `quire` runs with, from its launcher's first line: the benchmark runs `node <flags> bin/quire.cjs` as env would. */
export const CLI_NODE_FLAGS: string[] = SHEBANG.slice(NODE_AT + 1);
/** `env` as the launcher's first line leaves it for Node: its NAME=VALUE words applied in order, `${NAME}` read from `env` as env -S reads it (unset: empty). */
export function cliEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const word of SHEBANG.slice(0, NODE_AT)) {
    const at = word.indexOf('=');
    out[word.slice(0, at)] = word.slice(at + 1).replace(/\$\{(\w+)\}/g, (_all, name: string) => env[name] ?? '');
  }
  return out;
}
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux build). */
const TICKS_PER_S = 100;

export interface CliRun {
  /** Wall time of the whole process, start-up included. */
  ms: number;
  /** CPU time of the process, user and system, all threads. */
  cpuMs: number;
  maxRssMb: number;
  /** Requests the fake answered while it ran, and how many of them were 429s. */
  requests: number;
  throttled: number;
  stdout: string;
}

/** `quire sync --once` into `dir` against the fake. */
export const syncOnceArgs = (fake: FakeApi, dir: string, ...more: string[]): string[] => ['sync', '--api', fake.url, '--dir', dir, '--once', ...more];

/** Runs the CLI with `args` to its end; throws with its stderr when it fails. */
export async function runCli(fake: FakeApi, args: string[]): Promise<CliRun> {
  const live = startCli(fake, args);
  return live.exited;
}

export interface LiveCli {
  readonly pid: number;
  /** CPU time used so far (user and system, all threads), from /proc. */
  cpuMs(): number;
  /** Asks it to stop (SIGINT, as Ctrl-C) and waits for its figures. */
  stop(): Promise<CliRun>;
  /** Settles when it exits by itself (rejects when it fails). */
  readonly exited: Promise<CliRun>;
}

/** Starts the CLI with `args` (the fake's log is reset: its requests are this run's). */
export function startCli(fake: FakeApi, args: string[]): LiveCli {
  return startNode(fake, [...CLI_NODE_FLAGS, '--require', REPORT_USAGE, CLI, ...args], cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }), `quire ${args[0]}`);
}

/** Runs another Node script as its own process against the fake, measured as the CLI is (the token in QUIRE_TOKEN). */
export function runScript(fake: FakeApi, script: string, args: string[]): Promise<CliRun> {
  return startNode(fake, ['--require', REPORT_USAGE, script, ...args], { ...process.env, QUIRE_TOKEN: fake.token }, script).exited;
}

function startNode(fake: FakeApi, argv: string[], env: NodeJS.ProcessEnv, name: string): LiveCli {
  fake.resetLog();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, argv, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let stopping = false;
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const ms = performance.now() - started;
      const statsLine = /QUIRE_BENCH (.*)/.exec(stderr);
      const ok = code === 0 || (stopping && signal === 'SIGINT');
      if (!ok || !statsLine) return reject(new Error(`${name} exited ${code ?? signal}: ${stderr.slice(-2000)}`));
      const stats = JSON.parse(statsLine[1]!) as { maxRssMb: number; cpuMs: number };
      resolve({
        ms,
        cpuMs: stats.cpuMs,
        maxRssMb: stats.maxRssMb,
        requests: fake.requests.length,
        throttled: fake.requests.filter((r) => r.status === 429).length,
        stdout,
      });
    });
  });
  return {
    pid: child.pid!,
    cpuMs: () => procCpuMs(child.pid!),
    stop: () => {
      stopping = true;
      child.kill('SIGINT');
      return exited;
    },
    exited,
  };
}

function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_S) * 1000;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs `measure` `times` times and returns the run with the median `by`. */
export async function medianOf<T>(times: number, by: (t: T) => number, measure: () => Promise<T>): Promise<T> {
  return (await runsOf(times, by, measure)).median;
}

/** Runs `measure` `times` times: the run with the median `by`, every run's `by` (their spread), and the runs. */
export async function runsOf<T>(times: number, by: (t: T) => number, measure: () => Promise<T>): Promise<{ median: T; values: number[]; runs: T[] }> {
  const runs: T[] = [];
  for (let i = 0; i < times; i++) runs.push(await measure());
  const values = runs.map(by);
  const m = median(values);
  return { median: runs.reduce((best, r) => (Math.abs(by(r) - m) < Math.abs(by(best) - m) ? r : best)), values, runs };
}

/** A measure as the median of its runs, with their spread and count: `1.12x (1.08-1.20x, median of 3)`. */
export function spread(values: readonly number[], format: (v: number) => string): string {
  if (values.length === 1) return `${format(values[0]!)} (one run)`;
  const [low, high] = [format(Math.min(...values)), format(Math.max(...values))];
  // The unit once: `211 ms (187-477 ms, …)`.
  const unit = /[^\d.,-]*$/.exec(high)![0];
  const range = low.endsWith(unit) ? `${low.slice(0, low.length - unit.length)}-${high}` : `${low}-${high}`;
  return `${format(median(values))} (${range}, median of ${values.length})`;
}

/** The requests the sync cycle itself made, as the CLI's summary line says them (`…, 3 requests`); the review refresh after it is not counted. */
export function cycleRequests(run: CliRun): number {
  const said = /(\d+) requests?\.?\s*$/m.exec(run.stdout);
  if (!said) throw new Error(`no request count in the sync's summary: ${run.stdout.slice(-500)}`);
  return Number(said[1]);
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const megabytes = (mb: number): string => `${mb.toFixed(0)} MB`;
/** A figure beside its target: `1.12x (target <= 1.25x: pass)`. */
export const against = (shown: string, ok: boolean): string => `${shown}  ${ok ? 'pass' : 'MISS'}`;

/**
 * The GET requests of a run made again by a bare HTTP client doing the least any client must:
 * keep-alive, 8 requests in flight, each answer written to a file (one folder, no fsync), nothing
 * else. How near the latency floor any client gets against this fake (its own work per request
 * and timer lateness included). Returns the wall time in ms.
 */
export async function bareReplayMs(fake: FakeApi, log: readonly { method: string; path: string; query: Record<string, string | string[]> }[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-bare-'));
  try {
    return await bareReplay(fake, log, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function bareReplay(
  fake: FakeApi,
  log: readonly { method: string; path: string; query: Record<string, string | string[]> }[],
  dir: string,
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const urls = log
    .filter((r) => r.method === 'GET')
    .map((r) => {
      const url = new URL(r.path, fake.url);
      for (const [k, v] of Object.entries(r.query)) for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
      return url;
    });
  const get = (url: URL, file: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers: { authorization: `Bearer ${fake.token}` } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => writeFile(file, Buffer.concat(chunks)).then(resolve, reject));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < urls.length) {
        const i = next++;
        await get(urls[i]!, join(dir, `${i}.json`));
      }
    }),
  );
  const ms = performance.now() - started;
  agent.destroy();
  return ms;
}

export interface PairedRun {
  /** Quire's initial sync. */
  run: CliRun;
  /** The same requests from the bare client, right after. */
  bareMs: number;
  /** Quire's time over the bare client's. */
  ratio: number;
}

/**
 * An initial `quire sync --once` into a fresh folder (kept in `dirs`), then the bare client
 * replaying its requests against the same fake at once: both in the same minute, so a busy
 * machine slows both.
 */
export async function initialAgainstBare(fake: FakeApi, dirs: string[], prefix: string): Promise<PairedRun> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  const run = await runCli(fake, syncOnceArgs(fake, dir));
  const bareMs = await bareReplayMs(fake, fake.requests.slice());
  return { run, bareMs, ratio: run.ms / bareMs };
}
