/**
 * The real `quire` process (bundled, as users run it) against a hostile or a dead server.
 *
 * Every input bounded (issue 17, items 1 and 2): a compression bomb (brotli, gzip, deflate: a
 * few KB per GB on the wire, 4 GiB decoded), a plain body that never ends, and a list whose pages
 * never end (fresh items, or the same ones again) each fail the request with one line naming the
 * limit, in `sync --once`, `sync --dry-run` and continuous `sync --interval 5` (stopped with
 * SIGTERM once it has said so) — and the process never holds more than 200 MB (peak RSS, read as
 * it exits), bombs on every page at once included.
 *
 * A failing API (issue 18, item 8): the first retry is on stderr while the command still runs. A
 * dead one, said at once: dead-api.test.ts.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { bomb, endlessBody, endlessPages } from '../../helpers/hostile-answers';
import { rewritingProxy, type Rewrite, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { seedGuide } from '../../helpers/sync';

const MAX_RSS_MB = 200;
const CONTENT = /^\/v1\/spaces\/[^/]+\/content$/;
const SPACES_LIST = /^\/v1\/orgs\/[^/]+\/spaces$/;

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let proxy: RewritingProxy | undefined;
beforeEach(async () => {
  fake = await startFakeApi();
  seedGuide(fake);
});
afterEach(async () => {
  killStarted();
  await proxy?.close();
  proxy = undefined;
  await fake.close();
});

/** A hostile case: what the proxy does, and the line that must say so. */
interface Case {
  name: string;
  rewrite: () => Rewrite;
  says: RegExp;
}

const only =
  (path: RegExp, answer: Rewrite): Rewrite =>
  (x) =>
    path.test(x.path) ? answer(x) : undefined;

const CASES: Case[] = [
  ...(['br', 'gzip', 'deflate'] as const).map((encoding) => ({
    name: `a ${encoding} bomb`,
    rewrite: () => only(CONTENT, () => bomb(encoding)),
    says: new RegExp(`GET /spaces/[^/]+/content: the answer is larger than the 32 MiB Quire reads from one answer once ${encoding}-decoded`),
  })),
  {
    name: 'a plain body that never ends',
    rewrite: () => only(CONTENT, () => endlessBody()),
    says: /GET \/spaces\/[^/]+\/content: the answer is larger than the 32 MiB Quire reads from one answer, far more/,
  },
  {
    name: 'pages that never end, each with 1000 new items',
    rewrite: () => only(SPACES_LIST, endlessPages({ fresh: true })),
    says: /GET \/orgs\/[^/]+\/spaces: the list goes on past 100 pages \(100000 items so far\), more than Quire follows, so Quire stopped asking/,
  },
  {
    name: 'pages that never end, listing the same items again',
    rewrite: () => only(SPACES_LIST, endlessPages({ fresh: false })),
    says: /GET \/orgs\/[^/]+\/spaces: page 2 of the list repeats “[^”]+”, which an earlier page already listed, so Quire stopped asking/,
  },
];

describe.each(CASES)('$name', ({ rewrite, says }) => {
  beforeEach(async () => {
    proxy = await rewritingProxy(fake.url, rewrite());
  });
  const env = () => ({ QUIRE_TOKEN: fake.token });

  it('fails `sync --once` with one line naming the limit, under 200 MB', async () => {
    const run = await startQuire(['sync', '--api', proxy!.url, '--dir', tempDir(), '--once'], env()).exited;
    expect(run.stderr.split('\n').filter((l) => says.test(l))).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(run.maxRssMb).toBeLessThan(MAX_RSS_MB);
  }, 30_000);

  it('fails `sync --dry-run` the same way, under 200 MB', async () => {
    const run = await startQuire(['sync', '--api', proxy!.url, '--dir', tempDir(), '--dry-run'], env()).exited;
    expect(run.stderr.split('\n').filter((l) => says.test(l))).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(run.maxRssMb).toBeLessThan(MAX_RSS_MB);
  }, 30_000);

  it('is reported by continuous `sync --interval 5`, which runs on until SIGTERM, under 200 MB', async () => {
    const quire = startQuire(['sync', '--api', proxy!.url, '--dir', tempDir(), '--interval', '5'], env());
    const line = await quire.stderrLine(says);
    expect(line).toMatch(/^Sync paused: /);
    quire.child.kill('SIGTERM');
    const run = await quire.exited;
    expect(run.stderr).toMatch(/Stopped\.\s*$/);
    expect(run.code).toBe(0);
    expect(run.maxRssMb).toBeLessThan(MAX_RSS_MB);
  }, 30_000);
});

it('bombs on every page at once cost one limit, not one each, under 200 MB', async () => {
  const org = fake.store.addOrg({ title: 'Pages' });
  fake.store.addSpace(org.id, { title: 'Many pages', pages: Array.from({ length: 20 }, (_, i) => ({ title: `Page ${i}`, markdown: `Page ${i}.\n` })) });
  proxy = await rewritingProxy(
    fake.url,
    only(/^\/v1\/spaces\/[^/]+\/content\/page\/[^/]+$/, () => bomb('br')),
  );

  const run = await startQuire(['sync', '--api', proxy.url, '--dir', tempDir(), '--once'], { QUIRE_TOKEN: fake.token }).exited;

  expect(run.stderr).toMatch(/GET \/spaces\/[^/]+\/content\/page\/[^/]+: the answer is larger than the 32 MiB Quire reads from one answer once br-decoded/);
  expect(run.code).toBe(1);
  expect(run.maxRssMb).toBeLessThan(MAX_RSS_MB);
}, 30_000);

it('says the first retry on stderr while it still tries a failing API', async () => {
  fake.faults.fail(100, 503);
  const quire = startQuire(['sync', '--api', fake.url, '--dir', tempDir(), '--once'], { QUIRE_TOKEN: fake.token });

  const line = await quire.stderrLine(/retrying…/);

  expect(line).toMatch(/^GET \/orgs: 503 Service Unavailable; retrying… \(attempt 2, in \d(\.\d)? s\)$/);
  expect(quire.child.exitCode).toBe(null); // said as the retry was decided, not at the end
  quire.child.kill('SIGINT');
  expect((await quire.exited).code).toBe(130);
}, 30_000);
