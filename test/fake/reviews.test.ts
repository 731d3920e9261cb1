/**
 * The fake's reviews, requested reviewers, organization members, merge rules and comment
 * permissions, through HTTP: every request and answer is validated against the OpenAPI document
 * (a violation fails the test through vitest-setup).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from './index';
import './vitest-setup';

let fake: FakeApi;

beforeEach(async () => {
  fake = await startFakeApi();
});

afterEach(async () => {
  await fake.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${fake.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${fake.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

function world() {
  const { store } = fake;
  const alex = store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
  const outsider = store.addUser({ displayName: 'Outsider' });
  const org = store.addOrg({ title: 'Acme', members: [alex.id] });
  const space = store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Intro', markdown: 'Hi' }] });
  const cr = store.addChangeRequest(space.id, { subject: 'Polish', createdBy: alex.id });
  return { store, alex, outsider, org, space, cr, base: `/spaces/${space.id}/change-requests/${cr.id}` };
}

describe('reviews and requested reviewers', () => {
  it('requests a member, refuses a non-member, and a review answers the request', async () => {
    const { alex, outsider, store, cr, base } = world();
    expect((await call('POST', `${base}/requested-reviewers`, { users: [outsider.id] })).status).toBe(400);
    const asked = await call('POST', `${base}/requested-reviewers`, { users: [store.currentUser.id] });
    expect(asked.status).toBe(200);
    expect(asked.body.users).toEqual([expect.objectContaining({ kind: 'user', user: expect.objectContaining({ id: store.currentUser.id }) })]);
    expect((await call('GET', `${base}/requested-reviewers`)).body.items).toHaveLength(1);
    const listed = await call('GET', `/spaces/${cr.spaceId}/change-requests?status=open&requestedReviewer=${store.currentUser.id}`);
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);

    const review = await call('POST', `${base}/reviews`, { status: 'changes-requested', comment: { markdown: 'Please add an example.' } });
    expect(review.status).toBe(201);
    expect(review.body).toMatchObject({ status: 'changes-requested', outdated: false, comment: { body: { document: expect.anything() } } });
    expect((await call('GET', `${base}/requested-reviewers`)).body.items).toEqual([]);
    expect((await call('GET', `${base}/comments?format=markdown`)).body.items.map((c: any) => c.body.markdown)).toEqual(['Please add an example.']);

    await call('POST', `${base}/reviews`, { status: 'approved' });
    const reviews = (await call('GET', `${base}/reviews`)).body.items;
    expect(reviews.map((r: any) => [r.status, r.outdated])).toEqual([
      ['changes-requested', true],
      ['approved', false],
    ]);
    expect((await call('DELETE', `${base}/requested-reviewers/${alex.id}`)).status).toBe(204);
  });

  it('removes a requested reviewer (205)', async () => {
    const { alex, base } = world();
    await call('POST', `${base}/requested-reviewers`, { users: [alex.id] });
    expect((await call('DELETE', `${base}/requested-reviewers/${alex.id}`)).status).toBe(205);
    expect((await call('GET', `${base}/requested-reviewers`)).body.items).toEqual([]);
  });

  it('lists organization members, searched by name or email', async () => {
    const { org } = world();
    const all = await call('GET', `/orgs/${org.id}/members`);
    expect(all.body.items.map((m: any) => m.user.displayName).sort()).toEqual(['Alex Rivera', 'Casey Quire']);
    const found = await call('GET', `/orgs/${org.id}/members?search=alex%40`);
    expect(found.body.items.map((m: any) => m.user.displayName)).toEqual(['Alex Rivera']);
  });
});

describe('merge rules and statuses', () => {
  it('refuses a merge with the document’s error shape until the rules are met', async () => {
    const { store, space, cr, alex, base } = world();
    store.review.setMergeRules({ org: space.orgId }, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
    const space1 = await call('GET', `/spaces/${space.id}`);
    expect(space1.body.mergeRules).toEqual({ type: 'inherit' });
    const refused = await call('POST', `${base}/merge`);
    expect(refused).toEqual({ status: 400, body: { error: { code: 400, message: expect.stringMatching(/at least one approved review/) } } });
    store.review.submit(space.id, cr.id, { status: 'approved', by: alex.id });
    expect((await call('POST', `${base}/merge`)).status).toBe(400); // the author's own approval does not count
    store.review.submit(space.id, cr.id, { status: 'approved' });
    expect((await call('POST', `${base}/merge`)).body).toMatchObject({ result: 'merge' });
  });

  it('refuses to merge a draft, and moves statuses as PATCH asks', async () => {
    const { cr, base } = world();
    await call('PATCH', base, { status: 'draft' });
    expect((await call('POST', `${base}/merge`)).body.error.message).toMatch(/is a draft/);
    await call('PATCH', base, { status: 'archived' });
    await call('PATCH', base, { status: 'open', description: { object: 'document', data: {}, nodes: [] } });
    const got = await call('GET', base);
    expect(got.body).toMatchObject({ status: 'open', number: cr.number, description: { object: 'document' } });
    expect((await call('POST', `${base}/merge`)).status).toBe(200);
    expect((await call('PATCH', base, { status: 'open' })).status).toBe(400);
  });

  it('a space without the merge permission refuses with 403', async () => {
    const { space, base } = world();
    fake.store.space(space.id).permissions = { merge: false };
    expect((await call('POST', `${base}/merge`)).status).toBe(403);
    expect((await call('GET', `/spaces/${space.id}`)).body.permissions.merge).toBe(false);
  });
});

describe('comment permissions', () => {
  it('lets only the author edit or delete; anyone resolves and reacts', async () => {
    const { store, space, alex } = world();
    const theirs = store.addComment(space.id, { body: 'Theirs', by: alex.id });
    const mine = store.addComment(space.id, { body: 'Mine' });
    const got = await call('GET', `/spaces/${space.id}/comments/${theirs.id}`);
    expect(got.body.permissions).toMatchObject({ edit: false, delete: false, reply: true });
    expect((await call('PUT', `/spaces/${space.id}/comments/${theirs.id}`, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await call('PUT', `/spaces/${space.id}/comments/${theirs.id}`, { resolved: true })).status).toBe(200);
    expect((await call('DELETE', `/spaces/${space.id}/comments/${theirs.id}`)).status).toBe(403);
    expect((await call('DELETE', `/spaces/${space.id}/comments/${mine.id}`)).status).toBe(204);
    expect((await call('DELETE', `/spaces/${space.id}/comments/${mine.id}`)).status).toBe(404);
    const reply = store.addReply(space.id, theirs.id, { body: 'r', by: alex.id });
    expect((await call('DELETE', `/spaces/${space.id}/comments/${theirs.id}/replies/${reply.id}`)).status).toBe(403);
  });
});
