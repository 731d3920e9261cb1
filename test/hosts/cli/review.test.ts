/**
 * `quire review` and `quire comment`: in process against a seeded review world, and the whole
 * command line (`quire sync` sending what was queued offline).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../../src/main/hosts/cli/args';
import type { CliIo } from '../../../src/main/hosts/cli/io';
import { run as review, type ReviewCliContext } from '../../../src/main/hosts/cli/commands/review';
import { run as comment } from '../../../src/main/hosts/cli/commands/comment';
import { Mirror } from '../../../src/main/core/mirror';
import { ReviewService } from '../../../src/main/core/review';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { reviewWorld, seedReview, type ReviewWorld } from '../../review/setup';

describe('in process, against a seeded review world', () => {
  let w: ReviewWorld;
  let seeded: ReturnType<typeof seedReview>;

  beforeEach(async () => {
    w = await reviewWorld();
    seeded = seedReview(w);
    w.mirror.close(); // the commands open the folder themselves
  });
  afterEach(async () => {
    await w.close();
  });

  const context = (online = true): ReviewCliContext => ({
    openMirror: (dir) => Mirror.open(dir),
    apiFor: async () => {
      if (!online) throw new Error('No API token for this folder. Run `quire login`.');
      return w.client();
    },
  });

  async function cli(command: typeof review, argv: string[], ctx = context()) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, readStdin: async () => '', signal: new AbortController().signal };
    const code = await command(parseArgs(argv), io, ctx);
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  describe('quire review', () => {
    it('--json lists open change requests and unresolved comments in the documented shape', async () => {
      const { code, stdout } = await cli(review, ['review', '--dir', w.dir, '--json']);
      expect(code).toBe(0);
      const json = JSON.parse(stdout);
      expect(Object.keys(json).sort()).toEqual(['changeRequests', 'comments', 'inbox', 'refreshedAt']);
      expect(json.changeRequests).toEqual([
        { spaceId: w.space.id, id: seeded.open.id, number: seeded.open.number, subject: 'Rewrite the guide', status: 'open', outdated: true },
      ]);
      const byId = Object.fromEntries(json.comments.map((c: { id: string }) => [c.id, c]));
      expect(Object.keys(byId).sort()).toEqual([seeded.crComment.id, seeded.spaceComment.id].sort());
      expect(byId[seeded.spaceComment.id]).toEqual({
        id: seeded.spaceComment.id,
        spaceId: w.space.id,
        changeRequestId: null,
        pageId: w.pages.Welcome,
        author: 'Alice Reviewer',
        body: 'Is this page current?',
        status: 'open',
        reactions: [{ emoji: '👍', count: 1, users: ['Bob Writer'], mine: false }],
        replies: [
          { id: seeded.spaceComment.replies[0]!.id, author: 'Bob Writer', body: 'Yes, checked last week.', reactions: [], pending: false },
          { id: seeded.spaceComment.replies[1]!.id, author: 'Alice Reviewer', body: 'Thanks!', reactions: [], pending: false },
        ],
        pending: false,
      });
      expect(byId[seeded.crComment.id]).toMatchObject({ changeRequestId: seeded.open.id, pageId: w.pages.Guide });
    });

    it('lists the mirror and says so when the API cannot be used', async () => {
      await cli(review, ['review', '--dir', w.dir]);
      const { code, stdout, stderr } = await cli(review, ['review', '--dir', w.dir], context(false));
      expect(code).toBe(0);
      expect(stderr).toMatch(/Showing the local mirror, last refreshed .* UTC.*quire login/);
      expect(stdout).toMatch(/Open change requests \(1\):\n {2}#\d+ Rewrite the guide/);
      expect(stdout).toContain('Is this page current?');
    });

    it('shortens a long comment between characters, never inside an emoji or an accented letter (issue 27, item 21)', async () => {
      const a78 = 'a'.repeat(78);
      for (const body of [`${a78}🎉 party`, `${a78}e\u0301tude`, `${'a'.repeat(77)}👍🏽 fine`]) w.fake.store.addComment(w.space.id, { body, by: w.alice.id });
      const { code, stdout } = await cli(review, ['review', '--dir', w.dir]);
      expect(code).toBe(0);
      expect(stdout).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd|\\ud[89a-f]/i);
      expect(stdout).toContain(`: ${a78}…`);
      expect(stdout).not.toContain(`${a78}e…`);
      expect(stdout).toContain(`: ${'a'.repeat(77)}…`);
    });
  });

  describe('quire comment', () => {
    it('replies at once when the API is reachable', async () => {
      const { code, stdout } = await cli(comment, ['comment', 'reply', seeded.spaceComment.id, '--dir', w.dir, '--body', 'On it.']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Reply to comment \S+: sent \(reply \S+\)\.$/);
      expect(w.fake.store.comments.get(seeded.spaceComment.id)!.replies.map((r) => r.markdown)).toContain('On it.');
    });

    it('queues when offline, shows it pending, and the next sync sends it', async () => {
      await cli(review, ['review', '--dir', w.dir]);
      w.fake.faults.offline = true;
      const queued = await cli(comment, ['comment', 'resolve', seeded.spaceComment.id, '--dir', w.dir]);
      expect(queued.code).toBe(0);
      expect(queued.stdout).toMatch(/queued — the API is not reachable now\. .*next `quire sync`/);
      const react = await cli(comment, ['comment', 'react', seeded.crComment.id, '--dir', w.dir, '--emoji', '👀', '--json'], context(false));
      expect(JSON.parse(react.stdout)).toMatchObject({ outcome: 'queued', message: expect.stringMatching(/quire login/) });

      const offlineList = JSON.parse((await cli(review, ['review', '--dir', w.dir, '--json'])).stdout);
      expect(offlineList.comments.map((c: { id: string }) => c.id)).not.toContain(seeded.spaceComment.id);
      expect(offlineList.comments.find((c: { id: string }) => c.id === seeded.crComment.id)).toMatchObject({ pending: true });
      expect(w.fake.store.comments.get(seeded.spaceComment.id)!.status).toBe('open');

      w.fake.faults.offline = false;
      const online = JSON.parse((await cli(review, ['review', '--dir', w.dir, '--json'])).stdout);
      expect(w.fake.store.comments.get(seeded.spaceComment.id)!.status).toBe('resolved');
      expect(w.fake.store.comments.get(seeded.crComment.id)!.reactions.map((r) => r.emoji)).toContain('👀');
      expect(online.comments.find((c: { id: string }) => c.id === seeded.crComment.id)).toMatchObject({ pending: false });
    });

    it('reopens a resolved comment', async () => {
      const { stdout } = await cli(comment, ['comment', 'reopen', seeded.resolvedComment.id, '--dir', w.dir]);
      expect(stdout).toMatch(/Reopening comment \S+: sent\./);
      expect(w.fake.store.comments.get(seeded.resolvedComment.id)!.status).toBe('open');
    });

    it('says what is missing', async () => {
      await expect(cli(comment, ['comment', 'reply', seeded.spaceComment.id, '--dir', w.dir])).rejects.toThrow(UsageError);
      await expect(cli(comment, ['comment', 'react', seeded.spaceComment.id, '--dir', w.dir])).rejects.toThrow(/--emoji/);
      await expect(cli(comment, ['comment', 'remove', seeded.spaceComment.id, '--dir', w.dir])).rejects.toThrow(
        /new, edit, delete, reply, resolve, reopen, react/,
      );
      await expect(cli(comment, ['comment', 'resolve', '--dir', w.dir])).rejects.toThrow(/missing <commentId>: the comment’s id/);
    });
  });
});

describe('the whole command line', () => {
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

  it('a comment whose answer was lost, stored by the server in its own markdown, is found there and not posted again', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const space = fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
    const cr = fake.store.addChangeRequest(space.id, { subject: 'Polish' });
    const dir = tempDir();
    const env = { QUIRE_TOKEN: fake.token };
    expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env })).code).toBe(0);

    fake.markdown.commentMarkdown = 'serialized';
    fake.faults.loseAnswer(1, { match: (r) => r.method === 'POST' && r.path.endsWith('/comments') });
    const posted = await quire(
      ['comment', 'new', '--change-request', String(cr.number), '--dir', dir, '--body', 'Use *emphasis* here, and __strong__ words:\n* one\n* two'],
      { env },
    );
    expect(posted.stdout).toMatch(/queued/);
    const onServer = () => [...fake.store.comments.values()].map((c) => c.markdown);
    expect(onServer()).toEqual(['Use _emphasis_ here, and **strong** words:\n- one\n- two']);

    const review = await quire(['review', '--dir', dir, '--json'], { env });
    expect(review.code).toBe(0);
    expect(onServer()).toHaveLength(1);
    const shown = (JSON.parse(review.stdout) as ReviewOutput).comments.map((c) => ({ body: c.body, pending: (c as { pending?: boolean }).pending }));
    expect(shown).toEqual([{ body: 'Use _emphasis_ here, and **strong** words:\n- one\n- two', pending: false }]);
  });

  it('a no-op `quire sync --once` over four spaces of one organization lists their change requests in two requests', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const spaces = ['Guide', 'API', 'Runbooks', 'Blog'].map((title) => fake.store.addSpace(org.id, { title, pages: [{ title: 'Home', markdown: 'hi\n' }] }));
    for (const space of spaces) fake.store.addChangeRequest(space.id, { subject: `Draft of ${space.title}` });
    const dir = tempDir();
    const env = { QUIRE_TOKEN: fake.token };
    expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env })).code).toBe(0);

    fake.resetLog();
    expect((await quire(['sync', '--dir', dir, '--once'], { env })).code).toBe(0);
    const listings = fake.requests.filter((r) => r.path.endsWith('/change-requests')).map((r) => r.path);
    expect(listings).toEqual([`/v1/orgs/${org.id}/change-requests`, `/v1/orgs/${org.id}/change-requests`]);
    const mirror = Mirror.open(dir);
    const mirrored = new ReviewService(mirror).changeRequests().map((cr) => cr.subject);
    mirror.close();
    expect(mirrored.sort()).toEqual(spaces.map((s) => `Draft of ${s.title}`).sort());
  });
});
