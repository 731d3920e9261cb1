/**
 * The offline review queue replayed by several `quire` processes at once, each its own process
 * (the bundle, as installed) against a slow fake: every queued action reaches the server once,
 * whichever process sends it, and none of them says "database is locked".
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { CommentRec } from '../../fake/model';
import { quire, tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let dir: string;
let comment: CommentRec;
const env = () => ({ QUIRE_TOKEN: fake.token });
const BODIES = ['First reply, offline.', 'Second reply, offline.', 'Third reply, offline.'];

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  const space = fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  comment = fake.store.addComment(space.id, { body: 'Is this current?', page: fake.store.pageByTitle(space.id, 'Home').id });
  dir = tempDir();
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: env() })).code).toBe(0);
  fake.faults.offline = true;
  for (const body of BODIES) {
    const queued = await quire(['comment', 'reply', comment.id, '--dir', dir, '--body', body], { env: env() });
    expect(queued.stdout).toMatch(/queued/);
  }
  fake.faults.offline = false;
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const landed = () => fake.store.comments.get(comment.id)!.replies.map((r) => r.markdown.trim());

describe('several processes replaying the queue at once', () => {
  it.each([
    ['two `quire review`', [['review'], ['review']]],
    ['three `quire review`', [['review'], ['review'], ['review']]],
    ['`quire sync --once` beside `quire review`', [['sync', '--once'], ['review']]],
  ])(
    '%s: each reply reaches the server exactly once',
    async (_name, commands) => {
      fake.resetLog();
      fake.faults.latencyMs = 400;
      const runs = await Promise.all(commands.map((args) => startQuire([...args, '--dir', dir], env()).exited));
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).not.toMatch(/database is locked|SQLITE_/i);
      }
      expect(landed().sort()).toEqual([...BODIES].sort());
      expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/replies'))).toHaveLength(3);

      // Nothing is left to send: the next replay sends nothing.
      fake.faults.latencyMs = 0;
      fake.resetLog();
      expect((await quire(['review', '--dir', dir], { env: env() })).code).toBe(0);
      expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
    },
    60_000,
  );

  it('an action whose process was killed while sending it is looked for on the server, not sent again', async () => {
    fake.faults.answerLate(1, 30_000, { match: (r) => r.method === 'POST' && r.path.endsWith('/replies') });
    const killed = startQuire(['review', '--dir', dir], env());
    // The server applied the first reply; its answer is lost with the process.
    await vi.waitFor(() => expect(landed()).toEqual([BODIES[0]]), { timeout: 20_000 });
    killed.child.kill('SIGKILL');
    await killed.exited;

    const next = await startQuire(['review', '--dir', dir], env()).exited;
    expect(next.code, next.stderr).toBe(0);
    expect(landed()).toEqual(BODIES);
  }, 60_000);
});
