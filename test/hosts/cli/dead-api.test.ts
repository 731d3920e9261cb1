/**
 * The real `quire` process (bundled, as users run it) against a dead API (nothing listens): said
 * at once, without retries (issue 28, item 3). Apart from hostile-server.test.ts because it bounds
 * how long the command takes (vitest.config.ts runs it with the timed files).
 */
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { closedPortUrl } from '../../api/scripted-server';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
beforeEach(async () => {
  fake = await startFakeApi();
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

it('says a dead API at once: a refused connection is not retried (issue 28, item 3)', async () => {
  const started = Date.now();
  const run = await startQuire(['sync', '--api', await closedPortUrl(), '--dir', tempDir(), '--once'], { QUIRE_TOKEN: fake.token }).exited;

  expect(run.code).toBe(1);
  expect(run.stderr).not.toMatch(/retrying/);
  expect(run.stderr).toMatch(/GET \/orgs: could not reach the API \(connection failed: .*ECONNREFUSED.*\)\. Check your connection/);
  expect(Date.now() - started).toBeLessThan(5_000);
}, 30_000);
