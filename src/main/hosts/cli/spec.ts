/**
 * What a `quire` command declares about its arguments, in one place (commands.ts): its flags,
 * its positional arguments, its help. The parser (args.ts) accepts exactly that and refuses
 * anything else; the help (help.ts) is written from it, so the two cannot disagree.
 */
import type { ParsedArgs } from './args';
import type { CliContext } from './context';
import type { CliIo } from './io';

/** A command's code: runs with its checked arguments, returns the exit code. */
export type Command = (args: ParsedArgs, io: CliIo, ctx: CliContext) => Promise<number>;

export interface FlagSpec {
  /**
   * What the flag's value is, as help shows it (`<folder>`): `--dir <folder>` or `--dir=<folder>`.
   * Absent: a switch, which takes no value (`--once`; `--once=yes|no` also reads).
   */
  value?: string;
  /** Given more than once, every value counts (`--space a --space b`); otherwise a second one is refused. */
  repeatable?: boolean;
  required?: boolean;
  /** One line: what it does (help prints it beside the flag). */
  help: string;
}

export interface PositionalSpec {
  /** As help shows it: `<commentId>`. */
  name: string;
  /** What it is, said when it is missing: "the comment (`quire review` lists them)". */
  what: string;
  optional?: boolean;
  /** Takes every argument left (`quire search <terms>...`). */
  rest?: boolean;
}

export interface ArgsSpec {
  positionals?: readonly PositionalSpec[];
  flags?: Readonly<Record<string, FlagSpec>>;
}

/** A verb of a command (`quire comment reply …`): its own arguments, beside the command's flags. */
export interface VerbSpec extends ArgsSpec {
  summary: string;
}

export interface CommandSpec extends ArgsSpec {
  /** One line, for `quire --help`. */
  summary: string;
  /** More for `quire <command> --help`: how it behaves, its exit codes. */
  details?: readonly string[];
  /** Verbs chosen by the first argument; each verb's positionals follow it. */
  verbs?: Readonly<Record<string, VerbSpec>>;
  /**
   * Ctrl-C is this command's to handle: it finishes the step it is in and records it (a sync
   * cycle, a restore) or closes what it serves. Any other command is stopped at once: it reads,
   * or writes only in transactions, so stopping it between two steps loses nothing.
   */
  finishesOnStop?: boolean;
  /** Its code, loaded only when it runs (the bundle splits along these imports). */
  load(): Promise<Command>;
}
