import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { dispatch, type ServerFrame, type PushedEvent } from '../../../shared/contract';
import { contentSecurityPolicy } from '../../../shared/csp';
import { createQuireService, defaultRendererDir, type QuireService, readStatic } from '../service';
import { KeytarTokenStore, type TokenStore } from '../../core/secrets';
import { allowedHosts, appPath, checkDoor, createSecret, redactSecret } from '../loopback';
import { systemOpener } from './open-with-system';

export interface WebHostOptions {
  /** API origin offered on the sign-in screen. */
  apiUrl: string;
  /** The sync folder. */
  dir: string;
  /** 0 or absent: any free port. */
  port?: number;
  /** A ready service (tests); otherwise one is created over the core. */
  service?: QuireService;
  /** Token store for a created service; default the OS keychain. */
  tokens?: TokenStore;
  /** A token from the environment (QUIRE_TOKEN, the demo): used, never stored. */
  token?: string;
  /** The built renderer (index.html and assets). */
  rendererDir?: string;
  /** Where refusals and errors are reported; default stderr. */
  log?: (line: string) => void;
}

export interface WebHost {
  /** URL to open, secret included. */
  url: string;
  origin: string;
  port: number;
  secret: string;
  service: QuireService;
  close(): Promise<void>;
}

const MAX_FRAME_BYTES = 1024 * 1024;

/** Serves the renderer on 127.0.0.1 and carries the contract over a WebSocket guarded by a per-launch secret. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const secret = createSecret();
  const service =
    options.service ??
    (await createQuireService({
      apiUrl: options.apiUrl,
      folder: options.dir,
      tokens: options.tokens ?? new KeytarTokenStore(),
      token: options.token,
      // A browser cannot start apps on the computer: paths are shown to copy (no openPath); links go to the system's browser.
      host: { kind: 'web', ...systemOpener() },
      log,
    }));
  let port = 0;
  let csp = '';

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((e: unknown) => {
      log(`web host: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkDoor({ url: req.url ?? '/', host: req.headers.host }, secret, port);
    if (!verdict.ok) {
      log(`web host: refused ${req.method} ${redactSecret(req.url, secret)}: ${verdict.reason}`);
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('Quire refused this request: it needs the secret printed when the web host started. Open the exact URL from its first output line.\n');
      return;
    }
    if (verdict.path === '') {
      // The app's relative links need the trailing slash.
      res.writeHead(301, { Location: appPath(secret), 'Cache-Control': 'no-store' }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await readStatic(rendererDir, verdict.path);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'Cross-Origin-Opener-Policy': 'same-origin',
    };
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const door = checkDoor({ url: req.url ?? '/', host: req.headers.host, origin: req.headers.origin }, secret, port, { requireOrigin: true });
    const verdict = door.ok && door.path !== '/ws' ? ({ ok: false, reason: `no socket at ${door.path}` } as const) : door;
    if (!verdict.ok) {
      log(`web host: refused socket: ${verdict.reason}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  function serveSocket(ws: WebSocket): void {
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    send({ type: 'hello', host: 'web' });
    const unsubscribe = service.subscribe((event: PushedEvent) => send({ type: 'event', event }));
    ws.on('close', unsubscribe);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const frame = parseFrame(data, isBinary);
      if (typeof frame === 'string') {
        log(`web host: refused frame: ${frame}`);
        return;
      }
      void dispatch(service, frame.name, frame.params).then((outcome) => {
        if (!outcome.ok && outcome.error.code === 'invalid-request') log(`web host: refused request: ${outcome.error.message}`);
        send({ type: 'response', id: frame.id, ...outcome });
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  csp = contentSecurityPolicy(allowedHosts(port).map((h) => `ws://${h}`));
  const origin = `http://127.0.0.1:${port}`;

  let closed = false;
  return {
    url: `${origin}${appPath(secret)}`,
    origin,
    port,
    secret,
    service,
    async close() {
      if (closed) return;
      closed = true;
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.service) await service.close();
    },
  };
}

/** A request's path for a log line, without the secret in it. */
/** A request frame, or the reason it was refused. */
function parseFrame(data: RawData, isBinary: boolean): { id: number; name: unknown; params: unknown } | string {
  if (isBinary) return 'binary frames are not part of the contract';
  let value: unknown;
  try {
    value = JSON.parse(String(data));
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'not an object';
  const f = value as Record<string, unknown>;
  if (f.type !== 'request') return `unexpected frame type ${JSON.stringify(f.type)}`;
  if (typeof f.id !== 'number' || !Number.isSafeInteger(f.id)) return 'request without a numeric id';
  return { id: f.id, name: f.name, params: f.params };
}
