/**
 * `npm run demo:sync`: the main job without an account. Starts the fake API
 * on 127.0.0.1 with a sample organization, syncs it into ./quire-demo with
 * the real CLI, then shows `quire status`.
 */
import { resolve } from 'node:path';
import { processIo } from '../src/main/hosts/cli/io';
import { runCli } from '../src/main/hosts/cli/run';
import { startFakeApi } from '../test/fake';
import { seedDemo } from '../test/fake/seed';

const dir = resolve(process.argv[2] ?? 'quire-demo');
const fake = await startFakeApi();
seedDemo(fake.store);

const io = processIo(undefined, { ...process.env, QUIRE_TOKEN: fake.token });

try {
  console.log(`Sample API on ${fake.url}; syncing into ${dir}\n`);
  console.log(`$ quire sync --api ${fake.url} --dir ${dir} --once`);
  const code = await runCli(['sync', '--api', fake.url, '--dir', dir, '--once'], io);
  console.log(`(exit ${code})\n\n$ quire status --dir ${dir}`);
  await runCli(['status', '--dir', dir], io);
  console.log(`\nOpen ${dir} in your editor: one folder per space, one markdown file per page.`);
  process.exitCode = code;
} finally {
  await fake.close();
}
