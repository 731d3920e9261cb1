/**
 * When main's changes are brought into the writer's change request before a push and GitBook
 * answers that they conflict (a page changed in the change request and on main), `quire sync`
 * says so and where to settle it, and the log keeps it: never "brought main's latest changes"
 * as if all went well.
 */
import { expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { pageByTitle, read, syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

it('says that main came into the change request with conflicts, and where to settle them', async () => {
  write(dir, 'getting-started/install.md', read(dir, 'getting-started/install.md').replace('Line three.', 'Line three, as the writer has it.'));
  expect((await syncOnce(fake, root)).code).toBe(0);
  const install = pageByTitle(fake, space.id, 'Install');
  fake.store.editPage(space.id, install.id, { markdown: 'Line one.\n\nLine two.\n\nLine three, as a collaborator has it.\n\nLine four.\n\nLine five.\n' });
  write(dir, 'getting-started/configure.md', read(dir, 'getting-started/configure.md').replace('Edit the settings.', 'Edit the settings file.'));

  const run = await syncOnce(fake, root);
  expect(run.stdout).toMatch(
    /Guide: main's latest changes came into change request #1 with conflicts .*: settle them in the change request in GitBook's editor/,
  );
  expect(run.stdout).not.toMatch(/brought main's latest changes/);
  expect(run.stdout).toMatch(/^0 of 1 space in sync, .*; 1 conflict needs you: see/); // the page main and the writer both changed
  const log = await quire(['log', '--dir', root], { env: {} });
  expect(log.stdout).toMatch(/came into change request #1 with conflicts/);
  expect(fake.store.pageMarkdown(space.id, install.id, { changeRequest: fake.store.changeRequestsOf(space.id)[0]!.id })).toContain('as the writer has it');
});
