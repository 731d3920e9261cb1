import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/main/core/api';
import { apiError, clientFor, json, startServer, TOKEN, type ScriptedServer } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('errors', () => {
  it('names the request, the status and the API message', async () => {
    server = await startServer((_req, res) => apiError(res, 404, 'Space "abc" not found'));
    const { client } = clientFor(server);

    const error = await client.call((api, p) => api.spaces.getSpaceById('abc', {}, p)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 404, method: 'GET', path: '/spaces/abc' });
    expect((error as Error).message).toBe('GET /spaces/abc: 404 Not Found — Space "abc" not found');
  });

  it('never repeats the token, even when the API echoes it back', async () => {
    server = await startServer((_req, res, n) => (n === 0 ? apiError(res, 503, `bad token ${TOKEN}`) : apiError(res, 400, `Token ${TOKEN} is malformed`)));
    const { client, events } = clientFor(server);

    const error = (await client.call((api, p) => api.spaces.getSpaceById('abc', {}, p)).catch((e: unknown) => e)) as ApiError;

    expect(error.status).toBe(400);
    expect(error.message).toContain('is malformed');
    expect(error.message).not.toContain(TOKEN);
    expect(error.apiMessage).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it('turns a malformed success body into an ApiError that names the request', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Sign in to the Wi-Fi</html>');
    });
    const { client } = clientFor(server);

    const error = await client.call((api, p) => api.spaces.getSpaceById('abc', {}, p)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/^GET \/spaces\/abc: the API answered 200 but the body is not valid JSON/);
  });

  it('accepts an empty 204 answer', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const { client } = clientFor(server);

    await expect(client.call((api, p) => api.spaces.deleteSpaceById('abc', p))).resolves.toBeNull();
    expect(server.seen[0]).toMatchObject({ method: 'DELETE', path: '/v1/spaces/abc' });
  });

  it('downloads through the same retries, sending the token only to the API origin', async () => {
    server = await startServer((_req, res, n) => {
      if (n === 0) return apiError(res, 503, 'warming up');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from([1, 2, 3]));
    });
    const { client } = clientFor(server);

    const bytes = await client.download(`${server.origin}/files/f1?sig=abc`);

    expect([...bytes]).toEqual([1, 2, 3]);
    expect(server.seen.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);

    const storage = await startServer((_req, res) => json(res, 200, {}));
    try {
      await clientFor(server).client.download(`${storage.origin}/blob`);
      expect(storage.seen[0]?.headers.authorization).toBeUndefined();
    } finally {
      await storage.close();
    }
  });
});
