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

  const app = () => `/s/${secret}`;

  it('prints a loopback URL that carries the secret in its path', () => {
    expect(stack.host.url).toBe(`http://127.0.0.1:${port}/s/${secret}/`);
    expect(secret.length).toBeGreaterThanOrEqual(40);
  });

  it('refuses every HTTP request without the secret, and logs why (without the secret)', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/ws', `/?secret=${secret}`, '/s/', '/s/not-it/', '/s/not-it/assets/app.js']) {
      const answer = await get(port, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain('needs the secret');
    }
    expect(stack.hostLog.some((l) => l.includes('refused GET /assets/app.js: no secret'))).toBe(true);
    expect(stack.hostLog.some((l) => l.includes('refused GET /s/not-it/: wrong secret'))).toBe(true);
    expect(stack.hostLog.join('\n')).not.toContain(secret);
  });

  it('refuses a foreign Host header even with the secret (DNS rebinding)', async () => {
    const answer = await get(port, `${app()}/`, { host: `evil.example:${port}` });
    expect(answer.status).toBe(403);
  });

  it('serves the page and its assets under the secret’s path with a strict CSP, and sets no cookie', async () => {
    const page = await get(port, `${app()}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Quire</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`ws://127.0.0.1:${port}`);
    // A cookie would go to every server on 127.0.0.1, whatever its port: the secret stays in this host's paths.
    expect(page.headers['set-cookie']).toBeUndefined();

    const asset = await get(port, `${app()}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['set-cookie']).toBeUndefined();
    // Without the trailing slash the page's relative links would miss the secret: redirected.
    const bare = await get(port, app());
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe(`${app()}/`);
  });

  it('never serves files outside the renderer folder', async () => {
    // Dot segments resolve before the secret is checked: they climb out of the secret's path and are refused.
    for (const path of [`${app()}/../package.json`, `${app()}/%2e%2e/%2e%2e/etc/passwd`, `${app()}/assets/..%2f..%2f..%2fpackage.json`]) {
      const answer = await get(port, path);
      expect([403, 404], path).toContain(answer.status);
      expect(answer.body).not.toContain('"name"');
    }
    expect((await get(port, `${app()}/`, {}, 'POST')).status).toBe(405);
  });

  it('refuses sockets without the secret or from another origin', async () => {
    await expect(openSocket(`ws://127.0.0.1:${port}/ws`, origin)).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}/s/wrong/ws`, origin)).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}/ws?secret=${secret}`, origin)).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}${app()}/elsewhere`, origin)).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}${app()}/ws`, 'http://evil.example')).rejects.toThrow('403');
    await expect(openSocket(`ws://127.0.0.1:${port}${app()}/ws`, undefined)).rejects.toThrow('403');
    expect(stack.hostLog.some((l) => l.includes('refused socket: unexpected Origin'))).toBe(true);
  });

  it('carries the contract over the socket and validates every frame', async () => {
    const socket = await openSocket(`ws://127.0.0.1:${port}${app()}/ws`, origin);
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
    const socket = await openSocket(`ws://127.0.0.1:${port}${app()}/ws`, origin);
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
