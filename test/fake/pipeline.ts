/**
 * The request pipeline of the fake: faults → rate limit → auth → route → validate request →
 * handler → validate response. Every request is logged with its final status (0 when the
 * connection was destroyed without an answer).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BatchError } from './batch';
import { ApiError, errorBody } from './errors';
import type { Faults } from './faults';
import { loadSpec, type Operation } from './openapi';
import type { RouteContext, RouteTable } from './routes/types';
import type { Serializer } from './serialize';
import { InvalidRequestError, NotFoundError, type FakeStore } from './store';
import { ContentError } from './tree';
import { validateParameters, validateRequestBody, validateResponse } from './validation';

export interface RequestLogEntry {
  method: string;
  /** Path without the query string, e.g. `/v1/spaces/space_1/content`. */
  path: string;
  query: Record<string, string | string[]>;
  /** Final HTTP status; 0 when the connection was dropped without an answer. */
  status: number;
  /** Arrival time (ms since epoch). */
  at: number;
  /** The JSON body sent, when there was one (tests read what a client sent). */
  body?: unknown;
}

export interface PipelineStats {
  /** Requests that reached a route handler. */
  handled: number;
  /** Total ms spent validating requests and responses of those. */
  validationMs: number;
  /** Total ms spent in handlers (store + serialisation). */
  handlerMs: number;
}

export interface PipelineDeps {
  origin: string;
  token: string;
  store: FakeStore;
  json: Serializer;
  faults: Faults;
  routes: RouteTable;
  pageSize: number;
  requests: RequestLogEntry[];
  violations: string[];
  stats: PipelineStats;
  /** Waits `ms`, but resolves early (false) when the fake closes. */
  delay: (ms: number) => Promise<boolean>;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw bytes (blob downloads) instead of a JSON body. */
  raw?: { bytes: Buffer; contentType: string };
}

export function createPipeline(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const spec = loadSpec();
  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.violations.push(`fake crashed on ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) res.destroy();
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', deps.origin);
    const entry: RequestLogEntry = { method, path: url.pathname, query: queryRecord(url.searchParams), status: 0, at };
    const dropConnection = (): void => {
      req.socket.destroy();
      deps.requests.push(entry);
    };
    const answer = (a: Answer, extraHeaders: Record<string, string>): void => {
      const headers: Record<string, string> = { ...extraHeaders, ...a.headers };
      let payload: Buffer | undefined;
      if (a.raw) {
        payload = a.raw.bytes;
        headers['Content-Type'] = a.raw.contentType;
      } else if (a.body !== undefined) {
        payload = Buffer.from(JSON.stringify(a.body));
        headers['Content-Type'] = 'application/json; charset=utf-8';
      }
      headers['Content-Length'] = String(payload?.length ?? 0);
      entry.status = a.status;
      deps.requests.push(entry);
      res.writeHead(a.status, headers);
      res.end(payload);
    };

    const { faults } = deps;
    if (faults.offline) return dropConnection();
    const fault = faults.take(method, url.pathname);
    if (faults.latencyMs > 0 && !(await deps.delay(faults.latencyMs))) return dropConnection();
    if (fault?.kind === 'drop') return dropConnection();

    const limit = faults.countRequest(Date.now());
    if (limit.retryAfter !== undefined) {
      return answer(
        errorAnswer(429, 'Rate limit exceeded: wait for Retry-After seconds before retrying', { 'Retry-After': String(limit.retryAfter) }),
        limit.headers,
      );
    }
    if (fault?.kind === 'storm429') {
      return answer(
        errorAnswer(429, 'Too many requests (injected by the fake): retry after Retry-After seconds', { 'Retry-After': String(fault.retryAfter) }),
        limit.headers,
      );
    }
    if (fault?.kind === 'fail') return answer(errorAnswer(fault.status, `Injected failure (HTTP ${fault.status}) from the fake API`), limit.headers);

    const rawBody = await readBody(req);
    if (rawBody.length > 0 && /json/i.test(req.headers['content-type'] ?? '')) {
      try {
        entry.body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        // Not JSON: the route answers 400 and says why.
      }
    }
    if (fault?.kind === 'around') await fault.before?.();
    const reply = route(method, url, rawBody, req);
    if (fault?.kind === 'around') fault.after?.();
    if (fault?.kind === 'lose-answer') {
      dropConnection();
      fault.afterwards?.();
      return;
    }
    if (fault?.kind === 'late' && !(await deps.delay(fault.ms))) return dropConnection();
    answer(reply, limit.headers);
  }

  function route(method: string, url: URL, rawBody: Buffer, req: IncomingMessage): Answer {
    const path = url.pathname;
    if (path.startsWith('/blobs/')) return serveBlob(path);
    if (path !== '/v1' && !path.startsWith('/v1/')) {
      return violation(404, `${method} ${path}: not an API route (routes live under /v1)`);
    }
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${deps.token}`) {
      return errorAnswer(401, auth ? 'The bearer token is not valid for this API' : 'Missing "Authorization: Bearer <token>" header');
    }
    const match = spec.router.match(method, path.slice('/v1'.length) || '/');
    if (match.kind === 'not-found') return violation(404, `${method} ${path}: no such route in the OpenAPI spec`);
    if (match.kind === 'method-not-allowed') {
      return violation(405, `${method} ${path}: the spec only allows ${match.allowed.join(', ')} on this path`);
    }
    const { operation } = match;
    const handler = deps.routes[operation.operationId];
    if (!handler) {
      return violation(501, `${method} ${path}: operation ${operation.operationId} exists in the spec but the fake does not implement it`);
    }

    const started = performance.now();
    const request = validateRequest(operation, match.params, url, rawBody, req);
    if ('status' in request) return request;
    const validatedAt = performance.now();

    let reply: Answer;
    try {
      reply = handler(request);
    } catch (error) {
      reply = handlerError(operation, error);
    }
    const handledAt = performance.now();

    const outcome = validateResponse(operation, reply.status, reply.body);
    deps.stats.handled += 1;
    deps.stats.handlerMs += handledAt - validatedAt;
    deps.stats.validationMs += validatedAt - started + (performance.now() - handledAt);
    if (!outcome.ok) {
      return violation(500, `${method} ${path}: the fake's answer breaks the spec: ${outcome.message}`);
    }
    return reply;
  }

  function validateRequest(operation: Operation, params: Record<string, string>, url: URL, rawBody: Buffer, req: IncomingMessage): RouteContext | Answer {
    const where = `${operation.method} ${url.pathname} (${operation.operationId})`;
    const pathValues: Record<string, unknown> = { ...params };
    const pathOutcome = validateParameters(operation, 'path', pathValues);
    if (!pathOutcome.ok) return violation(400, `${where}: ${pathOutcome.message}`);

    const declaredQuery = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    const query: Record<string, unknown> = {};
    for (const key of new Set(url.searchParams.keys())) {
      if (!declaredQuery.has(key)) {
        deps.violations.push(`${where}: query parameter "${key}" is not declared by the spec (the real API ignores it)`);
        continue;
      }
      const values = url.searchParams.getAll(key);
      query[key] = values.length === 1 ? values[0] : values;
    }
    const queryOutcome = validateParameters(operation, 'query', query);
    if (!queryOutcome.ok) return violation(400, `${where}: ${queryOutcome.message}`);

    const headers: Record<string, unknown> = {};
    for (const p of operation.parameters) {
      const value = p.in === 'header' ? req.headers[p.name.toLowerCase()] : undefined;
      if (typeof value === 'string') headers[p.name.toLowerCase()] = value;
    }
    const headerOutcome = validateParameters(operation, 'header', headers);
    if (!headerOutcome.ok) return violation(400, `${where}: ${headerOutcome.message}`);

    let body: unknown;
    if (rawBody.length > 0) {
      if (!operation.requestBody) {
        deps.violations.push(`${where}: a request body was sent but the operation takes none`);
      } else {
        const contentType = req.headers['content-type'] ?? '';
        if (!/json/i.test(contentType)) return violation(400, `${where}: the body must be sent as application/json (got "${contentType}")`);
        try {
          body = JSON.parse(rawBody.toString('utf8'));
        } catch (error) {
          return violation(400, `${where}: the body is not valid JSON (${(error as Error).message})`);
        }
      }
    }
    const bodyOutcome = validateRequestBody(operation, body);
    if (!bodyOutcome.ok) return violation(400, `${where}: ${bodyOutcome.message}`);

    return {
      params,
      param: (name) => {
        const value = params[name];
        if (value === undefined) throw new Error(`route ${operation.template} has no path parameter "${name}"`);
        return value;
      },
      query,
      headers,
      body,
      store: deps.store,
      json: deps.json,
      pageSize: deps.pageSize,
      blobForUrl: (u) => blobForUrl(u),
    };
  }

  function handlerError(operation: Operation, error: unknown): Answer {
    if (error instanceof ApiError) return errorAnswer(error.status, error.message);
    if (error instanceof NotFoundError) return errorAnswer(404, error.message);
    if (error instanceof InvalidRequestError || error instanceof BatchError || error instanceof ContentError) {
      return errorAnswer(400, error.message);
    }
    return violation(500, `the fake's handler for ${operation.operationId} threw: ${(error as Error).stack ?? String(error)}`);
  }

  function violation(status: number, message: string): Answer {
    deps.violations.push(message);
    return errorAnswer(status, message);
  }

  function blobForUrl(raw: string): { bytes: Buffer; contentType: string } | undefined {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return undefined;
    }
    if (url.origin !== deps.origin) return undefined;
    const key = /^\/blobs\/([0-9a-f]+)\//.exec(url.pathname)?.[1];
    return key ? deps.store.blobs.get(key) : undefined;
  }

  function serveBlob(path: string): Answer {
    const blob = blobForUrl(`${deps.origin}${path}`);
    if (!blob) return errorAnswer(404, `no file content at ${path}`);
    return { status: 200, raw: blob };
  }
}

function errorAnswer(status: number, message: string, headers?: Record<string, string>): Answer {
  return { status, body: errorBody(status, message), ...(headers ? { headers } : {}) };
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
