import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The door of the hosts that serve on 127.0.0.1 (the web host, the preview): a
 * random secret made at launch, handed to the user in the URL it prints. A
 * browser proves it has the secret with the `secret` query parameter (first
 * load, WebSocket) or the cookie set on the first load (assets, the preview's
 * live-reload stream). The Host header must name the loopback address, which defeats DNS
 * rebinding, and a WebSocket must come from the host's own origin.
 */

export const SECRET_PARAM = 'secret';

export function createSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Cookies are not port-scoped, so the name carries the port. */
const cookieName = (port: number): string => `quire-${port}`;

export interface DoorRequest {
  url: string;
  host: string | undefined;
  cookie: string | undefined;
  origin?: string | undefined;
}

export type DoorVerdict = { ok: true; viaQuery: boolean } | { ok: false; reason: string };

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
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
  const query = new URL(req.url, 'http://placeholder').searchParams.get(SECRET_PARAM);
  if (query) return sameSecret(query, secret) ? { ok: true, viaQuery: true } : { ok: false, reason: 'wrong secret in the URL' };
  const fromCookie = cookieValue(req.cookie, cookieName(port));
  if (fromCookie !== undefined) return sameSecret(fromCookie, secret) ? { ok: true, viaQuery: false } : { ok: false, reason: 'wrong secret in the cookie' };
  return { ok: false, reason: 'no secret' };
}

export function secretCookie(port: number, secret: string): string {
  return `${cookieName(port)}=${secret}; HttpOnly; SameSite=Strict; Path=/`;
}
