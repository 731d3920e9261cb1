/**
 * Issue 30, item 6 through the command line against the fake API: `quire inbox` sorts change
 * requests across every organization the folder syncs into needs your review, changes requested
 * on yours, ready to merge, blocked (with the rule or reviewer it waits on), and mentions and
 * replies; pins and snoozes hold across runs, and an item snoozed until it changes comes back
 * when it does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { SpaceRec, UserRec } from '../../fake/model';
import { seedTriage } from '../../fake/triage-seed';
import { quire, tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let env: NodeJS.ProcessEnv;
let guide: SpaceRec;
let handbook: SpaceRec;
let alex: UserRec;

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env });
const inbox = async () => {
  const r = await run('inbox', '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    groups: Record<
      string,
      { key: string; changeRequest: { number: number; subject: string } | null; commentId: string | null; waitingOn: string[]; pinned: boolean }[]
    >;
    snoozed: { key: string; snoozed: { until: string | null } }[];
  };
};
const titles = (data: Awaited<ReturnType<typeof inbox>>) =>
  Object.fromEntries(Object.entries(data.groups).map(([g, items]) => [g, items.map((i) => i.commentId ?? i.changeRequest?.subject)]));

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  env = { QUIRE_TOKEN: fake.token };
  ({ guide, handbook, alex } = seedTriage(fake.store));
  expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

describe('quire inbox', () => {
  it('sorts a seeded organization (and another) into the five groups, each blocked one with what it waits on', async () => {
    const data = await inbox();
    const comments = [...fake.store.comments.values()];
    const mention = comments.find((c) => c.markdown.includes('@Casey'))!.id;
    // Alex's review came with a comment: a thread on your change request.
    const reviewComment = comments.find((c) => c.markdown === 'Not yet.')!.id;
    expect(titles(data)).toEqual({
      'needs-review': expect.arrayContaining(['Alex’s rewrite', 'Sam’s handbook fix']),
      'changes-requested': ['Mine, changes asked'],
      'ready-to-merge': ['Mine, approved'],
      blocked: ['Mine, waiting'],
      mentions: [mention, reviewComment],
    });
    expect(data.groups['needs-review']).toHaveLength(2);
    expect(data.groups.blocked![0]!.waitingOn).toEqual(['the merge rules ask for at least one approving review', 'a review from Sam Okafor (asked)']);

    const text = await run('inbox');
    expect(text.stdout).toMatch(
      /^Needs your review \(2\):\n(.*\n){2}Changes requested on yours \(1\):\n.*#2 Mine, changes asked.*\nReady to merge \(1\):\n.*#3 Mine, approved.*\nBlocked \(1\):\n.*#4 Mine, waiting.*\n {8}waits on the merge rules ask for at least one approving review\n {8}waits on a review from Sam Okafor \(asked\)\nMentions and replies \(2\):\n.*mentions you: Could @Casey Quire look at this\?.*\n.* on #2 — on your change request: Not yet\./,
    );
  });

  it('offline, sorts what the mirror holds and says since when', async () => {
    fake.faults.offline = true;
    const r = await run('inbox', '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Showing the local mirror, last refreshed/);
    expect(JSON.parse(r.stdout).groups['ready-to-merge']).toHaveLength(1);
  });

  it('a pinned item stays first in its group across runs, until unpinned', async () => {
    const first = (await inbox()).groups['needs-review']!.map((i) => i.changeRequest!.subject);
    const last = first.at(-1)!;
    const space = last === 'Alex’s rewrite' ? guide.id : handbook.id;
    // Both spaces have a #1: the number alone is refused, with the spaces to choose from.
    const ambiguous = await run('inbox', '--pin', '1');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/change request #1 is in several spaces: say which with --space <id>/);
    const pinned = await run('inbox', '--pin', '#1', '--space', space);
    expect(pinned.stdout).toMatch(new RegExp(`^#1 ${last}: pinned`));
    for (let i = 0; i < 2; i++) {
      const group = (await inbox()).groups['needs-review']!;
      expect(group.map((x) => [x.changeRequest!.subject, x.pinned])).toEqual([
        [last, true],
        [first[0], false],
      ]);
    }
    expect((await run('inbox')).stdout).toMatch(new RegExp(`\\[pinned\\] #1 ${last}`));
    await run('inbox', '--unpin', '1', '--space', space);
    expect((await inbox()).groups['needs-review']!.every((x) => !x.pinned)).toBe(true);
  });

  it('a snoozed item stays out of its group across runs and comes back when it changes', async () => {
    const snoozed = await run('inbox', '--snooze', '2', '--space', guide.id);
    expect(snoozed.stdout).toBe('#2 Mine, changes asked: snoozed until it changes (new activity, a new revision, another group).');
    for (let i = 0; i < 2; i++) {
      const data = await inbox();
      expect(data.groups['changes-requested']).toEqual([]);
      expect(data.snoozed).toEqual([expect.objectContaining({ key: expect.stringMatching(/^cr:/), snoozed: { until: null } })]);
    }
    expect((await run('inbox')).stdout).toMatch(/Snoozed \(1\): #2 until it changes/);

    // Alex reviews again: it changed, so it is back.
    fake.store.review.submit(guide.id, 2, { status: 'changes-requested', by: alex.id, comment: 'Still not.' });
    const back = await inbox();
    expect(back.groups['changes-requested']!.map((i) => i.changeRequest!.subject)).toEqual(['Mine, changes asked']);
    expect(back.snoozed).toEqual([]);
  });

  it('snoozed until a date, an item stays away whatever happens; a date past or unreadable is refused', async () => {
    const past = await run('inbox', '--snooze', '3', '--space', guide.id, '--until', '2001-01-01');
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--until 2001-01-01 is not in the future/);
    expect((await run('inbox', '--snooze', '3', '--space', guide.id, '--until', 'tomorrow')).stderr).toMatch(/--until takes a date such as 2026-03-01/);
    expect((await run('inbox', '--until', '2999-01-01')).stderr).toMatch(/--until goes with --snooze <n>/);

    const r = await run('inbox', '--snooze', '3', '--space', guide.id, '--until', '2999-01-01');
    expect(r.stdout).toBe('#3 Mine, approved: snoozed until 2999-01-01 00:00 UTC.');
    fake.store.review.submit(guide.id, 3, { status: 'approved', by: alex.id });
    const data = await inbox();
    expect(data.groups['ready-to-merge']).toEqual([]);
    expect(data.snoozed).toEqual([expect.objectContaining({ snoozed: { until: '2999-01-01T00:00:00.000Z' } })]);
    await run('inbox', '--unsnooze', '3', '--space', guide.id);
    expect((await inbox()).groups['ready-to-merge']).toHaveLength(1);
  });

  it('a thread is pinned by its comment id; something not in the inbox is refused in one line', async () => {
    const mention = [...fake.store.comments.values()].find((c) => c.markdown.includes('@Casey'))!.id;
    expect((await run('inbox', '--pin', mention)).stdout).toMatch(/^the thread \S+: pinned/);
    expect((await inbox()).groups.mentions![0]!.pinned).toBe(true);
    const none = await run('inbox', '--pin', 'comment_nope');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/names no change request .* and no comment Quire knows/);
  });
});
