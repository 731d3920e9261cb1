import { runCli } from './run';
import type { CliIo } from './io';

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

const io: CliIo = {
  stdout: (text) => process.stdout.write(text + '\n'),
  stderr: (text) => process.stderr.write(text + '\n'),
  env: process.env,
  signal: controller.signal,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`quire: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
