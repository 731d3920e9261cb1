import { afterEach, describe, expect, it } from 'vitest';
import { PagingError } from '../../src/main/core/api';
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
    let n = 0;
    server = await startServer((_req, res) => json(res, 200, { items: [item(`x${n++}`)], next: { page: 'same' } }));
    const { client } = clientFor(server);

    await expect(client.listAll((api, query, params) => api.orgs.listOrganizationsForAuthenticatedUser(query, params))).rejects.toThrow(
      /^GET \/orgs: page 2 of the list points to a next page the list already had, so Quire stopped asking for more\./,
    );
    expect(server.seen).toHaveLength(2);
  });

  it('stops after maxPages pages when the API hands out fresh tokens and items forever (issue 17, item 2)', async () => {
    server = await startServer((req, res) => {
      const n = Number(req.query.get('page') ?? '1');
      json(res, 200, { items: [item(`p${n}a`), item(`p${n}b`)], next: { page: String(n + 1) } });
    });
    const { client } = clientFor(server, { maxPages: 5 });

    const error = await client.listAll((api, query, params) => api.orgs.listSpacesInOrganizationById('org1', query, params)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PagingError);
    expect((error as Error).message).toMatch(
      /^GET \/orgs\/org1\/spaces: the list goes on past 5 pages \(10 items so far\), more than Quire follows, so Quire stopped asking for more\. .*check the API address/,
    );
    expect(server.seen).toHaveLength(5);
  });

  it('stops when a page lists an item an earlier page already listed, whatever its token (issue 17, item 2)', async () => {
    server = await startServer((req, res) => {
      const n = Number(req.query.get('page') ?? '1');
      json(res, 200, { items: [item('a'), item('b')], next: { page: `fresh-${n + 1}` } });
    });
    const { client } = clientFor(server);

    await expect(client.listAll((api, query, params) => api.orgs.listOrganizationsForAuthenticatedUser(query, params))).rejects.toThrow(
      /^GET \/orgs: page 2 of the list repeats “a”, which an earlier page already listed, so Quire stopped asking for more\./,
    );
    expect(server.seen).toHaveLength(2);
  });
});
