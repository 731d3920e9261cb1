import { GitBookAPI } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from './index';
import { loadSpec } from './openapi';
import { takeUnreportedViolations } from './registry';
import { generateSpace, seedDemo } from './seed';
import { compileRawComponent, validateComponent } from './validation';
import './vitest-setup';

let fake: FakeApi;

beforeEach(async () => {
  fake = await startFakeApi();
});

afterEach(async () => {
  await fake.close();
});

async function call(path: string, init: RequestInit & { token?: string } = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${fake.url}/v1${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${init.token ?? fake.token}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) });

function seedSpace() {
  const org = fake.store.addOrg({ title: 'Acme Docs' });
  const space = fake.store.addSpace(org.id, {
    title: 'Handbook',
    pages: [
      { title: 'Welcome', markdown: 'Hello' },
      { title: 'Guides', markdown: 'All guides', pages: [{ title: 'Install', markdown: 'npm i' }] },
    ],
  });
  const welcome = fake.store.pageByTitle(space.id, 'Welcome');
  const guides = fake.store.pageByTitle(space.id, 'Guides');
  return { org, space, welcome, guides };
}

describe('spec validation', () => {
  it('rejects a request body the spec rejects, with the error body, and records the violation', async () => {
    const { space } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id, { subject: 'x' });

    const answer = await post(`/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [] });

    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(400);
    expect(answer.body.error.message).toMatch(/changes/);
    expect(fake.takeViolations()).toEqual([expect.stringMatching(/request body: \/changes must NOT have fewer than 1 items/)]);
  });

  it('rejects query parameters of the wrong type after coercion', async () => {
    const answer = await call('/orgs?limit=lots');
    expect(answer.status).toBe(400);
    expect(fake.takeViolations()).toEqual([expect.stringMatching(/query parameters: \/limit must be number/)]);
  });

  it('answers 404 for a route the spec does not have and records it', async () => {
    const answer = await call('/no/such/route');
    expect(answer.status).toBe(404);
    expect(fake.takeViolations()).toEqual([expect.stringMatching(/no such route in the OpenAPI spec/)]);
  });

  it('catches an answer that breaks the spec: 500 instead, and a violation', async () => {
    const { org } = seedSpace();
    fake.store.org(org.id).title = 'x'; // OrganizationTitle needs at least 2 characters

    const answer = await call(`/orgs/${org.id}`);

    expect(answer.status).toBe(500);
    expect(fake.takeViolations()).toEqual([expect.stringMatching(/getOrganizationById: \/title must NOT have fewer than 2 characters/)]);
  });

  it('refuses other tokens with 401 and the error body', async () => {
    const answer = await call('/user', { token: 'wrong' });
    expect(answer).toMatchObject({ status: 401, body: { error: { code: 401 } } });
    expect(fake.violations).toEqual([]);
  });

  it('the Document "Empty" branch of the raw spec rejects a real page inside allOf; the normalised one accepts it', async () => {
    const { space, welcome } = seedSpace();
    const page = (await call(`/spaces/${space.id}/content/page/${welcome.id}`)).body;
    delete page.document;
    const normalised = (loadSpec().defsDocument().$defs as Record<string, unknown>).RevisionPageDocument;
    const asPublished = JSON.parse(JSON.stringify(normalised).replace('#/$defs/DocumentWithinComposition', '#/$defs/Document'));

    expect(compileRawComponent('RevisionPageDocumentAsPublished', asPublished)(page)).toBe(false);
    expect(validateComponent('RevisionPageDocument', page)).toEqual({ ok: true });
  });

  it('the violation hook reports violations once, then forgets them', async () => {
    await call('/nowhere');
    const reported = takeUnreportedViolations();
    expect(reported).toEqual([expect.stringContaining(`${fake.url}: GET /v1/nowhere`)]);
    expect(takeUnreportedViolations()).toEqual([]);
  });
});

describe('reads', () => {
  it('serves the user, orgs, spaces, revision tree and page markdown', async () => {
    const { org, space, welcome, guides } = seedSpace();

    expect((await call('/user')).body.id).toBe(fake.store.currentUser.id);
    expect((await call('/orgs')).body.items.map((o: { id: string }) => o.id)).toEqual([org.id]);
    const revision = (await call(`/spaces/${space.id}/content`)).body;
    expect(revision.id).toBe(fake.store.currentRevision(space.id).id);
    expect(revision.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Guides']);
    expect(revision.pages[1].pages[0]).toMatchObject({ title: 'Install', path: 'guides/install' });

    const page = (await call(`/spaces/${space.id}/content/page/${welcome.id}?format=markdown`)).body;
    expect(page).toMatchObject({ id: welcome.id, markdown: 'Hello\n', documentId: welcome.documentId });
    const withChildren = (await call(`/spaces/${space.id}/content/page/${guides.id}`)).body;
    expect(withChildren.pages).toHaveLength(1);
    expect(withChildren.document.object).toBe('document');
  });

  it('link pages come with a target (and an href for a URL), never a slug or a path; they hold no slug among their siblings', async () => {
    const { space, welcome } = seedSpace();
    fake.store.addPage(space.id, { title: 'Status', type: 'link', href: 'https://status.example.com' });
    fake.store.addPage(space.id, { title: 'See welcome', type: 'link', target: { page: welcome.id } });
    const links = (await call(`/spaces/${space.id}/content`)).body.pages.filter((p: { type: string }) => p.type === 'link');
    expect(links).toEqual([
      expect.objectContaining({ kind: 'link', target: { kind: 'url', url: 'https://status.example.com' }, href: 'https://status.example.com' }),
      expect.objectContaining({ kind: 'link', target: { kind: 'page', page: welcome.id } }),
    ]);
    for (const link of links) {
      expect(link).not.toHaveProperty('slug');
      expect(link).not.toHaveProperty('path');
    }
    // A document may take the slug the link's title would give.
    expect(fake.store.addPage(space.id, { title: 'Status', markdown: 'All good.' }).slug).toBe('status');
  });

  it('pages listings with next.page tokens and limit', async () => {
    const org = fake.store.addOrg({ title: 'Many spaces' });
    for (let i = 0; i < 120; i++) fake.store.addSpace(org.id, { title: `Space ${i}` });

    const first = (await call(`/orgs/${org.id}/spaces`)).body;
    expect(first.items).toHaveLength(50);
    expect(first.count).toBe(120);
    const second = (await call(`/orgs/${org.id}/spaces?page=${first.next.page}`)).body;
    const third = (await call(`/orgs/${org.id}/spaces?page=${second.next.page}`)).body;
    expect(third.items).toHaveLength(20);
    expect(third.next).toBeUndefined();
    const titles = [...first.items, ...second.items, ...third.items].map((s: { title: string }) => s.title);
    expect(new Set(titles).size).toBe(120);

    const big = (await call(`/orgs/${org.id}/spaces?limit=1000`)).body;
    expect(big.items).toHaveLength(120);
    expect((await call(`/orgs/${org.id}/spaces?page=bogus`)).status).toBe(400);
  });

  it('serves file bytes at each file downloadURL', async () => {
    const { space } = seedSpace();
    fake.store.addFile(space.id, { name: 'notes.txt', bytes: 'file body' });
    const files = (await call(`/spaces/${space.id}/content/files`)).body.items;
    const download = await fetch(files[0].downloadURL);
    expect(download.headers.get('content-type')).toBe('text/plain');
    expect(await download.text()).toBe('file body');
  });

  it('works with the official @gitbook/api client', async () => {
    const { space, welcome } = seedSpace();
    const api = new GitBookAPI({ endpoint: fake.url, authToken: fake.token });
    const page = await api.spaces.getPageById(space.id, welcome.id, { format: 'markdown' });
    expect(page.data).toMatchObject({ title: 'Welcome', markdown: 'Hello\n' });
    await expect(api.spaces.getSpaceById('missing')).rejects.toMatchObject({ code: 404 });
  });
});

describe('faults', () => {
  it('fail(n, status) answers the next n requests with that status, and logs them', async () => {
    fake.faults.fail(2, 503);
    expect((await call('/user')).status).toBe(503);
    expect((await call('/user')).status).toBe(503);
    expect((await call('/user')).status).toBe(200);
    expect(fake.requests.map((r) => r.status)).toEqual([503, 503, 200]);
    fake.resetLog();
    expect(fake.requests).toEqual([]);
  });

  it('drop(n) destroys the connection without an answer; offline drops everything', async () => {
    fake.faults.drop(1);
    await expect(call('/user')).rejects.toThrow();
    expect((await call('/user')).status).toBe(200);
    fake.faults.offline = true;
    await expect(call('/user')).rejects.toThrow();
    fake.faults.offline = false;
    expect(fake.requests.map((r) => r.status)).toEqual([0, 200, 0]);
  });

  it('storm429(n) answers 429 with Retry-After; a matcher aims faults at some paths only', async () => {
    const { space } = seedSpace();
    fake.faults.storm429(1, { retryAfter: 2, match: /\/content$/ });
    expect((await call('/user')).status).toBe(200);
    const limited = await call(`/spaces/${space.id}/content`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.body.error.code).toBe(429);
    expect((await call(`/spaces/${space.id}/content`)).status).toBe(200);
  });

  it('rateLimit sends X-RateLimit-* on every answer and 429 over the limit', async () => {
    fake.faults.rateLimit = { limit: 2, windowMs: 60_000 };
    const first = await call('/user');
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    expect((await call('/user')).headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await call('/user');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    fake.faults.rateLimit = undefined;
    expect((await call('/user')).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('latencyMs delays every answer', async () => {
    fake.faults.latencyMs = 60;
    const started = performance.now();
    await call('/user');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe('change request content batches', () => {
  it('applies frontmatter, heading titles, placement and refs in one new revision (compat=false)', async () => {
    const { space, welcome, guides } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id, { subject: 'Edits' });
    const before = cr.revisionId;

    const answer = await post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [
        { operation: 'update_page', page: welcome.id, document: { markdown: '---\ndescription: Start here\nhidden: true\n---\n# Hello there\n\nNew body' } },
        { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Questions' }, into: guides.id, at: 0 },
        { operation: 'insert_page', document: { markdown: '# Child of FAQ\n\nText' }, into: 'faq' },
      ],
    });

    expect(answer.status).toBe(200);
    expect(answer.body.changes.map((c: { object: string }) => c.object)).toEqual(['updated_page', 'created_page', 'created_page']);
    expect(answer.body.changes[1].ref).toBe('faq');
    const updated = fake.store.page(space.id, welcome.id, { changeRequest: cr.id });
    expect(updated).toMatchObject({ title: 'Hello there', description: 'Start here', hidden: true, markdown: 'New body\n', slug: 'welcome' });
    expect(updated.documentId).not.toBe(welcome.documentId);
    const faqId = answer.body.changes[1].page.id as string;
    expect(fake.store.pagePath(space.id, faqId, { changeRequest: cr.id })).toBe('guides/faq');
    expect(fake.store.revisionOf(space.id, { changeRequest: cr.id }).parents).toEqual([before]);
    expect(fake.store.pageMarkdown(space.id, welcome.id)).toBe('Hello\n'); // main untouched
  });

  it('is atomic: one invalid change rejects the whole batch and nothing is applied', async () => {
    const { space, welcome } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id);
    const revisionBefore = cr.revisionId;

    const answer = await post(`/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [
        { operation: 'update_page', page: welcome.id, title: 'Renamed' },
        { operation: 'insert_page', title: 'Duplicate slug', slug: 'welcome', document: { markdown: 'x' } },
      ],
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/changes\[1\] \(insert_page\): slug "welcome" is already used/);
    expect(fake.store.changeRequest(space.id, cr.id).revisionId).toBe(revisionBefore);
    expect(fake.store.page(space.id, welcome.id, { changeRequest: cr.id }).title).toBe('Welcome');
    expect(fake.violations).toEqual([]); // a valid request the API refuses is not a spec violation
  });

  it('moves pages with into/at, refuses moves under a descendant, and resolves file refs', async () => {
    const { space, welcome, guides } = seedSpace();
    const install = fake.store.pageByTitle(space.id, 'Install');
    const cr = fake.store.addChangeRequest(space.id);
    const url = `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;

    const cycle = await post(url, { changes: [{ operation: 'update_page', page: guides.id, into: install.id }] });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/cannot move under itself or one of its descendants/);

    const moved = await post(url, {
      changes: [
        { operation: 'update_page', page: install.id, into: null, at: 0 },
        { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: Buffer.from('png').toString('base64') }] },
        { operation: 'update_page', page: welcome.id, document: { markdown: 'See ![logo](./logo)' } },
      ],
    });
    expect(moved.status).toBe(200);
    const fileId = moved.body.insertedFiles[0].id as string;
    const pages = (await call(`/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Install', 'Welcome', 'Guides']);
    expect(fake.store.pageMarkdown(space.id, welcome.id, { changeRequest: cr.id })).toBe(`See ![logo](/files/${fileId})\n`);
  });

  it('revert_page restores the page as it is on the change request base', async () => {
    const { space, welcome } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id, { changes: [{ operation: 'update_page', page: welcome.id, title: 'Changed' }] });
    await post(`/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'revert_page', page: welcome.id }] });
    expect(fake.store.page(space.id, welcome.id, { changeRequest: cr.id }).title).toBe('Welcome');
  });

  it('answers with the change request by default (compat=true)', async () => {
    const { space, welcome } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id);
    const answer = await post(`/spaces/${space.id}/change-requests/${cr.number}/content`, {
      changes: [{ operation: 'delete_page', page: welcome.id }],
    });
    expect(answer.body).toMatchObject({ object: 'change-request', id: cr.id });
    expect(() => fake.store.page(space.id, welcome.id, { changeRequest: cr.id })).toThrow(/does not exist/);
  });
});

describe('merging and updating change requests', () => {
  it('merge applies the change request onto main as a new revision', async () => {
    const { space, welcome } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id, { changes: [{ operation: 'update_page', page: welcome.id, document: { markdown: 'Merged body' } }] });
    const mainBefore = fake.store.space(space.id).revisionId;

    const answer = await post(`/spaces/${space.id}/change-requests/${cr.id}/merge`, undefined);

    expect(answer.body.result).toBe('merge');
    const spaceAfter = (await call(`/spaces/${space.id}`)).body;
    expect(spaceAfter.revision).toBe(answer.body.revision);
    expect(fake.store.currentRevision(space.id).parents).toEqual([mainBefore, cr.revisionId]);
    expect(fake.store.pageMarkdown(space.id, welcome.id)).toBe('Merged body\n');
    const merged = (await call(`/spaces/${space.id}/change-requests/${cr.id}`)).body;
    expect(merged).toMatchObject({ status: 'merged', revisionMerged: answer.body.revision });
    const changes = (await call(`/spaces/${space.id}/revisions/${answer.body.revision}/changes`)).body;
    expect(changes.changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: welcome.id }) })]);
    expect(changes.mergedFrom.id).toBe(cr.id);
  });

  it('outdated turns true when main moves on, update brings main in, and both-side edits follow the change request, reported as conflicts', async () => {
    const { space, welcome, guides } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id, { changes: [{ operation: 'update_page', page: welcome.id, document: { markdown: 'From CR' } }] });
    expect((await call(`/spaces/${space.id}/change-requests/${cr.id}`)).body.outdated).toBe(false);

    fake.store.editPage(space.id, welcome.id, { markdown: 'From main' });
    fake.store.editPage(space.id, guides.id, { title: 'Guides (renamed on main)' });
    expect((await call(`/spaces/${space.id}/change-requests/${cr.id}`)).body.outdated).toBe(true);

    expect(fake.store.updateConflicts(space.id, cr.id)).toEqual([welcome.id]); // the title main gave Guides is not one
    const updated = await post(`/spaces/${space.id}/change-requests/${cr.id}/update`, undefined);
    expect(updated.body.result).toBe('conflicts');
    const after = (await call(`/spaces/${space.id}/change-requests/${cr.id}`)).body;
    expect(after).toMatchObject({ outdated: false, revision: updated.body.revision, revisionMergedAncestor: fake.store.space(space.id).revisionId });
    expect(fake.store.pageMarkdown(space.id, welcome.id, { changeRequest: cr.id })).toBe('From CR\n');
    expect(fake.store.page(space.id, guides.id, { changeRequest: cr.id }).title).toBe('Guides (renamed on main)');

    fake.store.editPage(space.id, guides.id, { markdown: 'Only main changed this.' });
    expect((await post(`/spaces/${space.id}/change-requests/${cr.id}/update`, undefined)).body.result).toBe('update');
  });

  it("keeps pages added on both sides, the change request's first, and de-duplicates clashing slugs", () => {
    const { space } = seedSpace();
    const cr = fake.store.addChangeRequest(space.id, { changes: [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'from CR' } }] });
    fake.store.addPage(space.id, { title: 'FAQ', markdown: 'from main' });

    fake.store.mergeChangeRequest(space.id, cr.id);

    const roots = fake.store.pages(space.id).filter((p) => p.parentId === null);
    expect(roots.map((p) => [p.slug, p.markdown])).toEqual([
      ['welcome', 'Hello\n'],
      ['guides', 'All guides\n'],
      ['faq', 'from CR\n'],
      ['faq-2', 'from main\n'],
    ]);
  });

  it('documentId changes with content only, not with metadata', () => {
    const { space, welcome } = seedSpace();
    const renamed = fake.store.editPage(space.id, welcome.id, { title: 'Renamed' });
    expect(renamed.documentId).toBe(welcome.documentId);
    expect(renamed.updatedAt > welcome.updatedAt).toBe(true);
    const edited = fake.store.editPage(space.id, welcome.id, { markdown: 'Changed' });
    expect(edited.documentId).not.toBe(welcome.documentId);
  });
});

describe('comments', () => {
  it('posts, filters, resolves and replies to comments', async () => {
    const { space, welcome, guides } = seedSpace();
    const posted = (await post(`/spaces/${space.id}/comments`, { page: welcome.id, body: { markdown: 'Looks good' } })).body;
    fake.store.addComment(space.id, { page: guides.id, body: 'Other page' });

    const onWelcome = (await call(`/spaces/${space.id}/comments?targetPage=${welcome.id}&format=markdown`)).body;
    expect(onWelcome.items.map((c: { body: { markdown: string } }) => c.body.markdown)).toEqual(['Looks good']);

    const resolved = (
      await call(`/spaces/${space.id}/comments/${posted.id}`, { method: 'PUT', body: JSON.stringify({ resolved: true, addedReactions: ['👍'] }) })
    ).body;
    expect(resolved).toMatchObject({ status: 'resolved', reactions: [{ emoji: '👍', count: 1 }] });
    expect((await call(`/spaces/${space.id}/comments?status=open`)).body.count).toBe(1);

    await post(`/spaces/${space.id}/comments/${posted.id}/replies`, { body: { markdown: 'Thanks' } });
    const replies = (await call(`/spaces/${space.id}/comments/${posted.id}/replies?format=markdown`)).body;
    expect(replies.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['Thanks']);
    expect((await call(`/spaces/${space.id}/comments/${posted.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/spaces/${space.id}/comments/${posted.id}`)).status).toBe(404);
  });
});

describe('seeds', () => {
  it('generateSpace is deterministic for a seed', () => {
    const org = fake.store.addOrg({ title: 'Bench' });
    const a = fake.store.currentRevision(generateSpace(fake.store, org.id, { pages: 200, seed: 3 }).id);
    const b = fake.store.currentRevision(generateSpace(fake.store, org.id, { pages: 200, seed: 3 }).id);
    const shape = (r: typeof a) => [...r.pages.values()].map((p) => [p.title, p.markdown.length, p.parentId === null]);
    expect(a.pages.size).toBe(200);
    expect(shape(a)).toEqual(shape(b));
    expect([...a.pages.values()].some((p) => p.parentId !== null)).toBe(true);
  });

  it('seedDemo content is served without spec violations', async () => {
    const demo = seedDemo(fake.store);
    const base = `/orgs/${demo.org.id}/sites/${demo.site.id}`;
    for (const path of [
      `/orgs/${demo.org.id}/spaces`,
      `/orgs/${demo.org.id}/collections`,
      `/collections/${demo.collection.id}/spaces`,
      `/spaces/${demo.handbook.id}/content`,
      `/spaces/${demo.handbook.id}/change-requests`,
      `/spaces/${demo.handbook.id}/change-requests?status=draft`,
      `/spaces/${demo.handbook.id}/comments`,
      `/spaces/${demo.handbook.id}/change-requests/${demo.changeRequests.editIntro.id}/comments`,
      `/spaces/${demo.handbook.id}/change-requests/${demo.changeRequests.editIntro.id}/changes`,
      `/spaces/${demo.handbook.id}/commenters`,
      `/orgs/${demo.org.id}/sites`,
      `${base}/sections`,
      `${base}/section-groups`,
      `${base}/site-spaces`,
      `${base}/share-links`,
      `${base}/published`,
    ]) {
      expect((await call(path)).status, path).toBe(200);
    }
    expect((await call(`/spaces/${demo.handbook.id}/change-requests`)).body.count).toBe(1);
    expect(fake.violations).toEqual([]);
  });
});
