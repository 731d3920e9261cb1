import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/main/core/api';
import { apiError, clientFor, json, startServer, type ScriptedServer, spaceBody } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Resolves with the time the promise settled, so tests can check promptness without sleeping. */
async function settledAt(promise: Promise<unknown>): Promise<{ error: unknown; at: number }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, at: Date.now() };
}

describe('cancellation', () => {
  it('rejects a call still waiting in the queue without sending it', async () => {
    const parked: ServerResponse[] = [];
    server = await startServer((_req, res) => void parked.push(res));
    const { client } = clientFor(server, { concurrency: 1 });

    const first = client.call((api, p) => api.spaces.getSpaceById('one', {}, p));
    await server.received(1);
    const controller = new AbortController();
    const queued = client.call((api, p) => api.spaces.getSpaceById('two', {}, p), { signal: controller.signal });

    const abortedAt = Date.now();
    controller.abort();
    const { error, at } = await settledAt(queued);

    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).name).toBe('AbortError');
    expect(at - abortedAt).toBeLessThan(500);
    json(parked[0]!, 200, spaceBody('one'));
    await expect(first).resolves.toMatchObject({ id: 'one' });
    expect(server.seen.map((r) => r.path)).toEqual(['/v1/spaces/one']);
  });

  it('rejects promptly during a backoff sleep when the client signal aborts', async () => {
    server = await startServer((_req, res) => apiError(res, 503, 'later', { 'retry-after': '30' }));
    const controller = new AbortController();
    const { client, nextEvent } = clientFor(server, { signal: controller.signal });

    const retrying = nextEvent('retry');
    const call = client.call((api, p) => api.spaces.getSpaceById('one', {}, p));
    await retrying;
    const abortedAt = Date.now();
    controller.abort();
    const { error, at } = await settledAt(call);

    expect(error).toBeInstanceOf(CancelledError);
    expect(at - abortedAt).toBeLessThan(500);
    expect(server.seen).toHaveLength(1);
  });

  it('aborts a request in flight', async () => {
    server = await startServer(() => undefined); // never answers
    const { client } = clientFor(server);
    const controller = new AbortController();

    const call = client.call((api, p) => api.spaces.getSpaceById('one', {}, p), { signal: controller.signal });
    await server.received(1);
    const abortedAt = Date.now();
    controller.abort();
    const { error, at } = await settledAt(call);

    expect(error).toBeInstanceOf(CancelledError);
    expect(at - abortedAt).toBeLessThan(500);
    expect(client.stats.retries).toBe(0);
  });

  it('refuses new calls once the client signal has aborted', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const controller = new AbortController();
    controller.abort();
    const { client } = clientFor(server, { signal: controller.signal });

    await expect(client.call((api, p) => api.spaces.getSpaceById('one', {}, p))).rejects.toBeInstanceOf(CancelledError);
    expect(server.seen).toHaveLength(0);
  });
});

describe('a caller’s signal shared by many calls', () => {
  it('gets one listener however many calls are in flight (no MaxListenersExceededWarning), and still cancels them all', async () => {
    const parked: ServerResponse[] = [];
    server = await startServer((_req, res) => void parked.push(res));
    const controller = new AbortController();
    const { client } = clientFor(server, { signal: controller.signal, concurrency: 4 });

    const calls = Array.from({ length: 30 }, (_, i) => client.call((api, p) => api.spaces.getSpaceById(`s${i}`, {}, p), { signal: controller.signal }));
    await server.received(4);

    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(2);
    controller.abort();
    const outcomes = await Promise.all(calls.map((c) => settledAt(c)));
    expect(outcomes.every((o) => o.error instanceof CancelledError)).toBe(true);
  });
});
