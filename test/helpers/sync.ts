/** Shared set-up for the two-way sync tests: a seeded space, CLI runs, folder helpers, a holding proxy. */
import { mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect } from 'vitest';
import { startFakeApi, type FakeApi, type PageRec, type SpaceRec } from '../fake';
import { quire, tempDir, type CliRun } from './cli';

export function seedGuide(fake: FakeApi): SpaceRec {
  const org = fake.store.addOrg({ title: 'Acme' });
  return fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hello, reader.\n' },
      {
        title: 'Getting Started',
        markdown: 'Start here.\n',
        pages: [
          { title: 'Install', markdown: 'Line one.\n\nLine two.\n\nLine three.\n\nLine four.\n\nLine five.\n' },
          { title: 'Configure', markdown: 'Edit the settings.\n' },
        ],
      },
      { title: 'FAQ', markdown: 'Questions.\n' },
      { title: 'Changelog', markdown: 'Nothing yet.\n' },
    ],
  });
}

/** One test's world from `syncedGuideEachTest`: the fake, the guide space, the sync folder and the space's folder in it. */
export interface SyncedGuide {
  fake: FakeApi;
  space: SpaceRec;
  root: string;
  dir: string;
}

/**
 * The set-up most sync tests share, registered for each test: a fake API with the guide space
 * (and what `seed` adds to it), synced once with `quire sync --once` into a fresh folder, the
 * request log then cleared; the fake is closed after the test. `use` receives each test's world.
 */
export function syncedGuideEachTest(use: (world: SyncedGuide) => void, seed?: (fake: FakeApi, space: SpaceRec) => void): void {
  let fake: FakeApi | undefined;
  beforeEach(async () => {
    fake = await startFakeApi();
    const space = seedGuide(fake);
    seed?.(fake, space);
    const root = tempDir();
    expect((await syncOnce(fake, root)).code).toBe(0);
    fake.resetLog();
    use({ fake, space, root, dir: join(root, 'guide') });
  });
  afterEach(async () => {
    await fake?.close();
  });
}

export function syncOnce(fake: FakeApi, dir: string, ...extra: string[]): Promise<CliRun> {
  return quire(['sync', '--api', fake.url, '--dir', dir, '--once', ...extra], { env: { QUIRE_TOKEN: fake.token } });
}

export function status(dir: string): Promise<CliRun> {
  return quire(['status', '--dir', dir, '--json'], { env: {} });
}

export function read(dir: string, rel: string): string {
  return readFileSync(join(dir, rel), 'utf8');
}

export function write(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

export function remove(dir: string, rel: string): void {
  rmSync(join(dir, rel));
}

export const exists = (dir: string, rel: string): boolean => existsSync(join(dir, rel));

export function pageByTitle(fake: FakeApi, spaceId: string, title: string, changeRequest?: string): PageRec {
  const revision = fake.store.revisionOf(spaceId, changeRequest ? { changeRequest } : {});
  const page = [...revision.pages.values()].find((p) => p.title === title);
  if (!page) throw new Error(`no page titled ${title}`);
  return page;
}

export function openChangeRequests(fake: FakeApi, spaceId: string) {
  return fake.store.changeRequestsOf(spaceId).filter((cr) => cr.status === 'open');
}

/** Content-batch requests the fake answered. */
export const contentBatches = (fake: FakeApi) => fake.requests.filter((r) => r.method === 'POST' && /\/change-requests\/[^/]+\/content$/.test(r.path));

/**
 * A proxy in front of the fake that can hold one request matching `match`: either before
 * forwarding it (the server never sees it) or after the server answered (the answer is
 * lost). `held` resolves when it holds one.
 */
export async function holdingProxy(target: string, hold: { match: (method: string, path: string) => boolean; when: 'before' | 'after' }) {
  let release: () => void = () => undefined;
  let heldResolve: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (heldResolve = resolve));
  let used = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const holdThis = !used && hold.match(req.method ?? 'GET', (req.url ?? '').split('?')[0]!);
      if (holdThis) used = true;
      const forward = () => {
        const url = new URL(req.url ?? '/', target);
        const out = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const send = () => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(parts));
            };
            if (holdThis && hold.when === 'after') {
              release = send;
              heldResolve();
            } else {
              send();
            }
          });
        });
        out.on('error', () => res.destroy());
        out.end(body);
      };
      if (holdThis && hold.when === 'before') {
        release = forward;
        heldResolve();
      } else {
        forward();
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** Another process holding the folder's lock (as a running `quire sync` does), until `release`. */
export async function folderLockElsewhere(root: string, command: string): Promise<{ pid: number; release(): Promise<void> }> {
  const script = `import { FolderLock } from './src/main/core/mirror/index.ts';
    await FolderLock.acquire(${JSON.stringify(root)}, { command: ${JSON.stringify(command)} });
    console.log('held');
    setInterval(() => undefined, 60_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return {
    pid: child.pid!,
    release: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
