/**
 * Search and history are derived data (issue 17, item 7). Damaged from a second SQLite
 * connection as the issue's probe did — garbage in FTS5's shadow tables, its config table
 * dropped, a history table dropped — they are made again, said in one line, and never stop a
 * sync or any command; the mirror itself (sync state, the remembered API) is never set aside
 * for them.
 */
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { contentBatches, pageByTitle, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

/** What the issue's probe did: a second connection writing where Quire never would (FTS5's shadow tables included). */
function damage(sql: string): void {
  const db = new Database(join(root, '.quire/mirror.db'));
  db.unsafeMode(true);
  db.exec(sql);
  db.close();
}

const env = () => ({ env: { QUIRE_TOKEN: fake.token } });
/** Sync with the API the folder remembers: fails if the mirror was set aside. */
const sync = () => quire(['sync', '--dir', root, '--once'], env());
const search = (terms: string) => quire(['search', terms, '--dir', root, '--json'], env());
const files = (run: { stdout: string }) => (JSON.parse(run.stdout) as { results: { file: string }[] }).results.map((r) => r.file);
const setAside = () => readdirSync(join(root, '.quire')).filter((f) => f.includes('.corrupt-'));
const versions = async (file: string) =>
  (JSON.parse((await quire(['history', file, '--dir', root, '--json'])).stdout) as { versions: { number: number; reason: string }[] }).versions;
const SEARCH_REBUILT =
  /^The search index in .*mirror\.db was damaged \(.+\): it was made again \(comments now, pages from your folder as the next sync or search reads them\)\. Nothing else was affected\.$/m;

for (const [what, sql] of [
  ['garbage in the index’s structure record', `UPDATE search_fts_data SET block = x'00ff00ff00ff' WHERE id = 10`],
  ['every index block garbage', `UPDATE search_fts_data SET block = randomblob(length(block))`],
  ['the index’s config table dropped', `DROP TABLE search_fts_config`],
  ['the index’s size table dropped', `DROP TABLE search_fts_docsize`],
] as const) {
  it(`a damaged search index (${what}): the sync runs and pushes, says so in one line, keeps the mirror, and search works again`, async () => {
    const history = await versions('guide/faq.md');
    damage(sql);
    write(dir, 'faq.md', '# FAQ\n\nAnswers, edited after the index was damaged.\n');
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Install').id, { markdown: 'Installed from the server.\n' });

    const run = await sync();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n').filter((l) => /damaged|unreadable|kept as/.test(l))).toHaveLength(1);
    expect(run.stderr).toMatch(SEARCH_REBUILT);
    expect(contentBatches(fake)).toHaveLength(1);
    expect(setAside()).toEqual([]);
    expect((await versions('guide/faq.md')).slice(-history.length)).toEqual(history);

    expect(files(await search('edited after'))).toEqual(['guide/faq.md']);
    expect(files(await search('Installed'))).toEqual(['guide/getting-started/install.md']);
    const again = await sync();
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/damaged/);
  });
}

it('a search index damaged where only searching reads it: `quire search` makes it again and answers', async () => {
  damage(`UPDATE search_fts_data SET block = randomblob(length(block)) WHERE id > 10`);
  const run = await search('Questions');
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(SEARCH_REBUILT);
  expect(files(run)).toEqual(['guide/faq.md']);
  expect(setAside()).toEqual([]);
});

it('the history page list dropped: every command goes on, and history is made again from its versions with nothing lost', async () => {
  const before = await versions('guide/faq.md');
  damage(`DROP TABLE history_pages`);
  write(dir, 'faq.md', '# FAQ\n\nEdited after history was damaged.\n');

  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(
    /^Page history in .*mirror\.db was damaged \(history_pages is missing\): its list of pages was made again from the versions kept; no version was lost\.$/m,
  );
  expect(contentBatches(fake)).toHaveLength(1);
  const after = await versions('guide/faq.md');
  expect(after.slice(-before.length)).toEqual(before);
  expect(after[0]!.reason).toBe('pushed');
  for (const args of [['status'], ['history'], ['search', 'FAQ'], ['review']]) {
    const r = await quire([...args, '--dir', root], env());
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
});

it('the history versions dropped: each command says once what was lost and goes on; history starts again', async () => {
  damage(`DROP TABLE history_versions`);
  const lost =
    /^Page history in .*mirror\.db was damaged \(history_versions is missing\) and could not be kept: the versions of 6 pages are lost, and it starts again from now\. Your files and the sync state are not affected\.$/m;

  const history = await quire(['history', '--dir', root]);
  expect(history.code, history.stderr).toBe(0);
  expect(history.stderr).toMatch(lost);
  // The pages as last synced are kept again as their first versions.
  expect(history.stdout).toContain('guide/faq.md');

  write(dir, 'faq.md', '# FAQ\n\nEdited after history was lost.\n');
  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toMatch(/damaged/);
  expect(contentBatches(fake)).toHaveLength(1);
  expect((await versions('guide/faq.md')).map((v) => v.reason)).toEqual(['pushed', 'pulled']);
  expect((await quire(['restore', 'guide/faq.md', '--version', '1', '--dir', root])).code).toBe(0);
  expect(setAside()).toEqual([]);
});
