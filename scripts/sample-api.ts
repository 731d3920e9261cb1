/**
 * The sample organization on the project's fake API, for the demos and the README's
 * walk-through (test/docs/readme-walkthrough.test.ts runs `demoSync` as `npm run demo:sync` does).
 *
 * `npm run demo:sync [-- <folder>]`: starts the sample API on 127.0.0.1, syncs it into the folder
 * (default ./quire-demo) with the real CLI, shows `quire status`, and stops the API.
 * `-- --dry-run`: starts the same sample API and shows what a sync of the folder would do.
 * `-- --serve`: syncs (without the status), then keeps the sample API up until Ctrl-C, so other
 * `quire` commands can be tried against it from another terminal (the folder remembers its address).
 * Each run starts a fresh sample API at the address the folder remembers, when it is free.
 * `npm run demo`'s first run chooses and syncs the sample spaces (`readyForApp`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeApi, startFakeApi } from '../test/fake';
import { seedDemo } from '../test/fake/seed';
import type { CliIo } from '../src/main/hosts/cli/io';
import { runCli } from '../src/main/hosts/cli/run';

/** A fresh sample API: the same organization, spaces, change requests and comments every time. */
export async function startSampleApi(port = 0): Promise<FakeApi> {
  const fake = await startFakeApi({ port });
  seedDemo(fake.store);
  return fake;
}

/**
 * A fresh sample API for a folder: on the port of the sample API the folder last synced with
 * when that port is free, so the address the folder remembers still answers (its commands, and
 * the app given the sample's token for that address, work on); otherwise on any free port.
 */
export async function sampleApiFor(dir: string, io: CliIo): Promise<FakeApi> {
  const port = loopbackPort((await folderStatus(dir, io))?.apiUrl ?? null);
  if (port !== null) {
    try {
      return await startSampleApi(port);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
  return startSampleApi();
}

/**
 * Readies the folder for `npm run demo`'s app, with `quire sync --once` when it must (true then):
 * - the first run (no space chosen yet) gets every sample space, the choice the app makes when
 *   each is ticked, so the app opens on the sample's pages rather than on "Not set up";
 * - a folder whose sample API is gone from its port (taken by another program) moves to this one.
 * A folder with a choice (ticked or unticked in the app) keeps it.
 */
export async function readyForApp(dir: string, fake: FakeApi, io: CliIo): Promise<boolean> {
  const status = await folderStatus(dir, io);
  if (status === null) return false; // the app says what is wrong with the folder
  if (status.state === 'not-set-up') io.stderr(`First run: syncing the sample spaces into ${dir}…`);
  else if (status.apiUrl !== fake.url && loopbackPort(status.apiUrl) !== null)
    io.stderr(`${dir} synced with an earlier sample API, on a port taken now: it moves to this one.`);
  else return false;
  const code = await runCli(['sync', '--api', fake.url, '--dir', dir, '--once'], { ...io, env: { ...io.env, QUIRE_TOKEN: fake.token }, stdout: io.stderr });
  if (code !== 0) io.stderr(`That sync ended with exit ${code}; the app shows why.`);
  return true;
}

/** What `quire status --json` says of a folder (its state, the API it remembers); null without a mirror, or one it cannot read. */
async function folderStatus(dir: string, io: CliIo): Promise<{ state: unknown; apiUrl: string | null } | null> {
  // No mirror yet: nothing to ask (and `--dry-run` must not find one made by asking).
  if (!existsSync(join(dir, '.quire', 'mirror.db'))) return { state: 'not-set-up', apiUrl: null };
  const json: string[] = [];
  if ((await runCli(['status', '--dir', dir, '--json'], { ...io, stdout: (t) => json.push(t) })) !== 0) return null;
  try {
    const status = JSON.parse(json.join('\n')) as { state?: unknown; apiUrl?: unknown };
    return { state: status.state, apiUrl: typeof status.apiUrl === 'string' ? status.apiUrl : null };
  } catch {
    return null;
  }
}

/** The port of an address on this machine (a sample API's), else null. */
function loopbackPort(url: string | null): number | null {
  const m = url === null ? null : /^http:\/\/127\.0\.0\.1:(\d+)\/?$/.exec(url);
  return m ? Number(m[1]) : null;
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
  const fake = await sampleApiFor(dir, io);
  const cli = { ...io, env: { ...io.env, QUIRE_TOKEN: fake.token } };
  try {
    if (dryRun) {
      io.stdout(`Sample API on ${fake.url}\n\n> quire sync --api ${fake.url} --dir ${dir} --dry-run`);
      return await runCli(['sync', '--api', fake.url, '--dir', dir, '--dry-run'], cli);
    }
    io.stdout(`Sample API on ${fake.url}; syncing into ${dir}\n\n> quire sync --api ${fake.url} --dir ${dir} --once`);
    const code = await runCli(['sync', '--api', fake.url, '--dir', dir, '--once'], cli);
    io.stdout(`(exit ${code})`);
    if (!serve) {
      io.stdout(`\n> quire status --dir ${dir}`);
      await runCli(['status', '--dir', dir], cli);
    }
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
