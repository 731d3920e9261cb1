/**
 * `npm run demo:sync`: the main job without an account. Starts the fake API
 * on 127.0.0.1 with a sample organization, syncs it into ./quire-demo with
 * the real CLI, then shows `quire status`. `npm run demo:sync -- --dry-run`
 * starts the same sample API and shows what a sync of the folder would do;
 * `npm run demo:sync -- --serve` keeps the sample API running afterwards (until
 * Ctrl-C), so other `quire` commands can be tried against it from another terminal.
 */
import { resolve } from 'node:path';
import { processIo } from '../src/main/hosts/cli/io';
import { runCli } from '../src/main/hosts/cli/run';
import { startFakeApi } from '../test/fake';
import { seedDemo } from '../test/fake/seed';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const serve = args.includes('--serve');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? 'quire-demo');
const fake = await startFakeApi();
seedDemo(fake.store);

const io = processIo(undefined, { ...process.env, QUIRE_TOKEN: fake.token });

try {
  if (dryRun) {
    console.log(`Sample API on ${fake.url}\n\n$ quire sync --api ${fake.url} --dir ${dir} --dry-run`);
    process.exitCode = await runCli(['sync', '--api', fake.url, '--dir', dir, '--dry-run'], io);
  } else await syncAndShow();
  if (serve) await serveUntilStopped();
} finally {
  await fake.close();
}

/** Keeps the sample API up for the commands the README walks through, until Ctrl-C. */
async function serveUntilStopped(): Promise<void> {
  console.log(
    `\nThe sample API stays up on ${fake.url} until Ctrl-C. In another terminal, first:\n  export QUIRE_TOKEN=${fake.token}\nthen run quire commands on ${dir} (it remembers this API).`,
  );
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
}

async function syncAndShow(): Promise<void> {
  console.log(`Sample API on ${fake.url}; syncing into ${dir}\n`);
  console.log(`$ quire sync --api ${fake.url} --dir ${dir} --once`);
  const code = await runCli(['sync', '--api', fake.url, '--dir', dir, '--once'], io);
  console.log(`(exit ${code})\n\n$ quire status --dir ${dir}`);
  await runCli(['status', '--dir', dir], io);
  console.log(`\nOpen ${dir} in your editor: one folder per space, one markdown file per page.`);
  process.exitCode = code;
}
