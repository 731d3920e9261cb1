/**
 * The bundled `quire` command as its own process (`node scripts/build-cli.mjs`, then
 * `node bin/quire.cjs`, with the flags its launcher gives it), with its peak RSS read as it
 * exits by the benchmark's report-usage.cjs: for tests that bound what a process may hold.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../bench/cli-process';

const REPORT_USAGE = new URL('../bench/report-usage.cjs', import.meta.url).pathname;

const CHECKED = Symbol.for('quire.test.cli-built');

/**
 * Bundles the CLI when a source is newer than the bundle (scripts/build-cli.mjs decides), once per
 * test process (the files it runs one after the other each asked; the launcher still rebuilds a
 * bundle a later edit made stale).
 */
export function buildCli(): void {
  const shared = globalThis as { [CHECKED]?: true };
  if (shared[CHECKED]) return;
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
  shared[CHECKED] = true;
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** What quire printed on stderr (the usage report left out). */
  stderr: string;
  /** Peak resident memory of the process, in MB. */
  maxRssMb: number;
}

export interface QuireProcess {
  child: ChildProcess;
  /** Resolves with the first stderr line matching `pattern` (rejects if the process exits first). */
  stderrLine(pattern: RegExp): Promise<string>;
  readonly exited: Promise<Exited>;
}

const running = new Set<ChildProcess>();

/** Kills what `startQuire` started and is still running (for afterEach: a failed test leaves no process behind). */
export function killStarted(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Starts `quire <args>` from the bundle (buildCli first). */
export function startQuire(args: string[], env: NodeJS.ProcessEnv = {}): QuireProcess {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, '--require', REPORT_USAGE, CLI, ...args], {
    env: cliEnv({ ...process.env, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const check = (): void => {
    for (const w of [...watchers]) {
      const line = stderr.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const exited = new Promise<Exited>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const usage = /^QUIRE_BENCH (.*)$/m.exec(stderr);
      const { maxRssMb } = usage ? (JSON.parse(usage[1]!) as { maxRssMb: number }) : { maxRssMb: Number.NaN };
      resolve({ code, signal, stdout, stderr: stderr.replace(/^QUIRE_BENCH .*\n?/m, ''), maxRssMb });
    });
  });
  return {
    child,
    stderrLine: (pattern) =>
      Promise.race([
        new Promise<string>((resolve) => {
          watchers.push({ pattern, resolve });
          check();
        }),
        exited.then((e) => Promise.reject(new Error(`quire exited (${e.code ?? e.signal}) before printing ${pattern}: ${e.stderr.slice(-2000)}`))),
      ]),
    exited,
  };
}
