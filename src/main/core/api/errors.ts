import { clipText } from '../../../shared/clip-text';

/** What every error names: the request it came from, e.g. `GET /spaces/abc/content`. */
export interface RequestDescription {
  method: string;
  /** Path below `/v1` for API calls; origin + path for other URLs. Never includes the query string. */
  path: string;
}

export interface ApiErrorFields extends RequestDescription {
  status: number;
  statusText: string;
  /** `error.code` from the API's `{ error: { code, message } }` body, when present. */
  code?: string | number;
  /** `error.message` from the API's body (or a short plain-text body), when present. */
  apiMessage?: string;
  attempts?: number;
}

/** The API answered with a status we cannot use (after any retries). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code: string | number | undefined;
  readonly apiMessage: string | undefined;

  constructor(fields: ApiErrorFields, message = describeFailure(fields)) {
    super(message);
    this.method = fields.method;
    this.path = fields.path;
    this.status = fields.status;
    this.code = fields.code;
    this.apiMessage = fields.apiMessage;
  }
}

/** 401: the token is missing, expired or revoked. Never retried. */
export class TokenRejectedError extends ApiError {
  override name = 'TokenRejectedError';

  constructor(fields: ApiErrorFields) {
    const detail = fields.apiMessage ? ` (${fields.apiMessage})` : '';
    // What to do next depends on the host (sign in again in the app, `quire login` on the command line): each adds it.
    super(fields, `${fields.method} ${fields.path}: 401 — token rejected by the API${detail}.`);
  }
}

/**
 * A 429 or 503 whose `Retry-After` asks for a longer wait than Quire gives one request
 * (`deadlineMs`): the request fails at once, saying how long and until when, rather than
 * waiting an hour (or forever: an HTTP date in 2100). The server refused before doing the work,
 * so nothing was applied.
 */
export class RetryLaterError extends ApiError {
  override name = 'RetryLaterError';
  /** When the server said to come back, in ms since the epoch. */
  readonly retryAt: number;

  constructor(fields: ApiErrorFields, init: { waitMs: number; limitMs: number; retryAt: number }) {
    const when = new Date(Math.min(init.retryAt, MAX_DATE_MS)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    super(
      fields,
      `${fields.method} ${fields.path}: the API answered ${fields.status} and asked Quire to wait ${describeLongWait(init.waitMs)} before trying again, ` +
        `longer than the ${describeDuration(init.limitMs)} it waits for one request. Try again after ${when}; edits are kept.`,
    );
    this.retryAt = init.retryAt;
  }
}

/** The last moment a Date holds (year 275760). */
const MAX_DATE_MS = 8.64e15;

/** 90 s → "90 s", 600 s → "10 min", 5400 s → "1.5 h", 2 days and more → "N days". */
function describeLongWait(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Number((s / 3600).toFixed(1))} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** No usable answer: the API was unreachable, the connection dropped, or every attempt timed out. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  /** Why the last attempt got no answer, e.g. `connection failed: connect ECONNREFUSED 127.0.0.1:8080`. */
  readonly reason: string;
  /** True when a non-idempotent request was sent but no answer came back: the server may have applied it. */
  readonly mayHaveBeenApplied: boolean;

  constructor(where: RequestDescription, init: { reason: string; attempts: number; mayHaveBeenApplied: boolean; cause?: unknown; message?: string }) {
    const what = init.mayHaveBeenApplied
      ? `${init.reason}; the request may or may not have been applied, so it was not retried automatically`
      : `could not reach the API${init.attempts > 1 ? ` after ${plural(init.attempts, 'attempt')}` : ''} (${init.reason})`;
    super(init.message ?? `${where.method} ${where.path}: ${what}. Check your connection; edits are kept and will sync later.`, { cause: init.cause });
    this.method = where.method;
    this.path = where.path;
    this.attempts = init.attempts;
    this.reason = init.reason;
    this.mayHaveBeenApplied = init.mayHaveBeenApplied;
  }
}

/**
 * The server's certificate did not verify (an authority Node does not trust, a name it does not
 * cover, a date it is not valid at): no retry helps, and nothing was sent.
 */
export class UntrustedServerError extends NetworkError {
  override name = 'UntrustedServerError';
  /** Node's code for it (UNABLE_TO_VERIFY_LEAF_SIGNATURE, CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID…). */
  readonly certificateCode: string;

  constructor(where: RequestDescription, init: { origin: string; certificateCode: string; reason: string; cause: unknown }) {
    super(where, {
      reason: init.reason,
      attempts: 1,
      mayHaveBeenApplied: false,
      cause: init.cause,
      message:
        `${where.method} ${where.path}: ${init.origin} was not trusted: ${init.reason} (${init.certificateCode}); nothing was sent. ` +
        "If a company proxy or a private authority signs this server's certificate, set NODE_EXTRA_CA_CERTS to that authority's " +
        'certificate (a PEM file) and sync again; edits are kept.',
    });
    this.certificateCode = init.certificateCode;
  }
}

/**
 * The API did not answer within the client's deadline (`deadlineMs`, verdict.ts): a request's
 * attempts got no answer for that long — a server that accepts connections and then dribbles
 * its answer, or sends none.
 */
export class NoAnswerError extends NetworkError {
  override name = 'NoAnswerError';
  readonly deadlineMs: number;

  constructor(where: RequestDescription, init: { deadlineMs: number; attempts: number; reason: string }) {
    super(where, {
      reason: init.reason,
      attempts: init.attempts,
      mayHaveBeenApplied: false,
      message:
        `the API did not answer ${where.method} ${where.path} within ${describeDuration(init.deadlineMs)} ` +
        `(${plural(init.attempts, 'attempt')}; the last: ${init.reason}). The server (or a proxy in between) takes requests ` +
        'but answers too slowly or not at all: check the API address and your connection, then sync again; edits are kept.',
    });
    this.deadlineMs = init.deadlineMs;
  }
}

/**
 * A request stopped in flight, or not sent, because another of the same cycle found the server
 * unusable (verdict.ts): it did not answer, or sent an answer larger than Quire reads.
 */
export class SkippedRequestError extends NetworkError {
  override name = 'SkippedRequestError';
  /** What stopped the cycle's other requests. */
  readonly because: Error;

  constructor(where: RequestDescription, init: { sent: boolean; because: Error; mayHaveBeenApplied?: boolean }) {
    const outcome = init.mayHaveBeenApplied ? ' (it may or may not have been applied; the next sync checks)' : '';
    super(where, {
      reason: init.sent ? 'stopped' : 'not sent',
      attempts: init.sent ? 1 : 0,
      mayHaveBeenApplied: init.mayHaveBeenApplied ?? false,
      message: `${where.method} ${where.path} was ${init.sent ? 'stopped' : 'not sent'}${outcome}, because ${init.because.message}`,
    });
    this.because = init.because;
  }
}

/**
 * An answer larger than the client reads (`maxAnswerBytes`, `maxDownloadBytes`), on the wire or
 * once decoded: no GitBook answer is that large, so it is a compression bomb, an endless body or
 * something that is not the API. The connection is closed at the limit; nothing of it is kept.
 */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
  readonly method: string;
  readonly path: string;
  readonly limitBytes: number;

  constructor(where: RequestDescription, init: { limitBytes: number; kind: 'answer' | 'file'; encoding?: string }) {
    const decoded = init.encoding ? ` once ${init.encoding}-decoded` : '';
    const safe = where.method === 'GET' || where.method === 'HEAD';
    const outcome = safe ? 'Nothing was changed.' : 'The server may have applied the request; the next sync checks what it holds.';
    const what =
      init.kind === 'file'
        ? `the file is larger than the ${describeBytes(init.limitBytes)} Quire downloads (GitBook takes files up to 100 MB)`
        : `the answer is larger than the ${describeBytes(init.limitBytes)} Quire reads from one answer${decoded}, far more than any GitBook answer`;
    super(
      `${where.method} ${where.path}: ${what}, so Quire stopped reading it. A proxy or a server that is not GitBook-compatible may be in the way: ` +
        `check the API address, then try again. ${outcome}`,
    );
    this.method = where.method;
    this.path = where.path;
    this.limitBytes = init.limitBytes;
  }
}

/** A paged list that does not end: more pages than the client follows, or pages that repeat. */
export class PagingError extends Error {
  override name = 'PagingError';
  readonly method: string;
  readonly path: string;

  constructor(where: RequestDescription | undefined, problem: string) {
    const request = where ? `${where.method} ${where.path}: ` : '';
    super(
      `${request}${problem}, so Quire stopped asking for more. The server (or a proxy in between) does not page like the GitBook API: ` +
        'check the API address, then try again. Nothing of that list was used.',
    );
    this.method = where?.method ?? '';
    this.path = where?.path ?? '';
  }
}

/**
 * A 2xx answer that is not in the shape the core reads (response-shapes.ts): a server that is
 * not GitBook-compatible, or a proxy that changed the answer. Deliberately not an ApiError: an
 * answer to a write means the server took the request, and push code must not mistake this
 * for a refusal and send the write again.
 */
export class UnexpectedResponseError extends Error {
  override name = 'UnexpectedResponseError';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** What differs, e.g. "`pages[3].id` is missing (expected a string)". */
  readonly problem: string;

  constructor(where: RequestDescription & { status: number }, problem: string) {
    const safe = where.method === 'GET' || where.method === 'HEAD';
    const outcome = safe ? 'Nothing was changed.' : 'The server may have applied the request; the next sync checks what it holds.';
    super(
      `${where.method} ${where.path}: the API answered ${where.status} but not in the shape Quire reads: ${problem}. ` +
        `The address may not be a GitBook-compatible API, or a proxy changed the answer: check the API address, then try again. ${outcome}`,
    );
    this.method = where.method;
    this.path = where.path;
    this.status = where.status;
    this.problem = problem;
  }
}

/**
 * A redirect Quire does not follow: off the API's address (a write would carry its body there,
 * and another host's answer — its 401 too — would be taken for the API's), down to plain http,
 * or round and round. Deliberately not an ApiError: a 303 may answer a write the server took,
 * so push code must not take it for a refusal and send the write again.
 */
export class RedirectRefusedError extends Error {
  override name = 'RedirectRefusedError';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Where it pointed: origin and path, no query. */
  readonly location: string;

  constructor(where: RequestDescription & { status: number }, init: { location: string; loop: boolean }) {
    const safe = where.method === 'GET' || where.method === 'HEAD';
    const outcome = safe ? 'Nothing was changed.' : 'The next sync checks what the server holds.';
    const why = init.loop
      ? `redirected more than ${MAX_REDIRECTS_FOLLOWED} times (the last to ${init.location}), so Quire stopped following`
      : `pointing to ${init.location}; Quire follows a redirect only within the API's address, so nothing was sent there`;
    super(
      `${where.method} ${where.path}: the API answered ${where.status}, ${why}. A proxy, or an API that moved, may be in the way: ` +
        `check the API address, then try again. ${outcome}`,
    );
    this.method = where.method;
    this.path = where.path;
    this.status = where.status;
    this.location = init.location;
  }
}

/** As http-exchange.ts follows them. */
const MAX_REDIRECTS_FOLLOWED = 5;

/**
 * An answer Quire cannot read at all: not HTTP (another kind of server on that port), not valid
 * HTTP, or a body in an encoding it does not read or that does not decode. Not a dropped
 * connection, so never retried; not an ApiError, so a write is not taken for refused.
 */
export class MalformedAnswerError extends Error {
  override name = 'MalformedAnswerError';
  readonly method: string;
  readonly path: string;

  constructor(where: RequestDescription, problem: string, init: { nonHttp?: boolean } = {}) {
    const safe = where.method === 'GET' || where.method === 'HEAD';
    const outcome = safe ? 'Nothing was changed.' : 'The server may have applied the request; the next sync checks what it holds.';
    const todo = init.nonHttp
      ? 'Check the API address (its port, https:// or http://), then try again.'
      : 'A proxy in the way may have changed it: check the API address and any proxy, then try again.';
    super(`${where.method} ${where.path}: ${problem}. ${todo} ${outcome}`);
    this.method = where.method;
    this.path = where.path;
  }
}

/**
 * The API is out of reach: no answer (a network failure), or a gateway that could not reach it
 * (502, 503, 504). Not a server that answered with when to come back (RetryLaterError): that
 * answer is the news.
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof SkippedRequestError) return isUnreachable(err.because);
  if (err instanceof NetworkError) return true;
  if (err instanceof RetryLaterError) return false;
  return err instanceof ApiError && (err.status === 502 || err.status === 503 || err.status === 504);
}

/** The caller cancelled (client or per-call AbortSignal). Named `AbortError` so generic abort checks recognise it. */
export class CancelledError extends Error {
  override name = 'AbortError';
  readonly code = 'ABORT_ERR';

  constructor(message = 'The request was cancelled.') {
    super(message);
  }
}

function describeFailure(f: ApiErrorFields): string {
  const status = [f.status, f.statusText].filter(Boolean).join(' ');
  const api = f.apiMessage ? ` — ${f.apiMessage}` : '';
  const attempts = f.attempts && f.attempts > 1 ? ` (gave up after ${f.attempts} attempts)` : '';
  return `${f.method} ${f.path}: ${status}${api}${attempts}`;
}

/** Reads `{ error: { code, message } }`; falls back to a short plain-text body. */
export function readErrorBody(body: string, contentType: string | null): { code?: string | number; message?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    return {
      code: typeof error?.code === 'string' || typeof error?.code === 'number' ? error.code : undefined,
      message: typeof error?.message === 'string' ? error.message : undefined,
    };
  } catch {
    const text = body.trim();
    if (!text || /html/i.test(contentType ?? '')) return {};
    return { message: clipText(text, 201) };
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 60000 → "60 s", 1500 → "1.5 s", 250 → "250 ms". */
export function describeDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** 33554432 → "32 MiB", 1536 → "1.5 KiB". */
function describeBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}
