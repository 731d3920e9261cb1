/**
 * The sample organization on the project's fake API, for the demos and the README's
 * walk-through (test/docs/readme-walkthrough.test.ts runs `demoSync` as `npm run demo:sync` does).
 *
 * `npm run demo:sync [-- <folder>]`: starts the sample API on 127.0.0.1, syncs it into the folder
 * (default ./quire-demo) with the real CLI, shows `quire status`, and stops the API.
 * `-- --dry-run`: starts the same sample API and shows what a sync of the folder would do.
 * `-- --serve`: syncs, then keeps the sample API up until Ctrl-C, so other `quire` commands can be
 * tried against it from another terminal (the folder remembers its address).
 * `npm run demo`'s first run chooses and syncs the sample spaces (`firstRunSync`).
 */
import { type FakeApi, startFakeApi } from '../test/fake';
import { seedDemo } from '../test/fake/seed';
import type { CliIo } from '../src/main/hosts/cli/io';
import { runCli } from '../src/main/hosts/cli/run';

/** A fresh sample API: the same organization, spaces, change requests and comments every time. */
export async function startSampleApi(): Promise<FakeApi> {
  const fake = await startFakeApi();
  seedDemo(fake.store);
  return fake;
}

/**
 * `npm run demo`'s first run: a folder with no space chosen yet gets every sample space, synced
 * once by `quire sync --once` (the choice the app makes when each is ticked), so the app opens on
 * the sample's pages rather than on "Not set up". True when it synced; a folder that has a
 * choice (ticked or unticked in the app) keeps it.
 */
export async function firstRunSync(dir: string, fake: FakeApi, io: CliIo): Promise<boolean> {
  const cli = { ...io, env: { ...io.env, QUIRE_TOKEN: fake.token } };
  const json: string[] = [];
  if ((await runCli(['status', '--dir', dir, '--json'], { ...cli, stdout: (t) => json.push(t) })) !== 0) return false;
  let state: unknown;
  try {
    state = (JSON.parse(json.join('\n')) as { state?: unknown }).state;
  } catch {
    return false; // the app says what is wrong with the folder
  }
  if (state !== 'not-set-up') return false;
  io.stderr(`First run: syncing the sample spaces into ${dir}…`);
  const code = await runCli(['sync', '--api', fake.url, '--dir', dir, '--once'], { ...cli, stdout: io.stderr });
  if (code !== 0) io.stderr(`The first sync ended with exit ${code}; the app shows why.`);
  return true;
}

/**
 * `npm run demo:sync` with its arguments; the exit code. With `--serve` it returns once `io.signal`
 * is aborted (Ctrl-C), after `onServing` was called with the running API.
 */
export async function demoSync(args: readonly string[], io: CliIo, onServing?: (fake: FakeApi) => void): Promise<number> {
  const dryRun = args.includes('--dry-run');
  const serve = args.includes('--serve');
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--dry-run' && a !== '--serve');
  if (unknown.length > 0 || (dryRun && serve)) {
    io.stderr(`npm run demo:sync takes a folder and --dry-run or --serve, not ${unknown[0] ?? 'both'}.`);
    return 2;
  }
  // The folder as given (relative to here), so what is printed is what the reader types.
  const dir = args.find((a) => !a.startsWith('--')) ?? 'quire-demo';
  const fake = await startSampleApi();
  const cli = { ...io, env: { ...io.env, QUIRE_TOKEN: fake.token } };
  try {
    if (dryRun) {
      io.stdout(`Sample API on ${fake.url}\n\n> quire sync --api ${fake.url} --dir ${dir} --dry-run`);
      return await runCli(['sync', '--api', fake.url, '--dir', dir, '--dry-run'], cli);
    }
    io.stdout(`Sample API on ${fake.url}; syncing into ${dir}\n\n> quire sync --api ${fake.url} --dir ${dir} --once`);
    const code = await runCli(['sync', '--api', fake.url, '--dir', dir, '--once'], cli);
    io.stdout(`(exit ${code})\n\n> quire status --dir ${dir}`);
    await runCli(['status', '--dir', dir], cli);
    io.stdout(`\nOpen ${dir} in your editor: one folder per space, one markdown file per page.`);
    if (serve && !io.signal.aborted) {
      io.stdout(
        `\nThe sample API stays up on ${fake.url} until Ctrl-C (it forgets every change when it stops).\n` +
          `In another terminal, in this folder, first:\n  export QUIRE_TOKEN=${fake.token}\n` +
          `then run quire commands on ${dir} (it remembers this API).`,
      );
      onServing?.(fake);
      await new Promise<void>((stopped) => {
        if (io.signal.aborted) stopped();
        else io.signal.addEventListener('abort', () => stopped(), { once: true });
      });
      io.stdout('Sample API stopped.');
    }
    return code;
  } finally {
    await fake.close();
  }
}
