import { afterEach, describe, expect, it } from 'vitest';
import { behindOtherWork, withRequestCount } from '../../src/main/core/api';
import { clientFor, json, spaceBody, startServer, type ScriptedServer } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('request counts', () => {
  it('counts for each piece of work the requests it sent, when another shares the client at the same time (also started inside it)', async () => {
    server = await startServer((req, res) => json(res, 200, { ...spaceBody(req.path.split('/').pop()!), title: 'Space' }));
    const { client } = clientFor(server);
    const get = (id: string) => client.call((api, params) => api.spaces.getSpaceById(id, {}, params));

    let beside: Promise<number> | null = null;
    const outer = await withRequestCount(async (requests) => {
      await get('a1');
      // Started inside the outer work (as review is from a cycle's progress), counting for itself.
      beside = withRequestCount(async (own) => {
        for (const id of ['b1', 'b2', 'b3']) await get(id);
        return own();
      });
      await Promise.all([get('a2'), get('a3')]); // while the other work sends its own
      return requests();
    });

    expect(outer).toBe(3);
    expect(await beside).toBe(3);
    expect(client.stats.requests).toBe(6);
  });

  it('sends the requests of work run behind other work one in eight while other requests wait, one at a time (review beside a pull)', async () => {
    server = await startServer((req, res) => json(res, 200, { ...spaceBody(req.path.split('/').pop()!), title: 'Space' }));
    const { client } = clientFor(server, { concurrency: 1 });
    const get = (id: string) => client.call((api, params) => api.spaces.getSpaceById(id, {}, params));

    const first = get('a1'); // in flight: the rest wait their turn
    const behind = behindOtherWork(() => Promise.all([get('b1'), get('b2')]));
    const others = Promise.all(['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10'].map(get));
    await Promise.all([first, behind, others]);

    expect(server.seen.map((r) => r.path.split('/').pop())).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'b1', 'a9', 'a10', 'b2']);
  });
});
