/**
 * A proxy in front of the fake that can change answers on their way back: a hostile server
 * or a meddling proxy (a token echoed in the status text, a 200 of the wrong shape, a body that
 * never ends: see hostile-answers.ts). The fake itself only ever sends answers that match the
 * API's specification.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Exchange {
  method: string;
  /** Path without the query string, e.g. `/v1/spaces/x/content`. */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Rewritten {
  /** Takes the answer over entirely (streams it, dribbles it, never ends it); the fields below are then unused. */
  respond?: (res: ServerResponse) => void;
  status?: number;
  statusText?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
}

/** Returns the answer to send instead, or undefined to pass the server's answer through. */
export type Rewrite = (exchange: Exchange) => Rewritten | undefined;

export interface RewritingProxy {
  url: string;
  /** Answers that were rewritten so far. */
  rewritten: number;
  close(): Promise<void>;
}

export async function rewritingProxy(target: string, rewrite: Rewrite): Promise<RewritingProxy> {
  const sockets = new Set<Socket>();
  const proxy: RewritingProxy = { url: '', rewritten: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', target);
      const out = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const exchange: Exchange = {
            method: req.method ?? 'GET',
            path: url.pathname,
            requestHeaders: req.headers,
            status: answer.statusCode ?? 502,
            headers: answer.headers,
            body: Buffer.concat(parts),
          };
          const change = rewrite(exchange);
          if (!change) {
            res.writeHead(exchange.status, answer.statusMessage, answer.headers);
            res.end(exchange.body);
            return;
          }
          proxy.rewritten++;
          if (change.respond) return change.respond(res);
          const body = change.body ?? exchange.body;
          const headers: OutgoingHttpHeaders = { ...answer.headers, ...change.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          res.writeHead(change.status ?? exchange.status, change.statusText ?? answer.statusMessage, headers);
          res.end(body);
        });
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return proxy;
}
