/**
 * A reviewer merges Quire's change request between the two answers a cycle asks for together:
 * where the change request stands, and main's tree (ask-server.ts). Found by the soak (seed
 * 988031380): the state said "merged" while main's tree was from before the merge, so the page
 * the change request had created looked deleted on main; its file, edited since, was pushed
 * again as a new page (refused: its slug was taken) and main's page came down beside it.
 *
 * The fake carries the two requests out in the order each test chooses, the merge between them.
 * Either way the writer ends with one file and one page, holding both their lines. The last test
 * puts the merge between the state and the push itself (the cycle runs again, into a new change
 * request): the page keeps the name the writer gave its file since.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { openChangeRequests, pageByTitle, read, remove, status, syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

const FIRST = 'Written before the push.';
const LATER = 'Written after the push.';

/** The writer adds a page and syncs (it goes into a change request), then writes in it again. */
async function pushNewPageThenEditIt(): Promise<string> {
  write(dir, 'notes.md', `# Notes\n\n${FIRST}\n`);
  expect((await syncOnce(fake, root)).code).toBe(0);
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'Notes', cr!.id).markdown).toContain(FIRST);
  write(dir, 'notes.md', `# Notes\n\n${FIRST}\n\n${LATER}\n`);
  // Main moves too, so the next cycle asks for main's tree beside the change request's state.
  fake.store.editPage(space.id, pageByTitle(fake, space.id, 'FAQ').id, { markdown: 'Questions, answered.\n' });
  return cr!.id;
}

type Sent = { method: string; path: string };
const isRevision = (r: Sent) => r.method === 'GET' && r.path === `/v1/spaces/${space.id}/content`;
const isStateOf = (crId: string) => (r: Sent) => r.method === 'GET' && r.path === `/v1/spaces/${space.id}/change-requests/${crId}`;

/** `first` is carried out, then the change request is merged, then `second`. */
function mergeBetween(crId: string, first: (r: Sent) => boolean, second: (r: Sent) => boolean): () => boolean {
  let firstDone!: () => void;
  const done = new Promise<void>((resolve) => (firstDone = resolve));
  let merged = false;
  fake.faults.around(1, { after: () => firstDone() }, { match: first });
  fake.faults.around(
    1,
    {
      before: async () => {
        await done;
        fake.store.mergeChangeRequest(space.id, crId);
        merged = true;
      },
    },
    { match: second },
  );
  return () => merged;
}

/** The pages titled Notes on main, or in a change request. */
const notesPages = (changeRequest?: string) =>
  [...fake.store.revisionOf(space.id, changeRequest ? { changeRequest } : {}).pages.values()].filter((p) => p.title === 'Notes');

/** One file and one page for Notes, holding both lines; nothing refused, no conflict. */
async function expectOneNotes(): Promise<void> {
  const files = readdirSync(dir).filter((f) => f.startsWith('notes'));
  expect(files).toEqual(['notes.md']);
  expect(read(dir, 'notes.md')).toContain(LATER);
  const st = JSON.parse((await status(root)).stdout) as { spaces: { refused: unknown[]; conflicts: unknown[] }[] };
  expect(st.spaces[0]!.refused).toEqual([]);
  expect(st.spaces[0]!.conflicts).toEqual([]);
  for (const where of [undefined, ...openChangeRequests(fake, space.id).map((cr) => cr.id)]) expect(notesPages(where)).toHaveLength(1);
  // The later line goes into a new change request; merged, main has both.
  const [next] = openChangeRequests(fake, space.id);
  expect(next).toBeDefined();
  expect(pageByTitle(fake, space.id, 'Notes', next!.id).markdown).toContain(LATER);
}

describe('a merge between the change request’s state and main’s tree', () => {
  it('main’s tree from before the merge, the state after it: the tree is asked for again', async () => {
    const crId = await pushNewPageThenEditIt();
    const merged = mergeBetween(crId, isRevision, isStateOf(crId));
    fake.resetLog();

    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(merged()).toBe(true);
    expect(fake.requests.filter(isRevision)).toHaveLength(2);
    expect((await syncOnce(fake, root)).code).toBe(0);
    await expectOneNotes();
  });

  it('the state from before the merge, main’s tree after it: the state is asked for again', async () => {
    const crId = await pushNewPageThenEditIt();
    const merged = mergeBetween(crId, isStateOf(crId), isRevision);
    fake.resetLog();

    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(merged()).toBe(true);
    expect(fake.requests.filter(isStateOf(crId))).toHaveLength(2);
    expect((await syncOnce(fake, root)).code).toBe(0);
    await expectOneNotes();
  });

  it('a merge seen with main’s tree of that merge costs no second request', async () => {
    const crId = await pushNewPageThenEditIt();
    fake.store.mergeChangeRequest(space.id, crId);
    fake.resetLog();

    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(fake.requests.filter(isRevision)).toHaveLength(1);
    expect(fake.requests.filter(isStateOf(crId))).toHaveLength(1);
    await expectOneNotes();
  });

  it('a merge between the state and the push: the cycle runs again on what the server says, and the renamed page moves', async () => {
    // Soak seed 6006: the push found the change request merged and the cycle ran again, but with
    // the change request's record forgotten first and main's tree from before the merge: the page
    // it had created, its file renamed, was pushed again as a new page.
    write(dir, 'notes.md', `# Notes\n\n${FIRST}\n`);
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    remove(dir, 'notes.md');
    write(dir, 'notes-renamed.md', `# Notes\n\n${FIRST}\n\n${LATER}\n`);
    let merged = false;
    fake.faults.around(
      1,
      {
        before: () => {
          fake.store.mergeChangeRequest(space.id, cr!.id);
          merged = true;
        },
      },
      { match: (r) => r.method === 'POST' && r.path.endsWith(`/change-requests/${cr!.id}/content`) },
    );

    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(merged).toBe(true);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith('notes'))).toEqual(['notes-renamed.md']);
    const [next] = openChangeRequests(fake, space.id);
    const inNext = notesPages(next!.id);
    expect(inNext).toHaveLength(1);
    expect(inNext[0]!.markdown).toContain(LATER);
    expect(inNext[0]!.slug).toBe('notes-renamed');
    expect(notesPages()).toHaveLength(1);
  });
});
