/**
 * One engine per folder (issue 9, item 1), with real processes: while one `quire sync` holds a
 * folder (its cycle held mid-request by a proxy), a second `sync --once` waits briefly, then
 * says who holds it and exits 1 — and nothing is pushed twice; continuous mode waits for its
 * turn; `quire restore` writes nothing until the holder is done (or gives up as `--once` does).
 * The commands that never wait are in folder-lock-at-once.test.ts.
 */
import { expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { folderHolderEachTest, type FolderHolderWorld } from '../../helpers/folder-holder';
import { contentBatches, openChangeRequests, pageByTitle, read, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let quireProcess: FolderHolderWorld['quireProcess'];
let holderMidPush: FolderHolderWorld['holderMidPush'];
folderHolderEachTest((world) => {
  ({ fake, space, root, quireProcess, holderMidPush } = world);
});

it('a second `sync --once` waits briefly, says who holds the folder, exits 1, and pushes nothing twice', async () => {
  write(root, 'guide/recipes.md', '# Recipes\n\nA new page.\n');
  const { proxy, holder } = await holderMidPush();
  try {
    const second = quireProcess('sync', '--api', fake.url, '--dir', root, '--once');
    const { code, stderr } = await second.exited;
    expect(code).toBe(1);
    expect(stderr).toContain(`Another Quire is syncing this folder (pid ${holder.pid} (quire sync --once), since `);
    expect(stderr).toMatch(
      new RegExp(`quire sync: Another Quire is syncing ${root}: pid ${holder.pid} \\(quire sync --once\\), since (just now|\\d+ min ago)\\. Let it finish`),
    );
    expect(contentBatches(fake)).toEqual([]);
    proxy.release();
    expect((await holder.exited).code).toBe(0);
  } finally {
    await proxy.close();
  }
  const crs = openChangeRequests(fake, space.id);
  expect(crs).toHaveLength(1);
  expect([...fake.store.revisionOf(space.id, { changeRequest: crs[0]!.id }).pages.values()].filter((p) => p.title === 'Recipes')).toHaveLength(1);
  expect(contentBatches(fake)).toHaveLength(1);
}, 60_000);

it('continuous mode waits for its turn, then syncs', async () => {
  write(root, 'guide/faq.md', '# FAQ\n\nEdited while another sync ran.\n');
  const { proxy, holder } = await holderMidPush();
  const continuous = quireProcess('sync', '--api', fake.url, '--dir', root, '--interval', '30');
  try {
    await continuous.saw(new RegExp(`Waiting for pid ${holder.pid} \\(quire sync --once\\), since .+ to finish with this folder…`));
    write(root, 'guide/changelog.md', '# Changelog\n\nWritten while it waited.\n');
    proxy.release();
    expect((await holder.exited).code).toBe(0);
    await continuous.saw(/1 page pushed/);
    continuous.kill('SIGTERM');
    expect((await continuous.exited).code).toBe(0);
  } finally {
    await proxy.close();
  }
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Edited while another sync ran.\n');
  expect(pageByTitle(fake, space.id, 'Changelog', cr!.id).markdown).toBe('Written while it waited.\n');
}, 60_000);

const REWRITE = '# FAQ\n\nA rewrite, pushed by the sync that holds the folder.\n';
const PULLED = '# FAQ\n\nQuestions.\n';

it('`quire restore` waits briefly, says who holds the folder, exits 1, and writes nothing', async () => {
  write(root, 'guide/faq.md', REWRITE);
  const { proxy, holder } = await holderMidPush();
  try {
    const restore = quireProcess('restore', 'guide/faq.md', '--version', '1', '--dir', root);
    const { code, stdout, stderr } = await restore.exited;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`Another Quire is syncing this folder (pid ${holder.pid} (quire sync --once), since `);
    expect(stderr).toMatch(new RegExp(`quire restore: Another Quire is syncing ${root}: pid ${holder.pid} \\(quire sync --once\\), since .+\\. Let it finish`));
    expect(read(root, 'guide/faq.md')).toBe(REWRITE);
    proxy.release();
    expect((await holder.exited).code).toBe(0);
  } finally {
    await proxy.close();
  }
  // Nothing was restored, and nothing was kept as "before a restore" either.
  const history = JSON.parse((await quire(['history', 'guide/faq.md', '--dir', root, '--json'])).stdout) as { versions: { reason: string }[] };
  expect(history.versions.map((v) => v.reason)).not.toContain('restored');
  expect(read(root, 'guide/faq.md')).toBe(REWRITE);
}, 60_000);

it('`quire restore` writes once the sync holding the folder is done, not in the middle of its cycle', async () => {
  write(root, 'guide/faq.md', REWRITE);
  const { proxy, holder } = await holderMidPush();
  const restore = quireProcess('restore', 'guide/faq.md', '--version', '1', '--dir', root);
  try {
    await restore.saw(new RegExp(`Another Quire is syncing this folder \\(pid ${holder.pid} \\(quire sync --once\\), since [^;]+; waiting up to 5 s`));
    expect(read(root, 'guide/faq.md')).toBe(REWRITE);
    proxy.release();
    expect((await holder.exited).code).toBe(0);
    const restored = await restore.exited;
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('Restored version 1 into guide/faq.md.');
  } finally {
    await proxy.close();
  }
  expect(read(root, 'guide/faq.md')).toBe(PULLED);
  // The holder pushed the text it read before the restore; the restored one is the next sync's edit.
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('A rewrite, pushed by the sync that holds the folder.\n');
}, 60_000);
