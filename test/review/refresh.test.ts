import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviewWorld, seedReview, type ReviewWorld } from './setup';

let w: ReviewWorld;

beforeEach(async () => {
  w = await reviewWorld();
});
afterEach(async () => {
  await w.close();
});

const requestsDuring = async (fn: () => Promise<unknown>): Promise<{ method: string; path: string }[]> => {
  w.fake.resetLog();
  await fn();
  return w.fake.requests.map((r) => ({ method: r.method, path: r.path }));
};

describe('review refresh', () => {
  it('mirrors change requests of every status, comments with replies and reactions, and names', async () => {
    const seeded = seedReview(w);
    const report = await w.review.refresh(w.api);

    expect(report).toMatchObject({ spaces: 1, changeRequests: 4, comments: 3, replies: 3 });
    const statuses = Object.fromEntries(w.review.changeRequests().map((cr) => [cr.subject, cr.status]));
    expect(statuses).toEqual({ 'Rewrite the guide': 'open', 'Draft idea': 'draft', Abandoned: 'archived', 'Typo fix': 'merged' });

    const open = w.review.changeRequest(seeded.open.id)!;
    expect(open).toMatchObject({
      spaceId: w.space.id,
      number: seeded.open.number,
      author: { id: w.bob.id, displayName: 'Bob Writer' },
      comments: 1,
      outdated: true, // main moved on when "Typo fix" was merged
      pending: false,
      baseRevision: seeded.open.revisionInitial,
    });

    const unresolved = w.review.unresolvedComments();
    expect(unresolved.map((c) => c.body).sort()).toEqual(['Is this page current?', 'Step three needs a screenshot.']);
    const onPage = w.review.comment(seeded.spaceComment.id)!;
    expect(onPage).toMatchObject({
      spaceId: w.space.id,
      changeRequestId: null,
      pageId: w.pages.Welcome,
      author: { id: w.alice.id, displayName: 'Alice Reviewer' },
      status: 'open',
      replyCount: 2,
      pending: false,
    });
    expect(onPage.reactions).toEqual([{ emoji: '👍', count: 1, mine: false, users: [{ id: w.bob.id, displayName: 'Bob Writer' }] }]);
    expect(w.review.replies(seeded.spaceComment.id).map((r) => [r.author?.displayName, r.body])).toEqual([
      ['Bob Writer', 'Yes, checked last week.'],
      ['Alice Reviewer', 'Thanks!'],
    ]);
    expect(w.review.comment(seeded.crComment.id)).toMatchObject({ changeRequestId: seeded.open.id, pageId: w.pages.Guide });
    expect(w.review.replies(seeded.crComment.id).map((r) => r.body)).toEqual(['Adding one.']);
    expect(w.review.comments({ status: 'resolved' }).map((c) => c.id)).toEqual([seeded.resolvedComment.id]);
    expect(w.review.me()).toEqual({ id: w.fake.store.currentUser.id, displayName: w.fake.store.currentUser.displayName });
  });

  it('filters unresolved comments by space, change request, author and page', async () => {
    const seeded = seedReview(w);
    await w.review.refresh(w.api);
    const ids = (filter: Parameters<typeof w.review.unresolvedComments>[0]) => w.review.unresolvedComments(filter).map((c) => c.id);
    expect(ids({ changeRequestId: seeded.open.id })).toEqual([seeded.crComment.id]);
    expect(ids({ changeRequestId: null })).toEqual([seeded.spaceComment.id]);
    expect(ids({ authorId: w.bob.id })).toEqual([]);
    expect(ids({ pageId: w.pages.Guide })).toEqual([seeded.crComment.id]);
    expect(ids({ spaceId: 'elsewhere' })).toEqual([]);
    expect(ids({ spaceId: w.space.id }).sort()).toEqual([seeded.crComment.id, seeded.spaceComment.id].sort());
  });

  it('leaves comments of merged and archived change requests out of the unresolved list unless asked', async () => {
    const seeded = seedReview(w);
    const old = w.fake.store.addComment(w.space.id, { body: 'On an archived one', changeRequest: seeded.archived.id, by: w.alice.id });
    await w.review.refresh(w.api);
    expect(w.review.unresolvedComments().map((c) => c.id)).not.toContain(old.id);
    expect(w.review.unresolvedComments({ includeClosedChangeRequests: true }).map((c) => c.id)).toContain(old.id);
  });

  it('costs the same handful of requests per space when nothing changed, however many change requests there are', async () => {
    seedReview(w);
    await w.review.refresh(w.api, { sites: false });
    const idleFew = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));

    for (let i = 0; i < 30; i++) {
      const cr = w.fake.store.addChangeRequest(w.space.id, { subject: `More ${i}` });
      w.fake.store.addComment(w.space.id, { body: `Comment ${i}`, changeRequest: cr.id, by: w.alice.id });
    }
    await w.review.refresh(w.api, { sites: false });
    const idleMany = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));

    // The user, four status lists, the review-requested list and the space's comments.
    expect(idleFew).toHaveLength(7);
    expect(idleMany).toHaveLength(7);
    expect(idleMany.every((r) => r.method === 'GET')).toBe(true);
    expect(idleMany.filter((r) => r.path.includes('/change-requests/'))).toEqual([]);
  });

  it('lists again only what changed: one change request comments list (and its reviews and reviewers), one replies list', async () => {
    const seeded = seedReview(w);
    await w.review.refresh(w.api, { sites: false });
    const { store } = w.fake;
    store.addReply(w.space.id, seeded.spaceComment.id, { body: 'One more thing.', by: w.bob.id });
    const fresh = store.addComment(w.space.id, { body: 'New question on the CR', changeRequest: seeded.open.id, by: w.bob.id });

    const requests = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));
    // The change request's updatedAt moved: its comments, reviews and requested reviewers are listed again.
    expect(requests).toHaveLength(7 + 2 + 2);
    expect(requests).toContainEqual({ method: 'GET', path: `/v1/spaces/${w.space.id}/change-requests/${seeded.open.id}/reviews` });
    expect(requests).toContainEqual({ method: 'GET', path: `/v1/spaces/${w.space.id}/comments/${seeded.spaceComment.id}/replies` });
    expect(requests).toContainEqual({ method: 'GET', path: `/v1/spaces/${w.space.id}/change-requests/${seeded.open.id}/comments` });
    expect(w.review.replies(seeded.spaceComment.id).map((r) => r.body)).toContain('One more thing.');
    expect(w.review.comment(fresh.id)?.body).toBe('New question on the CR');
  });

  it('picks up replies on change request comments through the sweep within a bounded number of refreshes', async () => {
    const seeded = seedReview(w);
    await w.review.refresh(w.api, { sites: false });
    // A reply changes neither the change request's updatedAt nor its open-comment count.
    w.fake.store.addReply(w.space.id, seeded.crComment.id, { body: 'Screenshot added.', by: w.bob.id, changeRequest: seeded.open.id });
    const requests = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 2 }));
    expect(requests.length).toBeLessThanOrEqual(7 + 2 + 1);
    expect(w.review.replies(seeded.crComment.id).map((r) => r.body)).toContain('Screenshot added.');
  });

  it('forgets comments, replies and change requests the server no longer has', async () => {
    const seeded = seedReview(w);
    await w.review.refresh(w.api, { sites: false });
    w.fake.store.deleteComment(w.space.id, seeded.spaceComment.id);
    await w.review.refresh(w.api, { sites: false, full: true });
    expect(w.review.comment(seeded.spaceComment.id)).toBeUndefined();
    expect(w.review.replies(seeded.spaceComment.id)).toEqual([]);
  });

  it('finds change requests needing the user: requested reviews and their own outdated ones', async () => {
    const { store } = w.fake;
    const mine = store.addChangeRequest(w.space.id, { subject: 'Mine' });
    const other = store.addChangeRequest(w.space.id, { subject: 'Bob asks me', createdBy: w.bob.id });
    store.addChangeRequest(w.space.id, { subject: 'Nothing for me', createdBy: w.bob.id });
    store.changeRequest(w.space.id, other.id).requestedReviewers = [store.currentUser.id];
    store.editPage(w.space.id, w.pages.Welcome!, { markdown: 'Hello, moved on.\n' }); // main moves: all fall behind

    await w.review.refresh(w.api, { sites: false });
    const needing = Object.fromEntries(w.review.needingUser().map((cr) => [cr.subject, cr.reasons]));
    expect(needing).toEqual({ Mine: ['outdated'], 'Bob asks me': ['review-requested'] });
    expect(w.review.changeRequest(mine.id)?.outdated).toBe(true);
  });

  it("diffs a change request's pages against its base, from the mirror", async () => {
    const { store } = w.fake;
    const cr = store.addChangeRequest(w.space.id, { subject: 'Edits' });
    store.editPage(w.space.id, w.pages.Guide!, { markdown: 'Step one.\nStep two, better.\nStep three.\n' }, { changeRequest: cr.id });
    store.addPage(w.space.id, { title: 'FAQ', markdown: 'Q and A.\n' }, { changeRequest: cr.id });
    store.deletePage(w.space.id, w.pages.Welcome!, { changeRequest: cr.id });

    await w.review.refresh(w.api, { sites: false });
    const diff = w.review.changeRequestDiff(cr.id)!;
    expect(diff).toMatchObject({ spaceId: w.space.id, changeRequestId: cr.id, baseRevision: cr.revisionInitial });
    const byTitle = Object.fromEntries(diff.pages.map((p) => [p.title, p]));
    expect(Object.keys(byTitle).sort()).toEqual(['FAQ', 'Guide', 'Welcome']);
    expect(byTitle.Guide).toMatchObject({ kind: 'modified', linesAdded: 2, linesRemoved: 1 });
    expect(byTitle.Guide?.before).toContain('Step two.');
    expect(byTitle.Guide?.after).toContain('Step two, better.');
    expect(byTitle.FAQ).toMatchObject({ kind: 'added', before: null });
    expect(byTitle.FAQ?.after).toContain('Q and A.');
    expect(byTitle.Welcome).toMatchObject({ kind: 'removed', after: null });

    // Unchanged revisions are not fetched again.
    const again = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));
    expect(again.filter((r) => r.path.includes('/revisions/'))).toEqual([]);
  });

  it('fetches a diff on demand when a refresh skipped diffs', async () => {
    const { store } = w.fake;
    const cr = store.addChangeRequest(w.space.id, { subject: 'Later' });
    store.editPage(w.space.id, w.pages.Welcome!, { title: 'Welcome!' }, { changeRequest: cr.id });
    await w.review.refresh(w.api, { sites: false, diffs: false });
    expect(w.review.changeRequestDiff(cr.id)).toBeNull();
    const diff = await w.review.loadChangeRequestDiff(w.api, cr.id);
    expect(diff?.pages).toMatchObject([{ pageId: w.pages.Welcome, kind: 'modified', title: 'Welcome!' }]);
    expect(w.review.changeRequestDiff(cr.id)).toEqual(diff);
  });

  it('mirrors sites with section groups, sections, site spaces and share links', async () => {
    const { store } = w.fake;
    const other = store.addSpace(w.org.id, { title: 'API' });
    store.addSite(w.org.id, {
      title: 'Docs site',
      visibility: 'share-link',
      published: true,
      sections: [
        { title: 'Guides', path: 'guides', default: true, spaces: [{ space: w.space.id, path: 'handbook', default: true }] },
        { title: 'Reference', path: 'reference', spaces: [{ space: other.id, path: 'api', hidden: true }] },
      ],
      groups: [{ title: 'Learn', sections: ['Guides'] }],
      shareLinks: [{ name: 'Partners' }],
    });
    store.addSite(w.org.id, { title: 'Plain site', published: false, spaces: [{ space: other.id, path: 'api' }] });

    const report = await w.review.refresh(w.api);
    expect(report.sites).toBe(2);
    const trees = w.review.siteTrees(w.org.id);
    const docs = trees.find((t) => t.title === 'Docs site')!;
    expect(docs).toMatchObject({ organizationId: w.org.id, visibility: 'share-link', published: true });
    expect(docs.shareLinks).toMatchObject([{ name: 'Partners', active: true }]);
    expect(docs.children).toMatchObject([
      {
        type: 'group',
        title: 'Learn',
        children: [
          { type: 'section', title: 'Guides', isDefault: true, children: [{ type: 'site-space', path: 'handbook', spaceId: w.space.id, isDefault: true }] },
        ],
      },
      { type: 'section', title: 'Reference', children: [{ type: 'site-space', spaceId: other.id, hidden: true }] },
    ]);
    const plain = trees.find((t) => t.title === 'Plain site')!;
    expect(plain).toMatchObject({ published: false, children: [{ type: 'site-space', path: 'api', spaceId: other.id }] });
  });
});
