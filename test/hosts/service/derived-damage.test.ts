/**
 * Search and history damaged in the app (issue 17, item 7): the sync runs and says in the
 * status bar that the damaged part was made again; search and the History view answer; the
 * mirror is never set aside for them.
 */
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import type { FakeApi } from '../../fake';
import { contentBatches, syncedGuideEachTest, write } from '../../helpers/sync';
import { openService } from '../../helpers/service';

let fake: FakeApi;
let root: string;
let dir: string;
syncedGuideEachTest((world) => {
  ({ fake, root, dir } = world);
});

let service: QuireService | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
});

const open = () =>
  openService({
    apiUrl: fake.url,
    folder: root,
    token: fake.token,
    api: { maxAttempts: 1 },
  });

/** A second connection damaging what Quire keeps (FTS5's shadow tables included), as the issue's probe did. */
function damage(sql: string): void {
  const db = new Database(join(root, '.quire/mirror.db'));
  db.unsafeMode(true);
  db.exec(sql);
  db.close();
}

const setAside = () => readdirSync(join(root, '.quire')).filter((f) => f.includes('.corrupt-'));

it('a damaged search index: the sync runs, the status bar says it was made again, and search answers', async () => {
  service = await open();
  damage(`UPDATE search_fts_data SET block = x'00ff00ff00ff' WHERE id = 10`);
  write(dir, 'faq.md', '# FAQ\n\nEdited in the app after the damage.\n');

  const after = await service.syncOnce();
  expect(after.state).toBe('in-sync');
  expect(after.message).toMatch(/^The search index in .*mirror\.db was damaged \(.+\): it was made again/);
  expect(contentBatches(fake)).toHaveLength(1);
  expect(setAside()).toEqual([]);
  const hits = await service.request('search.query', { query: 'after the damage' });
  expect(hits.map((h) => h.file)).toEqual(['guide/faq.md']);
});

it('a damaged search index found by a search: made again, and the search answers', async () => {
  service = await open();
  await service.request('search.query', { query: 'Questions' });
  damage(`UPDATE search_fts_data SET block = randomblob(length(block)) WHERE id > 10`);
  const hits = await service.request('search.query', { query: 'Questions' });
  expect(hits.map((h) => h.file)).toEqual(['guide/faq.md']);
  expect(service.status().message).toMatch(/^The search index in .* was made again/);
});

it('a history table dropped: the History view answers and the status bar says what was lost', async () => {
  service = await open();
  damage(`DROP TABLE history_versions`);
  const pages = await service.request('history.pages', {});
  expect(pages.map((p) => p.path)).toContain('faq.md');
  expect(service.status().message).toMatch(
    /^Page history in .* was damaged \(history_versions is missing\) and could not be kept: the versions of 6 pages are lost/,
  );
  expect((await service.syncOnce()).state).toBe('in-sync');
  expect(setAside()).toEqual([]);
});
