/**
 * Runs one `quire` command like the CLI does, then reports the process's
 * peak memory on stderr, so the benchmark measures a real CLI process
 * without a benchmark hook in the product.
 */
import { runCli } from '../../src/main/hosts/cli/run';
import type { CliIo } from '../../src/main/hosts/cli/io';

const io: CliIo = {
  stdout: (t) => process.stdout.write(t + '\n'),
  stderr: (t) => process.stderr.write(t + '\n'),
  env: process.env,
  readStdin: async () => '',
  signal: new AbortController().signal,
};

const started = performance.now();
const code = await runCli(process.argv.slice(2), io);
const syncMs = performance.now() - started;
process.stderr.write(`QUIRE_BENCH ${JSON.stringify({ syncMs, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
process.exitCode = code;
