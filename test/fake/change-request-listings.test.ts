/**
 * The fake's change request listings: per space (one `status`) and per organization (`status`
 * is an array, sent as one `status=` per value, the document's default style and what the
 * official client sends). Every request and answer is validated against the OpenAPI document (a
 * violation fails the test through vitest-setup).
 */
import { type ChangeRequestStatus, GitBookAPI } from '@gitbook/api';
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

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${fake.url}/v1${path}`, { headers: { authorization: `Bearer ${fake.token}` } });
  return { status: response.status, body: await response.json() };
}

function world() {
  const { store } = fake;
  const org = store.addOrg({ title: 'Acme' });
  const docs = store.addSpace(org.id, { title: 'Docs' });
  const api = store.addSpace(org.id, { title: 'API' });
  const elsewhere = store.addSpace(store.addOrg({ title: 'Other' }).id, { title: 'Elsewhere' });
  const docsOpen = store.addChangeRequest(docs.id, { subject: 'Docs open' });
  const docsDraft = store.addChangeRequest(docs.id, { subject: 'Docs draft', status: 'draft' });
  const apiOpen = store.addChangeRequest(api.id, { subject: 'API open' });
  const apiMerged = store.addChangeRequest(api.id, { subject: 'API merged' });
  store.mergeChangeRequest(api.id, apiMerged.id);
  const apiArchived = store.addChangeRequest(api.id, { subject: 'API archived' });
  store.updateChangeRequestFields(api.id, apiArchived.id, { status: 'archived' });
  store.addChangeRequest(elsewhere.id, { subject: 'Other org' });
  return { store, org, docs, api, docsOpen, docsDraft, apiOpen, apiMerged, apiArchived };
}

const subjects = (body: { items: { subject: string }[] }) => body.items.map((cr) => cr.subject).sort();

describe('listChangeRequestsForOrganization', () => {
  it('takes the status array as the official client sends it, one status= per value', async () => {
    const { org } = world();
    const client = new GitBookAPI({ endpoint: fake.url, authToken: fake.token });

    const answer = await client.orgs.listChangeRequestsForOrganization(org.id, { status: ['open', 'merged', 'archived'] as ChangeRequestStatus[] });

    expect(subjects(answer.data)).toEqual(['API archived', 'API merged', 'API open', 'Docs open']);
    expect(fake.requests.at(-1)?.query).toEqual({ status: ['open', 'merged', 'archived'] as ChangeRequestStatus[] });
  });

  it('defaults to open change requests; a single status= is a one-item array', async () => {
    const { org } = world();
    expect(subjects((await get(`/orgs/${org.id}/change-requests`)).body)).toEqual(['API open', 'Docs open']);
    expect(subjects((await get(`/orgs/${org.id}/change-requests?status=draft`)).body)).toEqual(['Docs draft']);
  });

  it('refuses the forms the document does not describe: comma-joined values, an unknown status', async () => {
    const { org } = world();
    expect((await get(`/orgs/${org.id}/change-requests?status=open,draft`)).status).toBe(400);
    expect((await get(`/orgs/${org.id}/change-requests?status=open&status=closed`)).status).toBe(400);
    expect(fake.takeViolations()).toEqual([
      expect.stringMatching(/query parameters: \/status\/0 must be equal to one of the allowed values/),
      expect.stringMatching(/\/status\/1 must be equal to one of the allowed values/),
    ]);
  });

  it('the space listing takes one status, not an array', async () => {
    const { docs } = world();
    expect((await get(`/spaces/${docs.id}/change-requests?status=open&status=draft`)).status).toBe(400);
    expect(fake.takeViolations()).toHaveLength(1);
  });

  it('filters by space and requested reviewer', async () => {
    const { store, org, docs, docsOpen, apiOpen } = world();
    store.changeRequest(docs.id, docsOpen.id).requestedReviewers = [store.currentUser.id];
    const all = '&status=open&status=draft&status=merged&status=archived';

    expect(subjects((await get(`/orgs/${org.id}/change-requests?space=${docs.id}${all}`)).body)).toEqual(['Docs draft', 'Docs open']);
    const mine = (await get(`/orgs/${org.id}/change-requests?status=open&requestedReviewer=${store.currentUser.id}`)).body;
    expect(mine.items.map((cr: { id: string; space: string }) => [cr.id, cr.space])).toEqual([[docsOpen.id, docs.id]]);
    expect(mine.items.map((cr: { id: string }) => cr.id)).not.toContain(apiOpen.id);
  });

  it('pages with limit and next.page, newest first by updatedAt or createdAt', async () => {
    const { store, org, docs, docsOpen } = world();
    for (let i = 0; i < 7; i++) store.addChangeRequest(docs.id, { subject: `More ${i}` });
    store.updateChangeRequestFields(docs.id, docsOpen.id, { subject: 'Docs open, edited' });

    const seen: string[] = [];
    let page = '';
    for (;;) {
      const answer = (await get(`/orgs/${org.id}/change-requests?limit=3${page}`)).body;
      expect(answer.count).toBe(9);
      seen.push(...answer.items.map((cr: { subject: string }) => cr.subject));
      if (!answer.next) break;
      page = `&page=${answer.next.page}`;
    }
    expect(seen).toEqual(['Docs open, edited', 'More 6', 'More 5', 'More 4', 'More 3', 'More 2', 'More 1', 'More 0', 'API open']);
    const byCreation = (await get(`/orgs/${org.id}/change-requests?orderBy=createdAt&limit=2`)).body;
    expect(subjects(byCreation)).toEqual(['More 5', 'More 6']);
  });

  it('answers 404 for an organization that does not exist', async () => {
    expect((await get('/orgs/nope/change-requests')).status).toBe(404);
  });
});
