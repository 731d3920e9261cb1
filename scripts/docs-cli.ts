/**
 * `npm run docs:cli [-- --check] [file]`: writes the command reference of docs/cli.md (or of
 * `file`) from the commands' own declarations (src/main/hosts/cli/commands.ts), with the code
 * that writes `quire --help` and `quire <command> --help`, so the reference is what the parser
 * accepts and what the help prints. The text between the markers is replaced; the rest of the
 * file is written by hand. README.md's list of the commands (one line each) is written the same
 * way, between its own markers. `--check` only compares, and exits 1 when the reference is out of date
 * or when a link between README.md and the pages of docs/ leads to no file or no heading.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { COMMANDS } from '../src/main/hosts/cli/commands';
import { commandHelp, usageLines } from '../src/main/hosts/cli/help';
import type { CommandSpec } from '../src/main/hosts/cli/spec';

const START = '<!-- cli:start (npm run docs:cli) -->';
const END = '<!-- cli:end -->';
/** README.md's list of the commands, one line each, between these. */
const LIST_START = '<!-- commands:start (npm run docs:cli) -->';
const LIST_END = '<!-- commands:end -->';

/** The reference: every usage line, then each command's help as `quire <command> --help` prints it. */
function reference(commands: Readonly<Record<string, CommandSpec>>): string {
  const entries = Object.entries(commands);
  const lines = ['## Every command', '', '```text', ...entries.flatMap(([name, spec]) => usageLines(name, spec)), '```'];
  for (const [name, spec] of entries) {
    lines.push('', `## quire ${name}`, '', `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`, '', '```text', commandHelp(name, spec), '```');
  }
  return lines.join('\n');
}

/** One line per command for the README: its verbs, its summary, and where its whole help is. */
function commandList(commands: Readonly<Record<string, CommandSpec>>): string {
  return Object.entries(commands)
    .map(([name, spec]) => {
      const verbs = Object.keys(spec.verbs ?? {}).map((verb) => `\`quire ${name} ${verb}\``);
      const what = `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}`;
      return `- \`quire ${name}\`${verbs.length > 0 ? ` (${verbs.join(', ')})` : ''}: ${what} ([help](docs/cli.md#${anchor(`quire ${name}`)})).`;
    })
    .join('\n');
}

/** `text` with what stands between `start` and `end` replaced by `body`, or null without both markers. */
function between(text: string, start: string, end: string, body: string): string | null {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) return null;
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as `-`. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const a = anchor(m[1]!);
    const n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    found.add(n === 0 ? a : `${a}-${n}`);
  }
  return found;
}

/** Every relative link of README.md and docs/*.md that leads to no file, or to no heading of it. */
function brokenLinks(): string[] {
  const files = [
    'README.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', f)),
  ];
  const broken: string[] = [];
  for (const file of files) {
    // Links in code (a block, or `* [Title](page.md)` in a sentence) are examples, not links.
    const text = readFileSync(file, 'utf8')
      .replace(/^```[\s\S]*?^```$/gm, '')
      .replace(/``[^`]*``|`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const [path, hash] = m[1]!.split('#') as [string, string | undefined];
      if (/^[a-z]+:/.test(path)) continue;
      const target = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(target)) broken.push(`${file}: ${m[1]} leads to no file`);
      else if (hash !== undefined && statSync(target).isFile() && !anchorsOf(readFileSync(target, 'utf8')).has(hash))
        broken.push(`${file}: ${m[1]} leads to no heading of ${target}`);
    }
  }
  return broken;
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const doc = args.find((a) => a !== '--check') ?? 'docs/cli.md';
const targets = [
  { file: doc, start: START, end: END, body: reference(COMMANDS), what: 'the command reference' },
  { file: 'README.md', start: LIST_START, end: LIST_END, body: commandList(COMMANDS), what: 'the list of commands' },
];
let stale = false;
const broken = check ? brokenLinks() : [];
for (const line of broken) console.error(line);
for (const t of targets) {
  const text = readFileSync(t.file, 'utf8');
  const next = between(text, t.start, t.end, t.body);
  if (next === null) {
    console.error(`${t.file} has no markers for ${t.what} (${t.start} … ${t.end}); put them where it goes.`);
    process.exit(1);
  }
  if (next === text) continue;
  if (check) {
    console.error(`${t.file}: ${t.what} is out of date with src/main/hosts/cli/commands.ts. Run \`npm run docs:cli\` and commit it.`);
    stale = true;
  } else {
    writeFileSync(t.file, next);
    console.log(`${t.file}: ${t.what} updated.`);
  }
}
if (broken.length > 0 || stale) process.exit(1);
