/** One response's view of the server's rate-limit window. */
export interface RateLimitInfo {
  /** Requests allowed per window; Infinity when the server doesn't say. */
  limit: number;
  remaining: number;
  /** When the window resets, in ms on our clock. */
  resetAt: number;
  /** The server sent seconds-from-now rather than an epoch: resetAt is only accurate to about a second. */
  relative: boolean;
}

// Epoch seconds are > 1e9 since 2001; anything smaller must be "seconds from now".
const EPOCH_THRESHOLD = 1e9;

/** Reads X-RateLimit-Limit / -Remaining / -Reset; undefined unless Remaining and Reset are both present. */
export function readRateLimit(headers: { get(name: string): string | null }, now: number): RateLimitInfo | undefined {
  const remaining = toNumber(headers.get('x-ratelimit-remaining'));
  const reset = toNumber(headers.get('x-ratelimit-reset'));
  if (remaining === undefined || reset === undefined) return undefined;
  const relative = reset < EPOCH_THRESHOLD;
  return {
    limit: toNumber(headers.get('x-ratelimit-limit')) ?? Infinity,
    remaining,
    resetAt: relative ? now + reset * 1000 : reset * 1000,
    relative,
  };
}

function toNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
