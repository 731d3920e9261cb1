/**
 * One engine per folder (issue 9, item 1), the commands that must not wait, with real processes:
 * while one `quire sync` holds a folder (its cycle held mid-request by a proxy), `status` and
 * `review` answer at once; a lock left by a killed process never blocks the next run. Apart from
 * folder-lock.test.ts because these bound how long a command takes (vitest.config.ts runs them
 * with the timed files).
 */
import { expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { folderHolderEachTest, type FolderHolderWorld } from '../../helpers/folder-holder';
import { openChangeRequests, pageByTitle, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let holderMidPush: FolderHolderWorld['holderMidPush'];
folderHolderEachTest((world) => {
  ({ fake, space, root, holderMidPush } = world);
});

it('`status` and `review` never wait for the folder', async () => {
  write(root, 'guide/faq.md', '# FAQ\n\nPending.\n');
  const { proxy, holder } = await holderMidPush();
  try {
    const started = Date.now();
    const status = await quire(['status', '--dir', root]);
    const review = await quire(['review', '--dir', root], { env: { QUIRE_TOKEN: fake.token } });
    expect(status.code).toBe(0);
    expect(review.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(4_000); // well under the 5 s a sync would wait
    proxy.release();
    await holder.exited;
  } finally {
    await proxy.close();
  }
}, 60_000);

it('a lock left by a killed process does not block the next run', async () => {
  write(root, 'guide/faq.md', '# FAQ\n\nWritten before the crash.\n');
  const { proxy, holder } = await holderMidPush();
  holder.kill('SIGKILL');
  expect((await holder.exited).signal).toBe('SIGKILL');
  await proxy.close();

  const started = Date.now();
  const next = await syncOnce(fake, root);
  expect(next.code).toBe(0);
  expect(next.stderr).not.toContain('Another Quire');
  expect(Date.now() - started).toBeLessThan(4_000);
  expect(pageByTitle(fake, space.id, 'FAQ', openChangeRequests(fake, space.id)[0]!.id).markdown).toBe('Written before the crash.\n');
}, 60_000);
