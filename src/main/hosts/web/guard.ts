import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The web host's door: a random secret made at launch, handed to the user in the address it
 * prints, `http://127.0.0.1:<port>/s/<secret>/`. The app is served under that path (its
 * assets are linked relatively, so they carry it too) and its WebSocket lives beside it
 * (`/s/<secret>/ws`): every request proves the secret by its path. No cookie carries it —
 * cookies are not scoped by port, so a browser would hand one to any other server on
 * 127.0.0.1 the user visits. The Host header must name the loopback address, which defeats
 * DNS rebinding, and a WebSocket must come from the host's own origin.
 */

const SECRET_PREFIX = '/s/';

export function createSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Where the app lives: the secret's path, with the trailing slash its relative links need. */
export function appPath(secret: string): string {
  return `${SECRET_PREFIX}${secret}/`;
}

export interface DoorRequest {
  url: string;
  host: string | undefined;
  origin?: string | undefined;
}

/** `path`: what is asked for below the secret's path, e.g. `/assets/app.js` (`/` for the page). */
export type DoorVerdict = { ok: true; path: string } | { ok: false; reason: string };

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function checkDoor(req: DoorRequest, secret: string, port: number, opts: { requireOrigin?: boolean } = {}): DoorVerdict {
  const hosts = allowedHosts(port);
  if (!req.host || !hosts.includes(req.host.toLowerCase())) return { ok: false, reason: `unexpected Host header ${JSON.stringify(req.host ?? '')}` };
  if (opts.requireOrigin) {
    const origins = hosts.map((h) => `http://${h}`);
    if (!req.origin || !origins.includes(req.origin.toLowerCase())) return { ok: false, reason: `unexpected Origin ${JSON.stringify(req.origin ?? '')}` };
  }
  const pathname = new URL(req.url, 'http://placeholder').pathname;
  if (!pathname.startsWith(SECRET_PREFIX)) return { ok: false, reason: 'no secret' };
  const rest = pathname.slice(SECRET_PREFIX.length);
  const slash = rest.indexOf('/');
  const given = slash === -1 ? rest : rest.slice(0, slash);
  if (!sameSecret(given, secret)) return { ok: false, reason: 'wrong secret' };
  return { ok: true, path: slash === -1 ? '' : rest.slice(slash) };
}
