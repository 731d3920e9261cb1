/**
 * SQLite's own words never reach the app (issue 17, item 15): another program holding a write
 * on the mirror past 5 s is said in the status bar and in a request's error as what happened
 * and what to do, naming the Quire that holds the folder when there is one.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import type { FakeApi } from '../../fake';
import { folderLockElsewhere, syncedGuideEachTest, write } from '../../helpers/sync';
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

/** A second connection in the middle of a write, as another program would be. */
function holdWrite(): () => void {
  const db = new Database(join(root, '.quire/mirror.db'));
  db.exec('BEGIN IMMEDIATE');
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}

const RAW = /database is locked/;

it('a sync while another program writes the mirror: the status bar says so and what to do, and the next sync catches up', async () => {
  service = await open();
  expect((await service.syncOnce()).state).toBe('in-sync'); // started: signed in, spaces known
  write(dir, 'faq.md', '# FAQ\n\nEdited in the app.\n');
  const release = holdWrite();
  let status: Awaited<ReturnType<QuireService['syncOnce']>>;
  try {
    status = await service.syncOnce();
  } finally {
    release();
  }
  // The mirror could not record the failure (another program holds it): the app says it from what it saw.
  expect(status.state).toBe('needs-you');
  expect(status.reasons[0]).toMatchObject({ kind: 'sync-failed', action: 'sync-now', message: expect.stringContaining('is being written by another program') });
  expect(status.message).not.toMatch(RAW);
  expect(status.message).toBe(
    `Sync failed: Quire's sync state in ${join(root, '.quire/mirror.db')} is being written by another program (another Quire, or a tool that opened it), so this could not write it. Let it finish (or close it), then sync again. Your files were not changed beyond what was already written, and every edit is still in them.`,
  );
  expect((await service.syncOnce()).state).toBe('in-sync');
});

it('a request that writes while the Quire holding the folder writes: its error names that Quire', async () => {
  // Search has a space to index from its files (a write) before it answers.
  const db = new Database(join(root, '.quire/mirror.db'));
  db.exec('DELETE FROM search_spaces');
  db.close();
  service = await open();
  const holder = await folderLockElsewhere(root, 'quire sync --interval 30');
  const release = holdWrite();
  try {
    const failed = await service.request('search.query', { query: 'Questions' }).catch((e: Error & { code?: string }) => e);
    expect(failed).toMatchObject({ code: 'busy' });
    expect((failed as Error).message).not.toMatch(RAW);
    expect((failed as Error).message).toMatch(
      new RegExp(
        `^Quire's sync state in ${join(root, '.quire/mirror.db')} is being written by pid ${holder.pid} \\(quire sync --interval 30\\), since [^,]+, which holds this folder, so this could not write it\\. Let it finish \\(or close it\\), then run the command again\\.$`,
      ),
    );
  } finally {
    release();
    await holder.release();
  }
  expect((await service.request('search.query', { query: 'Questions' })).map((h) => h.file)).toEqual(['guide/faq.md']);
});
