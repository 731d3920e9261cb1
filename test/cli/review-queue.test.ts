import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../fake';
import { quire, tempDir } from '../helpers/cli';

let fake: FakeApi;
beforeEach(async () => {
  fake = await startFakeApi();
});
afterEach(async () => {
  await fake.close();
});

interface ReviewOutput {
  comments: { id: string; body: string; replies: { body: string; pending: boolean }[] }[];
}

it('a reply made offline is queued, shown as pending, and sent by the next `quire sync`', async () => {
  const org = fake.store.addOrg({ title: 'Acme' });
  const space = fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  const home = fake.store.pageByTitle(space.id, 'Home');
  const comment = fake.store.addComment(space.id, { body: 'Is this current?', page: home.id });
  const dir = tempDir();
  const env = { QUIRE_TOKEN: fake.token };

  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env })).code).toBe(0);
  expect((await quire(['review', '--dir', dir, '--json'], { env })).code).toBe(0);

  fake.faults.offline = true;
  const reply = await quire(['comment', 'reply', comment.id, '--dir', dir, '--body', 'Yes, checked today.'], { env });
  expect(reply.code).toBe(0);
  expect(reply.stdout).toMatch(/queued/i);
  const offline = JSON.parse((await quire(['review', '--dir', dir, '--json'], { env })).stdout) as ReviewOutput;
  expect(offline.comments.find((c) => c.id === comment.id)!.replies).toEqual([expect.objectContaining({ body: 'Yes, checked today.', pending: true })]);

  fake.faults.offline = false;
  const sync = await quire(['sync', '--dir', dir, '--once'], { env });
  expect(sync.code).toBe(0);
  expect(sync.stdout).toMatch(/Sent 1 queued review action/);
  expect(fake.store.comment(space.id, comment.id).replies.map((r) => r.markdown.trim())).toEqual(['Yes, checked today.']);

  // Sending again is a no-op: the queue is drained.
  fake.resetLog();
  await quire(['sync', '--dir', dir, '--once'], { env });
  expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
});
