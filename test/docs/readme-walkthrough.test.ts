/**
 * The README's walk-through, run as a reader runs it: "Two commands" (`npm run demo:sync`), then
 * every ```console block of README.md, in order, in one project folder, against the demo's sample
 * API. In a block, a `$ ` line is a command and the lines under it are what the terminal shows
 * (stdout and stderr, in the order printed). A README edit that drifts from what Quire prints
 * fails here, and so does a change in what Quire prints that the README does not follow.
 *
 * The commands a block may hold, and how they run here:
 * - `npm run --silent quire -- <args>`: what npm runs, `bin/quire.mjs <args>`, as a process of its own
 *   (its stderr into its stdout, so the lines come in the order printed);
 * - `npm run --silent demo:sync -- <args>`: scripts/sample-api.ts as `npm run demo:sync` runs it;
 *   `--serve` keeps its sample API up until README.md says `<!-- walk-through: the sample API stops -->`;
 * - `export NAME=value` and `echo '<text>' >> <file>`.
 * A trailing `# comment` is not part of the command; `# exit N` in it is the exit code expected
 * (0 otherwise). `preview` and `demo:sync -- --serve` run until Ctrl-C: each is compared once it
 * has printed as many lines as README.md shows, and `preview` is then stopped.
 *
 * What differs from run to run, and only that, is made the same on both sides (`normalise`): dates
 * and times, the port of a 127.0.0.1 address, the secret in a served address (`/s/<secret>/`), the
 * delay in a retry line (`in 0.4 s`), and the project folder (written `~/quire` in README.md).
 * Progress lines between the first and the last (`Pulling Handbook: 1/2 pages`) are printed only
 * when a pull takes over a second, and are left out of what Quire printed.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/hosts/cli/io';
import { demoSync } from '../../scripts/sample-api';
import { tempDir } from '../helpers/cli';
import { buildCli } from '../helpers/cli-process';

const README = new URL('../../README.md', import.meta.url);
const QUIRE = fileURLToPath(new URL('../../bin/quire.mjs', import.meta.url));
const STOP_MARKER = '<!-- walk-through: the sample API stops -->';
/** How long a command that runs until Ctrl-C may take to print what README.md shows (a guard: it fails the comparison, never passes it). */
const RUNNING_GUARD_MS = 20_000;

interface Step {
  /** The command line as README.md shows it (comment included). */
  line: string;
  words: string[];
  exit: number;
  expected: string[];
}
type Item = { kind: 'block'; steps: Step[]; at: number } | { kind: 'stop'; at: number };

/** The walk-through: every console block of README.md with its commands, and where the sample API stops. */
function walkThrough(readme: string): Item[] {
  const items: Item[] = [];
  for (const m of readme.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const steps: Step[] = [];
    for (const text of m[1]!.replace(/\n$/, '').split('\n')) {
      if (text.startsWith('$ ')) steps.push(command(text.slice(2)));
      else if (steps.length === 0) throw new Error(`README.md: a console block must start with a \`$ \` command, not: ${text}`);
      else steps.at(-1)!.expected.push(text);
    }
    items.push({ kind: 'block', steps, at: m.index });
  }
  const stop = readme.indexOf(STOP_MARKER);
  if (stop >= 0) items.push({ kind: 'stop', at: stop });
  return items.sort((a, b) => a.at - b.at);
}

/** One command line: its words (single and double quotes, no other shell syntax) and the exit code its comment states. */
function command(line: string): Step {
  const words: string[] = [];
  let comment = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ') {
      i++;
    } else if (c === '#') {
      comment = line.slice(i);
      break;
    } else {
      let word = '';
      while (i < line.length && line[i] !== ' ') {
        const q = line[i]!;
        if (q === "'" || q === '"') {
          const end = line.indexOf(q, i + 1);
          if (end < 0) throw new Error(`README.md: an unclosed quote in \`${line}\``);
          word += line.slice(i + 1, end);
          i = end + 1;
        } else {
          if ('\\$`;&|<*?'.includes(q)) throw new Error(`README.md: \`${q}\` outside quotes is more shell than this test runs: \`${line}\``);
          word += q;
          i++;
        }
      }
      words.push(word);
    }
  }
  const exit = /\bexit (\d+)\b/.exec(comment);
  return { line, words, exit: exit ? Number(exit[1]) : 0, expected: [] };
}

/** The parts that differ from run to run, the same on both sides. */
function normalise(lines: readonly string[], projectDir?: string): string[] {
  return lines.map((l) => {
    let s = projectDir === undefined ? l : l.split(projectDir).join('~/quire');
    s = s.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>');
    s = s.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/g, '<time>');
    s = s.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
    s = s.replace(/\/s\/[A-Za-z0-9_-]{20,}\//g, '/s/<secret>/');
    s = s.replace(/(retrying… \(attempt \d+, in )\d+(?:\.\d+)? s\)/g, '$1<delay> s)');
    return s;
  });
}

const between = (line: string): boolean => {
  const m = /^(?:Pulling|Pushing) .+: (\d+)\/(\d+) pages$/.exec(line);
  return m !== null && Number(m[1]) > 0 && Number(m[1]) < Number(m[2]);
};

/** A terminal: what commands print, in order, one line per entry. */
class Terminal {
  lines: string[] = [];
  private waiter: { count: number; done: () => void } | null = null;
  write = (text: string): void => {
    for (const line of text.split('\n')) if (!between(line)) this.lines.push(line);
    if (this.waiter && this.lines.length >= this.waiter.count) this.waiter.done();
  };
  /** Resolves once `count` lines were printed, or after the guard (the comparison then shows what is missing). */
  printed(count: number): Promise<void> {
    return new Promise((resolve) => {
      const guard = setTimeout(resolve, RUNNING_GUARD_MS);
      this.waiter = {
        count,
        done: () => {
          clearTimeout(guard);
          this.waiter = null;
          resolve();
        },
      };
      if (this.lines.length >= count) this.waiter.done();
    });
  }
}

/** `bin/quire.mjs <args>` in `cwd`, as a terminal runs it: stopped by `stop` (SIGINT, as Ctrl-C); resolves with its exit code. */
function quireProcess(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, terminal: Terminal, stop: AbortSignal): Promise<number> {
  const child = spawn('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', QUIRE, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    terminal.write(pending.slice(0, end));
    pending = pending.slice(end + 1);
  });
  stop.addEventListener('abort', () => child.kill('SIGINT'), { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (pending !== '') terminal.write(pending);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

const running: { stop: AbortController; ended: Promise<number> }[] = [];
const home = process.cwd();
beforeAll(() => buildCli(), 120_000);
afterAll(async () => {
  for (const r of running) r.stop.abort();
  await Promise.all(running.map((r) => r.ended));
  process.chdir(home);
});

describe('README.md, tried as written', () => {
  it('prints what the README shows, command by command, on the demo', async () => {
    const items = walkThrough(readFileSync(README, 'utf8'));
    const blocks = items.filter((i) => i.kind === 'block');
    expect(blocks.length, 'README.md has its walk-through in ```console blocks').toBeGreaterThan(0);

    // A fresh project folder, as a reader's clone: `quire-demo` lives in it.
    const projectDir = join(tempDir('quire-readme-'), 'quire');
    mkdirSync(projectDir);
    process.chdir(projectDir);
    // What the commands see: the reader's exports, and no token or setting of this machine's.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };
    const io = (terminal: Terminal, signal: AbortSignal): CliIo => ({
      stdout: terminal.write,
      stderr: terminal.write,
      env,
      readStdin: async () => '',
      signal,
    });
    let served: { stop: AbortController; ended: Promise<number> } | null = null;

    // "Two commands": `npm run demo:sync` made ./quire-demo.
    const setup = new Terminal();
    expect(await demoSync([], io(setup, new AbortController().signal)), setup.lines.join('\n')).toBe(0);

    for (const item of items) {
      if (item.kind === 'stop') {
        expect(served, `${STOP_MARKER} comes after \`demo:sync -- --serve\``).not.toBeNull();
        served!.stop.abort();
        expect(await served!.ended).toBe(0);
        served = null;
        continue;
      }
      for (const step of item.steps) {
        const terminal = new Terminal();
        const [w0, w1, w2, w3, w4] = step.words;
        const npmRun = w0 === 'npm' && w1 === 'run' && w2 === '--silent';
        const args = step.words.slice(npmRun && w4 === '--' ? 5 : 4);
        let code: number;
        if (w0 === 'export' && step.words.length === 2 && /^[A-Z_]+=/.test(w1!)) {
          const [name, ...value] = w1!.split('=');
          env[name!] = value.join('=');
          code = 0;
        } else if (w0 === 'echo' && step.words.length === 4 && w2 === '>>') {
          appendFileSync(w3!, `${w1}\n`);
          code = 0;
        } else if (npmRun && w3 === 'demo:sync' && args.includes('--serve')) {
          const stop = new AbortController();
          let serving!: () => void;
          const up = new Promise<void>((resolve) => (serving = resolve));
          served = { stop, ended: demoSync(args, io(terminal, stop.signal), () => serving()) };
          running.push(served);
          await Promise.race([up, served.ended]);
          await terminal.printed(step.expected.length);
          code = 0;
        } else if (npmRun && w3 === 'demo:sync') {
          code = await demoSync(args, io(terminal, new AbortController().signal));
        } else if (npmRun && w3 === 'quire' && (args[0] === 'preview' || args[0] === 'ui')) {
          const stop = new AbortController();
          const ended = quireProcess(args, projectDir, env, terminal, stop.signal);
          running.push({ stop, ended });
          await terminal.printed(step.expected.length);
          stop.abort();
          code = await ended;
        } else if (npmRun && w3 === 'quire') {
          code = await quireProcess(args, projectDir, env, terminal, new AbortController().signal);
        } else {
          throw new Error(`README.md: the walk-through runs \`${step.line}\`, which this test does not know how to run (see its header).`);
        }
        const what = `README.md: \`$ ${step.line}\``;
        expect.soft(normalise(terminal.lines, projectDir), what).toEqual(normalise(step.expected));
        expect.soft(code, `${what}: exit code (say \`# exit N\` after a command that exits with N)`).toBe(step.exit);
      }
    }
  }, 120_000);
});
