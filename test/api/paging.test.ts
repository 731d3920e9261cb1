import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, json, spaceBody, startServer, TOKEN, type ScriptedServer } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Items that pass as organizations and as spaces (the client checks the fields the core reads). */
const item = (id: string) => ({ ...spaceBody(id), id, title: `Item ${id}` });
const PAGES: Record<string, { items: { id: string }[]; next?: { page: string } }> = {
  first: { items: [item('a'), item('b')], next: { page: 'p2' } },
  p2: { items: [item('c')], next: { page: 'p3' } },
  p3: { items: [item('d'), item('e')] },
};

describe('paging', () => {
  it('follows next.page until absent, asking for 1000 items per page with the bearer token', async () => {
    server = await startServer((req, res) => json(res, 200, PAGES[req.query.get('page') ?? 'first']));
    const { client } = clientFor(server);

    const ids: string[] = [];
    for await (const org of client.paginate((api, query, params) => api.orgs.listOrganizationsForAuthenticatedUser(query, params))) {
      ids.push(org.id);
    }

    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(server.seen.map((r) => [r.path, r.query.get('page'), r.query.get('limit')])).toEqual([
      ['/v1/orgs', null, '1000'],
      ['/v1/orgs', 'p2', '1000'],
      ['/v1/orgs', 'p3', '1000'],
    ]);
    expect(server.seen.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(client.stats).toMatchObject({ requests: 3, retries: 0, throttled: 0 });
  });

  it('listAll collects every item and honours a custom limit', async () => {
    server = await startServer((req, res) => json(res, 200, PAGES[req.query.get('page') ?? 'first']));
    const { client } = clientFor(server);

    const spaces = await client.listAll((api, query, params) => api.orgs.listSpacesInOrganizationById('org1', query, params), { limit: 2 });

    expect(spaces.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(server.seen[0]?.path).toBe('/v1/orgs/org1/spaces');
    expect(server.seen.map((r) => r.query.get('limit'))).toEqual(['2', '2', '2']);
  });

  it('stops with an error instead of looping when the API repeats a page token', async () => {
    server = await startServer((_req, res) => json(res, 200, { items: [item('x')], next: { page: 'same' } }));
    const { client } = clientFor(server);

    await expect(client.listAll((api, query, params) => api.orgs.listOrganizationsForAuthenticatedUser(query, params))).rejects.toThrow(
      /page token "same" twice/,
    );
    expect(server.seen).toHaveLength(2);
  });
});
