/**
 * `quire --help` and `quire <command> --help`, written from the commands' declarations
 * (commands.ts), so what help says is what the parser accepts.
 */
import type { ArgsSpec, CommandSpec, FlagSpec } from './spec';

/** The usage lines of a command: one, or one per verb. */
export function usageLines(name: string, spec: CommandSpec): string[] {
  if (!spec.verbs) return [`quire ${name}${argumentsOf(spec)}`];
  return Object.entries(spec.verbs).map(
    ([verb, v]) => `quire ${name} ${verb}${argumentsOf({ positionals: v.positionals, flags: { ...spec.flags, ...v.flags } })}`,
  );
}

function argumentsOf(spec: ArgsSpec): string {
  const parts: string[] = [];
  for (const p of spec.positionals ?? []) parts.push(`${p.optional ? `[${p.name}]` : p.name}${p.rest ? '...' : ''}`);
  const flags = Object.entries(spec.flags ?? {});
  // Required flags first, as a reader scans for what must be given.
  for (const [name, f] of [...flags.filter(([, f]) => f.required), ...flags.filter(([, f]) => !f.required)]) {
    const written = flagWritten(name, f);
    parts.push(f.required ? written : `[${written}]${f.repeatable ? '...' : ''}`);
  }
  return parts.map((p) => ` ${p}`).join('');
}

const flagWritten = (name: string, f: FlagSpec) => (f.value === undefined ? `--${name}` : `--${name} ${f.value}`);

/** `quire --help`. */
export function globalHelp(commands: Readonly<Record<string, CommandSpec>>): string {
  const lines = ['Quire — offline-first sync for hosted docs', '', 'Usage:'];
  for (const [name, spec] of Object.entries(commands)) {
    for (const line of usageLines(name, spec)) lines.push(`  ${line}`);
    lines.push(`      ${spec.summary}`);
  }
  lines.push(
    '',
    '`quire <command> --help` describes a command and each of its flags; `quire --version` prints the version.',
    'The token comes from QUIRE_TOKEN, else from the keychain entry saved by `quire login` for that API.',
    'Exit codes: 0 ok, 1 error, 2 usage, 3 something needs you (check: errors found), 130 stopped (Ctrl-C).',
  );
  return lines.join('\n');
}

/** `quire <command> --help`. */
export function commandHelp(name: string, spec: CommandSpec): string {
  const lines = [`quire ${name}: ${spec.summary}`, '', 'Usage:', ...usageLines(name, spec).map((l) => `  ${l}`)];
  const flags: [string, string][] = [];
  const seen = new Set<string>();
  const addFlags = (of: ArgsSpec, note = '') => {
    for (const [flag, f] of Object.entries(of.flags ?? {})) {
      if (seen.has(flag)) continue;
      seen.add(flag);
      flags.push([flagWritten(flag, f), `${f.help}${note}`]);
    }
  };
  addFlags(spec);
  for (const [verb, v] of Object.entries(spec.verbs ?? {})) addFlags(v, ` (for ${verb})`);
  flags.push(['--help', 'this help']);
  if (spec.verbs) {
    lines.push('', 'Verbs:');
    const width = Math.max(...Object.keys(spec.verbs).map((v) => v.length));
    for (const [verb, v] of Object.entries(spec.verbs)) lines.push(`  ${verb.padEnd(width)}  ${v.summary}`);
  }
  const width = Math.max(...flags.map(([written]) => written.length));
  lines.push('', 'Flags:', ...flags.map(([written, help]) => `  ${written.padEnd(width)}  ${help}`));
  if (spec.details?.length) lines.push('', ...spec.details);
  return lines.join('\n');
}
