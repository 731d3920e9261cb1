/**
 * The README's walk-through, run as a reader runs it: "Two commands" (`npm run demo:sync`), then
 * every ```console block of README.md (a writer's and a reviewer's five minutes), then those of
 * docs/reviewers-guide.md (the rest of a reviewer's day) and docs/writers-guide.md (a writer's
 * day), in that order, in one project folder, against the demo's sample API. In a block, a `$ `
 * line is a command and the lines under it are what the terminal shows (stdout and stderr, in the
 * order printed). An edit of these pages that drifts from what Quire
 * prints fails here, and so does a change in what Quire prints that they do not follow.
 *
 * The commands a block may hold, each run as its own process, as npm runs it:
 * - `npm run --silent quire -- <args>`: `bin/quire.cjs <args>`;
 * - `npm run --silent demo:sync -- <args>`: `tsx scripts/demo-sync.ts <args>`; with `--serve` it
 *   runs on (the sample API up) until the page says `<!-- walk-through: the sample API stops -->`,
 *   where it gets Ctrl-C (SIGINT);
 * - `export NAME=value`, `echo '<text>' >> <file>`, `mkdir <folder>` and `rm <file>...`, done here
 *   (in the project folder).
 * A trailing `# comment` is not part of the command; `# exit N` in it is the exit code expected
 * (0 otherwise). `preview`, `ui` and `demo:sync -- --serve` run until Ctrl-C: each is compared once
 * it has printed as many lines as the page shows (`preview` and `ui` are then stopped).
 *
 * What differs from run to run, and only that, is made the same on both sides (`normalise`): dates
 * and times (and how long ago they were), the port of a 127.0.0.1 address, the secret in a served address (`/s/<secret>/`), the
 * delay in a retry line (`in 0.4 s`), the id of a comment kept in a pending review (`local:<uuid>`),
 * and the project folder (written `~/quire` in the pages).
 * Progress lines between the first and the last (`Pulling Handbook: 1/2 pages`) are printed only
 * when a pull takes over a second, and are left out of what was printed.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli';
import { buildCli } from '../helpers/cli-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The pages whose console blocks make the walk-through, in the order they run. */
const PAGES = ['README.md', 'docs/reviewers-guide.md', 'docs/writers-guide.md'];
/** What `npm run <script>` runs (package.json's scripts). */
const SCRIPTS: Record<string, string[]> = {
  quire: [join(ROOT, 'bin/quire.cjs')],
  'demo:sync': [join(ROOT, 'node_modules/.bin/tsx'), join(ROOT, 'scripts/demo-sync.ts')],
};
const STOP_MARKER = '<!-- walk-through: the sample API stops -->';
/** How long a command that runs until Ctrl-C may take to print what the page shows (a guard: it fails the comparison, never passes it). */
const RUNNING_GUARD_MS = 30_000;

interface Step {
  /** The page that shows it. */
  page: string;
  /** The command line as the page shows it (comment included). */
  line: string;
  words: string[];
  exit: number;
  expected: string[];
}
type Item = { kind: 'block'; steps: Step[]; at: number } | { kind: 'stop'; at: number };

/** The walk-through of one page: every console block with its commands, and where the sample API stops. */
function walkThrough(readme: string, page: string): Item[] {
  const items: Item[] = [];
  for (const m of readme.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const steps: Step[] = [];
    for (const text of m[1]!.replace(/\n$/, '').split('\n')) {
      if (text.startsWith('$ ')) steps.push(command(text.slice(2), page));
      else if (steps.length === 0) throw new Error(`${page}: a console block must start with a \`$ \` command, not: ${text}`);
      else steps.at(-1)!.expected.push(text);
    }
    items.push({ kind: 'block', steps, at: m.index });
  }
  for (const stop of readme.matchAll(new RegExp(STOP_MARKER, 'g'))) items.push({ kind: 'stop', at: stop.index });
  return items.sort((a, b) => a.at - b.at);
}

/** One command line: its words (single and double quotes, no other shell syntax) and the exit code its comment states. */
function command(line: string, page: string): Step {
  const words: string[] = [];
  let comment = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] === ' ') {
      i++;
    } else if (line[i] === '#') {
      comment = line.slice(i);
      break;
    } else {
      let word = '';
      while (i < line.length && line[i] !== ' ') {
        const c = line[i]!;
        if (c === "'" || c === '"') {
          const end = line.indexOf(c, i + 1);
          if (end < 0) throw new Error(`${page}: an unclosed quote in \`${line}\``);
          word += line.slice(i + 1, end);
          i = end + 1;
        } else {
          if ('\\$`;&|<*?'.includes(c)) throw new Error(`${page}: \`${c}\` outside quotes is more shell than this test runs: \`${line}\``);
          word += c;
          i++;
        }
      }
      words.push(word);
    }
  }
  const exit = /\bexit (\d+)\b/.exec(comment);
  return { page, line, words, exit: exit ? Number(exit[1]) : 0, expected: [] };
}

/** The parts that differ from run to run, the same on both sides. */
function normalise(lines: readonly string[], projectDir?: string): string[] {
  return lines.map((l) => {
    let s = projectDir === undefined ? l : l.split(projectDir).join('~/quire');
    s = s.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>');
    // A time as Quire writes it: the local date and time with the zone, or relative while recent.
    s = s.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?: (?:UTC|GMT[+-]\d+(?::\d\d)?|[A-Z]{2,5}))?/g, '<time>');
    s = s.replace(/\b(?:just now|\d+ (?:min|h) ago|in \d+ (?:min|h))\b/g, '<time>');
    s = s.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
    s = s.replace(/\/s\/[A-Za-z0-9_-]{20,}\//g, '/s/<secret>/');
    s = s.replace(/(retrying… \(attempt \d+, in )\d+(?:\.\d+)? s\)/g, '$1<delay> s)');
    s = s.replace(/local:[0-9a-f]{8}-[0-9a-f-]{27}/g, 'local:<id>');
    return s;
  });
}

const between = (line: string): boolean => {
  const m = /^(?:Pulling|Pushing) .+: (\d+)\/(\d+) pages$/.exec(line);
  return m !== null && Number(m[1]) > 0 && Number(m[1]) < Number(m[2]);
};

/** A terminal: what a command prints, in order, one line per entry. */
class Terminal {
  lines: string[] = [];
  private waiter: { count: number; done: () => void } | null = null;
  write(text: string): void {
    for (const line of text.split('\n')) if (!between(line)) this.lines.push(line);
    if (this.waiter && this.lines.length >= this.waiter.count) this.waiter.done();
  }
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

interface Running {
  terminal: Terminal;
  /** Ctrl-C. */
  stop(): void;
  exited: Promise<number>;
}

const running: Running[] = [];

/** `command` in `cwd` with its stderr into its stdout (one stream, in the order printed), as a terminal shows it. */
function run(command: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', ...command], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const terminal = new Terminal();
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    terminal.write(pending.slice(0, end));
    pending = pending.slice(end + 1);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (pending !== '') terminal.write(pending);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
  const started: Running = { terminal, stop: () => child.kill('SIGINT'), exited };
  running.push(started);
  return started;
}

beforeAll(() => buildCli(), 120_000);
afterAll(async () => {
  for (const r of running) r.stop();
  await Promise.all(running.map((r) => r.exited));
});

describe('README.md, tried as written', () => {
  it('prints what the README shows, command by command, on the demo', async () => {
    const items = PAGES.flatMap((page) => walkThrough(readFileSync(join(ROOT, page), 'utf8'), page));
    expect(items.filter((i) => i.kind === 'block').length, 'the README and the guides have their walk-through in ```console blocks').toBeGreaterThan(0);

    // A fresh project folder, as a reader's: `quire-demo` is made in it.
    const projectDir = join(tempDir('quire-readme-'), 'quire');
    mkdirSync(projectDir);
    // What the commands see: the reader's exports, and no token or setting of this machine's.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, LANG: 'C.UTF-8' };

    // "Two commands": `npm run demo:sync` made ./quire-demo.
    const setup = run(SCRIPTS['demo:sync']!, projectDir, env);
    expect(await setup.exited, setup.terminal.lines.join('\n')).toBe(0);

    let served: Running | null = null;
    for (const item of items) {
      if (item.kind === 'stop') {
        expect(served, `${STOP_MARKER} comes after \`demo:sync -- --serve\``).not.toBeNull();
        served!.stop();
        expect(await served!.exited, 'the sample API stops on Ctrl-C').toBe(0);
        served = null;
        continue;
      }
      for (const step of item.steps) {
        const [w0, w1, w2, w3, w4] = step.words;
        const script = w0 === 'npm' && w1 === 'run' && w2 === '--silent' ? SCRIPTS[w3!] : undefined;
        const args = step.words.slice(w4 === '--' ? 5 : 4);
        const untilStopped = (w3 === 'quire' && (args[0] === 'preview' || args[0] === 'ui')) || (w3 === 'demo:sync' && args.includes('--serve'));
        let terminal = new Terminal();
        let code: number;
        if (w0 === 'export' && step.words.length === 2 && /^[A-Z_]+=/.test(w1!)) {
          const [name, ...value] = w1!.split('=');
          env[name!] = value.join('=');
          code = 0;
        } else if (w0 === 'echo' && step.words.length === 4 && w2 === '>>') {
          appendFileSync(join(projectDir, w3!), `${w1}\n`);
          code = 0;
        } else if (w0 === 'mkdir' && step.words.length === 2) {
          mkdirSync(join(projectDir, w1!));
          code = 0;
        } else if (w0 === 'rm' && step.words.length >= 2) {
          for (const file of step.words.slice(1)) rmSync(join(projectDir, file));
          code = 0;
        } else if (script && untilStopped) {
          const r = run([...script, ...args], projectDir, env);
          terminal = r.terminal;
          await Promise.race([terminal.printed(step.expected.length), r.exited]);
          if (w3 === 'demo:sync') {
            served = r;
            code = 0;
          } else {
            r.stop();
            code = await r.exited;
          }
        } else if (script) {
          const r = run([...script, ...args], projectDir, env);
          terminal = r.terminal;
          code = await r.exited;
        } else {
          throw new Error(`${step.page}: the walk-through runs \`${step.line}\`, which this test does not know how to run (see its header).`);
        }
        const what = `${step.page}: \`$ ${step.line}\``;
        expect.soft(normalise(terminal.lines, projectDir), what).toEqual(normalise(step.expected));
        expect.soft(code, `${what}: exit code (say \`# exit N\` after a command that exits with N)`).toBe(step.exit);
      }
    }
  }, 360_000);
});
