/**
 * The HTTP server both loopback hosts run (the web host and the preview): listens on 127.0.0.1,
 * guards every request with the per-launch secret's door (guard.ts), sends the headers every
 * answer carries, and leaves to its host only what lies below the secret's path. One place, so
 * a fix to the door or the headers reaches both hosts.
 *
 * Before the host sees a request: a refused one gets 403 with the host's words (logged without
 * the secret); `/s/<secret>` without its slash is redirected to it (relative links need it);
 * anything but GET and HEAD gets 405. A host's own error becomes a 500 and one log line.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { appPath, checkDoor, createSecret, type DoorVerdict, redactSecret } from './guard';

/** Headers on every answer: no sniffing, no referrer, nothing cached, no opener. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Sends a whole answer with the common headers. */
export function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': type, ...extra });
  res.end(body);
}

export interface LoopbackOptions {
  /** Names the host in log lines ("preview", "web host"). */
  name: string;
  /** 0 or absent: any free port. */
  port?: number;
  /** The secret, when the host needs it before listening (its URLs); else one is made. */
  secret?: string;
  log: (line: string) => void;
  /** What a refused request is told (it needs the address the host printed). */
  refusal: string;
  /** A GET or HEAD that passed the door; `path` is below the secret's path, from its `/`. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> | void;
  /** What the 500 answer says. */
  failure?: string;
  /** A WebSocket upgrade: its door verdict (the Origin required), for the host to accept or refuse. */
  upgrade?(req: IncomingMessage, socket: Socket, head: Buffer, verdict: DoorVerdict): void;
}

export interface LoopbackServer {
  server: Server;
  port: number;
  secret: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The address to open, secret included. */
  url: string;
  close(): Promise<void>;
}

export async function startLoopbackServer(options: LoopbackOptions): Promise<LoopbackServer> {
  const { name, log } = options;
  const secret = options.secret ?? createSecret();
  let port = 0;

  const server = createServer((req, res) => {
    void serve(req, res).catch((e: unknown) => {
      log(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', options.failure ?? 'Quire could not answer this request; see the terminal.\n');
      else res.end();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkDoor({ url: req.url ?? '/', host: req.headers.host }, secret, port);
    if (!verdict.ok) {
      log(`${name}: refused ${req.method} ${redactSecret(req.url, secret)}: ${verdict.reason}`);
      return send(res, 403, 'text/plain; charset=utf-8', options.refusal);
    }
    if (verdict.path === '') {
      res.writeHead(301, { ...COMMON_HEADERS, Location: appPath(secret) }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...COMMON_HEADERS, Allow: 'GET, HEAD' }).end();
      return;
    }
    await options.handle(req, res, verdict.path);
  }

  if (options.upgrade) {
    const upgrade = options.upgrade;
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      upgrade(req, socket, head, checkDoor({ url: req.url ?? '/', host: req.headers.host, origin: req.headers.origin }, secret, port, { requireOrigin: true }));
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  let closed = false;
  return {
    server,
    port,
    secret,
    origin,
    url: `${origin}${appPath(secret)}`,
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
