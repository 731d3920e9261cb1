import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerFrame } from '../../../src/shared/contract';
import { startStack, type Stack } from '../../helpers/stack';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket and resolves with its first frame, or rejects with the HTTP status it was refused with. */
function openSocket(url: string, origin: string | undefined): Promise<{ ws: WebSocket; frames: ServerFrame[]; next(): Promise<ServerFrame> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    const frames: ServerFrame[] = [];
    const waiters: ((f: ServerFrame) => void)[] = [];
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as ServerFrame;
      const waiter = waiters.shift();
      if (waiter) waiter(frame);
      else frames.push(frame);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        frames,
        next: () =>
          new Promise<ServerFrame>((res, rej) => {
            const queued = frames.shift();
            if (queued) return res(queued);
            const timer = setTimeout(() => rej(new Error('no frame within 5 s')), 5000);
            waiters.push((f) => {
              clearTimeout(timer);
              res(f);
            });
          }),
      }),
    );
  });
}

describe('web host', () => {
  let stack: Stack;
  let renderer: string;
  let port: number;
  let secret: string;
  let origin: string;

  beforeAll(async () => {
    renderer = await mkdtemp(join(tmpdir(), 'quire-fake-renderer-'));
    await mkdir(join(renderer, 'assets'));
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>Quire</title>');
    await writeFile(join(renderer, 'assets', 'app.js'), 'console.log("hi")');
    stack = await startStack({ rendererDir: renderer });
    ({ port, secret, origin } = stack.host);
  });

  afterAll(async () => {
    await stack.close();
    await rm(renderer, { recursive: true, force: true });
  });

  it('prints a loopback URL that carries the secret', () => {
    expect(stack.host.url).toBe(`http://127.0.0.1:${port}/?secret=${secret}`);
    expect(secret.length).toBeGreaterThanOrEqual(40);
  });

  it('refuses every HTTP request without the secret, and logs why', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/ws']) {
      const answer = await get(port, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain('needs the secret');
    }
    expect((await get(port, '/?secret=not-it')).status).toBe(403);
    expect((await get(port, '/assets/app.js', { cookie: `quire-${port}=not-it` })).status).toBe(403);
    expect(stack.hostLog.some((l) => l.includes('refused GET /assets/app.js: no secret'))).toBe(true);
  });

  it('refuses a foreign Host header even with the secret (DNS rebinding)', async () => {
    const answer = await get(port, `/?secret=${secret}`, { host: `evil.example:${port}` });
    expect(answer.status).toBe(403);
  });

  it('serves the page with the secret, a strict CSP and a cookie for the assets', async () => {
    const page = await get(port, `/?secret=${secret}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Quire</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`ws://127.0.0.1:${port}`);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain(`quire-${port}=${secret}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');

    const asset = await get(port, '/assets/app.js', { cookie: `quire-${port}=${secret}` });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
  });

  it('never serves files outside the renderer folder', async () => {
    const cookie = { cookie: `quire-${port}=${secret}` };
    expect((await get(port, '/../package.json', cookie)).status).toBe(404);
    expect((await get(port, '/%2e%2e/%2e%2e/etc/passwd', cookie)).status).toBe(404);
    expect((await get(port, '/', cookie, 'POST')).status).toBe(405);
  });

  it('refuses sockets without the secret or from another origin', async () => {
    await expect(openSocket(`ws://127.0.0.1:${port}/ws`, origin)).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}/ws?secret=wrong`, origin)).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}/ws?secret=${secret}`, 'http://evil.example')).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}/ws?secret=${secret}`, undefined)).rejects.toThrow('403');
    expect(stack.hostLog.some((l) => l.includes('refused socket: unexpected Origin'))).toBe(true);
  });

  it('accepts a socket that proves the secret with the cookie (a tab opened without it)', async () => {
    const socket = await new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { origin, headers: { cookie: `quire-${port}=${secret}` } });
      ws.on('open', () => resolve(ws));
      ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    });
    socket.close();
  });

  it('carries the contract over the socket and validates every frame', async () => {
    const socket = await openSocket(`ws://127.0.0.1:${port}/ws?secret=${secret}`, origin);
    try {
      expect(await socket.next()).toEqual({ type: 'hello', host: 'web' });

      socket.ws.send(JSON.stringify({ type: 'request', id: 1, name: 'session.get', params: {} }));
      const session = await socket.next();
      expect(session).toMatchObject({ type: 'response', id: 1, ok: true, result: { signedIn: false, apiUrl: stack.fake.url } });

      socket.ws.send(JSON.stringify({ type: 'request', id: 2, name: 'session.signIn', params: { apiUrl: stack.fake.url, token: 'x', extra: 1 } }));
      expect(await socket.next()).toMatchObject({ type: 'response', id: 2, ok: false, error: { code: 'invalid-request' } });
      expect(stack.hostLog.some((l) => l.includes('refused request') && l.includes('extra: is not an expected field'))).toBe(true);

      socket.ws.send(JSON.stringify({ type: 'request', id: 3, name: 'fs.readFile', params: {} }));
      expect(await socket.next()).toMatchObject({ id: 3, ok: false, error: { code: 'invalid-request' } });

      socket.ws.send('not json');
      socket.ws.send(JSON.stringify({ type: 'request', name: 'session.get', params: {} }));
      await expect.poll(() => stack.hostLog.filter((l) => l.includes('refused frame')).length).toBe(2);

      socket.ws.send(JSON.stringify({ type: 'request', id: 4, name: 'settings.update', params: { notifications: false } }));
      const frames = [await socket.next(), await socket.next()];
      expect(frames).toContainEqual(
        expect.objectContaining({
          type: 'event',
          event: { name: 'data.changed', payload: expect.objectContaining({ areas: expect.arrayContaining(['settings']) }) },
        }),
      );
      expect(frames).toContainEqual(
        expect.objectContaining({ type: 'response', id: 4, ok: true, result: expect.objectContaining({ notifications: false, host: 'web' }) }),
      );
    } finally {
      socket.ws.close();
    }
  });

  it('signs in through the socket without ever sending the token back', async () => {
    const socket = await openSocket(`ws://127.0.0.1:${port}/ws?secret=${secret}`, origin);
    const seen: string[] = [];
    socket.ws.on('message', (d) => seen.push(String(d)));
    try {
      await socket.next();
      socket.ws.send(JSON.stringify({ type: 'request', id: 1, name: 'session.signIn', params: { apiUrl: stack.fake.url, token: 'wrong-token' } }));
      expect(await socket.next()).toMatchObject({ id: 1, ok: false, error: { code: 'token-rejected' } });
      socket.ws.send(JSON.stringify({ type: 'request', id: 2, name: 'session.signIn', params: { apiUrl: stack.fake.url, token: stack.fake.token } }));
      let frame = await socket.next();
      while (frame.type !== 'response') frame = await socket.next();
      expect(frame).toMatchObject({ id: 2, ok: true, result: { signedIn: true, user: { displayName: 'Casey Quire' } } });
      expect([...seen, ...stack.hostLog].join('\n')).not.toContain(stack.fake.token);
    } finally {
      socket.ws.close();
    }
  });
});
