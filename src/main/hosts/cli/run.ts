/**
 * One `quire` invocation: parse, load the one command asked for, run it, word its failure.
 *
 * Commands are loaded with `import()` so a command pays only for what it uses: `--help` loads
 * no database or API client, `sync --once` neither the web host nor the folder watcher. The
 * bundle (scripts/build-cli.mjs) splits along these imports.
 */
import { parseArgs, UsageError, type ParsedArgs } from './args';
import type { CliContext } from './context';
import { EXIT, type CliIo } from './io';
import { terminalSafe } from './terminal-text';

type Command = (args: ParsedArgs, io: CliIo, ctx: CliContext) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  sync: async () => (await import('./commands/sync')).sync,
  status: async () => (await import('./commands/status')).status,
  login: async () => (await import('./commands/login')).login,
  logout: async () => (await import('./commands/login')).logout,
  review: async () => (await import('./commands/review')).run,
  check: async () => (await import('./commands/check')).check,
  preview: async () => (await import('./commands/preview')).preview,
  search: async () => (await import('./commands/search')).search,
  history: async () => (await import('./commands/history')).history,
  restore: async () => (await import('./commands/restore')).restore,
  ui: async () => {
    const { ui } = await import('./commands/ui');
    return (args, io, ctx) => ui(args, io, { tokens: ctx.tokens });
  },
  comment: async () => {
    const { run } = await import('./commands/comment');
    // Interactive: when offline, queue the action after a short try instead of a long backoff.
    return (args, io, ctx) => run(args, io, ctx.withApiOptions({ maxAttempts: 2 }));
  },
};

const USAGE = `Quire — offline-first sync for hosted docs

Usage:
  quire sync --api <base_url> --dir <folder> [--space <spaceId>]... | [--all-spaces] [--once] [--interval <seconds>] [--allow-deletes] [--dry-run [--json]]
  quire status --dir <folder> [--json]   the sync state, what to do, and per space the details
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

The token comes from QUIRE_TOKEN, else from the keychain entry saved by \`quire login\` for that API.
Exit codes: 0 ok, 1 error, 2 usage, 3 conflicts need you (check: errors found), 130 stopped (Ctrl-C).`;

/** Runs one `quire` invocation in-process; returns the exit code. */
export async function runCli(argv: string[], rawIo: CliIo, given?: CliContext): Promise<number> {
  // Everything printed passes through here: no token, no escape sequence from server text.
  const io: CliIo = { ...rawIo, stdout: (text) => rawIo.stdout(terminalSafe(text)), stderr: (text) => rawIo.stderr(terminalSafe(text)) };
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
  const load = COMMANDS[args.command];
  if (!load) {
    io.stderr(`quire: unknown command "${args.command}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    const [command, ctx] = await Promise.all([load(), given ?? import('./context').then(({ CliContext }) => new CliContext(io))]);
    return await command(args, io, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(err.showUsage ? `quire ${args.command}: ${err.message}\n\n${USAGE}` : `quire ${args.command}: ${err.message}`);
      return EXIT.usage;
    }
    if (rawIo.signal.aborted) {
      // Ctrl-C (or SIGTERM) while work was in flight: what was done is recorded, the rest waits for the next run.
      io.stderr(`quire ${args.command}: stopped.`);
      return EXIT.stopped;
    }
    // One clear line: what happened and what to do (the error messages carry both).
    const { errorMessage } = await import('./messages');
    io.stderr(`quire ${args.command}: ${collapseLines(errorMessage(err))}`);
    return EXIT.error;
  }
}

function collapseLines(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
