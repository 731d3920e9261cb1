import { parseArgs, UsageError } from './args';
import { EXIT, type CliIo } from './io';
import { CliContext } from './context';
import { errorMessage } from './messages';
import { sync } from './commands/sync';
import { status } from './commands/status';
import { login, logout } from './commands/login';
import { run as review } from './commands/review';
import { run as comment } from './commands/comment';
import { ui } from './commands/ui';
import { check } from './commands/check';
import { preview } from './commands/preview';
import { search } from './commands/search';
import { history } from './commands/history';
import { restore } from './commands/restore';
import type { ParsedArgs } from './args';

type Command = (args: ParsedArgs, io: CliIo, ctx: CliContext) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  sync,
  status,
  login,
  logout,
  review,
  check,
  preview,
  search,
  history,
  restore,
  ui: (args, io, ctx) => ui(args, io, { tokens: ctx.tokens }),
  // Interactive: when offline, queue the action after a short try instead of a long backoff.
  comment: (args, io, ctx) => comment(args, io, ctx.withApiOptions({ maxAttempts: 2 })),
};

const USAGE = `Quire — offline-first sync for hosted docs

Usage:
  quire sync --api <base_url> --dir <folder> [--space <spaceId>]... [--once] [--interval <seconds>] [--allow-deletes]
  quire status --dir <folder> [--json]
  quire review --dir <folder> [--json]   open change requests and unresolved comments
  quire check --dir <folder> [--space <spaceId>]... [--json]   broken links, SUMMARY.md, blocks, frontmatter (offline)
  quire comment reply|resolve|reopen|react <commentId> --dir <folder> [--body <markdown>] [--emoji <emoji>]
  quire search <terms> --dir <folder> [--space <id>] [--kind page|comment|reply]... [--limit <n>] [--json]
  quire history [<file or page id>] --dir <folder> [--json] [--keep-days <n>] [--keep-versions <n>]
  quire restore <file or page id> --version <n> --dir <folder>   the next sync pushes it
  quire ui --api <base_url> --dir <folder> [--port <n>]   the app in a browser (first stdout line: the URL)
  quire preview --dir <folder> [--port <n>]   pages as GitBook shows them, live (first stdout line: the URL)
  quire login [--api <base_url>]        reads the API token from stdin, stores it in the OS keychain
  quire logout [--api <base_url>]

The token comes from QUIRE_TOKEN, else from the keychain entry saved by \`quire login\`.
Exit codes: 0 ok, 1 error, 2 usage, 3 conflicts need you (check: errors found).`;

/** Runs one `quire` invocation in-process; returns the exit code. */
export async function runCli(argv: string[], io: CliIo, ctx = new CliContext(io)): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (err) {
    io.stderr(`quire: ${(err as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (!args.command || args.command === 'help' || args.flags.has('help')) {
    io.stdout(USAGE);
    return args.command || args.flags.has('help') ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS[args.command];
  if (!command) {
    io.stderr(`quire: unknown command "${args.command}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    return await command(args, io, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`quire ${args.command}: ${err.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (io.signal.aborted && (err as Error)?.name === 'CancelledError') return EXIT.ok;
    // One clear line: what happened and what to do (the error messages carry both).
    io.stderr(`quire ${args.command}: ${oneLine(errorMessage(err))}`);
    return EXIT.error;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
