/**
 * An overall deadline for reaching the server (issue 17, item 18), on top of the per-attempt
 * timeout and the retry policy: a server that takes requests and dribbles its answers makes a
 * request give up after the deadline, saying what it waited for, not after all its attempts;
 * once nothing at all was answered for that long, requests in flight stop and the rest of the
 * cycle is not sent, until the next cycle. Answers (a 429 too) restart the count.
 */
import { afterEach, expect, it } from 'vitest';
import { NoAnswerError, SkippedRequestError } from '../../src/main/core/api';
import { dribble } from '../helpers/hostile-answers';
import { apiError, clientFor, json, spaceBody, startServer, type ScriptedServer } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Dribbles the answer to every request whose path ends in one of `slow`; answers the others at once. */
function serve(slow: string[]) {
  return startServer((req, res) => {
    const id = req.path.split('/').pop()!;
    if (slow.includes(id)) return dribble(20).respond!(res);
    json(res, 200, spaceBody(id));
  });
}

const TIGHT = { timeoutMs: 200, deadlineMs: 700, maxAttempts: 6 };
/** Attempts that outlast the gap between a second request and the deadline (below). */
const STOPPING = { timeoutMs: 400, deadlineMs: 1000, maxAttempts: 6 };

it('gives up on an answer dribbled a byte at a time after the deadline, not after every attempt, saying what it waited for', async () => {
  server = await serve(['abc']);
  const { client } = clientFor(server, TIGHT);

  const error = await client.call((api, p) => api.spaces.getSpaceById('abc', {}, p)).catch((e: unknown) => e);

  expect(error).toBeInstanceOf(NoAnswerError);
  expect((error as Error).message).toMatch(
    /^the API did not answer GET \/spaces\/abc within 700 ms \([2-5] attempts; the last: no answer within \d+ ms\)\. .*check the API address and your connection, then sync again; edits are kept\.$/,
  );
  expect(server.seen.length).toBeLessThan(TIGHT.maxAttempts);
});

it('once nothing was answered for the deadline, stops the requests in flight and sends no more until the next cycle', async () => {
  server = await serve(['a', 'b']);
  const { client } = clientFor(server, STOPPING);
  const get = (id: string) => client.call((api, p) => api.spaces.getSpaceById(id, {}, p)).catch((e: unknown) => e);

  const first = get('a');
  await server.received(1);
  // The second goes 300 ms before the deadline: its attempt (400 ms) is in flight when the deadline
  // comes, whatever the first's retries are doing then, with 300 ms to spare on a busy machine.
  await new Promise((resolve) => setTimeout(resolve, STOPPING.deadlineMs - 300));
  const second = get('b');

  expect(await first).toBeInstanceOf(NoAnswerError);
  const stopped = await second;
  expect(stopped).toBeInstanceOf(SkippedRequestError);
  expect((stopped as Error).message).toMatch(/^GET \/spaces\/b was stopped, because the API did not answer GET \/spaces\/a within 1 s/);

  const notSent = await get('c');
  expect((notSent as Error).message).toMatch(/^GET \/spaces\/c was not sent, because the API did not answer GET \/spaces\/a/);
  expect(server.seen.some((r) => r.path === '/v1/spaces/c')).toBe(false);

  client.beginCycle();
  await expect(get('c')).resolves.toMatchObject({ id: 'c' });
});

it('does not take a server that answers other requests for dead: only the request it does not answer fails', async () => {
  server = await serve(['slow']);
  const { client } = clientFor(server, TIGHT);
  const get = (id: string) => client.call((api, p) => api.spaces.getSpaceById(id, {}, p));

  const slow = get('slow').catch((e: unknown) => e);
  await server.received(1);
  await expect(get('fast')).resolves.toMatchObject({ id: 'fast' });

  expect(await slow).toBeInstanceOf(NoAnswerError);
  await expect(get('after')).resolves.toMatchObject({ id: 'after' });
});

it('restarts the count on every answer: a request throttled by 429s for longer than the deadline still goes through', async () => {
  server = await startServer((_req, res, n) => {
    // Each wait within the deadline (a longer one fails the request: retry.test.ts), the three longer than it.
    if (n < 3) return apiError(res, 429, 'slow down', { 'retry-after': '0.15' });
    json(res, 200, spaceBody('abc'));
  });
  const { client } = clientFor(server, { ...TIGHT, deadlineMs: 200 });

  await expect(client.call((api, p) => api.spaces.getSpaceById('abc', {}, p))).resolves.toMatchObject({ id: 'abc' });
  expect(server.seen).toHaveLength(4);
});
