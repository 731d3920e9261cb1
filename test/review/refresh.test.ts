import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshCatalog } from '../../src/main/core/sync/catalog';
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
      createdBy: { id: w.bob.id, displayName: 'Bob Writer' },
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

    // The user, the organization's two change request listings and the space's comments.
    expect(idleFew).toHaveLength(4);
    expect(idleMany).toHaveLength(4);
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
    expect(requests).toHaveLength(4 + 2 + 2);
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
    expect(requests.length).toBeLessThanOrEqual(4 + 2 + 1);
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

describe('review refresh across the spaces of organizations', () => {
  const listings = (requests: { path: string }[]) => requests.map((r) => r.path).filter((path) => path.endsWith('/change-requests'));

  /** `count` more spaces in the world's organization, all selected with the world's own. */
  async function moreSpaces(count: number, options: { selected?: boolean } = {}): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, i) => w.fake.store.addSpace(w.org.id, { title: `Space ${i}` }).id);
    await refreshCatalog(w.api, w.mirror);
    w.mirror.catalog.setSelected(ids, options.selected ?? true);
    return ids;
  }

  it('lists the change requests of N spaces of one organization in two requests when nothing changed', async () => {
    const spaces = [w.space.id, ...(await moreSpaces(5))];
    for (const id of spaces) w.fake.store.addChangeRequest(id, { subject: `Work in ${id}` });
    await w.review.refresh(w.api, { sites: false });

    const idle = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));

    // Every status in one listing, the ones awaiting my review in another: not five per space.
    expect(listings(idle)).toEqual([`/v1/orgs/${w.org.id}/change-requests`, `/v1/orgs/${w.org.id}/change-requests`]);
    // Beside them: the user, and the organization's spaces for their counts of open comments
    // (none has one: no space's comments are listed).
    expect(idle).toHaveLength(1 + 2 + 1);
    expect(
      w.review
        .changeRequests()
        .map((cr) => cr.spaceId)
        .sort(),
    ).toEqual([...spaces].sort());
  });

  const spaceCommentLists = (requests: { path: string }[]) =>
    requests
      .map((r) => /^\/v1\/spaces\/([^/]+)\/comments$/.exec(r.path)?.[1])
      .filter((id): id is string => id !== undefined)
      .sort();

  it("lists a space's own comments only where the server counts one open, or the mirror still holds one open", async () => {
    const spaces = [w.space.id, ...(await moreSpaces(5))];
    await w.review.refresh(w.api, { sites: false, sweep: 0 });
    const asked = w.fake.store.addComment(spaces[3]!, { body: 'Is this still true?', by: w.alice.id });

    // Posted: the space's count says one is open, and only its comments are listed.
    const posted = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));
    expect(spaceCommentLists(posted)).toEqual([spaces[3]]);
    expect(w.review.comment(asked.id)).toMatchObject({ status: 'open', body: 'Is this still true?' });

    // Resolved: the count is 0 again, but the mirror holds it open, so it is listed once more.
    w.fake.store.updateComment(w.fake.store.comment(spaces[3]!, asked.id), { resolved: true }, w.bob.id);
    const resolved = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));
    expect(spaceCommentLists(resolved)).toEqual([spaces[3]]);
    expect(w.review.comment(asked.id)?.status).toBe('resolved');

    // Then nothing is open anywhere: no space's comments are listed.
    const idle = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));
    expect(spaceCommentLists(idle)).toEqual([]);
    // A full refresh lists every space's.
    const full = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0, full: true }));
    expect(spaceCommentLists(full)).toEqual([...spaces].sort());
  });

  it('a comment resolved before any refresh saw it open arrives through the sweep, the spaces listed longest ago first', async () => {
    const spaces = [w.space.id, ...(await moreSpaces(5))];
    const sweep = 2;
    // The first refreshes list the spaces never listed, two at a time, each space once.
    const swept: string[] = [];
    for (let i = 0; i < spaces.length / sweep; i++)
      swept.push(...spaceCommentLists(await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep }))));
    expect(swept.sort()).toEqual([...spaces].sort());

    // A comment posted and resolved between two refreshes moves no count.
    const quiet = w.fake.store.addComment(spaces[4]!, { body: 'Fixed it myself.', by: w.alice.id, resolved: true });
    const seen: string[] = [];
    for (let i = 0; i < spaces.length / sweep && !w.review.comment(quiet.id); i++) {
      seen.push(...spaceCommentLists(await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep }))));
    }
    expect(w.review.comment(quiet.id)).toMatchObject({ status: 'resolved', body: 'Fixed it myself.' });
    // Never more than the sweep's spaces a refresh, none listed twice before the others.
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("a space's comments are listed whatever its count where the organization's spaces are not listed: one space refreshed, or the listing refused", async () => {
    const spaces = [w.space.id, ...(await moreSpaces(2))];
    await w.review.refresh(w.api, { sites: false, sweep: 0 });
    // One space of the organization: its own comment list costs no more than the organization's spaces would.
    const one = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0, spaceIds: [spaces[1]!] }));
    expect(spaceCommentLists(one)).toEqual([spaces[1]]);
    expect(one.filter((r) => r.path === `/v1/orgs/${w.org.id}/spaces`)).toEqual([]);
    // The organization's spaces refused: every space's comments are listed, as the count is not known.
    w.fake.faults.fail(1, 403, { match: /^\/v1\/orgs\/[^/]+\/spaces$/ });
    const refused = await requestsDuring(() => w.review.refresh(w.api, { sites: false, sweep: 0 }));
    expect(spaceCommentLists(refused)).toEqual([...spaces].sort());
  });

  it('two listings per organization, narrowed to the space when the organization has one refreshed', async () => {
    const otherOrg = w.fake.store.addOrg({ title: 'Globex' });
    const theirs = [w.fake.store.addSpace(otherOrg.id, { title: 'G1' }).id, w.fake.store.addSpace(otherOrg.id, { title: 'G2' }).id];
    await refreshCatalog(w.api, w.mirror, theirs); // (the catalog lists the user's organizations again only after a while)
    w.mirror.catalog.setSelected(theirs, true);

    w.fake.resetLog();
    await w.review.refresh(w.api, { sites: false, sweep: 0 });
    const orgListings = w.fake.requests.filter((r) => r.path.endsWith('/change-requests'));
    expect(orgListings.map((r) => r.path).sort()).toEqual(
      [
        `/v1/orgs/${otherOrg.id}/change-requests`,
        `/v1/orgs/${otherOrg.id}/change-requests`,
        `/v1/orgs/${w.org.id}/change-requests`,
        `/v1/orgs/${w.org.id}/change-requests`,
      ].sort(),
    );
    const ours = orgListings.filter((r) => r.path.includes(w.org.id)).map((r) => r.query);
    expect(ours).toContainEqual(expect.objectContaining({ space: w.space.id, status: ['open', 'draft', 'archived', 'merged'] }));
    expect(ours).toContainEqual(expect.objectContaining({ space: w.space.id, status: 'open', requestedReviewer: w.fake.store.currentUser.id }));
    expect(orgListings.filter((r) => r.path.includes(otherOrg.id)).every((r) => r.query.space === undefined)).toBe(true);
  });

  it('a change request created or merged in one of several spaces arrives; one in a space not refreshed is not mirrored', async () => {
    const { store } = w.fake;
    const [second] = await moreSpaces(1);
    const [unselected] = await moreSpaces(1, { selected: false });
    const early = store.addChangeRequest(second!, { subject: 'Early', createdBy: w.bob.id });
    await w.review.refresh(w.api, { sites: false });
    expect(w.review.changeRequest(early.id)).toMatchObject({ spaceId: second, status: 'open' });

    const fresh = store.addChangeRequest(w.space.id, { subject: 'Fresh', createdBy: w.bob.id });
    store.changeRequest(w.space.id, fresh.id).requestedReviewers = [store.currentUser.id];
    store.mergeChangeRequest(second!, early.id);
    const elsewhere = store.addChangeRequest(unselected!, { subject: 'Not synced here' });
    await w.review.refresh(w.api, { sites: false });

    expect(w.review.changeRequest(fresh.id)).toMatchObject({ spaceId: w.space.id, status: 'open', subject: 'Fresh' });
    expect(w.review.needingUser().map((cr) => [cr.subject, cr.reasons])).toEqual([['Fresh', ['review-requested']]]);
    expect(w.review.changeRequest(early.id)).toMatchObject({ spaceId: second, status: 'merged' });
    expect(w.review.changeRequest(elsewhere.id)).toBeUndefined();
  });

  it('a refresh of some spaces keeps the change requests of the others, and forgets deleted ones only where it listed', async () => {
    const { store } = w.fake;
    const [second, third] = await moreSpaces(2);
    const crs = [w.space.id, second!, third!].map((id) => store.addChangeRequest(id, { subject: `In ${id}` }));
    await w.review.refresh(w.api, { sites: false });
    expect(w.review.changeRequests()).toHaveLength(3);

    // Gone from the server: the first space's by a refresh of it alone, the third's left for later.
    store.changeRequests.delete(crs[0]!.id);
    store.changeRequests.delete(crs[2]!.id);
    await w.review.refresh(w.api, { sites: false, spaceIds: [w.space.id] });
    expect(
      w.review
        .changeRequests()
        .map((cr) => cr.id)
        .sort(),
    ).toEqual([crs[1]!.id, crs[2]!.id].sort());

    await w.review.refresh(w.api, { sites: false, spaceIds: [w.space.id, second!] });
    expect(
      w.review
        .changeRequests()
        .map((cr) => cr.id)
        .sort(),
    ).toEqual([crs[1]!.id, crs[2]!.id].sort());

    await w.review.refresh(w.api, { sites: false });
    expect(w.review.changeRequests().map((cr) => cr.id)).toEqual([crs[1]!.id]);
  });

  it('lists a space on its own when its organization is unknown to the mirror, or refuses the organization listing', async () => {
    const { store } = w.fake;
    const stranger = store.addSpace(store.addOrg({ title: 'Initech' }).id, { title: 'Not in the catalog' });
    const theirs = store.addChangeRequest(stranger.id, { subject: 'Theirs' });
    w.fake.resetLog();
    await w.review.refresh(w.api, { sites: false, spaceIds: [stranger.id] });
    expect(listings(w.fake.requests)).toEqual(Array(5).fill(`/v1/spaces/${stranger.id}/change-requests`));
    expect(w.review.changeRequest(theirs.id)).toMatchObject({ spaceId: stranger.id });

    const ours = store.addChangeRequest(w.space.id, { subject: 'Ours' });
    w.fake.faults.fail(2, 403, { match: /^\/v1\/orgs\/[^/]+\/change-requests$/ });
    w.fake.resetLog();
    await w.review.refresh(w.api, { sites: false });
    expect(listings(w.fake.requests).filter((path) => path.startsWith('/v1/spaces/'))).toHaveLength(5);
    expect(w.review.changeRequest(ours.id)).toMatchObject({ spaceId: w.space.id });
  });
});
