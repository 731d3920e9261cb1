/**
 * A server that asks to be left alone for longer than Quire waits (issue 27, item 10): a
 * `Retry-After` of an hour, or an HTTP date in 2100, fails the request at once with one line
 * saying how long the server asked for and when to try again — no hour-long wait, no flood of
 * Node's TimeoutOverflowWarning, no retry lines. One within the limit is still honoured.
 */
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { rewritingProxy, type Rewrite, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { seedGuide } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let proxy: RewritingProxy;
/** What the proxy does to an answer now (nothing until a test says). */
let rewrite: Rewrite = () => undefined;
beforeEach(async () => {
  fake = await startFakeApi();
  seedGuide(fake);
  rewrite = () => undefined;
  proxy = await rewritingProxy(fake.url, (x) => rewrite(x));
});
afterEach(async () => {
  killStarted();
  await proxy.close();
  await fake.close();
});

const busy =
  (retryAfter: string, status = 429): Rewrite =>
  () => ({
    status,
    statusText: status === 429 ? 'Too Many Requests' : 'Service Unavailable',
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    body: JSON.stringify({ error: { code: status, message: 'Slow down' } }),
  });

/** Lines on stderr other than progress. */
const said = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '' && !/^(Pulling|Pushing) /.test(l));

it('`sync --once` told to wait an hour fails at once, in one line naming the wait and when to try again', async () => {
  rewrite = busy('3600');
  const started = Date.now();

  const run = await startQuire(['sync', '--api', proxy.url, '--dir', tempDir(), '--once'], { QUIRE_TOKEN: fake.token }).exited;

  expect(Date.now() - started).toBeLessThan(15_000);
  expect(run.code).toBe(1);
  const lines = said(run.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^quire sync: GET \/orgs: the API answered 429 and asked Quire to wait 1 h before trying again, longer than the 60 s it waits for one request\. Try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC; edits are kept\.$/,
  );
}, 30_000);

it('`review` told to wait until 2100 (an HTTP date) fails in one line: no flood of timer warnings', async () => {
  const dir = tempDir();
  expect((await startQuire(['sync', '--api', proxy.url, '--dir', dir, '--once'], { QUIRE_TOKEN: fake.token }).exited).code).toBe(0);
  rewrite = busy('Fri, 01 Jan 2100 00:00:00 GMT', 503);

  const run = await startQuire(['review', '--dir', dir], { QUIRE_TOKEN: fake.token }).exited;

  expect(run.stderr).not.toContain('TimeoutOverflowWarning');
  const lines = said(run.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /the API answered 503 and asked Quire to wait \d+ days before trying again, longer than the 60 s it waits for one request\. Try again after 2100-01-01 00:00 UTC/,
  );
}, 30_000);

it('a wait within the limit is honoured: one retry line, then the sync goes on', async () => {
  let told = false;
  rewrite = (x) => {
    if (told || x.path !== '/v1/orgs') return undefined;
    told = true;
    return busy('1')(x);
  };

  const run = await startQuire(['sync', '--api', proxy.url, '--dir', tempDir(), '--once'], { QUIRE_TOKEN: fake.token }).exited;

  expect(run.code).toBe(0);
  expect(said(run.stderr)).toEqual(['GET /orgs: 429 Too Many Requests; retrying… (attempt 2, in 1 s)']);
}, 30_000);
