import { runCli } from './run';
import { EXIT, processIo } from './io';
import { terminalSafe } from './terminal-text';

// Entry point of the `quire` command (bin/quire.cjs runs its bundle).
const controller = new AbortController();
let stopping = false;
let finished = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    // A second Ctrl-C forces it; so does any once the command has returned (nothing left to finish).
    if (stopping || finished) process.exit(finished ? (process.exitCode ?? EXIT.stopped) : EXIT.stopped);
    stopping = true;
    controller.abort();
  });
}

runCli(process.argv.slice(2), processIo(controller.signal)).then(
  (code) => {
    finished = true;
    process.exitCode = code;
    // Stopped: what the command left running (a read, an index being built) is not waited for.
    if (code === EXIT.stopped) process.exit(code);
  },
  (err) => {
    finished = true;
    process.stderr.write(`quire: ${terminalSafe((err as Error).message)}\n`);
    process.exitCode = EXIT.error;
  },
);
