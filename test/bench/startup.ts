/**
 * Issue 10, item 5, and issue 21, item 2: how soon the installed command does its work. Spawns
 * `quire sync --once` into an empty folder against the fake and measures from the spawn to the
 * first request the fake receives (both clocks are this machine's wall clock); and times
 * `quire status` and `quire search <word>` on a synced 2,000-page folder from process start to
 * exit, `quire --version` beside them for what Node and the launcher cost alone; and (issue 31)
 * sets each against `node -e ''` run in the same round, and `npm run quire --` against `npm run env`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeApi, type FakeApi } from '../fake';
import { generateSpace } from '../fake/seed';
import { against, CLI, CLI_NODE_FLAGS, cliEnv, median, runCli, spread, syncOnceArgs } from './cli-process';

const RUNS = 11;
const PAGES = 2000;
const TARGET_MS = 150;
/** Issue 31: status and search against Node's own start, and what `npm run quire --` adds over what npm adds to any script. */
const TARGET = { overNode: 2, npmOverMs: 50 };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const ms = (v: number) => `${v.toFixed(0)} ms`;

async function toFirstRequest(fake: FakeApi): Promise<number> {
  fake.resetLog();
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-start-'));
  try {
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, 'sync', '--api', fake.url, '--dir', dir, '--once'], {
      env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }),
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

/**
 * Wall time of a command, from its spawn to its exit (it must succeed): `node` alone is Node running
 * an empty script, in this environment as it is; `npm` and `env` run those (from this checkout, as a
 * user types them); anything else is the installed command with those arguments.
 */
async function wallMs(args: string[]): Promise<number> {
  const started = performance.now();
  const [file, argv, env] =
    args[0] === 'node'
      ? [process.execPath, ['-e', ''], process.env]
      : args[0] === 'npm' || args[0] === 'env'
        ? [args[0], args.slice(1), process.env]
        : [process.execPath, [...CLI_NODE_FLAGS, CLI, ...args], cliEnv(process.env)];
  const child = spawn(file, argv, { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  const elapsed = performance.now() - started;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`);
  return elapsed;
}

/** `times` runs of each command, interleaved (a busy moment slows all of them alike). */
async function interleaved(commands: Record<string, string[]>, times: number): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < times; i++) for (const [name, args] of Object.entries(commands)) out[name]!.push(await wallMs(args));
  return out;
}

/** `status` and `search` on a synced folder of PAGES pages, `--version` beside them. */
async function readCommands(): Promise<Record<string, string>> {
  const fake = await startFakeApi();
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-read-'));
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    const space = generateSpace(fake.store, org.id, { pages: PAGES, bytesPerPage: 3000, seed: 7 });
    await runCli(fake, syncOnceArgs(fake, dir));
    // A word of a page in the middle of the space: found, with a snippet, as a person would search.
    const page = [...fake.store.currentRevision(space.id).pages.values()].filter((p) => p.type === 'document')[PAGES / 2]!;
    const word = /[a-z]{5,}/.exec(fake.store.pageMarkdown(space.id, page.id) ?? '')?.[0] ?? 'lorem';
    const commands = {
      node: ['node'],
      version: ['--version'],
      status: ['status', '--dir', dir],
      search: ['search', word, '--dir', dir],
      npmQuire: ['npm', 'run', '--silent', 'quire', '--', '--version'],
      npmEnv: ['npm', 'run', '--silent', 'env'],
      env: ['env'],
    };
    await interleaved(commands, 1); // warm the file cache
    const times = await interleaved(commands, RUNS);
    const shown = (name: string) => spread(times[name]!, ms);
    /** Each round's `a` over its `b`: the median and spread of those ratios. */
    const each = (a: string, b: string, by: (x: number, y: number) => number) => times[a]!.map((t, i) => by(t, times[b]![i]!));
    const overNode = (name: string) => {
      const ratios = each(name, 'node', (t, n) => t / n);
      return against(
        spread(ratios, (v) => `${v.toFixed(2)}x`),
        median(ratios) <= TARGET.overNode,
      );
    };
    // What npm adds: to `quire --version`, and to `env` (any script).
    const npmQuire = each('npmQuire', 'version', (a, b) => a - b);
    const npmEnv = each('npmEnv', 'env', (a, b) => a - b);
    const npmOver = npmQuire.map((v, i) => v - npmEnv[i]!);
    return {
      [`status on a synced ${PAGES.toLocaleString('en')}-page folder, process start to exit (target <= ${TARGET_MS} ms)`]: against(
        shown('status'),
        median(times.status!) <= TARGET_MS,
      ),
      [`search "${word}" on the same folder, process start to exit (target <= ${TARGET_MS} ms)`]: against(shown('search'), median(times.search!) <= TARGET_MS),
      [`status / node -e '', each round (target <= ${TARGET.overNode}x)`]: overNode('status'),
      [`search / node -e '', each round (target <= ${TARGET.overNode}x)`]: overNode('search'),
      '--version, process start to exit (Node and the launcher alone)': shown('version'),
      [`node -e '', process start to exit (Node alone; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set: Node parses it at each start, quire defers it' : 'unset'})`]:
        shown('node'),
      'npm run --silent quire -- --version: what npm adds to quire --version': spread(npmQuire, ms),
      'npm run --silent env: what npm adds to env (to any script)': spread(npmEnv, ms),
      [`npm run quire's addition over npm's own, each round (target <= ${TARGET.npmOverMs} ms)`]: against(
        spread(npmOver, ms),
        median(npmOver) <= TARGET.npmOverMs,
      ),
    };
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<Record<string, string | number>> {
  const fake = await startFakeApi();
  let first: Record<string, string>;
  try {
    const org = fake.store.addOrg({ title: 'Bench' });
    fake.store.addSpace(org.id, { title: 'Start', pages: [{ title: 'Home', markdown: 'Hello.\n' }] });
    await toFirstRequest(fake); // warm the file cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await toFirstRequest(fake));
    first = { 'sync --once: process start to first request': spread(times, ms) };
  } finally {
    await fake.close();
  }
  return { ...first, ...(await readCommands()) };
}
