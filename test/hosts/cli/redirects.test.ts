/**
 * Redirects (issue 27, item 8): an answer from the API that points elsewhere is never followed
 * off the API's address — not a write (which would carry the page's text to another host), not
 * a read (whose answer would be taken for the API's). The request fails with one line naming
 * where it pointed, never blaming the token; the edit is pushed by the next sync. A redirect
 * within the API's address is followed.
 */
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { rewritingProxy, type Rewrite, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { openChangeRequests, pageByTitle, read, seedGuide, write } from '../../helpers/sync';
import { apiError, startServer, type ScriptedServer } from '../../api/scripted-server';
import type { SpaceRec } from '../../fake';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let space: SpaceRec;
let proxy: RewritingProxy;
/** Another host: it answers 401 to anything, as a host that does not know the token would. */
let foreign: ScriptedServer;
let rewrite: Rewrite = () => undefined;
beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  foreign = await startServer((_req, res) => apiError(res, 401, 'Who are you?'));
  rewrite = () => undefined;
  proxy = await rewritingProxy(fake.url, (x) => rewrite(x));
});
afterEach(async () => {
  killStarted();
  await proxy.close();
  await foreign.close();
  await fake.close();
});

const CONTENT_UPDATE = /^\/v1\/spaces\/[^/]+\/change-requests\/[^/]+\/content$/;

/** Answers requests matching `method` and `path` with a redirect to `to` (once, when `once`). */
const redirect = (method: string, path: RegExp, status: number, to: (x: { path: string }) => string, once = false): Rewrite => {
  let done = false;
  return (x) => {
    if (x.method !== method || !path.test(x.path) || (once && done)) return undefined;
    done = true;
    return { status, headers: { location: to(x) }, body: '' };
  };
};

const sync = (dir: string) => startQuire(['sync', '--api', proxy.url, '--dir', dir, '--once'], { QUIRE_TOKEN: fake.token }).exited;
const said = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '' && !/^(Pulling|Pushing) /.test(l));

it('a 307 to another host on the content update sends nothing there, says where it pointed, and the next sync pushes the edit', async () => {
  const dir = tempDir();
  expect((await sync(dir)).code).toBe(0);
  write(dir, 'guide/faq.md', `${read(dir, 'guide/faq.md')}\nA new answer.\n`);
  rewrite = redirect('POST', CONTENT_UPDATE, 307, (x) => `${foreign.origin}${x.path}`);

  const run = await sync(dir);

  expect(foreign.seen).toEqual([]);
  expect(run.code).toBe(1);
  expect(run.stderr).not.toMatch(/quire login|token/i);
  const lines = said(run.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `POST /spaces/[^/]+/change-requests/[^/]+/content: the API answered 307, pointing to ${foreign.origin}/v1/spaces/[^ ]+/content; ` +
        'Quire follows a redirect only within the API.s address, so nothing was sent there',
    ),
  );

  rewrite = () => undefined;
  expect((await sync(dir)).code).toBe(0);
  const [cr] = openChangeRequests(fake, space.id);
  expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toContain('A new answer.');
}, 60_000);

it('a read redirected to another host is refused in one line naming where, its answer never taken for the API’s', async () => {
  rewrite = redirect('GET', /^\/v1\/orgs$/, 302, () => `${foreign.origin}/v1/orgs`);

  const run = await sync(tempDir());

  expect(foreign.seen).toEqual([]);
  expect(run.code).toBe(1);
  expect(run.stderr).not.toMatch(/quire login/);
  expect(said(run.stderr)).toEqual([
    expect.stringMatching(
      new RegExp(`^quire sync: GET /orgs: the API answered 302, pointing to ${foreign.origin}/v1/orgs; Quire follows a redirect only within the API.s address`),
    ),
  ]);
}, 30_000);

it('a redirect within the API’s address is followed', async () => {
  rewrite = redirect('GET', /^\/v1\/orgs$/, 307, (x) => `${proxy.url}${x.path}`, true);

  const run = await sync(tempDir());

  expect(run.code).toBe(0);
  expect(proxy.rewritten).toBe(1);
}, 30_000);
