import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { dispatch, type ServerFrame, type PushedEvent } from '../../../shared/contract';
import { contentSecurityPolicy } from '../../../shared/csp';
import { createQuireService, defaultRendererDir, type QuireService, readStatic } from '../service';
import { KeytarTokenStore, type TokenStore } from '../../core/secrets';
import { allowedHosts, COMMON_HEADERS, send, startLoopbackServer } from '../loopback';
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
  // No socket reaches the service before it exists: the URL (and its secret) is printed after this returns.
  let service: QuireService | null = null;
  let csp = '';

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const loopback = await startLoopbackServer({
    name: 'web host',
    port: options.port,
    log,
    refusal: 'Quire refused this request: it needs the secret printed when the web host started. Open the exact URL from its first output line.\n',
    async handle(req, res, path) {
      const file = await readStatic(rendererDir, path);
      if (!file) return send(res, 404, 'text/plain; charset=utf-8', 'Not found.\n');
      res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': file.type, 'Content-Security-Policy': csp });
      res.end(req.method === 'HEAD' ? undefined : file.body);
    },
    upgrade(req, socket, head, door) {
      const verdict = door.ok && door.path !== '/ws' ? ({ ok: false, reason: `no socket at ${door.path}` } as const) : door;
      if (!verdict.ok) {
        log(`web host: refused socket: ${verdict.reason}`);
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
    },
  });
  // The port first: when it is taken, nothing else has started (no mirror opened, no sync running).
  try {
    service =
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
  } catch (e) {
    await loopback.close();
    throw e;
  }
  const ready: QuireService = service;
  csp = contentSecurityPolicy(allowedHosts(loopback.port).map((h) => `ws://${h}`));

  function serveSocket(ws: WebSocket): void {
    const svc = service;
    if (!svc) {
      ws.terminate(); // not started yet: nobody can know the secret before startWebHost returns
      return;
    }
    const sendFrame = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    sendFrame({ type: 'hello', host: 'web' });
    const unsubscribe = svc.subscribe((event: PushedEvent) => sendFrame({ type: 'event', event }));
    ws.on('close', unsubscribe);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const frame = parseFrame(data, isBinary);
      if (typeof frame === 'string') {
        log(`web host: refused frame: ${frame}`);
        return;
      }
      void dispatch(svc, frame.name, frame.params).then((outcome) => {
        if (!outcome.ok && outcome.error.code === 'invalid-request') log(`web host: refused request: ${outcome.error.message}`);
        sendFrame({ type: 'response', id: frame.id, ...outcome });
      });
    });
  }

  let closed = false;
  return {
    url: loopback.url,
    origin: loopback.origin,
    port: loopback.port,
    secret: loopback.secret,
    service: ready,
    async close() {
      if (closed) return;
      closed = true;
      for (const client of wss.clients) client.terminate();
      wss.close();
      await loopback.close();
      if (!options.service) await ready.close();
    },
  };
}

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
