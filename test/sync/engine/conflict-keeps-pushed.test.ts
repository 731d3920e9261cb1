/**
 * A conflict never rewrites what the writer pushed (issue 27, item 1): the writer's edit is in
 * the change request, a collaborator rewrites the page on main, the next sync raises the
 * conflict — and the change request still holds the writer's text, whether or not that cycle
 * brings main's changes into it, so `quire status` and `quire log` stay true and a merge in that
 * window ships the writer's edit. Through the CLI, against the fake.
 */
import { describe, expect, it } from 'vitest';
import type { LogJson } from '../../../src/main/hosts/cli/commands/log';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { contentBatches, exists, openChangeRequests, pageByTitle, read, remove, syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

const INSTALL = 'getting-started/install.md';
const MINE = 'Line three, as the writer has it.';
const THEIRS = 'Rewritten by a collaborator.';

/** The writer changes line 3 of Install and syncs: the edit goes into the change request. */
async function pushWritersEdit(): Promise<string> {
  write(dir, INSTALL, read(dir, INSTALL).replace('Line three.', MINE));
  expect((await syncOnce(fake, root)).code).toBe(0);
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'Install', cr!.id).markdown).toContain(MINE);
  return cr!.id;
}

/** A collaborator rewrites Install on main. */
const collaboratorRewrites = () => fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Install').id, { markdown: `${THEIRS}\n` });

const updates = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update'));
const sentText = () => JSON.stringify(contentBatches(fake).map((r) => r.body));

describe('a conflict on a page the change request holds', () => {
  it('leaves the writer’s pushed text in the change request; status and log say so', async () => {
    const crId = await pushWritersEdit();
    collaboratorRewrites();
    fake.resetLog();

    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(exists(dir, 'getting-started/install.remote.md')).toBe(true);
    expect(read(dir, 'getting-started/install.remote.md')).toContain(THEIRS);
    expect(sentText()).not.toContain(THEIRS);
    const held = pageByTitle(fake, space.id, 'Install', crId).markdown;
    expect(held).toContain(MINE);
    expect(held).not.toContain(THEIRS);

    const status = JSON.parse((await quire(['status', '--dir', root, '--json'])).stdout) as {
      spaces: { conflicts: { path: string }[]; changeRequest: { pages: { path: string | null }[] } | null }[];
    };
    expect(status.spaces[0]!.conflicts.map((c) => c.path)).toEqual([INSTALL]);
    expect(status.spaces[0]!.changeRequest?.pages.map((p) => p.path)).toEqual([INSTALL]);
    // The log's one push of Install is the writer's: the conflicting cycle pushed nothing for it.
    const log = JSON.parse((await quire(['log', '--dir', root, '--json'])).stdout) as LogJson;
    const pushesOfInstall = log.entries.filter(
      (e) => e.kind === 'pushed' && e.activity?.direction === 'push' && e.activity.pages.some((p) => p.path === INSTALL),
    );
    expect(pushesOfInstall).toHaveLength(1);
  });

  it('keeps it when the same cycle brings main’s changes into the change request', async () => {
    const crId = await pushWritersEdit();
    collaboratorRewrites();
    // The writer edits another page too: that push brings main's changes into the change request first.
    write(dir, 'getting-started/configure.md', read(dir, 'getting-started/configure.md').replace('Edit the settings.', 'Edit the settings file.'));
    fake.resetLog();

    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(updates()).toHaveLength(1);
    expect(sentText()).not.toContain(THEIRS);
    expect(pageByTitle(fake, space.id, 'Configure', crId).markdown).toContain('Edit the settings file.');
    expect(pageByTitle(fake, space.id, 'Install', crId).markdown).toContain(MINE);
    expect(pageByTitle(fake, space.id, 'Install', crId).markdown).not.toContain(THEIRS);
  });

  it('a merge in that window ships the writer’s edit, and the collaborator’s text stays beside the file', async () => {
    const crId = await pushWritersEdit();
    collaboratorRewrites();
    expect((await syncOnce(fake, root)).code).toBe(3);

    fake.store.mergeChangeRequest(space.id, crId);
    expect(pageByTitle(fake, space.id, 'Install').markdown).toContain(MINE);
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(read(dir, INSTALL)).toContain(MINE);
    // The server's side of the conflict is still the collaborator's: nothing of theirs is lost.
    expect(read(dir, 'getting-started/install.remote.md')).toContain(THEIRS);

    // Once main moves on, the copy follows main again.
    const later = 'A later line from main.';
    const install = pageByTitle(fake, space.id, 'Install');
    fake.store.editPage(space.id, install.id, { markdown: `${install.markdown}\n${later}\n` });
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(read(dir, 'getting-started/install.remote.md')).toContain(later);
  });
});

describe('a page held by a conflict that must move', () => {
  it('is recorded with the text the change request holds, so the writer’s text is pushed once the conflict is settled', async () => {
    // Found by the soak (seed 988031380): the page above a conflicting page is deleted here, so
    // the push moves the held page out from under it; the record took the writer's file for
    // what the change request held, and once the writer settled the conflict nothing was pushed.
    write(dir, INSTALL, read(dir, INSTALL).replace('Line three.', MINE));
    collaboratorRewrites();
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(exists(dir, 'getting-started/install.remote.md')).toBe(true);

    remove(dir, 'getting-started/README.md');
    expect((await syncOnce(fake, root)).code).toBe(3);
    const [cr] = openChangeRequests(fake, space.id);
    const held = pageByTitle(fake, space.id, 'Install', cr!.id);
    expect(held.parentId).toBeNull(); // moved out, its text left as main has it
    expect(held.markdown).not.toContain(MINE);

    // The writer settles the conflict, keeping their file.
    remove(dir, 'getting-started/install.remote.md');
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(pageByTitle(fake, space.id, 'Install', cr!.id).markdown).toContain(MINE);
  });
});
