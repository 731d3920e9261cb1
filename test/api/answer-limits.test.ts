/**
 * What one answer may be (issue 17, item 1): a compression bomb (brotli, gzip, deflate), a plain
 * body that never ends or an announced length over the limit each fail the request with one line
 * naming the request and the limit — read only up to it, never retried — through node:http and
 * through a fetch alike; a file has its own, larger limit; and once the API sent one such answer,
 * the rest of the cycle is not sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, SkippedRequestError } from '../../src/main/core/api';
import { bomb, bombWireBytes, endlessBody } from '../helpers/hostile-answers';
import { clientFor, json, spaceBody, startServer, type ScriptedServer } from './scripted-server';

const MiB = 1024 * 1024;

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const getSpace = (client: ReturnType<typeof clientFor>['client'], id = 'abc') => client.call((api, p) => api.spaces.getSpaceById(id, {}, p));

describe('an answer larger than the client reads', () => {
  it.each(['br', 'gzip', 'deflate'] as const)('a %s bomb of 4 GiB stops at the limit, once decoded', async (encoding) => {
    bombWireBytes.length = 0;
    server = await startServer((_req, res) => bomb(encoding).respond!(res));
    const { client } = clientFor(server, { maxAnswerBytes: 2 * MiB });

    const error = await getSpace(client).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect((error as Error).message).toBe(
      `GET /spaces/abc: the answer is larger than the 2 MiB Quire reads from one answer once ${encoding}-decoded, far more than any GitBook answer, ` +
        'so Quire stopped reading it. A proxy or a server that is not GitBook-compatible may be in the way: check the API address, then try again. Nothing was changed.',
    );
    expect(server.seen).toHaveLength(1); // not retried
    await expect.poll(() => bombWireBytes.length).toBe(1);
    expect(bombWireBytes[0]).toBeLessThan(2 * MiB); // the client hung up long before the 4 GiB
  });

  it('a plain body that never ends stops at the limit', async () => {
    server = await startServer((_req, res) => endlessBody().respond!(res));
    const { client } = clientFor(server, { maxAnswerBytes: MiB });

    await expect(getSpace(client)).rejects.toThrow(/^GET \/spaces\/abc: the answer is larger than the 1 MiB Quire reads from one answer, far more/);
  });

  it('an announced Content-Length over the limit is refused before the body is read', async () => {
    // Headers only: a body that would never come. Without the length check this would wait for the timeout.
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * MiB) });
      res.flushHeaders();
    });
    const { client } = clientFor(server, { maxAnswerBytes: MiB, timeoutMs: 60_000 });

    await expect(getSpace(client)).rejects.toBeInstanceOf(AnswerTooLargeError);
  });

  it('a bomb is stopped through a fetch too', async () => {
    server = await startServer((_req, res) => bomb('gzip').respond!(res));
    const { client } = clientFor(server, { maxAnswerBytes: MiB, fetch: (input, init) => globalThis.fetch(input, init) });

    await expect(getSpace(client)).rejects.toThrow(/the answer is larger than the 1 MiB Quire reads from one answer once gzip-decoded/);
  });

  it('an answer within the limit is read whole, and a file has its own limit', async () => {
    const file = Buffer.alloc(3 * MiB, 7);
    server = await startServer((req, res) => {
      if (req.path === '/files/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(file);
        return;
      }
      json(res, 200, spaceBody('abc', { description: 'x'.repeat(MiB / 2) }));
    });
    const roomy = clientFor(server, { maxAnswerBytes: MiB, maxDownloadBytes: 4 * MiB }).client;
    await expect(getSpace(roomy)).resolves.toMatchObject({ id: 'abc' });
    expect((await roomy.download(`${server.origin}/files/big`)).byteLength).toBe(file.length);

    const tight = clientFor(server, { maxDownloadBytes: 2 * MiB }).client;
    await expect(tight.download(`${server.origin}/files/big`)).rejects.toThrow(
      /^GET http:\/\/127\.0\.0\.1:\d+\/files\/big: the file is larger than the 2 MiB Quire downloads \(GitBook takes files up to 100 MB\)/,
    );
    // A file too large is that file's problem only: the API is still asked.
    await expect(getSpace(tight)).resolves.toMatchObject({ id: 'abc' });
  });

  it('reads big answers at once one after another (past 1 MiB, one grows at a time), none lost', async () => {
    server = await startServer((req, res) => json(res, 200, spaceBody(req.path.split('/').pop()!, { description: 'y'.repeat(3 * MiB) })));
    const { client } = clientFor(server, { maxAnswerBytes: 8 * MiB });

    const ids = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10'];
    const spaces = await Promise.all(ids.map((id) => getSpace(client, id)));

    expect(spaces.map((s) => [s.id, (s as { description?: string }).description?.length])).toEqual(ids.map((id) => [id, 3 * MiB]));
  });

  it('once the API sent a bomb, the rest of the cycle is not sent; the next cycle asks again', async () => {
    let bombs = true;
    server = await startServer((_req, res) => (bombs ? bomb('br').respond!(res) : json(res, 200, spaceBody('abc'))));
    const { client } = clientFor(server, { maxAnswerBytes: MiB });

    await expect(getSpace(client, 'a')).rejects.toBeInstanceOf(AnswerTooLargeError);
    const skipped = await getSpace(client, 'b').catch((e: unknown) => e);
    expect(skipped).toBeInstanceOf(SkippedRequestError);
    expect((skipped as Error).message).toMatch(/^GET \/spaces\/b was not sent, because GET \/spaces\/a: the answer is larger than the 1 MiB/);
    expect(server.seen.map((r) => r.path)).toEqual(['/v1/spaces/a']);

    bombs = false;
    client.beginCycle();
    await expect(getSpace(client, 'b')).resolves.toMatchObject({ id: 'abc' });
  });
});
