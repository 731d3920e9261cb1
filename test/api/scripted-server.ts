import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, type ApiClientOptions, type ApiEvent } from '../../src/main/core/api';

export const TOKEN = 'gb_api_SECRET_TOKEN_123';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

/** Answers the n-th request (0-based). May leave `res` unanswered to simulate a hang. */
export type Handler = (req: SeenRequest, res: ServerResponse, n: number) => void | Promise<void>;

export interface ScriptedServer {
  origin: string;
  seen: SeenRequest[];
  /** Resolves once at least `count` requests have arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A tiny node:http server whose behaviour each test scripts. */
export async function startServer(handler: Handler): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const entry: SeenRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      seen.push(entry);
      for (const w of waiters.filter((w) => seen.length >= w.count)) w.resolve();
      void Promise.resolve(handler(entry, res, seen.length - 1)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : undefined);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    received: (count) => (seen.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The least body of a space the client accepts (the fields the core reads; see core/api/response-shapes.ts). */
export function spaceBody(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, organization: 'org1', title: `Space ${id}`, revision: 'rev1', ...extra };
}

export function apiError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  json(res, status, { error: { code: status, message } }, headers);
}

/** Closes the connection without answering. */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/** A client for `server` with deterministic, tiny jitter that records its events. */
export function clientFor(
  server: Pick<ScriptedServer, 'origin'>,
  options: Partial<ApiClientOptions> = {},
): { client: ApiClient; events: ApiEvent[]; nextEvent(type: ApiEvent['type']): Promise<ApiEvent> } {
  const events: ApiEvent[] = [];
  const waiters: { type: ApiEvent['type']; resolve: (e: ApiEvent) => void }[] = [];
  const client = new ApiClient({
    baseUrl: server.origin,
    token: TOKEN,
    random: () => 0.01,
    onEvent: (e) => {
      events.push(e);
      for (const w of waiters.filter((w) => w.type === e.type)) w.resolve(e);
    },
    ...options,
  });
  const nextEvent = (type: ApiEvent['type']): Promise<ApiEvent> => new Promise((resolve) => waiters.push({ type, resolve }));
  return { client, events, nextEvent };
}

/** A URL on which nothing listens. */
export async function closedPortUrl(): Promise<string> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.origin;
}
