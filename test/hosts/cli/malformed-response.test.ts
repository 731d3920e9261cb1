/**
 * Clear errors for malformed responses (issue 9, item 9): a 200 answer of the wrong shape
 * makes `quire sync` say in one line what was wrong and what to do, exit 1, and change
 * nothing in the folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { rewritingProxy, type RewritingProxy } from '../../helpers/rewriting-proxy';

let fake: FakeApi;
let space: SpaceRec;
let proxy: RewritingProxy;
let mangle: ((body: Record<string, unknown>) => unknown) | null = null;
let target = /^$/;

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hello.\n' },
      { title: 'Setup', markdown: 'Steps.\n', pages: [{ title: 'Linux', markdown: 'apt.\n' }] },
    ],
  });
  mangle = null;
  proxy = await rewritingProxy(fake.url, (x) => {
    if (!mangle || x.method !== 'GET' || !target.test(x.path) || x.status !== 200) return undefined;
    return { body: JSON.stringify(mangle(JSON.parse(x.body.toString('utf8')) as Record<string, unknown>)) };
  });
});
afterEach(async () => {
  await proxy.close();
  await fake.close();
});

/** Every file under `dir` (Quire's state aside) with its content and mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (path === '.quire') continue;
      if (e.isDirectory()) walk(path);
      else out[path] = `${statSync(join(dir, path)).mtimeMs} ${readFileSync(join(dir, path), 'utf8')}`;
    }
  };
  walk('');
  return out;
}

const sync = (dir: string) => quire(['sync', '--api', proxy.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } });

it.each([
  [
    'main’s page tree without page ids',
    /^\/v1\/spaces\/[^/]+\/content$/,
    (r: Record<string, unknown>) => ({ ...r, pages: (r.pages as Record<string, unknown>[]).map(({ id: _id, ...p }) => p) }),
    /`pages\[0\]\.id` is missing/,
  ],
  [
    'main’s page tree as an object',
    /^\/v1\/spaces\/[^/]+\/content$/,
    (r: Record<string, unknown>) => ({ ...r, pages: {} }),
    /`pages` is an object \(expected a list\)/,
  ],
  [
    'a page body without its markdown',
    /^\/v1\/spaces\/[^/]+\/content\/page\/[^/]+$/,
    ({ markdown: _m, ...r }: Record<string, unknown>) => r,
    /`markdown` is missing/,
  ],
])('%s: one line, exit 1, the folder untouched', async (_what, path, change, problem) => {
  const dir = tempDir();
  expect((await sync(dir)).code).toBe(0);
  const before = snapshot(dir);
  const welcome = [...fake.store.currentRevision(space.id).pages.values()].find((p) => p.title === 'Welcome')!;
  fake.store.editPage(space.id, welcome.id, { markdown: 'Hello again.\n' });

  target = path;
  mangle = change;
  const run = await sync(dir);

  expect(run.code).toBe(1);
  expect(proxy.rewritten).toBeGreaterThan(0);
  // Progress lines aside, the error is one line.
  const errors = run.stderr.split('\n').filter((line) => !line.startsWith('Pulling '));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(problem);
  expect(errors[0]).toContain('not in the shape Quire reads');
  expect(errors[0]).toContain('check the API address, then try again');
  expect(snapshot(dir)).toEqual(before);

  mangle = null; // the server mends: the next sync brings the change in
  expect((await sync(dir)).code).toBe(0);
  expect(readFileSync(join(dir, 'guide/README.md'), 'utf8')).toContain('Hello again.');
});
