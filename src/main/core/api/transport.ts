import { type Body, type BodyForm, type LargeAnswers, OverLimit, UnreadableBody } from './answer-body';
import {
  AnswerTooLargeError,
  ApiError,
  type ApiErrorFields,
  CancelledError,
  describeDuration,
  MalformedAnswerError,
  NetworkError,
  TokenRejectedError,
  UntrustedServerError,
  readErrorBody,
  RedirectRefusedError,
  type RequestDescription,
  RetryLaterError,
} from './errors';
import type { ApiEvent } from './events';
import { type AnswerHeaders, type HttpExchange, isRedirect } from './http-exchange';
import type { Pacer } from './pacer';
import type { ServerVerdict } from './verdict';
import { readRateLimit, type RateLimitInfo } from './rate-limit-headers';
import { backoffDelayMs, isIdempotent, parseRetryAfter, shouldRetry, type Failure } from './retry';
import { linkSignals, sleep } from './signals';
import { countRequest, sentBehind } from './request-count';

export interface TransportOptions {
  /** Sends a request and reads its answer (node:http, or a fetch a test gives). */
  exchange: HttpExchange;
  pacer: Pacer;
  /** e.g. `https://api.example.com/v1`: requests to its origin count against the rate limit. */
  apiBase: URL;
  timeoutMs: number;
  maxAttempts: number;
  /** What one request learns about the server for the rest of the cycle: the deadline for an answer, bombs (verdict.ts). */
  verdict: ServerVerdict;
  /** The most one answer's body may be, on the wire and decoded; a download's (`download: true`). */
  maxAnswerBytes: number;
  maxDownloadBytes: number;
  /** Past 1 MiB, one answer at a time grows (answer-body.ts). */
  largeAnswers: LargeAnswers;
  signal?: AbortSignal;
  random: () => number;
  now: () => number;
  /** Removes secrets from any text that ends up in an error or event. */
  redact: (text: string) => string;
  emit: (event: ApiEvent) => void;
  counters: { requests: number; retries: number; throttled: number; backoffMs: number };
}

export interface HttpRequest {
  url: string;
  method?: string;
  headers?: RequestInit['headers'];
  body?: RequestInit['body'];
  signal?: AbortSignal | null;
  /** A file's bytes rather than an API answer (its own size limit). */
  download?: boolean;
}

/**
 * A 2xx answer with its body fully read (inside the attempt, so timeouts and retries cover the
 * body too): an API answer's as text, a download's as bytes.
 */
export interface HttpResult<F extends BodyForm = 'text'> {
  where: RequestDescription;
  status: number;
  statusText: string;
  headers: AnswerHeaders;
  body: Body<F>;
}

interface Target {
  url: URL;
  method: string;
  request: HttpRequest;
  where: RequestDescription;
  /** Sent to the API's origin, so it counts against the rate limit. */
  budgeted: boolean;
}

type Outcome =
  | { kind: 'response'; status: number; statusText: string; headers: AnswerHeaders; body: Body<BodyForm> }
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'refused' | 'dropped'; cause: unknown };

/** Sends one request with pacing, per-attempt timeout, retries and error conversion. */
export class Transport {
  constructor(private readonly o: TransportOptions) {}

  describe(method: string, url: URL): RequestDescription {
    const base = this.o.apiBase.href.replace(/\/+$/, '');
    const bare = url.origin + url.pathname;
    return { method, path: this.o.redact(bare.startsWith(`${base}/`) ? bare.slice(base.length) : bare) };
  }

  send(request: HttpRequest & { download: true }): Promise<HttpResult<'bytes'>>;
  send(request: HttpRequest & { download?: false }): Promise<HttpResult<'text'>>;
  async send(request: HttpRequest): Promise<HttpResult<BodyForm>> {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = new URL(request.url);
    const target: Target = {
      url,
      method,
      request,
      where: this.describe(method, url),
      budgeted: url.origin === this.o.apiBase.origin,
    };
    const link = linkSignals(this.o.signal, request.signal);
    const { verdict } = this.o;
    // Since when this request has had no answer (reset by any answer): bounded by the deadline.
    let waiting: { since: number } | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const outcome = await this.attempt(target, attempt, link.signal, () => (waiting ??= { since: this.o.now() }));
        if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) {
          return { where: target.where, ...outcome };
        }
        const failure: Failure = outcome.kind === 'response' ? { kind: 'status', status: outcome.status } : outcome;
        // A refused connection is known at once (nothing listens, no route, no name): the caller says
        // offline now, and continuous sync tries again on its own short schedule (continuous.ts).
        if (!shouldRetry(failure, method) || failure.kind === 'refused') throw this.finalError(outcome, target, attempt);
        const retryAfter = outcome.kind === 'response' ? parseRetryAfter(outcome.headers.get('retry-after'), this.o.now()) : undefined;
        // No wait is longer than a request's deadline: a server asking for more fails the request, saying until when.
        if (outcome.kind === 'response' && retryAfter !== undefined && retryAfter > verdict.deadlineMs) {
          throw this.toldToWait(outcome, target, attempt, retryAfter);
        }
        const delayMs = retryAfter ?? backoffDelayMs(attempt, this.o.random);
        const last = attempt >= this.o.maxAttempts;
        // No answer for the whole deadline (or none possible before it, after the backoff): stop now.
        if (outcome.kind !== 'response' && this.o.now() + (last ? 0 : delayMs) >= waiting!.since + verdict.deadlineMs) {
          throw verdict.noAnswer(target.where, { attempts: attempt, reason: this.reason(outcome), waitingSince: waiting!.since });
        }
        if (last) throw this.finalError(outcome, target, attempt);
        if (outcome.kind === 'response') waiting = undefined;
        this.o.counters.retries++;
        this.o.counters.backoffMs += delayMs;
        this.o.emit({ type: 'retry', ...target.where, attempt, delayMs, reason: this.reason(outcome) });
        await sleep(delayMs, link.signal);
      }
    } finally {
      link.dispose();
    }
  }

  private async attempt(target: Target, attempt: number, signal: AbortSignal, sending: () => { since: number }): Promise<Outcome> {
    const permit = await this.o.pacer.acquire(signal, target.budgeted, sentBehind());
    let info: RateLimitInfo | undefined;
    try {
      // The server was found unusable earlier in this cycle: this one is not sent.
      this.o.verdict.check(target.where);
      this.o.counters.requests++;
      countRequest();
      const started = this.o.now();
      const waitingSince = sending().since;
      const timeoutMs = Math.max(1, Math.min(this.o.timeoutMs, waitingSince + this.o.verdict.deadlineMs - started));
      const outcome = await this.exchange(target, signal, timeoutMs);
      if (outcome.kind === 'response') {
        this.o.verdict.answered();
        const durationMs = this.o.now() - started;
        this.o.emit({ type: 'response', ...target.where, status: outcome.status, attempt, durationMs });
        if (target.budgeted) info = readRateLimit(outcome.headers, this.o.now());
        if (outcome.status === 429) this.noteThrottled(outcome.headers, target.budgeted);
      }
      return outcome;
    } finally {
      permit.release(info);
    }
  }

  /** Before the permit is released, so no queued request slips out ahead of the server's Retry-After. */
  private noteThrottled(headers: AnswerHeaders, budgeted: boolean): void {
    this.o.counters.throttled++;
    const retryAfter = parseRetryAfter(headers.get('retry-after'), this.o.now());
    // A longer wait fails the request (toldToWait), and the rest of the cycle with it: nothing to hold the queue for.
    if (budgeted && (retryAfter === undefined || retryAfter <= this.o.verdict.deadlineMs)) this.o.pacer.noteThrottled(retryAfter);
  }

  private async exchange({ url, method, request, where, budgeted }: Target, signal: AbortSignal, timeoutMs: number): Promise<Outcome> {
    // One controller for the three ways an attempt ends early (cancelled, timed out, the server
    // found unusable): a timeout controller of its own, linked with the others, cost a second one
    // on every request.
    const stopped = this.o.verdict.signal;
    const attempt = new AbortController();
    const abort = (): void => attempt.abort();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort();
    }, timeoutMs);
    for (const source of [signal, stopped]) {
      if (source.aborted) abort();
      else source.addEventListener('abort', abort, { once: true });
    }
    const maxBytes = request.download ? this.o.maxDownloadBytes : this.o.maxAnswerBytes;
    try {
      const limit = { maxBytes, large: this.o.largeAnswers };
      const form: BodyForm = request.download ? 'bytes' : 'text';
      const redirects = request.download ? 'elsewhere' : 'same-origin';
      const answer = await this.o.exchange(url.href, { method, headers: request.headers, body: request.body, signal: attempt.signal, limit, form, redirects });
      return { kind: 'response', ...answer };
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (timedOut) return { kind: 'timeout', afterMs: timeoutMs };
      if (stopped.aborted) throw this.o.verdict.stopped(where, !isIdempotent(method));
      if (error instanceof OverLimit) {
        const tooLarge = new AnswerTooLargeError(where, {
          limitBytes: error.limitBytes,
          kind: request.download ? 'file' : 'answer',
          encoding: error.decodedFrom,
        });
        // A bomb from the API is seldom alone; one file too large (from a storage host) is that file's problem only.
        throw budgeted && !request.download ? this.o.verdict.tooLarge(tooLarge) : tooLarge;
      }
      if (error instanceof UnreadableBody) throw new MalformedAnswerError(where, this.unreadable(error));
      // Node's HTTP parser (HPE_…): what came back is not HTTP, or not valid HTTP. Asking again brings the same.
      const parserCode = findCode(error, /^HPE_[A-Z_]+$/);
      // The connection ended before the answer did: dropped, like any other.
      if (parserCode === 'HPE_INVALID_EOF_STATE') return { kind: 'dropped', cause: error };
      if (parserCode) {
        const nonHttp = parserCode === 'HPE_INVALID_CONSTANT';
        const problem = nonHttp
          ? `${url.origin} did not answer in HTTP, so it is not the API (another kind of server listens there)`
          : `${url.origin} sent an answer that is not valid HTTP`;
        throw new MalformedAnswerError(where, problem, { nonHttp });
      }
      const certificateCode = findCode(error, CERTIFICATE_CODE);
      if (certificateCode) {
        // OpenSSL's reason, without the advice Node 24 adds after a semicolon (to run Node.js with
        // --use-system-ca): a `quire` user cannot; the error says what they can do instead.
        const reason = this.o.redact((error instanceof Error ? error.message : String(error)).split(';')[0]!);
        throw new UntrustedServerError(where, { origin: url.origin, certificateCode, reason, cause: error });
      }
      const kind = classifyConnectionFailure(error);
      if (kind) return { kind, cause: error };
      throw error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      stopped.removeEventListener('abort', abort);
    }
  }

  /** What is wrong with a body that came whole, in words (the server's name for its encoding, redacted and cut short). */
  private unreadable({ encoding, kind }: UnreadableBody): string {
    const named = this.o.redact(encoding.length > 40 ? `${encoding.slice(0, 40)}…` : encoding);
    return kind === 'unsupported'
      ? `the answer is encoded as “${named}”, which Quire does not read (it reads gzip, deflate or br, once)`
      : `the answer says it is ${named}-encoded but does not decode as ${named}`;
  }

  private finalError(outcome: Outcome, target: Target, attempts: number): Error {
    const { where, method } = target;
    if (outcome.kind !== 'response') {
      const retryable = shouldRetry(outcome, method);
      return new NetworkError(where, {
        reason: this.reason(outcome),
        attempts,
        mayHaveBeenApplied: !retryable,
        cause: outcome.kind === 'timeout' ? undefined : outcome.cause,
      });
    }
    const location = outcome.headers.get('location');
    if (isRedirect(outcome.status) && location !== null) return this.redirectRefused(outcome.status, location, target);
    const fields = this.answerFields(outcome, where, attempts);
    return outcome.status === 401 ? new TokenRejectedError(fields) : new ApiError(fields);
  }

  /** A redirect the exchange did not follow (elsewhere, or too many): named, never read as the API's answer. */
  private redirectRefused(status: number, location: string, { url, where }: Target): RedirectRefusedError {
    let to: URL | undefined;
    try {
      to = new URL(location, url);
    } catch {
      // Not an address at all: named as it came.
    }
    const named = this.o.redact(to ? to.origin + to.pathname : location.slice(0, 200));
    return new RedirectRefusedError({ ...where, status }, { location: named, loop: to !== undefined && to.origin === url.origin });
  }

  /** A 429 or 503 asking for a longer wait than the deadline: that request fails, and on the API the rest of the cycle too. */
  private toldToWait(outcome: Outcome & { kind: 'response' }, { where, budgeted }: Target, attempts: number, waitMs: number): RetryLaterError {
    const limitMs = this.o.verdict.deadlineMs;
    const error = new RetryLaterError(this.answerFields(outcome, where, attempts), { waitMs, limitMs, retryAt: this.o.now() + waitMs });
    return budgeted ? this.o.verdict.toldToWait(error) : error;
  }

  /** What an error says of an answer. Every part of it may echo the Authorization header back: none reaches a message unredacted. */
  private answerFields(outcome: Outcome & { kind: 'response' }, where: RequestDescription, attempts: number): ApiErrorFields {
    const text = typeof outcome.body === 'string' ? outcome.body : new TextDecoder().decode(outcome.body);
    const { code, message } = readErrorBody(text, outcome.headers.get('content-type'));
    return {
      ...where,
      status: outcome.status,
      statusText: this.o.redact(outcome.statusText),
      code: typeof code === 'string' ? this.o.redact(code) : code,
      apiMessage: message === undefined ? undefined : this.o.redact(message),
      attempts,
    };
  }

  private reason(outcome: Outcome): string {
    switch (outcome.kind) {
      case 'response':
        return this.o.redact(`${outcome.status} ${outcome.statusText}`.trim());
      case 'timeout':
        return `no answer within ${describeDuration(outcome.afterMs)}`;
      case 'refused':
        return `connection failed: ${this.o.redact(describeCause(outcome.cause))}`;
      case 'dropped':
        return `connection dropped: ${this.o.redact(describeCause(outcome.cause))}`;
    }
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** Node's codes for a server certificate that does not verify: OpenSSL's verify results, and a name it does not cover. */
const CERTIFICATE_CODE =
  /^(?:ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_[A-Z_]+|CERT_[A-Z_]+|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|INVALID_CA|PATH_LENGTH_EXCEEDED|INVALID_PURPOSE)$/;

/** fetch reports network trouble as TypeError with a `cause` chain carrying the system error code. */
function classifyConnectionFailure(error: unknown): 'refused' | 'dropped' | undefined {
  const code = findCode(error);
  if (code && NOT_SENT_CODES.has(code)) return 'refused';
  if (code) return 'dropped';
  const message = error instanceof Error ? error.message : '';
  if (error instanceof TypeError && /fetch failed|terminated/i.test(message)) return 'dropped';
  return /socket hang up/i.test(message) ? 'dropped' : undefined;
}

/** The error and its `cause`s, innermost last (bounded, in case of a cycle). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e != null && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** System and undici error codes (ECONNRESET, UND_ERR_SOCKET…). */
const SYSTEM_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

/** The first code along the error's `cause`s that `pattern` matches. */
function findCode(error: unknown, pattern: RegExp = SYSTEM_CODE): string | undefined {
  for (const e of causeChain(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && pattern.test(code)) return code;
  }
  return undefined;
}

function describeCause(error: unknown): string {
  const code = findCode(error);
  const innermost = causeChain(error).at(-1);
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}
