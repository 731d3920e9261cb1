import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CancelledError } from '../../src/main/core/api';
import { Pacer, type Permit } from '../../src/main/core/api/pacer';
import type { RateLimitInfo } from '../../src/main/core/api/rate-limit-headers';
import { readRateLimit } from '../../src/main/core/api/rate-limit-headers';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Queues `count` budgeted requests and records the permits as they are granted. */
function queue(pacer: Pacer, count: number, signal = new AbortController().signal) {
  const granted: Permit[] = [];
  const settled = Array.from({ length: count }, () => pacer.acquire(signal, true).then((p) => void granted.push(p)));
  return { granted, settled };
}

const window = (remaining: number, resetInMs: number, limit = 10): RateLimitInfo => ({
  limit,
  remaining,
  resetAt: Date.now() + resetInMs,
  relative: false,
});

describe('Pacer', () => {
  it('lets a burst of `concurrency` out before it knows the limit, then waits for the reset when the budget is spent', async () => {
    const pacer = new Pacer({ concurrency: 4, now: () => Date.now() });
    const { granted } = queue(pacer, 8);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(4);

    // The server has 2 left in this window, but 3 of ours are still in flight: nothing more may go out.
    granted[0]!.release(window(2, 1000, 5));
    await vi.advanceTimersByTimeAsync(999);
    expect(granted).toHaveLength(4);

    // After the reset, one probe goes out; the rest wait for its answer even though slots are free.
    await vi.advanceTimersByTimeAsync(100);
    expect(granted).toHaveLength(5);
    for (const p of granted.slice(1, 4)) p.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(5);

    // The probe's answer describes the new window: 9 left is ample for the 3 still queued.
    granted[4]!.release(window(9, 1000));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(8);
  });

  it('holds the queue no longer than its limit, whatever reset or Retry-After the server announces (issue 27, item 10)', async () => {
    const pacer = new Pacer({ concurrency: 1, now: () => Date.now(), maxHoldMs: 60_000 });
    const { granted } = queue(pacer, 3);
    await vi.advanceTimersByTimeAsync(0);
    // The budget spent until the year 2100: past Node's timer limit, a hold would fire at once, again and again.
    granted[0]!.release(window(0, Date.parse('2100-01-01T00:00:00Z') - Date.now()));
    await vi.advanceTimersByTimeAsync(59_000);
    expect(granted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(granted).toHaveLength(2);

    pacer.noteThrottled(10 * 365 * 86_400_000);
    granted[1]!.release();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(granted).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(granted).toHaveLength(3);
  });

  it('ignores headers describing a window that already ended', async () => {
    const pacer = new Pacer({ concurrency: 2, now: () => Date.now() });
    const { granted } = queue(pacer, 4);
    await vi.advanceTimersByTimeAsync(0);
    granted[0]!.release(window(8, 1000));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(3);

    granted[1]!.release(window(0, -500)); // a late answer from the previous window
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(4);
  });

  it('spreads a short budget evenly until the reset instead of bursting', async () => {
    const pacer = new Pacer({ concurrency: 1, now: () => Date.now() });
    const started = Date.now();
    const { granted } = queue(pacer, 6);
    await vi.advanceTimersByTimeAsync(0);
    granted.shift()!.release(window(4, 1000)); // 4 left for 1 s, 5 waiting

    const times: number[] = [];
    while (times.length < 4) {
      await vi.advanceTimersByTimeAsync(5);
      for (const permit of granted.splice(0)) {
        times.push(Date.now() - started);
        permit.release();
      }
    }
    expect(times).toEqual([250, 500, 750, 1000]);
  });

  it('rejects a queued request whose signal aborts, and keeps the queue moving', async () => {
    const pacer = new Pacer({ concurrency: 1, now: () => Date.now() });
    const first = queue(pacer, 1);
    const controller = new AbortController();
    const second = queue(pacer, 1, controller.signal);
    const third = queue(pacer, 1);
    await vi.advanceTimersByTimeAsync(0);

    controller.abort();
    await expect(second.settled[0]).rejects.toBeInstanceOf(CancelledError);
    first.granted[0]!.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(third.granted).toHaveLength(1);
  });
});

describe('readRateLimit', () => {
  const headers = (reset: string) => new Headers({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': reset });

  it('reads an epoch-seconds reset', () => {
    expect(readRateLimit(headers('1700000002'), 0)).toEqual({
      limit: 100,
      remaining: 7,
      resetAt: 1_700_000_002_000,
      relative: false,
    });
  });

  it('reads a small reset as seconds from now', () => {
    expect(readRateLimit(headers('30'), 5_000)).toMatchObject({ resetAt: 35_000, relative: true });
  });

  it('ignores answers without remaining and reset', () => {
    expect(readRateLimit(new Headers({ 'x-ratelimit-limit': '100' }), 0)).toBeUndefined();
  });
});
