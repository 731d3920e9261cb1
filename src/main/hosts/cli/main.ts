import { runCli } from './run';
import { EXIT, processIo } from './io';
import { terminalSafe } from './terminal-text';

// Entry point of `npm run quire -- <command>`.
const controller = new AbortController();
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) process.exit(EXIT.stopped); // a second Ctrl-C forces it
    stopping = true;
    controller.abort();
  });
}

runCli(process.argv.slice(2), processIo(controller.signal)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`quire: ${terminalSafe((err as Error).message)}\n`);
    process.exitCode = EXIT.error;
  },
);
