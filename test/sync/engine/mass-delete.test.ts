/**
 * The mass-delete fail-safe's stop is a recorded fact: the pages it stopped before deleting stay
 * held until their files are back (or the server deleted them too), or the writer lets the
 * deletes through (`--allow-deletes`). Nothing else that happens on the server lifts it: not a
 * collaborator's merged change request that makes one of those deletes a conflict (which once
 * changed the count the guard compares, and the deletes went). Deletes go children first.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import type { FakeApi, SpaceRec } from '../../fake';
import { contentBatches, exists, openChangeRequests, pageByTitle, status, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

// Seven pages: Welcome, Getting Started (Install, Configure), FAQ, Changelog, Glossary.
syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (f, s) => {
    f.store.addPage(s.id, { title: 'Glossary', markdown: 'Words.\n' });
  },
);

/** A collaborator's change request that edits a page is merged into main. */
function collaboratorMerges(title: string, markdown: string): void {
  const sam = fake.store.addUser({ displayName: 'Sam Okafor' });
  const cr = fake.store.addChangeRequest(space.id, { subject: `Edit ${title}`, createdBy: sam.id });
  fake.store.editPage(space.id, pageByTitle(fake, space.id, title).id, { markdown }, { changeRequest: cr.id });
  fake.store.mergeChangeRequest(space.id, cr.id, sam.id);
}

const titlesIn = (crId: string) => [...fake.store.revisionOf(space.id, { changeRequest: crId }).pages.values()].map((p) => p.title).sort();
const deletesSent = () =>
  contentBatches(fake).flatMap((r) => ((r.body as { changes?: { operation: string }[] }).changes ?? []).filter((c) => c.operation === 'delete_page'));

it('a stop holds after a collaborator’s merged change request makes one of its deletes a conflict; --allow-deletes sends them, children first', async () => {
  write(dir, 'glossary.md', '# Glossary\n\nWords, and more words.\n');
  expect((await syncOnce(fake, root)).code).toBe(0);
  const [mine] = openChangeRequests(fake, space.id);
  rmSync(join(dir, 'getting-started'), { recursive: true });
  rmSync(join(dir, 'faq.md'));
  const stopped = await syncOnce(fake, root);
  expect(stopped.code).toBe(3);
  expect(stopped.stderr).toMatch(/Stopped before deleting most of “Guide”: this sync would delete 4 of its 7 pages on the server/);

  collaboratorMerges('FAQ', 'Questions, and answers.\n');
  fake.resetLog();
  const again = await syncOnce(fake, root);
  expect(again.code, again.stdout).toBe(3);
  expect(again.stderr).toMatch(/Stopped before deleting most of “Guide”: this sync would delete 4 of its 7 pages on the server/);
  expect(deletesSent()).toEqual([]);
  expect(titlesIn(mine!.id)).toEqual(['Changelog', 'Configure', 'FAQ', 'Getting Started', 'Glossary', 'Install', 'Welcome']);
  expect((await syncOnce(fake, root, '--dry-run')).stdout).toMatch(/STOPPED: this cycle would delete 4 of 7 pages/);

  // Let through on purpose: FAQ, edited on main, is a conflict; the others go, none refused.
  const allowed = await syncOnce(fake, root, '--allow-deletes');
  expect(allowed.stdout).not.toMatch(/refused/);
  expect(titlesIn(mine!.id)).toEqual(['Changelog', 'FAQ', 'Glossary', 'Welcome']);
  expect(exists(dir, 'faq.remote.md')).toBe(true);
  expect(JSON.parse((await status(root)).stdout).spaces[0]).toMatchObject({ hold: null, refused: [] });
});

it('deletes go children first: a folder deleted here is never refused page by page', async () => {
  rmSync(join(dir, 'getting-started'), { recursive: true });
  const run = await syncOnce(fake, root);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toMatch(/refused/);
  const [cr] = openChangeRequests(fake, space.id);
  expect(titlesIn(cr!.id)).toEqual(['Changelog', 'FAQ', 'Glossary', 'Welcome']);
  expect(JSON.parse((await status(root)).stdout).spaces[0].refused).toEqual([]);
});

it('the stop lasts until the files are back; a page main deleted too is no longer held', async () => {
  const gone = ['faq.md', 'changelog.md', 'glossary.md', 'getting-started/install.md'];
  const texts = new Map(gone.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  for (const f of gone) rmSync(join(dir, f));
  expect((await syncOnce(fake, root)).code).toBe(3);

  // Main deletes Glossary too: that delete is done, the other three stay held (3 of 7 is not most of the space).
  fake.store.deletePage(space.id, pageByTitle(fake, space.id, 'Glossary').id);
  fake.resetLog();
  const still = await syncOnce(fake, root);
  expect(still.code).toBe(3);
  expect(still.stderr).toMatch(/^Still stopped before deleting pages of “Guide”: this sync would delete 3 of its 7 pages on the server/m);
  expect(deletesSent()).toEqual([]);
  expect(openChangeRequests(fake, space.id)).toEqual([]);

  for (const f of gone) if (f !== 'glossary.md') write(dir, f, texts.get(f)!);
  const back = await syncOnce(fake, root);
  expect(back.code, back.stderr).toBe(0);
  expect(deletesSent()).toEqual([]);
  expect(exists(dir, 'glossary.md')).toBe(false);
  expect(JSON.parse((await status(root)).stdout).spaces[0].hold).toBeNull();
});

it('a cycle the watcher told only of other files keeps the stop', async () => {
  rmSync(join(dir, 'getting-started'), { recursive: true });
  rmSync(join(dir, 'faq.md'));
  expect((await syncOnce(fake, root)).code).toBe(3);
  collaboratorMerges('FAQ', 'Questions, and answers.\n');
  write(dir, 'glossary.md', '# Glossary\n\nWords, and more words.\n');
  fake.resetLog();

  const mirror = Mirror.open(root);
  try {
    const api = new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 2 });
    const report = await new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] } }).runCycle({ changed: ['guide/glossary.md'] });
    expect(report.spaces[0]!.held).toMatchObject({ localDeletes: 4, pages: 7 });
  } finally {
    mirror.close();
  }
  const full = await syncOnce(fake, root);
  expect(full.code).toBe(3);
  expect(full.stderr).toMatch(/Stopped before deleting most of “Guide”/);
  expect(deletesSent()).toEqual([]);
});
