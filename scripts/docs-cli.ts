/**
 * `npm run docs:cli [-- --check] [file]`: writes the command reference of docs/cli.md (or of
 * `file`) from the commands' own declarations (src/main/hosts/cli/commands.ts), with the code
 * that writes `quire --help` and `quire <command> --help`, so the reference is what the parser
 * accepts and what the help prints. The text between the markers is replaced; the rest of the
 * file is written by hand. `--check` only compares, and exits 1 when the reference is out of date
 * or when a link between README.md and the pages of docs/ leads to no file or no heading.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { COMMANDS } from '../src/main/hosts/cli/commands';
import { commandHelp, usageLines } from '../src/main/hosts/cli/help';
import type { CommandSpec } from '../src/main/hosts/cli/spec';

const START = '<!-- cli:start (npm run docs:cli) -->';
const END = '<!-- cli:end -->';

/** The reference: every usage line, then each command's help as `quire <command> --help` prints it. */
function reference(commands: Readonly<Record<string, CommandSpec>>): string {
  const entries = Object.entries(commands);
  const lines = ['## Every command', '', '```text', ...entries.flatMap(([name, spec]) => usageLines(name, spec)), '```'];
  for (const [name, spec] of entries) {
    lines.push('', `## quire ${name}`, '', `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`, '', '```text', commandHelp(name, spec), '```');
  }
  return lines.join('\n');
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
const text = readFileSync(doc, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start === -1 || end < start) {
  console.error(`${doc} has no reference markers (${START} … ${END}); put them where the reference goes.`);
  process.exit(1);
}
const next = `${text.slice(0, start + START.length)}\n${reference(COMMANDS)}\n${text.slice(end)}`;
if (check) {
  const broken = brokenLinks();
  for (const line of broken) console.error(line);
  if (next !== text) console.error(`${doc}: the command reference is out of date with src/main/hosts/cli/commands.ts. Run \`npm run docs:cli\` and commit it.`);
  if (broken.length > 0 || next !== text) process.exit(1);
} else if (next !== text) {
  writeFileSync(doc, next);
  console.log(`${doc}: command reference updated.`);
}
