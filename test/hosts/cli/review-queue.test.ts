/**
 * The offline review queue through the command line, in process, against the fake: an action
 * the server keeps failing on waits (backed off) while the rest are sent and review data is
 * refreshed; an action refused, or one given up on, is named in words and cleared with
 * `quire review --dismiss <n>`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { ChangeRequestRec, CommentRec } from '../../fake/model';
import { quire, tempDir } from '../../helpers/cli';

let fake: FakeApi;
let dir: string;
let stuck: CommentRec;
let other: CommentRec;
let cr: ChangeRequestRec;

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env: { QUIRE_TOKEN: fake.token } });
const repliesTo = (c: CommentRec) => fake.store.comments.get(c.id)!.replies.map((r) => r.markdown.trim());

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  const alex = fake.store.addUser({ displayName: 'Alex Rivera' });
  const space = fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  stuck = fake.store.addComment(space.id, { body: 'First question', by: alex.id });
  other = fake.store.addComment(space.id, { body: 'Second question', by: alex.id });
  cr = fake.store.addChangeRequest(space.id, { subject: 'Polish', createdBy: alex.id });
  dir = tempDir();
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

describe('an action the server keeps failing on', () => {
  it('waits while the rest are sent and review data is refreshed; `--dismiss` gives up on it', async () => {
    fake.faults.offline = true;
    expect((await run('comment', 'reply', stuck.id, '--body', 'Stuck reply')).stdout).toMatch(/queued/);
    expect((await run('comment', 'resolve', other.id)).stdout).toMatch(/queued/);
    expect((await run('comment', 'reply', other.id, '--body', 'Goes through')).stdout).toMatch(/queued/);
    fake.faults.offline = false;
    fake.faults.fail(1000, 500, { match: (r) => r.method === 'POST' && r.path.endsWith(`/comments/${stuck.id}/replies`) });
    fake.store.addComment(fake.store.comments.get(stuck.id)!.spaceId, { body: 'A question asked meanwhile' });

    const first = await run('review');
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(/Showing the local mirror/);
    expect(first.stdout).toContain('A question asked meanwhile');
    expect(fake.store.comments.get(other.id)!.status).toBe('resolved');
    expect(repliesTo(other)).toEqual(['Goes through']);
    expect(repliesTo(stuck)).toEqual([]);
    const waiting =
      /Not sent yet, the server failed on it — `quire review --dismiss <n>` gives up on one:\n {2}(\d+)\. your reply “Stuck reply” to comment (\S+): (.*)$/m.exec(
        first.stdout,
      );
    expect(waiting, first.stdout).not.toBeNull();
    expect(waiting![2]).toBe(stuck.id);
    expect(waiting![3]).toMatch(/\(500\).*; tried again in \d+ (min|h)$/);

    // Backed off: the next refresh does not try it again yet, and is not held up by it.
    fake.resetLog();
    const second = await run('review');
    expect(second.stderr).not.toMatch(/Showing the local mirror/);
    expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);

    const dismissed = await run('review', '--dismiss', waiting![1]!);
    expect(dismissed.code).toBe(0);
    expect(dismissed.stdout).toBe(
      `Dismissed action ${waiting![1]}: your reply “Stuck reply” to comment ${stuck.id}. It is not sent again (should the server have taken it after all, the next refresh shows it).`,
    );
    const after = await run('review');
    expect(after.stdout).not.toContain('Stuck reply');
    expect(after.stdout).not.toContain('Not sent yet');
  });
});

describe('an action the server refused', () => {
  it('is named in words, and `quire review --dismiss` clears it; `quire status` no longer needs you', async () => {
    fake.faults.offline = true;
    expect((await run('comment', 'new', '--change-request', String(cr.number), '--body', 'Ship it today')).stdout).toMatch(/queued/);
    fake.faults.offline = false;
    fake.faults.fail(1, 422, { match: (r) => r.method === 'POST' && r.path.endsWith('/comments') });

    const listed = await run('review');
    expect(listed.stdout).not.toMatch(/local:/);
    const refused =
      /Refused by the server, not retried — `quire review --dismiss <n>` clears one:\n {2}(\d+)\. your comment “Ship it today” on change request #1 \((?:just now|\d+ min ago)\): (.*)$/m.exec(
        listed.stdout,
      );
    expect(refused, listed.stdout).not.toBeNull();
    expect(refused![2]).toMatch(/\(422\)$/);
    const status = await run('status');
    expect(status.stdout).toMatch(/The server refused your comment “Ship it today” on change request #1: .*`quire review --dismiss/s);
    expect(status.stdout).not.toMatch(/local:/);

    expect((await run('review', '--dismiss', '999')).stderr).toMatch(
      /^No review action 999 waits or was refused: `quire review` lists them with their numbers\.$/m,
    );
    const dismissed = await run('review', '--dismiss', refused![1]!);
    expect(dismissed.stdout).toBe(`Dismissed action ${refused![1]}: your comment “Ship it today” on change request #1.`);
    expect((await run('review')).stdout).not.toMatch(/Refused by the server/);
    expect((await run('status')).stdout).not.toMatch(/refused/);
  });
});
