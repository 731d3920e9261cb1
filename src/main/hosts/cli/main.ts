import { runCli } from './run';
import { processIo } from './io';

// Entry point of `npm run quire -- <command>`.
const controller = new AbortController();
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) process.exit(130); // a second Ctrl-C forces it
    stopping = true;
    controller.abort();
  });
}

runCli(process.argv.slice(2), processIo(controller.signal)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`quire: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
