/**
 * One HTTP exchange over node:http(s): a request sent, its answer read whole.
 *
 * Why not the global fetch: in Node 20 it builds web streams, Request, Response and abort
 * signals for every call, several times the CPU of an exchange itself. A sync of 2,000 pages
 * makes 2,000 requests on a thread that also writes the files; with fetch the requests alone
 * took ~1 ms of CPU each (measured here), with node:http about a third of that.
 *
 * It does what fetch did for us: keep-alive connections, gzip/deflate/br answers decoded,
 * redirects followed, aborts; and what fetch did not: an answer is read only up to a limit, on
 * the wire and decoded (answer-body.ts), and a redirect is followed only where `redirects` lets
 * it go (an API request stays on the API's origin).
 * A body it cannot send as bytes (FormData, Blob, a stream) goes through fetch instead (whose
 * connections do not trust what extra-ca-certs.ts adds; Quire sends no such body).
 */
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { type Body, type BodyForm, type BodyLimit, OverLimit, readFetchLimited, readLimited, UnreadableBody } from './answer-body';
import { secureContextWithDeferredCas } from './extra-ca-certs';

export interface ExchangeRequest<F extends BodyForm> {
  method: string;
  headers?: RequestInit['headers'];
  body?: RequestInit['body'];
  signal: AbortSignal;
  /** How much of the answer's body is read (OverLimit past it). */
  limit: BodyLimit;
  /** The answer's body as text (an API answer) or bytes (a download). */
  form: F;
  /**
   * Where a redirect may lead. `same-origin`: only within the first request's origin — an API
   * request's body and token go to no other host, and no other host's answer is taken for the
   * API's. `elsewhere`: also to another host (a file download, which carries no token there),
   * but never from https down to plain http. A redirect not followed is the answer.
   */
  redirects: 'same-origin' | 'elsewhere';
}

/** An answer's headers, as the transport reads them (a fetch Headers is one too). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

export interface ExchangeAnswer<F extends BodyForm> {
  status: number;
  statusText: string;
  headers: AnswerHeaders;
  body: Body<F>;
}

export type HttpExchange = <F extends BodyForm>(url: string, request: ExchangeRequest<F>) => Promise<ExchangeAnswer<F>>;

/** As fetch does; RedirectRefusedError says so past it. */
const MAX_REDIRECTS = 5;

type Send = (url: URL, options: RequestOptions, answered: (res: IncomingMessage) => void) => ClientRequest;

/**
 * node:http and node:https with their keep-alive agents, loaded with the first request: a
 * command that sends none (status, search) does not load them. HTTPS trusts the authorities of
 * NODE_EXTRA_CA_CERTS the launcher deferred (extra-ca-certs.ts).
 */
const senders: Partial<Record<'http:' | 'https:', { send: Send; agent: Agent }>> = {};

function senderFor(protocol: 'http:' | 'https:'): { send: Send; agent: Agent } {
  let sender = senders[protocol];
  if (!sender) {
    if (protocol === 'https:') {
      const https = process.getBuiltinModule('node:https');
      sender = { send: https.request, agent: new https.Agent({ keepAlive: true, secureContext: secureContextWithDeferredCas() }) };
    } else {
      const http = process.getBuiltinModule('node:http');
      sender = { send: http.request, agent: new http.Agent({ keepAlive: true }) };
    }
    senders[protocol] = sender;
  }
  return sender;
}

/** An exchange through a fetch (the global one, or one a test gives). */
export function exchangeThroughFetch(fetchImpl: typeof fetch): HttpExchange {
  return (url, request) =>
    followRedirects(new URL(url), request, request.body ?? null, async (target, method, headers, body) => {
      const response = await fetchImpl(target.href, { method, headers, body, redirect: 'manual', signal: request.signal });
      const read = await readFetchLimited(response, request.limit, request.form);
      return { status: response.status, statusText: response.statusText, headers: response.headers, body: read };
    });
}

const viaFetch = exchangeThroughFetch((input, init) => globalThis.fetch(input, init));

/** The exchange over node:http(s). */
export const nodeHttpExchange: HttpExchange = async (url, request) => {
  const payload = bytesOf(request.body);
  if (payload === undefined) return viaFetch(url, request);
  return followRedirects(new URL(url), request, payload, (target, method, headers, body) => exchangeOnFreshSocket(target, method, headers, body, request));
};

/** Stale kept-alive connections a request may meet in a row (a pool's worth) before a new one is made. */
const STALE_SOCKETS_AT_MOST = 16;

/**
 * exchangeOnce, sent again when a kept-alive connection turns out closed by the server before
 * any answer (after an idle spell, a restart, the laptop's sleep): node:http hands out such a
 * socket before it has read its end. Only a GET or HEAD, which change nothing if the server did
 * see them; a POST's failure goes to the caller's retry rules.
 */
async function exchangeOnFreshSocket<F extends BodyForm>(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | null,
  request: ExchangeRequest<F>,
): Promise<ExchangeAnswer<F>> {
  for (let stale = 0; ; stale++) {
    try {
      return await exchangeOnce(url, method, headers, body, request);
    } catch (err) {
      if (!(err instanceof StaleSocket)) throw err;
      if (stale >= STALE_SOCKETS_AT_MOST || !(method === 'GET' || method === 'HEAD') || request.signal?.aborted) throw err.cause;
    }
  }
}

/** A request's failure on a reused kept-alive connection, before any answer came (its `cause`). */
class StaleSocket extends Error {}

/** Sends the request, then again where each redirect points, as far as `request.redirects` allows. */
async function followRedirects<B, F extends BodyForm>(
  start: URL,
  request: ExchangeRequest<F>,
  payload: B | null,
  once: (target: URL, method: string, headers: Record<string, string>, body: B | null) => Promise<ExchangeAnswer<F>>,
): Promise<ExchangeAnswer<F>> {
  let target = start;
  let method = request.method;
  let headers = plainHeaders(request.headers);
  let body = payload;
  for (let hop = 0; ; hop++) {
    const answer = await once(target, method, headers, body);
    const location = answer.headers.get('location');
    if (!isRedirect(answer.status) || location === null || hop >= MAX_REDIRECTS) return answer;
    const next = new URL(location, target);
    if (!mayFollow(start, next, request.redirects)) return answer;
    if (next.origin !== target.origin) headers = withoutAuthorization(headers);
    // As fetch does: 303, and 301/302 after a POST, become a GET without a body.
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      method = 'GET';
      body = null;
      headers = withoutBodyHeaders(headers);
    }
    target = next;
  }
}

/** Whether a redirect from a request first sent to `start` may be followed to `next`. */
export function mayFollow(start: URL, next: URL, redirects: ExchangeRequest<BodyForm>['redirects']): boolean {
  if (next.origin === start.origin) return true;
  return redirects === 'elsewhere' && (next.protocol === 'https:' || start.protocol === 'http:');
}

function exchangeOnce<F extends BodyForm>(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | null,
  { signal, limit, form }: ExchangeRequest<F>,
): Promise<ExchangeAnswer<F>> {
  const { send, agent } = senderFor(url.protocol === 'https:' ? 'https:' : 'http:');
  const sendHeaders: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...headers };
  if (body !== null) sendHeaders['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers: sendHeaders, agent, signal }, (res) => {
      readLimited(res, limit, form).then(
        (read) =>
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: new RawHeaders(res.rawHeaders),
            body: read,
          }),
        (err: unknown) => reject(err instanceof OverLimit || err instanceof UnreadableBody ? err : dropped(err)),
      );
    });
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      reject(req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE') ? new StaleSocket(err.message, { cause: err }) : err);
    });
    req.end(body ?? undefined);
  });
}

/** A failure after the request went out: the connection dropped (for the retry rules). */
function dropped(err: unknown): Error {
  const cause = err instanceof Error ? err : new Error(String(err));
  return Object.assign(new Error(`connection dropped: ${cause.message}`, { cause }), { code: 'ECONNRESET' });
}

export const isRedirect = (status: number): boolean => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** The body as bytes, null for none, undefined for a kind only fetch can send. */
function bytesOf(body: RequestInit['body'] | undefined): Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  return undefined;
}

/** The request's headers as node:http takes them (names in lower case; no Headers object, whose first use loads fetch's code). */
function plainHeaders(headers: RequestInit['headers'] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  const pairs: Iterable<[string, string]> =
    Array.isArray(headers) || typeof (headers as Headers).forEach === 'function'
      ? (headers as Iterable<[string, string]>)
      : Object.entries(headers as Record<string, string>);
  for (const [name, value] of pairs) out[name.toLowerCase()] = value;
  return out;
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  const { authorization: _, ...rest } = headers;
  return rest;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _type, 'content-length': _length, ...rest } = headers;
  return rest;
}

/** The answer's headers by lower-case name, repeated ones joined with ", " as fetch does. */
class RawHeaders implements AnswerHeaders {
  private readonly byName = new Map<string, string>();
  constructor(raw: string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const before = this.byName.get(name);
      this.byName.set(name, before === undefined ? raw[i + 1]! : `${before}, ${raw[i + 1]!}`);
    }
  }
  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }
}
