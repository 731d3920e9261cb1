/**
 * Runtime fault switches of the fake: latency, a fixed-window rate limit, and queued one-shot
 * faults (fail with a status, drop the connection, answer 429, lose or hold back the answer
 * of a request the fake applied, run the test's code around one) optionally aimed at some paths.
 */

/** A RegExp is tested against the request path (e.g. `/v1/spaces/x/content`); a function gets method and path. */
export type RequestMatcher = RegExp | ((request: { method: string; path: string }) => boolean);

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export type QueuedFault =
  | { kind: 'fail'; status: number }
  | { kind: 'drop' }
  | { kind: 'storm429'; retryAfter: number }
  | { kind: 'lose-answer'; afterwards: (() => void) | undefined }
  | { kind: 'late'; ms: number }
  | { kind: 'around'; before: (() => Promise<void> | void) | undefined; after: (() => void) | undefined };

interface Queued {
  fault: QueuedFault;
  remaining: number;
  match: RequestMatcher | undefined;
}

export interface RateLimitVerdict {
  headers: Record<string, string>;
  /** Seconds to wait, when the request is over the limit. */
  retryAfter?: number;
}

export class Faults {
  /** Delay added before every answer (and before a drop is noticed). */
  latencyMs = 0;
  /** When true every connection is destroyed without an answer. */
  offline = false;

  private queue: Queued[] = [];
  private limitConfig: RateLimit | undefined;
  private windowStart = 0;
  private used = 0;

  /** When set, every answer carries X-RateLimit-* headers and requests over the limit get 429. */
  get rateLimit(): RateLimit | undefined {
    return this.limitConfig;
  }

  set rateLimit(value: RateLimit | undefined) {
    if (value && (!(value.limit >= 0) || !(value.windowMs > 0))) {
      throw new Error('rateLimit needs limit >= 0 and windowMs > 0');
    }
    this.limitConfig = value ? { ...value } : undefined;
    this.windowStart = 0;
    this.used = 0;
  }

  /** The next `count` (matching) requests answer `status` (default 503) with the error body. */
  fail(count: number, status = 503, options: { match?: RequestMatcher } = {}): this {
    if (status < 400 || status > 599) throw new Error(`fail() needs an error status (400-599), got ${status}`);
    return this.enqueue({ kind: 'fail', status }, count, options.match);
  }

  /** The next `count` (matching) requests have their connection destroyed without an answer. */
  drop(count: number, options: { match?: RequestMatcher } = {}): this {
    return this.enqueue({ kind: 'drop' }, count, options.match);
  }

  /**
   * The next `count` (matching) requests are carried out, then their connection is destroyed
   * before the answer goes; `afterwards` runs right after, before the client can notice.
   */
  loseAnswer(count: number, options: { match?: RequestMatcher; afterwards?: () => void } = {}): this {
    return this.enqueue({ kind: 'lose-answer', afterwards: options.afterwards }, count, options.match);
  }

  /**
   * The next `count` (matching) requests wait for `before` before they are carried out, and
   * `after` runs once they are, before the answer goes: what happens between two requests the
   * client sent together (a merge landing between them) is then the test's to choose.
   */
  around(count: number, hooks: { before?: () => Promise<void> | void; after?: () => void }, options: { match?: RequestMatcher } = {}): this {
    return this.enqueue({ kind: 'around', before: hooks.before, after: hooks.after }, count, options.match);
  }

  /** The next `count` (matching) requests answer 429 with `Retry-After: retryAfter` (default 1 s). */
  storm429(count: number, options: { retryAfter?: number; match?: RequestMatcher } = {}): this {
    return this.enqueue({ kind: 'storm429', retryAfter: options.retryAfter ?? 1 }, count, options.match);
  }

  /** The next `count` (matching) requests are applied at once, and answered `ms` later (a client killed meanwhile never hears). */
  answerLate(count: number, ms: number, options: { match?: RequestMatcher } = {}): this {
    return this.enqueue({ kind: 'late', ms }, count, options.match);
  }

  /** Queued faults not yet consumed. */
  get pending(): number {
    return this.queue.reduce((sum, q) => sum + q.remaining, 0);
  }

  /** Back to a healthy API: no queued faults, no latency, not offline, no rate limit. */
  clear(): void {
    this.queue = [];
    this.latencyMs = 0;
    this.offline = false;
    this.rateLimit = undefined;
  }

  /** Consumes and returns the first queued fault aimed at this request, if any. */
  take(method: string, path: string): QueuedFault | undefined {
    const index = this.queue.findIndex((q) => matches(q.match, method, path));
    const entry = this.queue[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.queue.splice(index, 1);
    return entry.fault;
  }

  /** Counts a request against the rate limit (if any) and returns the headers to send. */
  countRequest(nowMs: number): RateLimitVerdict {
    const config = this.limitConfig;
    if (!config) return { headers: {} };
    // Fixed windows aligned to the clock (a limiter keyed by floor(now / window), the usual
    // implementation), so the whole-second X-RateLimit-Reset is exact when the window is.
    if (nowMs >= this.windowStart + config.windowMs) {
      this.windowStart = Math.floor(nowMs / config.windowMs) * config.windowMs;
      this.used = 0;
    }
    this.used += 1;
    const resetMs = this.windowStart + config.windowMs;
    const headers = {
      'X-RateLimit-Limit': String(config.limit),
      'X-RateLimit-Remaining': String(Math.max(0, config.limit - this.used)),
      'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
    };
    if (this.used <= config.limit) return { headers };
    return { headers, retryAfter: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)) };
  }

  private enqueue(fault: QueuedFault, count: number, match: RequestMatcher | undefined): this {
    if (!Number.isInteger(count) || count < 0) throw new Error(`fault count must be a non-negative integer, got ${count}`);
    if (count > 0) this.queue.push({ fault, remaining: count, match });
    return this;
  }
}

function matches(match: RequestMatcher | undefined, method: string, path: string): boolean {
  if (match === undefined) return true;
  if (match instanceof RegExp) {
    match.lastIndex = 0;
    return match.test(path);
  }
  return match({ method, path });
}
