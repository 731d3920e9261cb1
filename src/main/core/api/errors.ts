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

/** No usable answer: the API was unreachable, the connection dropped, or every attempt timed out. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  /** True when a non-idempotent request was sent but no answer came back: the server may have applied it. */
  readonly mayHaveBeenApplied: boolean;

  constructor(where: RequestDescription, init: { reason: string; attempts: number; mayHaveBeenApplied: boolean; cause?: unknown }) {
    const what = init.mayHaveBeenApplied
      ? `${init.reason}; the request may or may not have been applied, so it was not retried automatically`
      : `could not reach the API after ${init.attempts} attempt${init.attempts === 1 ? '' : 's'} (${init.reason})`;
    super(`${where.method} ${where.path}: ${what}. Check your connection; edits are kept and will sync later.`, { cause: init.cause });
    this.method = where.method;
    this.path = where.path;
    this.attempts = init.attempts;
    this.mayHaveBeenApplied = init.mayHaveBeenApplied;
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
    return { message: text.length > 200 ? `${text.slice(0, 200)}…` : text };
  }
}
