/** Minimal, strict flag parser for the `quire` command line. */
export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Map<string, string[]>;
}

export class UsageError extends Error {}

/** Flags that take no value. */
const BOOLEAN_FLAGS = new Set(['once', 'json', 'help', 'verbose', 'allow-deletes']);

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
