import { afterEach, describe, expect, it } from 'vitest';
import { apiError, clientFor, json, startServer, type ScriptedServer, spaceBody } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A server allowing `limit` requests per fixed window aligned to the clock (like the real API), announcing
 * X-RateLimit-* on every answer and 429 + Retry-After beyond the limit.
 */
async function rateLimitedServer(limit: number, windowMs: number, reset: 'epoch' | 'relative' = 'epoch') {
  const state = { rejected: 0 };
  const perWindow = new Map<number, number>();
  const started = await startServer((req, res) => {
    const now = Date.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    const count = (perWindow.get(windowStart) ?? 0) + 1;
    perWindow.set(windowStart, count);
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - count)),
      'x-ratelimit-reset': String(reset === 'epoch' ? windowEnd / 1000 : Math.ceil((windowEnd - now) / 1000)),
    };
    if (count > limit) {
      state.rejected++;
      return apiError(res, 429, 'Rate limit exceeded', { ...headers, 'retry-after': String((windowEnd - now) / 1000) });
    }
    json(res, 200, spaceBody(req.path.split('/').pop()!), headers);
  });
  return { server: started, state };
}

function callMany(client: ReturnType<typeof clientFor>['client'], count: number) {
  return Promise.all(Array.from({ length: count }, (_, i) => client.call((api, p) => api.spaces.getSpaceById(`s${i}`, {}, p))));
}

describe('rate-limit pacing', () => {
  it('stays under 20 requests per 1 s window for 60 requests, spread out, close to the 3 s floor', async () => {
    const limited = await rateLimitedServer(20, 1000);
    server = limited.server;
    const { client } = clientFor(server);

    const started = Date.now();
    const spaces = await callMany(client, 60);
    const elapsed = Date.now() - started;

    expect(spaces).toHaveLength(60);
    expect(limited.state.rejected).toBe(0);
    expect(client.stats.throttled).toBe(0);
    expect(server.seen).toHaveLength(60);
    // 60 requests need three windows, so at least two resets; the floor is 60 / 20 per s = 3 s.
    expect(elapsed).toBeGreaterThan(1000);
    expect(elapsed).toBeLessThan(3750);

    // Spread, not burst-then-stall: in windows after the first, no quarter second takes most of the budget.
    const firstWindow = Math.floor(server.seen[0]!.at / 1000);
    const perQuarter = new Map<number, number>();
    for (const r of server.seen.filter((r) => Math.floor(r.at / 1000) > firstWindow)) {
      const quarter = Math.floor(r.at / 250);
      perQuarter.set(quarter, (perQuarter.get(quarter) ?? 0) + 1);
    }
    expect(Math.max(...perQuarter.values())).toBeLessThanOrEqual(12);
  });

  it('does not hold requests back when the budget is ample', async () => {
    const limited = await rateLimitedServer(1000, 60_000);
    server = limited.server;
    const { client, events } = clientFor(server);

    await callMany(client, 50);

    expect(events.filter((e) => e.type === 'throttle')).toEqual([]);
    expect(client.stats.waitedMs).toBe(0);
  });

  it('also paces with a seconds-from-now reset', async () => {
    const limited = await rateLimitedServer(10, 1000, 'relative');
    server = limited.server;
    const { client } = clientFor(server);

    const started = Date.now();
    await callMany(client, 25);

    expect(limited.state.rejected).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it('keeps exactly `concurrency` requests in flight when there is no rate limit', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server = await startServer((_req, res) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, spaceBody('x'));
      }, 50);
    });
    const { client } = clientFor(server);

    const started = Date.now();
    await callMany(client, 48);
    const elapsed = Date.now() - started;

    expect(maxInFlight).toBe(8);
    expect(elapsed).toBeGreaterThanOrEqual(290); // 48 * 50 ms / 8
    expect(elapsed).toBeLessThan(1000); // clearly parallel (one at a time would take 2.4 s), with slack for a busy CI box
  });

  it('holds every request after a 429 with Retry-After, not just the one that got it', async () => {
    server = await startServer((_req, res, n) => (n === 0 ? apiError(res, 429, 'slow down', { 'retry-after': '0.3' }) : json(res, 200, spaceBody('x'))));
    const { client } = clientFor(server, { concurrency: 1, random: () => 0 });

    await callMany(client, 3);

    const [first, ...rest] = server.seen;
    for (const r of rest) expect(r.at - first!.at).toBeGreaterThanOrEqual(295);
    expect(client.stats.throttled).toBe(1);
  });
});
