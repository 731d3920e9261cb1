/**
 * No overall deadline (issue 17, item 18), and a dead API shown at once (issue 18, item 8), through
 * `quire sync`: against a server that takes requests and dribbles its answers, a cycle gives up
 * after the deadline with one line saying what it waited for, and sends nothing more (here with
 * a 200 ms attempt timeout and an 800 ms deadline; the defaults are 30 s and 60 s). Against an
 * API that is down, each retry is one stderr line as it is decided, with no token in it.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { dribble } from '../../helpers/hostile-answers';
import { rewritingProxy, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { closedPortUrl } from '../../api/scripted-server';

let fake: FakeApi;
let proxy: RewritingProxy | undefined;
beforeEach(async () => {
  fake = await startFakeApi();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await fake.close();
});

const CONTENT = /^\/v1\/spaces\/([^/]+)\/content$/;

it('gives a cycle an overall deadline for reaching the server, and says what it waited for', async () => {
  const org = fake.store.addOrg({ title: 'Acme' });
  const spaces = Array.from({ length: 10 }, (_, i) => fake.store.addSpace(org.id, { title: `Guide ${i}`, pages: [{ title: 'Home', markdown: 'hi\n' }] }));
  const asked = new Set<string>();
  proxy = await rewritingProxy(fake.url, (x) => {
    const content = CONTENT.exec(x.path);
    if (!content) return undefined;
    asked.add(content[1]!);
    return dribble(20);
  });

  const run = await quire(['sync', '--api', proxy.url, '--dir', tempDir(), '--once'], {
    env: { QUIRE_TOKEN: fake.token },
    api: { timeoutMs: 200, deadlineMs: 800, maxAttempts: 6 },
  });

  expect(run.code).toBe(1);
  const last = run.stderr.split('\n').at(-1)!;
  expect(last).toMatch(
    /^quire sync: .*the API did not answer GET \/spaces\/[^/]+\/content within 800 ms \(\d attempts?; the last: no answer within \d+ ms\)\. .*check the API address and your connection, then sync again; edits are kept\./,
  );
  // Eight spaces are synced at once; once the server was found not to answer, the other two were not asked.
  expect(spaces.length).toBe(10);
  expect(asked.size).toBe(8);
});

it('says each retry on stderr as it is decided when the API keeps failing', async () => {
  fake.faults.fail(10, 503);

  const run = await quire(['sync', '--api', fake.url, '--dir', tempDir(), '--once'], { env: { QUIRE_TOKEN: fake.token }, api: { maxAttempts: 3 } });

  const lines = run.stderr.split('\n');
  const retries = lines.filter((l) => /retrying…/.test(l));
  expect(retries).toHaveLength(2);
  expect(retries[0]).toMatch(/^GET \/orgs: 503 Service Unavailable; retrying… \(attempt 2, in \d+(\.\d)? s\)$/);
  expect(retries[1]).toMatch(/; retrying… \(attempt 3, in \d+(\.\d)? s\)$/);
  // The retries come before the final error, which follows them.
  expect(lines.at(-1)).toMatch(/^quire sync: GET \/orgs: 503 Service Unavailable.*\(gave up after 3 attempts\)/);
  expect(run.code).toBe(1);
});

it('says a dead API at once, without retries (a refused connection is known at once)', async () => {
  const run = await quire(['sync', '--api', await closedPortUrl(), '--dir', tempDir(), '--once'], {
    env: { QUIRE_TOKEN: fake.token },
    api: { maxAttempts: 6 },
  });

  expect(run.stderr).not.toMatch(/retrying…/);
  expect(run.stderr.split('\n').at(-1)).toMatch(/^quire sync: GET \/orgs: could not reach the API \(connection failed: .*ECONNREFUSED/);
  expect(run.code).toBe(1);
});

it('never shows the token, nor server control characters, in a retry line', async () => {
  fake.store.addOrg({ title: 'Acme' });
  let first = true;
  proxy = await rewritingProxy(fake.url, (x) => {
    if (x.path !== '/v1/orgs' || !first) return undefined;
    first = false;
    const token = String(x.requestHeaders.authorization).replace(/^Bearer /, '');
    return { status: 503, statusText: `Busy ${token.toUpperCase()} ${Buffer.from(token).toString('base64')} \u009b2J`, body: '' };
  });

  const run = await quire(['sync', '--api', proxy.url, '--dir', tempDir(), '--once'], { env: { QUIRE_TOKEN: fake.token } });

  const retry = run.stderr.split('\n').find((l) => /retrying…/.test(l));
  expect(retry).toMatch(/^GET \/orgs: 503 Busy \[redacted\] \[redacted\]\S* \\u009b2J; retrying… \(attempt 2, in \d+\.\d s\)$/);
  expect(run.stderr).not.toContain(fake.token.toUpperCase());
  expect(run.stderr).not.toContain(Buffer.from(fake.token).toString('base64'));
  expect(run.code).toBe(0);
});
