import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, TokenRejectedError } from '../../src/main/core/api';
import { backoffDelayMs, parseRetryAfter, shouldRetry } from '../../src/main/core/api/retry';
import { apiError, clientFor, closedPortUrl, dropConnection, json, startServer, TOKEN, type ScriptedServer, spaceBody } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const getSpace = (id: string) => (api: import('@gitbook/api').GitBookAPI, params: { signal: AbortSignal }) => api.spaces.getSpaceById(id, {}, params);
const createChangeRequest = (api: import('@gitbook/api').GitBookAPI, params: { signal: AbortSignal }) =>
  api.spaces.createChangeRequest('s1', { subject: 'x' }, params);

describe('retry policy', () => {
  it('retries all methods on 429/503 and refused connections, and only idempotent ones otherwise', () => {
    for (const status of [429, 503]) {
      expect(shouldRetry({ kind: 'status', status }, 'POST')).toBe(true);
    }
    for (const status of [502, 504]) {
      expect(shouldRetry({ kind: 'status', status }, 'GET')).toBe(true);
      expect(shouldRetry({ kind: 'status', status }, 'POST')).toBe(false);
    }
    for (const status of [400, 401, 403, 404, 409, 500]) {
      expect(shouldRetry({ kind: 'status', status }, 'GET')).toBe(false);
    }
    expect(shouldRetry({ kind: 'refused' }, 'PATCH')).toBe(true);
    for (const kind of ['dropped', 'timeout'] as const) {
      expect(['GET', 'HEAD', 'PUT', 'DELETE'].every((m) => shouldRetry({ kind }, m))).toBe(true);
      expect(['POST', 'PATCH'].some((m) => shouldRetry({ kind }, m))).toBe(false);
    }
  });

  it('uses exponential backoff with full jitter, capped', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelayMs(a, () => 0.5))).toEqual([250, 500, 1000, 2000]);
    expect(backoffDelayMs(1, () => 0)).toBe(0);
    expect(backoffDelayMs(30, () => 0.999)).toBeLessThanOrEqual(30_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('0.2', now)).toBe(200);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('nonsense', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('retries against a server', () => {
  it('retries after a 503 and returns the later success', async () => {
    server = await startServer((_req, res, n) => (n === 0 ? apiError(res, 503, 'Down for a moment') : json(res, 200, spaceBody('s1', { title: 'Space' }))));
    const { client, events } = clientFor(server);

    const space = await client.call(getSpace('s1'));

    expect(space).toMatchObject({ id: 's1', title: 'Space' });
    expect(server.seen).toHaveLength(2);
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      { type: 'retry', method: 'GET', path: '/spaces/s1', attempt: 1, delayMs: 5, reason: '503 Service Unavailable' },
    ]);
    expect(client.stats).toMatchObject({ requests: 2, retries: 1 });
  });

  it('waits as long as Retry-After says before retrying a 429', async () => {
    server = await startServer((_req, res, n) => (n === 0 ? apiError(res, 429, 'Slow down', { 'retry-after': '0.2' }) : json(res, 200, spaceBody('s1'))));
    const { client } = clientFor(server, { random: () => 0 }); // backoff alone would retry at once

    await client.call(getSpace('s1'));

    const [first, second] = server.seen;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(195);
    expect(client.stats).toMatchObject({ requests: 2, retries: 1, throttled: 1 });
    expect(client.stats.waitedMs).toBeGreaterThanOrEqual(200);
  });

  it('never retries a 401 and says how to fix the token', async () => {
    server = await startServer((_req, res) => apiError(res, 401, 'The token has expired'));
    const { client } = clientFor(server);

    const error = await client.call(getSpace('s1')).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TokenRejectedError);
    expect(server.seen).toHaveLength(1);
    const message = (error as Error).message;
    expect(message).toContain('token rejected');
    expect(message).toContain('The token has expired');
    expect(message).toContain('401');
    expect(message).not.toMatch(/quire /); // what to do next is the host's to say
    expect(message).not.toContain(TOKEN);
  });

  it('gives up after maxAttempts with the last status', async () => {
    server = await startServer((_req, res) => apiError(res, 503, 'Maintenance'));
    const { client } = clientFor(server, { maxAttempts: 3 });

    const error = await client.call(getSpace('s1')).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, apiMessage: 'Maintenance' });
    expect((error as Error).message).toContain('gave up after 3 attempts');
    expect(server.seen).toHaveLength(3);
  });

  it('retries a POST after 503 but not after 502', async () => {
    server = await startServer((_req, res, n) =>
      n === 0
        ? apiError(res, 503, 'busy')
        : n === 1
          ? json(res, 200, { id: 'cr1', number: 1, status: 'open', subject: '' })
          : apiError(res, 502, 'bad gateway'),
    );
    const { client } = clientFor(server);

    await expect(client.call(createChangeRequest)).resolves.toMatchObject({ id: 'cr1' });
    await expect(client.call(createChangeRequest)).rejects.toMatchObject({ status: 502 });
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('retries a GET whose connection dropped', async () => {
    server = await startServer((_req, res, n) => (n === 0 ? dropConnection(res) : json(res, 200, spaceBody('s1'))));
    const { client, events } = clientFor(server);

    await expect(client.call(getSpace('s1'))).resolves.toMatchObject({ id: 's1' });
    expect(server.seen).toHaveLength(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: expect.stringMatching(/connection dropped/) });
  });

  it('does not retry a POST whose connection dropped: it may have been applied', async () => {
    server = await startServer((_req, res) => dropConnection(res));
    const { client } = clientFor(server);

    const error = await client.call(createChangeRequest).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true, attempts: 1 });
    expect((error as Error).message).toMatch(/may or may not have been applied.*check your connection/i);
    expect(server.seen).toHaveLength(1);
  });

  it('times out a hanging attempt and retries it', async () => {
    server = await startServer((_req, res, n) => {
      if (n > 0) json(res, 200, spaceBody('s1')); // the first request never gets an answer
    });
    const { client, events } = clientFor(server, { timeoutMs: 150 });

    const started = Date.now();
    await expect(client.call(getSpace('s1'))).resolves.toMatchObject({ id: 's1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.seen).toHaveLength(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'no answer within 150 ms' });
  });

  it('reports an unreachable API as a NetworkError at once: a refused connection is not retried (the caller says offline now)', async () => {
    const { client } = clientFor({ origin: await closedPortUrl() }, { maxAttempts: 6 });

    const error = await client.call(createChangeRequest).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 1, mayHaveBeenApplied: false, reason: expect.stringMatching(/^connection failed: .*ECONNREFUSED/) });
    expect((error as Error).message).toMatch(/^POST \/spaces\/s1\/change-requests: could not reach the API \(connection failed: .*ECONNREFUSED/);
    expect((error as Error).message).toContain('Check your connection; edits are kept and will sync later.');
    expect(client.stats).toMatchObject({ requests: 1, retries: 0 });
  });
});
