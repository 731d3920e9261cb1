import type { GitBookAPI } from '@gitbook/api';
import {
  AnswerTooLargeError,
  ApiError,
  CancelledError,
  MalformedAnswerError,
  NetworkError,
  PagingError,
  RedirectRefusedError,
  UnexpectedResponseError,
  type RequestDescription,
} from './errors';
import type { ApiEvent, ApiStats } from './events';
import { LargeAnswers } from './answer-body';
import { answeredRequest, createPacedFetch } from './fetch-adapter';
import { exchangeThroughFetch, nodeHttpExchange } from './http-exchange';
import { Pacer } from './pacer';
import { ServerVerdict } from './verdict';
import { followPages, type Page } from './paging';
import { redactSecrets, rememberSecret } from '../secrets';
import { fanOut, linkSignals } from './signals';
import { Transport } from './transport';

export interface ApiClientOptions {
  /** API origin, e.g. `https://api.gitbook.com`; the official client appends `/v1`. */
  baseUrl: string;
  token: string;
  /** Maximum requests in flight. Default 8. */
  concurrency?: number;
  /** Per attempt, including reading the body. Default 30 000. */
  timeoutMs?: number;
  /** Attempts per request, first one included. Default 6. */
  maxAttempts?: number;
  /**
   * Longest the client goes without an answer from the server, across a request's attempts and
   * backoffs; when nothing at all was answered in that time, the rest of the cycle is not sent
   * (verdict.ts). Default 60 000.
   */
  deadlineMs?: number;
  /** Most bytes one API answer may be, on the wire and decoded. Default 32 MiB. */
  maxAnswerBytes?: number;
  /** Most bytes one downloaded file may be, on the wire and decoded. Default 128 MiB. */
  maxDownloadBytes?: number;
  /** Most pages the client follows in one list. Default 100 (100 000 items at the API's 1 000 per page). */
  maxPages?: number;
  /** Cancels everything this client does. */
  signal?: AbortSignal;
  /** Send through this fetch instead of node:http (tests that lose answers on purpose). */
  fetch?: typeof fetch;
  onEvent?: (event: ApiEvent) => void;
  /** Source of retry jitter, in [0, 1). */
  random?: () => number;
  /** Clock in ms since the epoch (compared with the server's X-RateLimit-Reset). */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** Pass these through to the official client method so per-call cancellation reaches the request. */
export interface CallParams {
  signal: AbortSignal;
}

export type Operation<T> = (api: GitBookAPI, params: CallParams) => Promise<{ data: T }>;

export type PagedOperation<T> = (api: GitBookAPI, query: { page?: string; limit: number }, params: CallParams) => Promise<{ data: Page<T> }>;

export interface PaginateOptions extends CallOptions {
  /** Items per page. Default 1000, the API maximum, so big lists take few requests. */
  limit?: number;
}

export const MAX_PAGE_LIMIT = 1000;

/**
 * What the client reads at most, far above any real GitBook answer: a page's markdown is at most
 * a few MB, a list page at most 1 000 items, a file at most 100 MB (GitBook's upload limit).
 */
const DEFAULT_LIMITS = {
  deadlineMs: 60_000,
  maxAnswerBytes: 32 * 1024 * 1024,
  maxDownloadBytes: 128 * 1024 * 1024,
  maxPages: 100,
} as const;

/**
 * Thin wrapper around the official `GitBookAPI`: every request it makes goes through our transport
 * (concurrency and rate-limit pacing, per-attempt timeout, retries with backoff, clear errors).
 *
 *   const org = await client.call((api, p) => api.orgs.getOrganizationById(id, p));
 *   for await (const space of client.paginate((api, q, p) => api.orgs.listSpacesInOrganizationById(id, q, p))) ...
 */
export class ApiClient {
  /** The official client, loaded with the first call (a command that makes none does not load it). */
  #gitbook: Promise<GitBookAPI> | undefined;
  readonly #endpoint: string;
  readonly #token: string;
  readonly #apiBase: URL;
  readonly #signal: AbortSignal | undefined;
  readonly #pacer: Pacer;
  readonly #verdict: ServerVerdict;
  readonly #transport: Transport;
  readonly #maxPages: number;
  readonly #counters = { requests: 0, retries: 0, throttled: 0, backoffMs: 0 };

  constructor(options: ApiClientOptions) {
    const endpoint = options.baseUrl.replace(/\/+$/, '');
    const now = options.now ?? Date.now;
    const emit = (event: ApiEvent): void => {
      try {
        options.onEvent?.(event);
      } catch {
        // A failing listener must not fail requests.
      }
    };
    this.#endpoint = endpoint;
    this.#token = options.token;
    rememberSecret(options.token);
    this.#apiBase = new URL(`${endpoint}/v1`);
    this.#signal = fanOut(options.signal);
    this.#maxPages = Math.max(1, options.maxPages ?? DEFAULT_LIMITS.maxPages);
    const deadlineMs = options.deadlineMs ?? DEFAULT_LIMITS.deadlineMs;
    this.#verdict = new ServerVerdict(deadlineMs, now);
    this.#pacer = new Pacer({
      concurrency: options.concurrency ?? 8,
      now,
      maxHoldMs: deadlineMs,
      onHold: (delayMs) => emit({ type: 'throttle', delayMs }),
    });
    this.#transport = new Transport({
      exchange: options.fetch ? exchangeThroughFetch(options.fetch) : nodeHttpExchange,
      pacer: this.#pacer,
      apiBase: this.#apiBase,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxAttempts: Math.max(1, options.maxAttempts ?? 6),
      verdict: this.#verdict,
      maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_LIMITS.maxAnswerBytes,
      maxDownloadBytes: options.maxDownloadBytes ?? DEFAULT_LIMITS.maxDownloadBytes,
      largeAnswers: new LargeAnswers(),
      signal: this.#signal,
      random: options.random ?? Math.random,
      now,
      redact: redactSecrets,
      emit,
      counters: this.#counters,
    });
  }

  /** The official client; it adds `Authorization: Bearer <token>` itself and hands each request to our fetch. */
  #official(): Promise<GitBookAPI> {
    this.#gitbook ??= import('@gitbook/api').then(
      ({ GitBookAPI }) => new GitBookAPI({ endpoint: this.#endpoint, authToken: this.#token, serviceBinding: { fetch: createPacedFetch(this.#transport) } }),
    );
    return this.#gitbook;
  }

  get stats(): ApiStats {
    const { requests, retries, throttled, backoffMs } = this.#counters;
    return { requests, retries, throttled, waitedMs: Math.round(backoffMs + this.#pacer.heldMs) };
  }

  /**
   * A sync cycle begins: the server is tried again even if the last one found it unusable
   * (within a cycle, once it did not answer for `deadlineMs` or sent a bomb, the rest is not sent).
   */
  beginCycle(): void {
    this.#verdict.beginCycle();
  }

  /** Runs one operation of the official client and returns its `data`. */
  async call<T>(fn: Operation<T>, options?: CallOptions): Promise<T> {
    return (await this.#answer(fn, options)).data;
  }

  /** Every item of a paged list, following `next.page`; pages are fetched lazily. */
  paginate<T>(fn: PagedOperation<T>, options?: PaginateOptions): AsyncIterable<T> {
    const limit = options?.limit ?? MAX_PAGE_LIMIT;
    return followPages(
      async (page) => {
        const answer = await this.#answer((api, params) => fn(api, { page, limit }, params), options);
        return { page: answer.data, where: answer.where };
      },
      { maxPages: this.#maxPages, fail: (where, problem) => new PagingError(where, problem) },
    );
  }

  async listAll<T>(fn: PagedOperation<T>, options?: PaginateOptions): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this.paginate(fn, options)) items.push(item);
    return items;
  }

  /**
   * Downloads a file (e.g. a File's `downloadURL`) with the same pacing, timeout and retries.
   * The token is only sent to the API's own origin, never to a storage host.
   */
  async download(url: string, options?: CallOptions): Promise<Uint8Array<ArrayBuffer>> {
    const target = new URL(url, this.#apiBase);
    const headers: Record<string, string> = target.origin === this.#apiBase.origin ? { Authorization: `Bearer ${this.#token}` } : {};
    const link = linkSignals(this.#signal, fanOut(options?.signal));
    try {
      return (await this.#transport.send({ url: target.href, headers, signal: link.signal, download: true })).body;
    } catch (error) {
      throw normalizeError(error, link.signal);
    } finally {
      link.dispose();
    }
  }

  /** An operation's `data`, with the request that answered it (for errors about the answer). */
  async #answer<T>(fn: Operation<T>, options?: CallOptions): Promise<{ data: T; where: RequestDescription | undefined }> {
    const link = linkSignals(this.#signal, fanOut(options?.signal));
    try {
      const response = await fn(await this.#official(), { signal: link.signal });
      return { data: response.data, where: answeredRequest(response) };
    } catch (error) {
      throw normalizeError(error, link.signal);
    } finally {
      link.dispose();
    }
  }
}

/**
 * Our transport already throws ApiError/NetworkError/CancelledError (built from redacted text);
 * anything else is the caller's own, and leaves the client with its message redacted too.
 */
function normalizeError(error: unknown, signal: AbortSignal): unknown {
  if (
    error instanceof ApiError ||
    error instanceof NetworkError ||
    error instanceof CancelledError ||
    error instanceof UnexpectedResponseError ||
    error instanceof AnswerTooLargeError ||
    error instanceof PagingError ||
    error instanceof RedirectRefusedError ||
    error instanceof MalformedAnswerError
  )
    return error;
  if (signal.aborted) return new CancelledError();
  if (error instanceof Error) error.message = redactSecrets(error.message);
  return error;
}
