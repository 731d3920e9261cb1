/**
 * A corrupt mirror through the command line (issue 9, items 3 and 9): `quire status` says what
 * is wrong and that the next sync rebuilds it, and touches nothing; `quire sync` moves it aside
 * (kept for inspection) with one line saying so, whether the damage shows on opening or halfway
 * through a cycle.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';

let fake: FakeApi;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

const sync = () => quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } });
const kept = () => readdirSync(join(dir, '.quire')).filter((f) => /^mirror\.db\.corrupt-[\dT-]+Z$/.test(f));

it('not a database: status says so and changes nothing; sync keeps it aside, says so in one line, and syncs', async () => {
  mkdirSync(join(dir, '.quire'));
  writeFileSync(join(dir, '.quire/mirror.db'), 'garbage '.repeat(1000));

  const status = await quire(['status', '--dir', dir]);
  expect(status.code).toBe(1);
  expect(status.stderr).toBe(
    `quire status: Quire's sync state in ${join(dir, '.quire/mirror.db')} is damaged (file is not a database). ` +
      'Your files are not affected. The next sync moves it aside, keeps it for inspection, and rebuilds it from the server and your folder.',
  );
  expect(readFileSync(join(dir, '.quire/mirror.db'), 'utf8')).toBe('garbage '.repeat(1000));

  const run = await sync();
  expect(run.code).toBe(0);
  const [file] = kept();
  expect(readFileSync(join(dir, '.quire', file!), 'utf8')).toBe('garbage '.repeat(1000));
  expect(run.stderr.split('\n')[0]).toBe(
    `Quire's sync state was unreadable (file is not a database): it is kept as ${join(dir, '.quire', file!)} for inspection, and a fresh one was started. Sync rebuilds it from the server and your folder.`,
  );
  expect(existsSync(join(dir, 'guide/README.md'))).toBe(true);
  expect((await quire(['status', '--dir', dir])).code).toBe(0);
});

it('a malformed page found halfway through a cycle: sync keeps the file aside and says to run again', async () => {
  expect((await sync()).code).toBe(0);
  // Damage the folder's tree, which every command reads (the schema still reads fine).
  const path = join(dir, '.quire/mirror.db');
  const db = new Database(path);
  const { rootpage } = db.prepare(`SELECT rootpage FROM sqlite_schema WHERE name = 'folder_nodes'`).get() as { rootpage: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (rootpage - 1) * pageSize);
  closeSync(fd);

  const status = await quire(['status', '--dir', dir]);
  expect(status.code).toBe(1);
  expect(status.stderr).toMatch(/^quire status: Quire's sync state in .* is damaged \(database disk image is malformed\)\..* The next sync moves it aside/);

  const run = await sync();
  expect(run.code).toBe(1);
  expect(run.stderr.split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(
    /^quire sync: Quire's sync state was unreadable \(database disk image is malformed\): it is kept as .*mirror\.db\.corrupt-.* Run `quire sync` again\.$/,
  );
  expect(kept()).toHaveLength(1);
});
