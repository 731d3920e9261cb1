/**
 * Minimal, strict flag parser for the `quire` command line, and the checks on values that
 * every command shares. A value Quire cannot use is refused with one line saying what was
 * wrong and what to give instead, before any folder is opened or request sent.
 */
import { statSync } from 'node:fs';

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Map<string, string[]>;
}

/** A bad invocation: exit code 2. `usage: false` when the one line says it all (a bad value, not a missing flag). */
export class UsageError extends Error {
  readonly showUsage: boolean;
  constructor(message: string, options: { usage?: boolean } = {}) {
    super(message);
    this.showUsage = options.usage ?? true;
  }
}

/** Flags that take no value. */
const BOOLEAN_FLAGS = new Set(['once', 'json', 'help', 'verbose', 'allow-deletes', 'dry-run', 'all-spaces']);

export function parseArgs(argv: string[]): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (BOOLEAN_FLAGS.has(name)) value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}

export function requireFlag(args: ParsedArgs, name: string): string {
  const v = flag(args, name);
  if (v === undefined) throw new UsageError(`missing --${name}`);
  return v;
}

export function has(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

export function all(args: ParsedArgs, name: string): string[] {
  return args.flags.get(name) ?? [];
}

const YES = new Set(['true', 'yes', '1', 'on']);
const NO = new Set(['false', 'no', '0', 'off']);

/** A switch: absent or `--name=no|false|0|off` is off; `--name` or `--name=yes|true|1|on` is on; anything else is refused. */
export function switchFlag(args: ParsedArgs, name: string): boolean {
  const value = flag(args, name);
  if (value === undefined) return false;
  const word = value.trim().toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  throw new UsageError(`--${name}=${value} is neither yes nor no: write --${name} (or --${name}=yes) to turn it on, leave it out to keep it off.`, {
    usage: false,
  });
}

/**
 * The sync folder from `--dir`: required, not empty (an empty path would mean the current
 * directory), and not a file. It need not exist yet: sync creates it.
 */
export function dirFlag(args: ParsedArgs): string {
  const dir = requireFlag(args, 'dir');
  if (dir.trim() === '') throw new UsageError('--dir is empty: give the folder to sync, such as --dir ~/Docs.', { usage: false });
  let isFile = false;
  try {
    isFile = !statSync(dir).isDirectory();
  } catch {
    // Not there yet (sync creates it), or not readable (opening it says why).
  }
  if (isFile) throw new UsageError(`--dir ${dir} is a file, not a folder: give the folder to sync into (it is created if missing).`, { usage: false });
  return dir;
}

/** Continuous sync polls the server no more often than this: a shorter interval only loads the API. */
const MIN_INTERVAL_S = 5;

/** `--interval` in seconds, at least MIN_INTERVAL_S. */
export function intervalFlag(args: ParsedArgs, fallbackS: number): number {
  const raw = flag(args, 'interval');
  if (raw === undefined) return fallbackS;
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds))
    throw new UsageError(`--interval takes a number of seconds, such as --interval 30; got "${raw}".`, { usage: false });
  if (seconds < MIN_INTERVAL_S) {
    throw new UsageError(
      `--interval ${raw} is too short: the least is ${MIN_INTERVAL_S} seconds (edits are pushed as soon as they are saved anyway; the interval only polls the server).`,
      { usage: false },
    );
  }
  return seconds;
}

/** A space id as the API writes them (its EntityId pattern). */
const SPACE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** `--space` values, each a space id; a space's web address is recognised and its id suggested. */
export function spaceFlags(args: ParsedArgs): string[] {
  return all(args, 'space').map((value) => {
    if (SPACE_ID.test(value)) return value;
    const fromUrl = /\/s\/([A-Za-z0-9_-]+)/.exec(value)?.[1];
    const hint = fromUrl
      ? ` It looks like a space's web address: its id is ${fromUrl}, so write --space ${fromUrl}.`
      : ' The id is in the space’s web address, after /s/.';
    throw new UsageError(`--space "${value}" is not a space id (letters, digits, - and _ only).${hint}`, { usage: false });
  });
}
