/**
 * Clear errors for malformed responses (issue 9, item 9, the API client's half): a 200 answer
 * that is not in the shape the core reads fails at the client with one sentence naming the
 * request and the field, never later as `Cannot read properties of undefined`.
 */
import { afterEach, expect, it } from 'vitest';
import { ApiError, UnexpectedResponseError } from '../../src/main/core/api';
import { clientFor, json, spaceBody, startServer, type ScriptedServer } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function answer(body: unknown, call: Parameters<ReturnType<typeof clientFor>['client']['call']>[0]) {
  server = await startServer((_req, res) => json(res, 200, body));
  return clientFor(server)
    .client.call(call)
    .catch((e: unknown) => e);
}

it.each([
  ['a revision without pages', { id: 'r1' }, '`pages` is missing (expected a list)'],
  ['a revision whose pages are a string', { id: 'r1', pages: 'none' }, '`pages` is a string (expected a list)'],
  [
    'a child page without an id',
    { id: 'r1', pages: [{ id: 'p1', type: 'group', title: 'G', pages: [{ type: 'document', title: 'D' }] }] },
    '`pages[0].pages[0].id` is missing (expected a string)',
  ],
  [
    'a file whose size is text',
    { id: 'r1', pages: [], files: [{ id: 'f', name: 'a.png', contentType: 'image/png', size: '12', downloadURL: 'x' }] },
    '`files[0].size` is a string (expected a number)',
  ],
  ['a list instead of a revision', [], 'the answer is a list (expected an object)'],
])('a current revision: %s', async (_what, body, problem) => {
  const error = await answer(body, (api, p) => api.spaces.getCurrentRevision('s1', {}, p));
  expect(error).toBeInstanceOf(UnexpectedResponseError);
  expect(error).not.toBeInstanceOf(ApiError); // never mistaken for a refusal of a write
  expect((error as Error).message).toBe(
    `GET /spaces/s1/content: the API answered 200 but not in the shape Quire reads: ${problem}. ` +
      'The address may not be a GitBook-compatible API, or a proxy changed the answer: check the API address, then try again. Nothing was changed.',
  );
});

it('a document page asked for as markdown without its markdown', async () => {
  const error = await answer({ id: 'p1', type: 'document', title: 'D' }, (api, p) => api.spaces.getPageById('s1', 'p1', { format: 'markdown' }, p));
  expect((error as Error).message).toContain('`markdown` is missing (expected a string)');
});

it('a list of spaces whose item lacks its revision, and a change request without a number after a write', async () => {
  const listed = await answer({ items: [spaceBody('a'), { ...spaceBody('b'), revision: undefined }] }, (api, p) =>
    api.orgs.listSpacesInOrganizationById('o1', {}, p),
  );
  expect((listed as Error).message).toContain('`items[1].revision` is missing (expected a string)');
  await server?.close();
  const created = await answer({ id: 'cr1', status: 'open' }, (api, p) => api.spaces.createChangeRequest('s1', { subject: 'x' }, p));
  expect(created).toBeInstanceOf(UnexpectedResponseError);
  expect((created as Error).message).toMatch(
    /^POST \/spaces\/s1\/change-requests: .*`number` is missing .* The server may have applied the request; the next sync checks what it holds\.$/,
  );
});

it('lets extra fields and absent optional ones through', async () => {
  const ok = await answer({ ...spaceBody('s1'), somethingNew: { deep: [1] }, emoji: null }, (api, p) => api.spaces.getSpaceById('s1', {}, p));
  expect(ok).toMatchObject({ id: 's1', somethingNew: { deep: [1] } });
});

it.each([
  [
    "the organization's change requests, one without its space",
    { items: [{ id: 'cr1', number: 1, status: 'open' }] },
    ((api, p) => api.orgs.listChangeRequestsForOrganization('o1', {}, p)) as Parameters<typeof answer>[1],
    'GET /orgs/o1/change-requests: ',
    '`items[0].space` is missing (expected a string)',
  ],
  [
    'members, one without its user',
    { items: [{ id: 'm1', role: 'admin' }] },
    ((api, p) => api.orgs.listMembersInOrganizationById('o1', {}, p)) as Parameters<typeof answer>[1],
    'GET /orgs/o1/members: ',
    '`items[0].user` is missing (expected an object)',
  ],
  [
    'reviews, one whose reviewer has no id',
    { items: [{ id: 'rv1', status: 'approved', reviewer: { displayName: 'Ann' }, createdAt: '2026-01-01T00:00:00Z' }] },
    ((api, p) => api.spaces.getReviewsByChangeRequestId('s1', 'cr1', {}, p)) as Parameters<typeof answer>[1],
    'GET /spaces/s1/change-requests/cr1/reviews: ',
    '`items[0].reviewer.id` is missing (expected a string)',
  ],
  [
    'requested reviewers, one whose user is a string',
    { items: [{ kind: 'user', user: 'u1' }] },
    ((api, p) => api.spaces.getRequestedReviewersByChangeRequestId('s1', 'cr1', {}, p)) as Parameters<typeof answer>[1],
    'GET /spaces/s1/change-requests/cr1/requested-reviewers: ',
    '`items[0].user` is a string (expected an object)',
  ],
])('%s', async (_what, body, call, request, problem) => {
  const error = await answer(body, call);
  expect(error).toBeInstanceOf(UnexpectedResponseError);
  expect((error as Error).message).toContain(request);
  expect((error as Error).message).toContain(problem);
});
