/** Deletes go children first. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { contentBatches, openChangeRequests, pageByTitle, status, syncOnce, syncedGuideEachTest } from '../../helpers/sync';

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
function _collaboratorMerges(title: string, markdown: string): void {
  const sam = fake.store.addUser({ displayName: 'Sam Okafor' });
  const cr = fake.store.addChangeRequest(space.id, { subject: `Edit ${title}`, createdBy: sam.id });
  fake.store.editPage(space.id, pageByTitle(fake, space.id, title).id, { markdown }, { changeRequest: cr.id });
  fake.store.mergeChangeRequest(space.id, cr.id, sam.id);
}

const titlesIn = (crId: string) => [...fake.store.revisionOf(space.id, { changeRequest: crId }).pages.values()].map((p) => p.title).sort();
const _deletesSent = () =>
  contentBatches(fake).flatMap((r) => ((r.body as { changes?: { operation: string }[] }).changes ?? []).filter((c) => c.operation === 'delete_page'));

it('deletes go children first: a folder deleted here is never refused page by page', async () => {
  rmSync(join(dir, 'getting-started'), { recursive: true });
  const run = await syncOnce(fake, root);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toMatch(/refused/);
  const [cr] = openChangeRequests(fake, space.id);
  expect(titlesIn(cr!.id)).toEqual(['Changelog', 'FAQ', 'Glossary', 'Welcome']);
  expect(JSON.parse((await status(root)).stdout).spaces[0].refused).toEqual([]);
});
