/**
 * One `quire` invocation: read the command line against the commands' declarations
 * (commands.ts), load the one command asked for, run it, word its failure.
 *
 * Commands are loaded with `import()` so a command pays only for what it uses: `--help` loads
 * no database or API client, `sync --once` neither the web host nor the folder watcher. The
 * bundle (scripts/build-cli.mjs) splits along these imports.
 */
import { type CommandLine, flag, readCommandLine, UsageError } from './args';
import { COMMANDS } from './commands';
import type { CliContext } from './context';
import { commandHelp, globalHelp } from './help';
import { EXIT, type CliIo, type Style } from './io';
import { terminalSafe } from './terminal-text';
import { VERSION } from './version';

/** Select Graphic Rendition codes of each style, as git colours a diff. */
const SGR: Record<Style, string> = { meta: '\x1b[1m', hunk: '\x1b[36m', removed: '\x1b[31m', added: '\x1b[32m' };
const RESET = '\x1b[m';

/** Runs one `quire` invocation in-process; returns the exit code. */
export async function runCli(argv: string[], rawIo: CliIo, given?: CliContext): Promise<number> {
  // Everything printed passes through here: no token, no escape sequence from server text.
  // Colour is Quire's own: added around each part once the part is made safe.
  let colour: boolean | undefined;
  const io: CliIo = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(terminalSafe(text)),
    stderr: (text) => rawIo.stderr(terminalSafe(text)),
    stdoutStyled: (parts) => {
      colour ??= rawIo.colour?.() ?? false;
      rawIo.stdout(parts.map((p) => (colour && p.style ? `${SGR[p.style]}${terminalSafe(p.text)}${RESET}` : terminalSafe(p.text))).join(''));
    },
  };
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? argv[0] : null;
  const prefix = named ? `quire ${named}` : 'quire';
  let line: CommandLine;
  try {
    line = readCommandLine(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(usageLine(prefix, err));
    return EXIT.usage;
  }
  if (line.kind === 'version') {
    io.stdout(`quire ${VERSION}`);
    return EXIT.ok;
  }
  if (line.kind === 'help') {
    io.stdout(line.command ? commandHelp(line.command, COMMANDS[line.command as keyof typeof COMMANDS]) : globalHelp(COMMANDS));
    return line.bare ? EXIT.usage : EXIT.ok;
  }
  const { args, spec } = line;
  try {
    const [command, context] = await Promise.all([spec.load(), import('./context')]);
    // Every command's --dir: never the root of the file system or a home folder itself.
    const dir = flag(args, 'dir');
    if (dir !== undefined && dir.trim() !== '') context.refuseUnsafeDir(dir);
    const running = command(args, io, given ?? new context.CliContext(io));
    return await (spec.finishesOnStop ? running : untilStopped(running, io.signal));
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(usageLine(prefix, err));
      return EXIT.usage;
    }
    if (rawIo.signal.aborted) {
      // Ctrl-C (or SIGTERM) while work was in flight: what was done is recorded, the rest waits for the next run.
      io.stderr(`${prefix}: stopped.`);
      return EXIT.stopped;
    }
    // One clear line: what happened and what to do (the error messages carry both).
    const { errorMessage } = await import('./messages');
    io.stderr(`${prefix}: ${collapseLines(errorMessage(err, flag(args, 'dir')))}`);
    return EXIT.error;
  }
}

/** One line: what was wrong, and where the command's arguments are described when that helps. */
function usageLine(prefix: string, err: UsageError): string {
  const message = collapseLines(err.message);
  if (!err.showUsage || message.includes('--help')) return `${prefix}: ${message}`;
  return `${prefix}: ${message.replace(/\.$/, '')} (see \`${prefix} --help\`).`;
}

/** The command's result, or a rejection as soon as the signal aborts (the command is left where it is: see CommandSpec.finishesOnStop). */
function untilStopped(running: Promise<number>, signal: AbortSignal): Promise<number> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<number>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    running.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function collapseLines(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
