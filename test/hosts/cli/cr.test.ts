/**
 * Issue 19 through the whole command line, in process, against the fake API: review data after
 * a plain `quire sync --once`; comments started, edited and deleted; reviews, reviewers and the
 * lifecycle of a change request (merge only by `quire cr merge`, refused with the server's
 * reason when a rule is not met); each action online and queued offline, the queue sent in
 * order once the API is back; and a writer's change requests by topic (`cr new`, `cr use`, the
 * subject that follows what a change request holds, a new topic not added to one under review).
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { ChangeRequestRec, SpaceRec, UserRec } from '../../fake/model';
import { seedDemo } from '../../fake/seed';
import { quire, tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  env = { QUIRE_TOKEN: fake.token };
});
afterEach(async () => {
  await fake.close();
});

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env });
const json = async (...argv: string[]) => {
  const r = await run(...argv, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const writes = () => fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/\/(comment|reply|user|cr)_[^/]+/g, '/:id')}`);

describe('review data is there when you need it', () => {
  it('the first `quire sync --once` of a fresh folder brings the organization’s change requests and comments, for review and search offline', async () => {
    seedDemo(fake.store);
    expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
    fake.faults.offline = true;
    const review = await run('review', '--json');
    expect(review.stderr).toMatch(/Showing the local mirror, last refreshed (just now|\d+ min ago) \(/);
    const data = JSON.parse(review.stdout);
    expect(data.changeRequests.map((cr: { subject: string }) => cr.subject)).toEqual(['Polish the welcome page']);
    expect(data.comments.map((c: { body: string }) => c.body).sort()).toEqual(['Nice wording 👍', 'Should we link the install guide here?']);
    expect(data.refreshedAt).toMatch(/^\d{4}-/);
    const drafts = await json('cr', 'list', '--status', 'draft');
    expect(drafts.changeRequests.map((cr: { subject: string }) => cr.subject)).toEqual(['More FAQ entries']);
    const found = await run('search', 'install guide', '--kind', 'comment');
    expect(found.stdout).toMatch(/Should we link the \[install\] \[guide\] here/i);
  });

  it('the writer’s own change request is listed right after the push that created it', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    fake.store.addSpace(org.id, {
      title: 'Guide',
      pages: [
        { title: 'Welcome', markdown: 'Hi.\n' },
        { title: 'Install', markdown: 'npm i\n' },
      ],
    });
    await run('sync', '--api', fake.url, '--once');
    appendFileSync(join(dir, 'guide', 'install.md'), 'More.\n');
    expect((await run('sync', '--once')).code).toBe(0);
    fake.faults.offline = true;
    const listed = await json('cr', 'list');
    expect(listed.changeRequests).toEqual([expect.objectContaining({ subject: 'Edit ‘Install’', author: 'Casey Quire', receivesYourEdits: true })]);
  });
});

describe('comments, whole', () => {
  let space: SpaceRec;
  let cr: ChangeRequestRec;
  let alex: UserRec;

  beforeEach(async () => {
    alex = fake.store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
    const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
    space = fake.store.addSpace(org.id, {
      title: 'Guide',
      pages: [
        { title: 'Welcome', markdown: 'Hi.\n' },
        { title: 'Install', markdown: 'npm i\n' },
        { title: 'Setup', markdown: 'Set it up.\n' },
      ],
    });
    cr = fake.store.addChangeRequest(space.id, { subject: 'Better setup', createdBy: alex.id });
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Setup').id, { markdown: 'Set it up, well.\n' }, { changeRequest: cr.id });
    await run('sync', '--api', fake.url, '--once');
  });

  it('starts a comment on a page (by its file), on a change request, and on a page of one; online, at once', async () => {
    const onPage = await run('comment', 'new', '--page', join(dir, 'guide', 'install.md'), '--body', 'Which Node version?');
    expect(onPage.stdout).toMatch(/^Comment on “Install”: sent \(comment \S+\)\.$/);
    const onCr = await run('comment', 'new', '--change-request', String(cr.number), '--body', 'Looks good overall.');
    expect(onCr.stdout).toMatch(new RegExp(`^Comment on change request #${cr.number}: sent`));
    const both = await run('comment', 'new', '--page', 'guide/setup.md', '--change-request', `#${cr.number}`, '--body', 'Say “well” how?');
    expect(both.stdout).toMatch(new RegExp(`^Comment on “Setup” in change request #${cr.number}: sent`));
    const setup = fake.store.pageByTitle(space.id, 'Setup').id;
    const comments = [...fake.store.comments.values()].map((c) => [c.markdown, c.pageId ?? null, c.changeRequestId ?? null]);
    expect(comments).toEqual([
      ['Which Node version?', fake.store.pageByTitle(space.id, 'Install').id, null],
      ['Looks good overall.', null, cr.id],
      ['Say “well” how?', setup, cr.id],
    ]);
  });

  it('offline, every action queues in order, shows pending, and is sent in that order once the API is back', async () => {
    const mine = (await json('comment', 'new', '--page', 'guide/install.md', '--body', 'First thought')).targetId as string;
    const theirs = fake.store.addComment(space.id, { body: 'A question from Alex', by: alex.id });
    await run('review');
    fake.faults.offline = true;
    const queued = [
      await run('comment', 'new', '--change-request', String(cr.number), '--body', 'Offline remark'),
      await run('comment', 'edit', mine, '--body', 'First thought, clarified'),
      await run('comment', 'reply', theirs.id, '--body', 'Answer, offline'),
      await run('comment', 'react', theirs.id, '--emoji', '👀'),
      await run('cr', 'archive', String(cr.number)),
      await run('cr', 'reopen', String(cr.number)),
      await run('cr', 'edit', String(cr.number), '--subject', 'Better setup, renamed'),
      await run('cr', 'reviewers', String(cr.number), '--add', 'alex@example.com'),
    ];
    // The fake's "offline" drops each connection once the request is in: sent, and no answer (issue 27, item 20).
    for (const q of queued) expect(q.stdout, q.stderr).toMatch(/queued — (the API is not reachable now|sent, but no answer Quire could use came back)/);
    const needsServer = await run('cr', 'merge', String(cr.number));
    expect(needsServer.code).toBe(1);
    expect(needsServer.stdout).toMatch(/needs the server's answer.*Nothing was queued/);

    const offline = await run('review', '--json');
    const data = JSON.parse(offline.stdout);
    expect(data.comments.find((c: { id: string }) => c.id === mine)).toMatchObject({ body: 'First thought, clarified', pending: true });
    expect(data.comments.find((c: { body: string }) => c.body === 'Offline remark')).toMatchObject({ pending: true });
    expect(data.comments.find((c: { id: string }) => c.id === theirs.id).replies).toEqual([
      expect.objectContaining({ body: 'Answer, offline', pending: true }),
    ]);
    const shown = await json('cr', 'show', String(cr.number));
    expect(shown).toMatchObject({ subject: 'Better setup, renamed', pending: true, requestedReviewers: [{ displayName: 'Alex Rivera', pending: 'add' }] });

    fake.faults.offline = false;
    fake.resetLog();
    const sync = await run('sync', '--once');
    expect(sync.stdout).toMatch(/Sent 8 queued review action/);
    expect(writes()).toEqual([
      `POST /v1/spaces/${space.id}/change-requests/:id/comments`,
      `PUT /v1/spaces/${space.id}/comments/:id`,
      `POST /v1/spaces/${space.id}/comments/:id/replies`,
      `PUT /v1/spaces/${space.id}/comments/:id`,
      `PATCH /v1/spaces/${space.id}/change-requests/:id`,
      `PATCH /v1/spaces/${space.id}/change-requests/:id`,
      `PATCH /v1/spaces/${space.id}/change-requests/:id`,
      `POST /v1/spaces/${space.id}/change-requests/:id/requested-reviewers`,
    ]);
    expect(fake.store.changeRequest(space.id, cr.id)).toMatchObject({ subject: 'Better setup, renamed', status: 'open', requestedReviewers: [alex.id] });
    expect(fake.store.comments.get(mine)!.markdown).toBe('First thought, clarified');
    expect(fake.store.comments.get(theirs.id)!.reactions.map((r) => r.emoji)).toEqual(['👀']);
    const after = await json('review');
    expect(after.comments.every((c: { pending: boolean }) => !c.pending)).toBe(true);
  });

  it('edits and deletes one’s own comments and replies; someone else’s are refused before anything is sent', async () => {
    const theirs = fake.store.addComment(space.id, { body: 'Alex asks', by: alex.id });
    const reply = fake.store.addReply(space.id, theirs.id, { body: 'My answer' });
    await run('review');
    expect((await run('comment', 'edit', reply.id, '--body', 'My better answer')).stdout).toMatch(/^Editing reply \S+: sent\.$/);
    expect(fake.store.comments.get(theirs.id)!.replies[0]!.markdown).toBe('My better answer');
    const refused = await run('comment', 'edit', theirs.id, '--body', 'Not mine');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/you may only edit your own comments and replies/);
    expect((await run('comment', 'delete', reply.id)).stdout).toMatch(/^Deleting reply \S+: sent\.$/);
    expect(fake.store.comments.get(theirs.id)!.replies).toEqual([]);
    expect((await run('comment', 'delete', theirs.id)).stderr).toMatch(/you may only delete your own/);
  });

  it('reactions are listed with counts and who', async () => {
    const c = fake.store.addComment(space.id, { body: 'React to me', by: alex.id });
    fake.store.updateComment(c, { addedReactions: ['👍'] }, alex.id);
    fake.store.updateComment(c, { addedReactions: ['👍'] });
    const data = await json('review');
    expect(data.comments.find((x: { id: string }) => x.id === c.id).reactions).toEqual([
      { emoji: '👍', count: 2, users: ['Alex Rivera', 'Casey Quire'], mine: true },
    ]);
    expect((await run('review')).stdout).toContain('[👍 2: Alex Rivera, Casey Quire]');
  });
});

describe('reviews and the lifecycle', () => {
  let space: SpaceRec;
  let cr: ChangeRequestRec;
  let alex: UserRec;
  let sam: UserRec;

  beforeEach(async () => {
    alex = fake.store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
    sam = fake.store.addUser({ displayName: 'Sam Okafor', email: 'sam@example.com' });
    const org = fake.store.addOrg({ title: 'Acme', members: [alex.id, sam.id] });
    space = fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Welcome', markdown: 'Hello.\n' }] });
    cr = fake.store.addChangeRequest(space.id, { subject: 'Warmer welcome', createdBy: alex.id });
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hello, and welcome!\n' }, { changeRequest: cr.id });
    fake.store.review.setMergeRules({ space: space.id }, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
    await run('sync', '--api', fake.url, '--once');
  });

  it('lists reviews and requested reviewers, asks and withdraws reviewers by name or email, and reviews', async () => {
    expect((await run('cr', 'reviewers', '1', '--add', 'Sam Okafor', '--add', 'alex@example.com')).stdout).toMatch(
      /^Asking Sam Okafor to review #1: sent\.\nAsking Alex Rivera to review #1: sent\.$/,
    );
    expect(fake.store.changeRequest(space.id, cr.id).requestedReviewers).toEqual([sam.id, alex.id]);
    expect((await run('cr', 'reviewers', '1', '--remove', 'alex rivera')).stdout).toMatch(/Withdrawing the review request of Alex Rivera on #1: sent/);
    const unknown = await run('cr', 'reviewers', '1', '--add', 'Nobody');
    expect(unknown.stderr).toMatch(/No member is called “Nobody” \(members: Alex Rivera, Casey Quire, Sam Okafor\)/);

    fake.store.review.submit(space.id, cr.id, { status: 'changes-requested', by: sam.id, comment: 'Too warm.' });
    const mine = await run('cr', 'review', '1', '--approve', '--body', 'Fine by me.');
    expect(mine.stdout).toBe('Approving #1: done.');
    const shown = await json('cr', 'show', '1');
    expect(shown.reviews).toEqual([
      expect.objectContaining({ reviewer: 'Sam Okafor', status: 'changes-requested', comment: 'Too warm.', outdated: false }),
      expect.objectContaining({ reviewer: 'Casey Quire', status: 'approved', comment: 'Fine by me.' }),
    ]);
    expect(shown.requestedReviewers).toEqual([]);
    expect(shown.pages).toEqual([expect.objectContaining({ title: 'Welcome', change: 'modified' })]);
    expect(shown.blockers.merge).toEqual([]);
    const text = (await run('cr', 'show', '1')).stdout;
    expect(text).toMatch(/Sam Okafor requested changes: Too warm\.\n {4}Casey Quire approved: Fine by me\./);
    expect(text).toMatch(/merge: possible/);
  });

  it('reads change request numbers as digits only: 0x1, 1e1, +3, 3., 0b11 name no change request', async () => {
    fake.store.addChangeRequest(space.id, { subject: 'Second' });
    fake.store.addChangeRequest(space.id, { subject: 'Third' });
    fake.resetLog();
    for (const bad of ['0x1', '1e1', '+3', '3.', '0b11', '#0x1', '1.0', '0']) {
      for (const argv of [
        ['cr', 'show', bad],
        ['cr', 'merge', bad],
        ['comment', 'new', '--change-request', bad, '--body', 'Which one?'],
      ]) {
        const r = await run(...argv);
        expect(r.code, `${argv.join(' ')}: ${r.stdout}`).toBe(2);
        expect(r.stderr).toContain(`give a change request number, such as 3 or #3; got "${bad}".`);
      }
    }
    expect(writes()).toEqual([]);
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('open');
    expect((await json('cr', 'show', '#3')).subject).toBe('Third');
  });

  it('asks only a member named exactly (name, email or id); a near name lists who it could be and asks nobody', async () => {
    fake.resetLog();
    const kaf = await run('cr', 'reviewers', '1', '--add', 'Sam Okafor', '--add', 'kaf');
    expect(kaf.code).toBe(1);
    expect(kaf.stderr).toMatch(/No member is called “kaf”: did you mean Sam Okafor <sam@example\.com>\? Give a name, an email or a user id exactly\./);
    const email = await run('cr', 'reviewers', '1', '--add', 'x@example.com');
    expect(email.stderr).toMatch(/No member is called “x@example\.com”: did you mean Alex Rivera <alex@example\.com>\?/);
    const first = await run('cr', 'reviewers', '1', '--add', 'Sam');
    expect(first.stderr).toMatch(/No member is called “Sam”: did you mean Sam Okafor <sam@example\.com>\?/);
    expect(writes()).toEqual([]);
    expect(fake.store.changeRequest(space.id, cr.id).requestedReviewers ?? []).toEqual([]);

    expect((await run('cr', 'reviewers', '1', '--add', 'SAM@example.com', '--add', alex.id)).stdout).toMatch(
      /^Asking Sam Okafor to review #1: sent\.\nAsking Alex Rivera to review #1: sent\.$/,
    );
  });

  it('a merge a rule blocks says why, from the mirror and with the server’s own words; once approved, it merges and the next sync pulls it', async () => {
    const shown = await json('cr', 'show', '1');
    expect(shown.blockers.merge).toEqual([{ code: 'rule', message: 'the merge rules ask for at least one approving review' }]);
    const refused = await run('cr', 'merge', '1');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('Merging #1: refused by the server — The merge rules of this space are not met: at least one approved review is required.');
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('open');
    // Sync never merges, whatever it does.
    await run('sync', '--once');
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('open');

    fake.store.review.submit(space.id, cr.id, { status: 'approved', by: sam.id });
    const merged = await run('cr', 'merge', '1');
    expect(merged.stdout).toMatch(/^Merging #1: merged into main\. The next `quire sync` pulls it into the folder\.$/);
    expect(readFileSync(join(dir, 'guide', 'README.md'), 'utf8')).not.toContain('welcome!');
    expect((await run('sync', '--once')).code).toBe(0);
    expect(readFileSync(join(dir, 'guide', 'README.md'), 'utf8')).toContain('Hello, and welcome!');
    expect((await json('cr', 'list', '--status', 'merged')).changeRequests.map((c: { number: number }) => c.number)).toEqual([1]);
  });

  it('says why an action is not possible: a draft, a merged one, one already up to date', async () => {
    await run('cr', 'edit', '1', '--description', 'Why: friendlier.\n\nHow: one word.');
    expect(fake.store.changeRequest(space.id, cr.id).description).toMatchObject({ object: 'document' });
    expect((await json('cr', 'show', '1')).description).toBe('Why: friendlier.\n\nHow: one word.');
    fake.store.updateChangeRequestFields(space.id, cr.id, { status: 'draft' });
    await run('review');
    const draft = await run('cr', 'merge', '1');
    expect(draft.stdout).toMatch(/^Merging #1: not possible — it is a draft: mark it ready for review \(reopen it\) first\.$/);
    expect((await run('cr', 'update', '1')).stdout).toMatch(/^Updating #1 from main: refused by the server|^Updating #1 from main: done/);
    expect((await run('cr', 'reopen', '1')).stdout).toMatch(/^Reopening #1: sent\.$/);
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('open');
    fake.store.review.submit(space.id, cr.id, { status: 'approved', by: sam.id });
    await run('cr', 'merge', '1');
    expect((await run('cr', 'archive', '1')).stdout).toBe('Archiving #1: not possible — it is already merged.');
  });

  it('updates an outdated change request from main; offline, update and review need the server', async () => {
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { title: 'Welcome!' });
    await run('review');
    expect((await json('cr', 'show', '1')).outdated).toBe(true);
    fake.faults.offline = true;
    expect((await run('cr', 'update', '1')).stdout).toMatch(/needs the server's answer/);
    expect((await run('cr', 'review', '1', '--approve')).stdout).toMatch(/^Approving #1: needs the server's answer/);
    fake.faults.offline = false;
    expect((await run('cr', 'update', '1')).stdout).toBe('Updating #1 from main: done.');
    expect(fake.store.isOutdated(fake.store.changeRequest(space.id, cr.id))).toBe(false);
  });
});

describe('a writer’s change requests by topic', () => {
  let space: SpaceRec;
  const file = (name: string) => join(dir, 'guide', name);

  beforeEach(async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    space = fake.store.addSpace(org.id, {
      title: 'Guide',
      pages: [
        { title: 'Welcome', markdown: 'Hi.\n' },
        { title: 'Install', markdown: 'npm i\n' },
        { title: 'Setup', markdown: 'Set up.\n' },
        { title: 'Usage', markdown: 'Use it.\n' },
      ],
    });
    await run('sync', '--api', fake.url, '--once');
  });

  const subjects = () => fake.store.changeRequestsOf(space.id).map((cr) => [cr.number, cr.subject, cr.status]);

  it('the subject says what the change request holds and follows it as it grows; a subject the user set is kept', async () => {
    appendFileSync(file('install.md'), 'More.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([[1, 'Edit ‘Install’', 'open']]);
    writeFileSync(file('my-new-page.md'), '# My new page\n\nHello.\n');
    appendFileSync(file('setup.md'), 'More.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([[1, 'Add ‘My new page’, edit ‘Install’ (+1 more)', 'open']]);
    expect((await json('status')).spaces[0].target).toMatchObject({ state: 'open', number: 1, subject: 'Add ‘My new page’, edit ‘Install’ (+1 more)' });

    await run('cr', 'edit', '1', '--subject', 'Install and setup');
    appendFileSync(file('usage.md'), 'More.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([[1, 'Install and setup', 'open']]);

    // Renamed on GitBook: the user's too.
    fake.store.updateChangeRequestFields(space.id, 1, { subject: 'Named on GitBook' });
    fake.store.updateChangeRequestFields(space.id, 1, { subject: 'Named on GitBook' });
    appendFileSync(file('install.md'), 'Again.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([[1, 'Named on GitBook', 'open']]);
  });

  it('a subject is one line of text: line breaks become spaces, a control character is refused before anything is sent (issue 27, item 21)', async () => {
    appendFileSync(file('install.md'), 'More.\n');
    await run('sync', '--once');
    expect((await run('cr', 'edit', '1', '--subject', 'Install\r\nand\n\nsetup\u2028again')).code).toBe(0);
    expect(subjects()).toEqual([[1, 'Install and setup again', 'open']]);
    fake.resetLog();
    for (const [subject, what] of [
      ['Install \u001b[31mred', 'U+001B, an escape code'],
      ['Install\u0007', 'U+0007'],
      ['Install \u009b31m', 'U+009B, an escape code'],
    ] as const) {
      for (const argv of [
        ['cr', 'edit', '1', '--subject', subject],
        ['cr', 'new', '--subject', subject],
      ]) {
        const refused = await run(...argv);
        expect(refused.code, argv.join(' ')).toBe(2);
        expect(refused.stderr).toMatch(
          new RegExp(
            `^quire cr: --subject holds a control character \\(${what.replace('+', '\\+')}\\) at character \\d+: a subject is one line of plain text; remove it\\.$`,
          ),
        );
      }
    }
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(subjects()).toEqual([[1, 'Install and setup again', 'open']]);
    expect((await run('cr', 'new', '--subject', 'Topic\nB')).stdout).toBe('Opened change request #2 “Topic B”: the next pushes of Guide go into it.');
    expect(subjects()).toEqual([
      [1, 'Install and setup again', 'open'],
      [2, 'Topic B', 'open'],
    ]);
  });

  it('a change request set aside counts every page it holds, deletes too, as the one receiving the edits does (issue 28, item 7)', async () => {
    appendFileSync(file('install.md'), 'Topic A.\n');
    rmSync(file('usage.md'));
    await run('sync', '--once');
    expect((await run('status')).stdout).toMatch(/your edits go into change request #1 “[^\n]*” \(2 pages so far\)/);
    await run('cr', 'new', '--subject', 'Topic B');
    expect((await run('status')).stdout).toMatch(/set aside: #1 “[^\n]*” \(2 pages\) — /);
  });

  it('`cr new` starts a change request the next pushes go to, `cr use` points them back; `quire status` says which', async () => {
    appendFileSync(file('install.md'), 'Topic A.\n');
    await run('sync', '--once');
    const started = await run('cr', 'new', '--subject', 'Topic B');
    expect(started.stdout).toBe('Opened change request #2 “Topic B”: the next pushes of Guide go into it.');
    const status = await run('status');
    expect(status.stdout).toMatch(/your edits go into change request #2 “Topic B” \(0 pages so far\) \(chosen with quire cr\)/);
    expect(status.stdout).toMatch(/set aside: #1 “Edit ‘Install’” \(1 page\) — `quire cr use 1 --space \S+ --dir \S+` to go on with it/);
    appendFileSync(file('setup.md'), 'Topic B.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([
      [1, 'Edit ‘Install’', 'open'],
      [2, 'Topic B', 'open'],
    ]);
    const pagesOf = (n: number) =>
      fake.store
        .pages(space.id, { changeRequest: n })
        .filter((p) => p.markdown.includes('Topic'))
        .map((p) => p.title);
    expect(pagesOf(1)).toEqual(['Install']);
    expect(pagesOf(2)).toEqual(['Setup']);

    expect((await run('cr', 'use', '1')).stdout).toBe('The edits of Guide now go into change request #1 “Edit ‘Install’”.');
    appendFileSync(file('usage.md'), 'Topic A again.\n');
    await run('sync', '--once');
    expect(pagesOf(1).sort()).toEqual(['Install', 'Usage']);
    expect(subjects()[0]).toEqual([1, 'Edit ‘Install’, edit ‘Usage’', 'open']);

    const other = fake.store.addChangeRequest(space.id, { subject: 'Not mine', createdBy: fake.store.addUser({ displayName: 'Dana' }).id });
    await run('review');
    expect((await run('cr', 'use', String(other.number))).stdout).toMatch(/not possible — it is Dana's; Quire pushes only into your own change requests/);
  });

  it('offline, `cr new` is kept for the next push, which opens it with the user’s subject', async () => {
    fake.faults.offline = true;
    expect((await run('cr', 'new', '--subject', 'Offline topic')).stdout).toMatch(
      /queued — the API is not reachable now .*the next push of Guide opens it “Offline topic”/,
    );
    fake.faults.offline = false;
    appendFileSync(file('install.md'), 'Edit.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([[1, 'Offline topic', 'open']]);
  });

  it('once Quire’s change request went to review, a new topic opens a new one (and says so); revisions of its pages still go into it', async () => {
    appendFileSync(file('install.md'), 'First.\n');
    await run('sync', '--once');
    fake.store.review.request(space.id, 1, [fake.store.currentUser.id]);
    appendFileSync(file('install.md'), 'Revision after review.\n');
    await run('sync', '--once');
    expect(subjects()).toEqual([[1, 'Edit ‘Install’', 'open']]);

    appendFileSync(file('setup.md'), 'A new topic.\n');
    const sync = await run('sync', '--once');
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(
      /Guide: Change request #1 is under review, so new edits go into a new change request \(to add them to #1 instead, run `quire cr use 1 --space \S+`\)\./,
    );
    expect(subjects()).toEqual([
      [1, 'Edit ‘Install’', 'open'],
      [2, 'Edit ‘Setup’', 'open'],
    ]);
    expect((await run('status')).stdout).toMatch(/your edits go into change request #2 “Edit ‘Setup’”[^\n]*\n {4}set aside: #1/);
    const log = await quire(['status', '--dir', dir, '--json'], { env });
    expect(JSON.parse(log.stdout).spaces[0].target).toMatchObject({ number: 2, chosen: false, setAside: [expect.objectContaining({ number: 1 })] });
  });

  it('a page created in a change request set aside is not pushed again as a new page: it waits, and says why', async () => {
    writeFileSync(file('only-in-one.md'), '# Only in one\n\nHi.\n');
    await run('sync', '--once');
    await run('cr', 'new', '--subject', 'Something else');
    appendFileSync(file('only-in-one.md'), 'Edited.\n');
    const sync = await run('sync', '--once');
    expect(sync.code).toBe(3);
    expect(sync.stderr).toMatch(/only-in-one\.md is not pushed: it exists only in change request #1, set aside: run `quire cr use 1 --space \S+`/);
    expect(fake.store.pages(space.id, { changeRequest: 2 }).map((p) => p.title)).not.toContain('Only in one');
    await run('cr', 'use', '1');
    expect((await run('sync', '--once')).code).toBe(0);
    expect(fake.store.pages(space.id, { changeRequest: 1 }).find((p) => p.title === 'Only in one')!.markdown).toContain('Edited.');
  });
});
