/**
 * The token goes only where its user sent it (issue 27, item 7). A folder's mirror remembers its
 * API address, and the mirror travels with the folder: edited with sqlite, or received from
 * someone else, it could name any host. QUIRE_TOKEN is sent to the address given with `--api`
 * on the same command line, or to the one its user gave for this folder before (recorded
 * outside the folder, where nothing in it can forge the record); a remembered address that
 * changed since is refused in one line, and the other host receives nothing — no Authorization
 * header, no request at all.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { parseArgs } from '../../../src/main/hosts/cli/args';
import { ui } from '../../../src/main/hosts/cli/commands/ui';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { seedGuide } from '../../helpers/sync';
import { json, startServer, type ScriptedServer } from '../../api/scripted-server';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
/** Another host, glad to take any token: it answers every request as the API would. */
let other: ScriptedServer;
beforeEach(async () => {
  fake = await startFakeApi();
  seedGuide(fake);
  other = await startServer((_req, res) => json(res, 200, { items: [], next: null }));
});
afterEach(async () => {
  killStarted();
  await other.close();
  await fake.close();
});

/** This user's own place for what Quire keeps outside folders (each test a fresh one). */
const user = () => ({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'quire-user-')) });

/** What the probe did: the folder's remembered address edited in its mirror. */
function rememberElsewhere(root: string, apiUrl: string): void {
  const db = new Database(join(root, '.quire/mirror.db'));
  db.prepare(`UPDATE meta SET value = ? WHERE key = 'api.baseUrl'`).run(apiUrl);
  db.close();
}

const said = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '' && !/^(Pulling|Pushing) /.test(l));

it('a remembered address edited to name another host is refused in one line by `review` and `sync`: that host receives nothing', async () => {
  const me = { ...user(), QUIRE_TOKEN: fake.token };
  const root = tempDir();
  expect((await startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], me).exited).code).toBe(0);
  rememberElsewhere(root, other.origin);

  for (const args of [
    ['review', '--dir', root],
    ['sync', '--dir', root, '--once'],
    ['sync', '--dir', root, '--dry-run'],
    ['comment', 'new', '--dir', root, '--page', 'guide/faq.md', '--body', 'Still true?'],
  ]) {
    const run = await startQuire(args, me).exited;
    expect(other.seen, args.join(' ')).toEqual([]);
    expect(run.code, args.join(' ')).toBe(2);
    expect(said(run.stderr), args.join(' ')).toEqual([
      `quire ${args[0]}: this folder's mirror now names the API ${other.origin}, but you gave ${fake.url} for it; Quire sends no token to an address only the folder names. If ${other.origin} is right, run \`quire sync --dir ${root} --api ${other.origin}\` once.`,
    ]);
  }
}, 120_000);

it('a folder from someone else: its address gets QUIRE_TOKEN only once this user gives it with --api', async () => {
  const root = tempDir();
  expect((await startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], { ...user(), QUIRE_TOKEN: fake.token }).exited).code).toBe(0);
  rememberElsewhere(root, other.origin);
  const me = { ...user(), QUIRE_TOKEN: fake.token };

  const refused = await startQuire(['review', '--dir', root], me).exited;

  expect(other.seen).toEqual([]);
  expect(refused.code).toBe(2);
  expect(said(refused.stderr)).toEqual([
    `quire review: QUIRE_TOKEN goes only to an API address you gave for this folder, and ${other.origin} comes from its mirror alone (a folder synced elsewhere, or before Quire kept a record); if it is right, run \`quire sync --dir ${root} --api ${other.origin}\` once.`,
  ]);

  // Given on the command line, it is this user's choice: the token goes there, and later commands may leave --api out.
  await startQuire(['sync', '--dir', root, '--api', other.origin, '--once'], me).exited;
  expect(other.seen.length).toBeGreaterThan(0);
  const asked = other.seen.length;
  await startQuire(['review', '--dir', root], me).exited;
  expect(other.seen.length).toBeGreaterThan(asked);
  expect(other.seen.every((r) => r.headers.authorization === `Bearer ${fake.token}`)).toBe(true);
}, 120_000);

it('the address given once with --api is used without it, by this user, as before', async () => {
  const me = { ...user(), QUIRE_TOKEN: fake.token };
  const root = tempDir();
  expect((await startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], me).exited).code).toBe(0);

  const review = await startQuire(['review', '--dir', root], me).exited;
  const again = await startQuire(['sync', '--dir', root, '--once'], me).exited;

  expect([review.code, again.code]).toEqual([0, 0]);
}, 60_000);

it('`quire ui` without --api refuses a remembered address that changed, before it serves or sends anything', async () => {
  const env = { ...user(), QUIRE_TOKEN: fake.token };
  const root = tempDir();
  expect((await startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], env).exited).code).toBe(0);
  rememberElsewhere(root, other.origin);
  const renderer = tempDir();
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Quire</title>');
  const previous = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = env.XDG_CONFIG_HOME;
  try {
    const io = { stdout: () => undefined, stderr: () => undefined, env, readStdin: async () => '', signal: new AbortController().signal };
    await expect(ui(parseArgs(['ui', '--dir', root]), io, { tokens: new MemoryTokenStore(), rendererDir: renderer })).rejects.toThrow(
      `this folder's mirror now names the API ${other.origin}, but you gave ${fake.url} for it`,
    );
  } finally {
    process.env.XDG_CONFIG_HOME = previous;
  }
  expect(other.seen).toEqual([]);
}, 60_000);
