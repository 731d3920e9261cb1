/**
 * Issue 19 at the service (what the app's Review view calls), against the fake API: review
 * data after the first sync and right after a push, "refresh now", the inbox and its read marks,
 * comments started, edited and deleted (online at once, offline pending, refused with a reason),
 * reviews and reviewers, merge and update (the server's answer or an error saying why), and which
 * change request receives each space's edits.
 */
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import { startFakeApi, type FakeApi } from '../../fake';
import { seedDemo, type DemoSeed } from '../../fake/seed';
import '../../fake/vitest-setup';
import { openService, signInAndSync } from '../../helpers/service';

let fake: FakeApi;
let dir: string;
let service: QuireService;
let demo: DemoSeed;

beforeEach(async () => {
  fake = await startFakeApi();
  demo = seedDemo(fake.store);
  dir = await mkdtemp(join(tmpdir(), 'quire-review-service-'));
  service = await openService({
    apiUrl: fake.url,
    folder: dir,
    api: { maxAttempts: 1, timeoutMs: 5000 },
  });
  await signInAndSync(service, fake, [demo.handbook.id]);
});

afterEach(async () => {
  await service.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const handbook = () => demo.handbook.id;
const crRef = (n: number) => ({ spaceId: handbook(), changeRequestId: fake.store.changeRequest(handbook(), n).id });

describe('review data is there when the Review view opens', () => {
  it('after the first sync, with no other request: change requests, comments, reviews and when it was refreshed', async () => {
    const attention = await service.request('review.attention', {});
    expect(attention.map((cr) => cr.subject).sort()).toEqual(['More FAQ entries', 'Polish the welcome page']);
    const comments = await service.request('review.comments', {});
    expect(comments.map((c) => c.markdown).sort()).toEqual(['Nice wording 👍', 'Should we link the install guide here?']);
    const onWelcome = comments.find((c) => c.markdown.startsWith('Should'))!;
    expect(onWelcome).toMatchObject({ pageTitle: 'Welcome', pagePath: 'README.md', mine: false });
    const state = await service.request('review.state', {});
    expect(state).toMatchObject({ online: true, pendingActions: 0, refused: [] });
    expect(state.refreshedAt).toMatch(/^\d{4}-/);
    const detail = await service.request('review.changeRequest', crRef(1));
    expect(detail.reviews).toEqual([
      expect.objectContaining({ reviewer: expect.objectContaining({ displayName: 'Sam Okafor' }), status: 'changes-requested' }),
    ]);
    expect(detail.requestedReviewers).toEqual([expect.objectContaining({ displayName: 'Casey Quire', pending: null })]);
    expect(detail.actions.merge).toEqual([{ code: 'rule', message: 'the merge rules ask for at least one approving review' }]);
    expect(detail.canMerge).toBe(false);
  });

  it('the writer’s own change request is listed right after the push that created it', async () => {
    const folder = (await service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!;
    await appendFile(join(dir, folder, 'getting-started', 'install.md'), '\nOne more line.\n');
    await service.syncOnce();
    const mine = (await service.request('review.attention', {})).find((cr) => cr.reasons.includes('mine'));
    expect(mine).toMatchObject({ subject: 'Edit ‘Install’', createdBy: expect.objectContaining({ displayName: 'Casey Quire' }) });
    const [target] = await service.request('review.targets', {});
    expect(target).toMatchObject({ spaceTitle: 'Handbook', state: 'open', number: mine!.number, subject: 'Edit ‘Install’', chosen: false, pages: 1 });
  });

  it('the writer’s own change request opens with the diff of its latest push, which the sync did not fetch', async () => {
    const folder = (await service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!;
    const install = join(dir, folder, 'getting-started', 'install.md');
    await appendFile(install, '\nOne more line.\n');
    await service.syncOnce();
    const mine = (await service.request('review.attention', {})).find((cr) => cr.reasons.includes('mine'))!;
    const ref = { spaceId: handbook(), changeRequestId: mine.id };
    expect((await service.request('review.changeRequest', ref)).diff.map((p) => p.after)).toEqual([expect.stringContaining('One more line.')]);
    await appendFile(install, '\nAnd a second one.\n');
    fake.resetLog();
    await service.syncOnce();
    expect(fake.requests.filter((r) => r.path.endsWith('/pages'))).toEqual([]);
    expect((await service.request('review.changeRequest', ref)).diff.map((p) => p.after)).toEqual([expect.stringContaining('And a second one.')]);
  });

  it('refresh now brings what changed on the server; offline it answers with the state as it was', async () => {
    fake.store.addComment(handbook(), { body: 'Fresh from the web', by: demo.users.alex.id });
    const before = (await service.request('review.state', {})).refreshedAt;
    const state = await service.request('review.refresh', {});
    expect(state.online).toBe(true);
    expect(state.refreshedAt! >= before!).toBe(true);
    expect((await service.request('review.comments', {})).map((c) => c.markdown)).toContain('Fresh from the web');
    fake.faults.offline = true;
    const offline = await service.request('review.refresh', {});
    expect(offline).toMatchObject({ online: false, refreshedAt: state.refreshedAt });
  });
});

describe('the inbox', () => {
  it('puts first what asks for the user, unread until marked read, unread again on new activity', async () => {
    const inbox = await service.request('review.inbox', {});
    expect(inbox.map((i) => [i.reasons, i.unread, i.changeRequest?.subject ?? null])).toEqual([[['review-requested'], true, 'Polish the welcome page']]);
    await service.request('review.markRead', { keys: [inbox[0]!.key] });
    expect((await service.request('review.inbox', {}))[0]!.unread).toBe(false);

    // A comment by someone else that mentions the user.
    const posted = fake.store.addComment(handbook(), { body: 'What do you think, @Casey Quire?', by: demo.users.sam.id });
    await service.request('review.refresh', {});
    // Sorted into groups (issue 30): the review asked of you first, then the mention, new.
    const next = await service.request('review.inbox', {});
    expect(next.map((i) => i.group)).toEqual(['needs-review', 'mentions']);
    expect(next[1]).toMatchObject({ reasons: ['mention'], unread: true, thread: expect.objectContaining({ id: posted.id }) });
    await service.request('review.markRead', {});
    expect((await service.request('review.inbox', {})).every((i) => !i.unread)).toBe(true);
  });
});

describe('comments, reviews and the lifecycle', () => {
  it('update from main is offered right after a sync pulled main’s change, before review data says the change request is behind (issue 28, item 7)', async () => {
    const folder = (await service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!;
    await appendFile(join(dir, folder, 'getting-started', 'install.md'), '\nOne more line.\n');
    await service.syncOnce();
    const mine = (await service.request('review.attention', {})).find((cr) => cr.reasons.includes('mine'))!;
    const ref = { spaceId: handbook(), changeRequestId: mine.id };
    expect((await service.request('review.changeRequest', ref)).actions.update).toEqual([
      { code: 'up-to-date', message: 'it already has everything main has' },
    ]);
    // Main moves on; the sync pulls it (review data is refreshed at its own pace).
    fake.store.editPage(handbook(), fake.store.pageByTitle(handbook(), 'Welcome').id, { markdown: 'Welcome, edited on main.\n' });
    await service.syncOnce();
    expect((await readFile(join(dir, folder, 'README.md'), 'utf8')).includes('edited on main')).toBe(true);
    expect((await service.request('review.changeRequest', ref)).actions.update).toEqual([]);
    await service.request('review.updateFromMain', ref);
    expect(fake.store.isOutdated(fake.store.changeRequest(handbook(), mine.number))).toBe(false);
  });

  it('starts, edits and deletes a comment at once online; offline it is pending at once and sent in order once back', async () => {
    const welcome = fake.store.pageByTitle(handbook(), 'Welcome').id;
    const sent = await service.request('review.newComment', { spaceId: handbook(), pageId: welcome, markdown: 'Shorter, please.' });
    expect(sent).toMatchObject({ outcome: 'sent', message: null });
    const id = sent.targetId!;
    expect(fake.store.comments.get(id)).toMatchObject({ markdown: 'Shorter, please.', pageId: welcome });

    fake.faults.offline = true;
    await service.syncOnce();
    const edit = await service.request('review.editComment', { spaceId: handbook(), commentId: id, markdown: 'Shorter, please!' });
    expect(edit.outcome).toBe('queued');
    const onCr = await service.request('review.newComment', { ...crRef(1), markdown: 'Offline on the change request' });
    expect(onCr.outcome).toBe('queued');
    const thread = await service.request('review.thread', { spaceId: handbook(), commentId: id });
    expect(thread).toMatchObject({ markdown: 'Shorter, please!', pending: true, mine: true });
    const deleted = await service.request('review.deleteComment', { spaceId: handbook(), commentId: id });
    expect(deleted.outcome).toBe('queued');
    await expect(service.request('review.thread', { spaceId: handbook(), commentId: id })).rejects.toMatchObject({ code: 'not-found' });
    expect(service.status().pendingActions).toBe(3);

    fake.faults.offline = false;
    fake.resetLog();
    expect(await service.syncOnce()).toMatchObject({ state: 'in-sync', pendingActions: 0 });
    const writes = fake.requests.filter((r) => r.method !== 'GET').map((r) => r.method);
    expect(writes.slice(0, 3)).toEqual(['PUT', 'POST', 'DELETE']);
    expect(fake.store.comments.has(id)).toBe(false);
    expect([...fake.store.comments.values()].map((c) => c.markdown)).toContain('Offline on the change request');
  });

  it('an action that cannot reach the server says the review state is offline, before any sync notices', async () => {
    const question = (await service.request('review.comments', {})).find((c) => c.markdown.startsWith('Should we link'))!;
    expect((await service.request('review.state', {})).online).toBe(true);
    fake.faults.offline = true;
    const queued = await service.request('review.newComment', {
      spaceId: handbook(),
      changeRequestId: question.changeRequestId ?? undefined,
      pageId: question.pageId!,
      markdown: 'On the plane.',
    });
    expect(queued.outcome).toBe('queued');
    expect((await service.request('review.state', {})).online).toBe(false);
    fake.faults.offline = false;
    expect((await service.request('review.refresh', {})).online).toBe(true);
  });

  it('subject and description edited offline show at once, pending, and reach the server once back', async () => {
    const ref = crRef(1);
    fake.faults.offline = true;
    await service.syncOnce();
    await service.request('review.setSubject', { ...ref, subject: 'Polish, offline' });
    expect(await service.request('review.setDescription', { ...ref, markdown: 'Written on the plane.' })).toMatchObject({ outcome: 'queued' });
    const detail = await service.request('review.changeRequest', ref);
    expect(detail).toMatchObject({ description: 'Written on the plane.', changeRequest: { subject: 'Polish, offline', pending: true } });
    fake.faults.offline = false;
    await service.syncOnce();
    expect(fake.store.changeRequest(handbook(), 1).subject).toBe('Polish, offline');
    expect(await service.request('review.changeRequest', ref)).toMatchObject({ description: 'Written on the plane.', changeRequest: { pending: false } });
  });

  it('a queued reply the server refuses shows with its reason, in the review state and the sync state, until dismissed', async () => {
    const question = fake.store.commentsOf(handbook()).find((c) => c.markdown.startsWith('Should we link'))!;
    fake.faults.offline = true;
    await service.syncOnce();
    expect((await service.request('review.reply', { spaceId: handbook(), commentId: question.id, markdown: 'Too late.' })) ?? null).toBeNull();
    fake.store.deleteComment(handbook(), question.id);
    fake.faults.offline = false;
    await service.syncOnce();
    const [refused] = (await service.request('review.state', {})).refused;
    expect(refused).toMatchObject({ kind: 'reply', message: expect.stringMatching(/does not exist/) });
    await expect.poll(() => service.status().reasons.map((r) => r.kind)).toContain('review-refused');

    await service.request('review.dismiss', { actionId: refused!.actionId });
    expect((await service.request('review.state', {})).refused).toEqual([]);
    await expect.poll(() => service.status().reasons.map((r) => r.kind)).not.toContain('review-refused');
    await expect(service.request('review.dismiss', { actionId: 'no-such-action' })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('a queued reply the server keeps failing on waits, listed with when it is tried again, and the rest go on; Dismiss gives up on it', async () => {
    const [question, other] = fake.store.commentsOf(handbook()).filter((c) => !c.changeRequestId);
    fake.faults.offline = true;
    await service.syncOnce();
    await service.request('review.reply', { spaceId: handbook(), commentId: question!.id, markdown: 'Stuck.' });
    await service.request('review.reply', { spaceId: handbook(), commentId: other!.id, markdown: 'Goes through.' });
    fake.faults.offline = false;
    fake.faults.fail(1000, 500, { match: (r) => r.method === 'POST' && r.path.endsWith(`/comments/${question!.id}/replies`) });
    await service.syncOnce();
    expect(fake.store.comments.get(other!.id)!.replies.map((r) => r.markdown)).toContain('Goes through.');
    const state = await service.request('review.state', {});
    expect(state).toMatchObject({ online: true, pendingActions: 1 });
    expect(state.refused).toEqual([
      expect.objectContaining({ kind: 'reply', targetId: question!.id, message: expect.stringMatching(/\(500\)$/), retryAt: expect.stringMatching(/^\d{4}-/) }),
    ]);
    await service.request('review.dismiss', { actionId: state.refused[0]!.actionId });
    expect(await service.request('review.state', {})).toMatchObject({ pendingActions: 0, refused: [] });
  });

  it('refuses at once what is not the user’s to do, with the reason', async () => {
    const theirs = (await service.request('review.comments', {})).find((c) => !c.mine)!;
    await expect(service.request('review.deleteComment', { spaceId: handbook(), commentId: theirs.id })).rejects.toMatchObject({
      code: 'invalid-request',
      message: expect.stringMatching(/only delete your own/),
    });
  });

  it('reviews, asks reviewers by name, and merges only when the rules are met — saying the server’s reason otherwise', async () => {
    const ref = crRef(1);
    await expect(service.request('review.merge', ref)).rejects.toMatchObject({
      code: 'invalid-request',
      message: 'The server refused to merge the change request: The merge rules of this space are not met: at least one approved review is required.',
    });
    expect((await service.request('review.members', { spaceId: handbook() })).map((m) => m.displayName).sort()).toEqual([
      'Alex Rivera',
      'Casey Quire',
      'Sam Okafor',
    ]);
    expect(await service.request('review.requestReviewer', { ...ref, user: 'alex@example.com' })).toMatchObject({ outcome: 'sent' });
    const asked = (await service.request('review.changeRequest', ref)).requestedReviewers.map((r) => r.displayName).sort();
    expect(asked).toEqual(['Alex Rivera', 'Casey Quire']);
    await service.request('review.removeReviewer', { ...ref, userId: demo.users.alex.id });

    fake.faults.offline = true;
    await expect(service.request('review.submitReview', { ...ref, status: 'approved' })).rejects.toMatchObject({ code: 'offline' });
    fake.faults.offline = false;
    const review = await service.request('review.submitReview', { ...ref, status: 'approved', markdown: 'Ship it.' });
    expect(review).toMatchObject({ status: 'approved', comment: 'Ship it.', reviewer: expect.objectContaining({ displayName: 'Casey Quire' }) });
    const detail = await service.request('review.changeRequest', ref);
    expect(detail.actions.merge).toEqual([]);
    expect(detail.requestedReviewers).toEqual([]);

    await service.request('review.merge', ref);
    expect(fake.store.changeRequest(handbook(), 1).status).toBe('merged');
    await service.syncOnce();
    const folder = (await service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!;
    expect(await readFile(join(dir, folder, 'README.md'), 'utf8')).toContain('Welcome to the **Quire** handbook.');
    expect(await readFile(join(dir, folder, 'changelog.md'), 'utf8')).toContain('first release');
  });

  it('a draft cannot be merged, and says so before anything is sent', async () => {
    fake.resetLog();
    await expect(service.request('review.merge', crRef(2))).rejects.toMatchObject({ code: 'invalid-request', message: expect.stringMatching(/it is a draft/) });
    expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('a change request’s subject in the app (issue 27, item 21)', () => {
  it('is one line of text: line breaks become spaces, a control character is refused before anything is sent or queued', async () => {
    const ref = crRef(1);
    await service.request('review.setSubject', { ...ref, subject: 'Polish\nthe handbook' });
    await service.syncOnce(); // sends what was queued
    expect(fake.store.changeRequest(handbook(), 1).subject).toBe('Polish the handbook');
    fake.resetLog();
    for (const subject of ['Polish \u001b[2Jall', 'Tab\u0000null']) {
      await expect(service.request('review.setSubject', { ...ref, subject })).rejects.toMatchObject({
        code: 'invalid-request',
        message: expect.stringMatching(
          /holds a control character \(U\+00(?:1B, an escape code|00)\) at character \d+: a subject is one line of plain text; remove it/,
        ),
      });
      await expect(service.request('review.startChangeRequest', { spaceId: handbook(), subject })).rejects.toMatchObject({ code: 'invalid-request' });
    }
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await service.request('review.targets', {}))[0]).not.toMatchObject({ subject: expect.stringMatching(/\p{Cc}/u) });
    expect(await service.request('review.startChangeRequest', { spaceId: handbook(), subject: 'Topic\r\nB' })).toMatchObject({
      state: 'open',
      subject: 'Topic B',
    });
  });
});

describe('a writer’s change requests by topic', () => {
  it('starts a new change request for a space and points the pushes back at another of the user’s', async () => {
    const folder = (await service.request('catalog.get', {})).spaces.find((s) => s.id === handbook())!.folder!;
    await appendFile(join(dir, folder, 'getting-started', 'install.md'), '\nTopic A.\n');
    await service.syncOnce();
    const first = (await service.request('review.targets', {}))[0]!;
    const started = await service.request('review.startChangeRequest', { spaceId: handbook(), subject: 'Topic B' });
    expect(started).toMatchObject({
      state: 'open',
      subject: 'Topic B',
      chosen: true,
      subjectByUser: true,
      setAside: [expect.objectContaining({ number: first.number })],
    });
    await expect(service.request('review.useChangeRequest', crRef(1))).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Alex Rivera's/),
    });
    await service.request('review.refresh', {});
    const back = await service.request('review.useChangeRequest', crRef(first.number!));
    expect(back).toMatchObject({ number: first.number, chosen: true, pages: 1 });
  });
});
