/**
 * A command loads what it needs (issue 21, item 2): `quire status`, `quire search` and
 * `quire --version` on a synced folder load neither the HTTP stack nor the official API client's
 * compression, nor the build step's child processes, nor a stream (their output is written
 * straight to the descriptor); `sync --once` does load the HTTP stack (the
 * check sees what a command loads). The commands that open the mirror load SQLite's addon where
 * it is, without the `bindings` package's search for it (issue 31, item 4). The real process, as installed, with the Node modules it
 * loaded written as it exits.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../../bench/cli-process';
import { tempDir } from '../../helpers/cli';
import { buildCli } from '../../helpers/cli-process';
import { seedGuide } from '../../helpers/sync';

const REPORTER = fileURLToPath(new URL('./load-on-demand.mjs', import.meta.url));
/** Loaded with the first request or the first compressed answer, or when the launcher builds: never by a command that sends none. */
const NETWORK = ['http', 'https', 'tls', 'zlib', 'child_process'];
/** Loaded by a stream made for stdout or stderr, or by node:fs/promises: the CLI writes lines straight to its descriptors, and reads files through fs.promises when it first needs to. */
const STREAMS = ['stream', 'net', 'fs/promises'];

let fake: FakeApi;
let dir: string;

/** The Node modules `quire <args>` loaded, from its process start to its exit (it must succeed). */
async function loaded(args: string[]): Promise<string[]> {
  return (await loadedAll(args)).modules;
}

/** The Node modules and the files outside the bundle `quire <args>` loaded (it must succeed). */
async function loadedAll(args: string[]): Promise<{ modules: string[]; files: string[] }> {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, '--import', REPORTER, CLI, ...args], {
    env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(0);
  const line = /^QUIRE_MODULES (.*)$/m.exec(stderr);
  const files = /^QUIRE_FILES (.*)$/m.exec(stderr);
  if (!line || !files) throw new Error(`no module list: ${stderr}`);
  return { modules: JSON.parse(line[1]!) as string[], files: JSON.parse(files[1]!) as string[] };
}

beforeAll(async () => {
  buildCli();
  fake = await startFakeApi();
  seedGuide(fake);
  dir = tempDir();
  await loaded(['sync', '--api', fake.url, '--dir', dir, '--once']);
}, 120_000);

afterAll(async () => {
  await fake.close();
});

describe('the installed command loads what the command needs', () => {
  it.each([
    ['status', () => ['status', '--dir', dir]],
    ['search', () => ['search', 'reader', '--dir', dir]],
    ['--version', () => ['--version']],
  ])('%s loads no HTTP, TLS, compression or child process module, and prints without a stream or node:fs/promises', async (_name, args) => {
    const modules = await loaded(args());
    expect(modules.filter((m) => NETWORK.includes(m))).toEqual([]);
    expect(modules.filter((m) => STREAMS.includes(m))).toEqual([]);
  });

  it.each([
    ['status', () => ['status', '--dir', dir]],
    ['search', () => ['search', 'reader', '--dir', dir]],
  ])('%s loads SQLite’s addon without the bindings package’s search for it', async (_name, args) => {
    const { files } = await loadedAll(args());
    const packages = files.map((f) => /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(f)?.[1]);
    expect(packages).toContain('better-sqlite3');
    expect(files.filter((f) => f.endsWith('.node'))).toHaveLength(1);
    expect(packages).not.toContain('bindings');
  });

  it('sync --once does load the HTTP stack (what a command loads is seen)', async () => {
    expect(await loaded(['sync', '--dir', dir, '--once'])).toContain('http');
  });
});
