/**
 * The `quire` command line, read strictly against what each command declares (spec.ts,
 * commands.ts), and the checks on values that commands share. Anything not declared — an
 * unknown flag, a stray word, a value given to a switch, a flag given twice — is refused with
 * one line naming it and what was expected (exit 2), before any folder is opened or request sent.
 */
import { statSync } from 'node:fs';
import { COMMANDS } from './commands';
import type { ArgsSpec, CommandSpec, FlagSpec } from './spec';

export interface ParsedArgs {
  command: string | undefined;
  /** In declared order; for a command with verbs, the verb first. */
  positionals: string[];
  /** Each given flag's values; a switch that is on holds 'true', one turned off (`--once=no`) is absent. */
  flags: Map<string, string[]>;
}

/** A bad invocation: exit code 2. `usage: false` when the line says it all (a bad value), true when `--help` would help. */
export class UsageError extends Error {
  readonly showUsage: boolean;
  constructor(message: string, options: { usage?: boolean } = {}) {
    super(message);
    this.showUsage = options.usage ?? true;
  }
}

/** What a command line asks for. */
export type CommandLine =
  | { kind: 'run'; args: ParsedArgs & { command: string }; spec: CommandSpec }
  /** `quire <command> --help`, `quire help [<command>]`, `quire --help`; `bare` for `quire` alone. */
  | { kind: 'help'; command: string | null; bare: boolean }
  | { kind: 'version' };

const HELP = new Set(['--help', '-h']);

/** Reads a whole command line. Throws UsageError, whose message names what was wrong. */
export function readCommandLine(argv: readonly string[], commands: Readonly<Record<string, CommandSpec>> = COMMANDS): CommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'help', command: null, bare: true };
  if (HELP.has(first) || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic !== undefined && !Object.hasOwn(commands, topic)) throw unknownCommand(topic, commands);
    return { kind: 'help', command: topic ?? null, bare: false };
  }
  if (first === '--version') {
    if (rest.length > 0) throw new UsageError(`--version takes nothing after it; got "${rest[0]}".`);
    return { kind: 'version' };
  }
  if (first.startsWith('-')) throw new UsageError(`the command comes first: quire <command> ${first} … (\`quire --help\` lists the commands).`);
  if (!Object.hasOwn(commands, first)) throw unknownCommand(first, commands);
  const spec = commands[first]!;
  const options = rest.indexOf('--') === -1 ? rest : rest.slice(0, rest.indexOf('--'));
  if (options.some((a) => HELP.has(a))) return { kind: 'help', command: first, bare: false };
  return { kind: 'run', args: parseCommand(first, spec, rest), spec };
}

/** The arguments of `quire <command> …` (the command name first), checked against the command's declaration. */
export function parseArgs(argv: readonly string[], commands: Readonly<Record<string, CommandSpec>> = COMMANDS): ParsedArgs {
  const line = readCommandLine(argv, commands);
  if (line.kind !== 'run') throw new UsageError(`expected a command with its arguments, got: quire ${argv.join(' ')}`);
  return line.args;
}

function unknownCommand(name: string, commands: Readonly<Record<string, CommandSpec>>): UsageError {
  const near = nearest(name, Object.keys(commands));
  return new UsageError(
    `unknown command "${name}"${near ? ` (did you mean \`quire ${near}\`?)` : ''}; the commands are ${Object.keys(commands).join(', ')} (\`quire --help\` says what each does).`,
    { usage: false },
  );
}

function parseCommand(command: string, spec: CommandSpec, argv: readonly string[]): ParsedArgs & { command: string } {
  const verbs = spec.verbs ?? {};
  /** Every flag the command may take, whichever its verb (a flag means the same under every verb). */
  const known = new Map<string, FlagSpec>(Object.entries(spec.flags ?? {}));
  for (const verb of Object.values(verbs)) for (const [name, f] of Object.entries(verb.flags ?? {})) known.set(name, f);

  const flags = new Map<string, string[]>();
  const given = new Set<string>();
  const positionals: { value: string; afterSwitch: string | null }[] = [];
  let onlyPositionals = false;
  let lastSwitch: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      positionals.push({ value: arg, afterSwitch: onlyPositionals ? null : lastSwitch });
      lastSwitch = null;
      continue;
    }
    lastSwitch = null;
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      throw new UsageError(
        `${arg} is not an option of quire ${command}: its flags are written in full, such as --dir (\`quire ${command} --help\` lists them).`,
      );
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const f = known.get(name);
    if (!f) throw unknownFlag(command, name, [...known.keys()]);
    if (given.has(name) && !f.repeatable) throw new UsageError(`--${name} is given twice; give it once.`, { usage: false });
    given.add(name);
    if (f.value === undefined) {
      const on = eq === -1 ? true : switchValue(name, arg.slice(eq + 1));
      if (on) flags.set(name, ['true']);
      if (eq === -1) lastSwitch = name;
      continue;
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        throw new UsageError(`--${name} needs a value: --${name} ${f.value}.`, { usage: false });
      }
      value = next;
      i++;
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }

  let args: ArgsSpec = spec;
  let display = command;
  const values = positionals.map((p) => p.value);
  if (spec.verbs) {
    const verb = positionals.shift();
    if (verb === undefined || !Object.hasOwn(verbs, verb.value)) {
      const got = verb === undefined ? '' : `; got "${verb.value}"`;
      throw new UsageError(`expected one of ${Object.keys(verbs).join(', ')}${got}.`);
    }
    args = verbs[verb.value]!;
    display = `${command} ${verb.value}`;
    for (const name of flags.keys()) {
      if (!Object.hasOwn(spec.flags ?? {}, name) && !Object.hasOwn(args.flags ?? {}, name)) {
        throw new UsageError(`--${name} is not a flag of quire ${display} (\`quire ${command} --help\` lists what each verb takes).`);
      }
    }
  }

  const declared = args.positionals ?? [];
  const takesRest = declared.at(-1)?.rest === true;
  if (!takesRest && positionals.length > declared.length) throw strayArgument(display, positionals[declared.length]!, declared.length);
  const missing = declared.slice(positionals.length).find((p) => !p.optional);
  if (missing) throw new UsageError(`missing ${missing.name}: ${missing.what}.`);
  for (const [name, f] of Object.entries({ ...spec.flags, ...args.flags })) {
    if (f.required && !given.has(name)) throw new UsageError(`missing ${f.value === undefined ? `--${name}` : `--${name} ${f.value}`}: ${f.help}.`);
  }
  return { command, positionals: values, flags };
}

function strayArgument(command: string, stray: { value: string; afterSwitch: string | null }, takes: number): UsageError {
  if (stray.afterSwitch !== null) {
    const flag = `--${stray.afterSwitch}`;
    return new UsageError(`${flag} takes no value, so "${stray.value}" is not one: write ${flag} to turn it on, or leave it out.`, { usage: false });
  }
  const expected = takes === 0 ? 'takes no arguments besides its flags' : `takes ${takes === 1 ? 'one argument' : `${takes} arguments`}`;
  return new UsageError(`unexpected argument "${stray.value}": quire ${command} ${expected}.`);
}

function unknownFlag(command: string, name: string, flags: string[]): UsageError {
  if (name === 'version') {
    return new UsageError(`--version is not a flag of quire ${command}; \`quire --version\` prints Quire's version.`, { usage: false });
  }
  const near = nearest(name, flags);
  return new UsageError(`--${name} is not a flag of quire ${command}${near ? ` (did you mean --${near}?)` : ''}.`);
}

/** The candidate a mistyped name most likely meant: the one it starts, or one within two edits. */
function nearest(name: string, candidates: string[]): string | null {
  const starting = candidates.filter((c) => name.length >= 3 && c.startsWith(name));
  if (starting.length === 1) return starting[0]!;
  let best: string | null = null;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(name, c, bestDistance);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** Levenshtein distance, or `cap` once it is at least that (names are short; this is for suggestions only). */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap || a.length > 64 || b.length > 64) return cap;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return Math.min(row[b.length]!, cap);
}

const YES = new Set(['true', 'yes', '1', 'on']);
const NO = new Set(['false', 'no', '0', 'off']);

/** `--name=yes|true|1|on` is on, `--name=no|false|0|off` off; anything else is refused. */
function switchValue(name: string, value: string): boolean {
  const word = value.trim().toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  throw new UsageError(`--${name}=${value} is neither yes nor no: write --${name} (or --${name}=yes) to turn it on, leave it out to keep it off.`, {
    usage: false,
  });
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}

export function requireFlag(args: ParsedArgs, name: string): string {
  const v = flag(args, name);
  if (v === undefined) throw new UsageError(`missing --${name}`);
  return v;
}

/** Whether a switch is on (or a flag with a value was given). */
export function has(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

export function all(args: ParsedArgs, name: string): string[] {
  return args.flags.get(name) ?? [];
}

/** A switch: on when given as `--name` or `--name=yes`; the parser has refused anything but yes/no words. */
export function switchFlag(args: ParsedArgs, name: string): boolean {
  return has(args, name);
}

/** At most this many digits: any count Quire takes fits, and a longer run is refused before it becomes a number. */
const MAX_DIGITS = 12;

/**
 * A count from the command line: plain decimal digits only (not `0x50`, `1e3`, `-1`, `1.5` or
 * ` 30`, which Number() would take), from `min` to `max`. `example` shows a good value.
 */
export function countFlag(args: ParsedArgs, name: string, bounds: { min: number; max: number; unit?: string; example?: number }): number | undefined {
  const raw = flag(args, name);
  if (raw === undefined) return undefined;
  const unit = bounds.unit ? ` ${bounds.unit}` : '';
  const range = `from ${bounds.min} to ${bounds.max}${unit}`;
  if (!/^[0-9]+$/.test(raw) || raw.length > MAX_DIGITS) {
    throw new UsageError(
      `--${name} takes a whole number${unit ? ` of${unit}` : ''} in plain digits, ${range} (such as --${name} ${bounds.example ?? bounds.min}); got "${raw}".`,
      { usage: false },
    );
  }
  const n = Number(raw);
  if (n < bounds.min || n > bounds.max) throw new UsageError(`--${name} ${raw} is out of range: it takes ${range}.`, { usage: false });
  return n;
}

/** `--port`: 0 (any free port, the default) to 65535. */
export function portFlag(args: ParsedArgs): number {
  return countFlag(args, 'port', { min: 0, max: 65535, example: 8080 }) ?? 0;
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
/** A day: far below the 2^31 ms a timer can wait (past it, Node fires after 1 ms), and as rare as a poll is useful. */
const MAX_INTERVAL_S = 86_400;

/** `--interval` in seconds, from MIN_INTERVAL_S to MAX_INTERVAL_S, in plain digits. */
export function intervalFlag(args: ParsedArgs, fallbackS: number): number {
  const raw = flag(args, 'interval');
  if (raw === undefined) return fallbackS;
  if (!/^[0-9]+$/.test(raw) || raw.length > MAX_DIGITS) {
    throw new UsageError(`--interval takes a number of seconds in plain digits, such as --interval 30; got "${raw}".`, { usage: false });
  }
  const seconds = Number(raw);
  if (seconds < MIN_INTERVAL_S) {
    throw new UsageError(
      `--interval ${raw} is too short: the least is ${MIN_INTERVAL_S} seconds (edits are pushed as soon as they are saved anyway; the interval only polls the server).`,
      { usage: false },
    );
  }
  if (seconds > MAX_INTERVAL_S) {
    throw new UsageError(`--interval ${raw} is too long: the most is ${MAX_INTERVAL_S} seconds (a day).`, { usage: false });
  }
  return seconds;
}

const UNIT_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since <time>` as an ISO time, or null when not given: a span back from now (`30m`, `2h`,
 * `3d`, `1w`), a local date (`2026-12-01`, from its midnight) or local date and time
 * (`2026-12-01 22:50`, `2026-12-01T22:50`), or an ISO time with its zone (`…Z`, `…+01:00`).
 */
export function sinceFlag(args: ParsedArgs, now = Date.now()): string | null {
  const raw = flag(args, 'since');
  if (raw === undefined) return null;
  const span = /^([0-9]{1,6})(m|min|h|d|w)$/.exec(raw);
  if (span) return new Date(now - Number(span[1]) * UNIT_MS[span[2]!]!).toISOString();
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(raw);
  const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : Number.NaN;
  const t = local
    ? new Date(Number(local[1]), Number(local[2]) - 1, Number(local[3]), Number(local[4] ?? 0), Number(local[5] ?? 0), Number(local[6] ?? 0)).getTime()
    : zoned;
  if (Number.isNaN(t) || (local && new Date(t).getDate() !== Number(local[3])))
    throw new UsageError(
      `--since takes a span back from now (30m, 2h, 3d, 1w), a date (2026-12-01) or a date and time (2026-12-01 22:50, local; or ISO with its zone); got "${raw}".`,
      { usage: false },
    );
  return new Date(t).toISOString();
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
