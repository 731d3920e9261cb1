/** Why an attempt produced no usable answer. */
export type Failure =
  | { kind: 'status'; status: number }
  /** Connection never established (refused, DNS): nothing reached the server. */
  | { kind: 'refused' }
  /** Connection dropped after the request may have been sent. */
  | { kind: 'dropped' }
  /** No answer within the per-attempt timeout. */
  | { kind: 'timeout' };

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * Retry rule: whether sending again is safe. Safe for every method: 429 and 503 (the server refused before
 * doing the work) and a refused connection (nothing was sent; the transport does not retry one itself, it
 * says offline at once). Only for idempotent methods (GET, HEAD, PUT, DELETE): 502, 504, a dropped
 * connection and a timeout, because a POST/PATCH may already have been applied; the caller gets a
 * NetworkError/ApiError and decides. Everything else (4xx including 401, other 5xx) is final.
 */
export function shouldRetry(failure: Failure, method: string): boolean {
  switch (failure.kind) {
    case 'refused':
      return true;
    case 'dropped':
    case 'timeout':
      return isIdempotent(method);
    case 'status':
      if (failure.status === 429 || failure.status === 503) return true;
      return (failure.status === 502 || failure.status === 504) && isIdempotent(method);
  }
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

/** Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^(attempt-1))). */
export function backoffDelayMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** `Retry-After` as a delay in ms: delta seconds (fractions allowed) or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
