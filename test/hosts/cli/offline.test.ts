/**
 * Offline is said (issue 28, item 3), by the `quire` process as users run it, against the fake
 * stopped (its port refuses connections) and started again on the same port: continuous `quire
 * sync` says Offline at once and `quire status` reads it (since when, and what waits) instead of
 * "Syncing…" over spaces "In sync"; the API's return is noticed within 5 s; `quire review` and
 * `quire cr` answer from the mirror at once; a queued action is acknowledged in its own words,
 * never with another request's error nor a `local:` id.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { contentBatches, seedGuide } from '../../helpers/sync';
import { when } from '../../../src/shared/when';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let root: string;
const env = () => ({ QUIRE_TOKEN: fake.token });

beforeEach(async () => {
  fake = await startFakeApi();
  seedGuide(fake);
  root = tempDir();
  expect((await quire(['sync', '--api', fake.url, '--dir', root, '--once'], { env: env() })).code).toBe(0);
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

interface StatusJson {
  state: string;
  offlineSince: string | null;
  lastReachedServerAt: string | null;
  reasons: { kind: string; spaceId: string | null; message: string }[];
  spaces: { state: string }[];
}

async function status(): Promise<StatusJson> {
  const run = await quire(['status', '--dir', root, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as StatusJson;
}

/** Resolves once `test()` holds (checked every 20 ms); rejects after `ms`, saying what it waited for. */
async function within(ms: number, what: string, test: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The first stderr line of `quire` matching `pattern`, printed within `ms`. */
function lineWithin(run: ReturnType<typeof startQuire>, pattern: RegExp, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    run.stderrLine(pattern).finally(() => clearTimeout(timer)),
    new Promise<string>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not within ${ms} ms: a line matching ${pattern}`)), ms);
    }),
  ]);
}

/** `quire <args>` as its own process, to its end, with how long it took. */
async function timed(args: string[]) {
  const started = Date.now();
  const run = await startQuire([...args, '--dir', root], env()).exited;
  return { ...run, ms: Date.now() - started };
}

/** A `quire` process starts and answers in about a second; retrying a refused connection took 5.7–10.6 s. */
const AT_ONCE_MS = 4_000;

const spaceListings = () => fake.requests.filter((r) => /^\/v1\/orgs\/[^/]+\/spaces$/.test(r.path)).length;

describe('continuous `quire sync` with the API stopped and started again', () => {
  it('says Offline at once, `quire status` reads it with what waits, and the return is noticed within 5 s', async () => {
    fake.resetLog();
    const sync = startQuire(['sync', '--dir', root], env());
    await sync.stderrLine(/on every saved edit/);
    // The start-up's one cycle (the watch is set before it) is done.
    await within(20_000, 'the start-up cycle', async () => spaceListings() >= 1 && (await status()).state === 'in-sync');
    const reached = (await status()).lastReachedServerAt;

    await fake.stop();
    const savedAt = Date.now();
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\nAnswered on the plane.\n');
    // The save settles (60 ms), waits its 250 ms, and its cycle's first request is refused: said then, not after retries.
    const said = await lineWithin(sync, /^(Offline|Sync paused)/, 2_000);
    expect(said).toMatch(
      /^Offline: the API cannot be reached \(.*ECONNREFUSED.*\)\. Your edits wait and are sent when it is back; trying again every few seconds\.$/,
    );

    const offline = await status();
    expect(offline).toMatchObject({ state: 'offline', lastReachedServerAt: reached, spaces: [{ state: 'offline' }] });
    expect(offline.offlineSince! >= new Date(savedAt).toISOString()).toBe(true);
    expect(offline.reasons).toEqual([
      expect.objectContaining({ kind: 'offline', spaceId: null, message: expect.stringMatching(/could not be reached since /) }),
      expect.objectContaining({ kind: 'edits-waiting', message: expect.stringMatching(/1 local edit is not on the server yet/) }),
    ]);
    const text = (await quire(['status', '--dir', root])).stdout;
    expect(text.split('\n')[0]).toBe(`State: Offline — since ${when(offline.offlineSince)}, last sync ${when(reached)}`);
    expect(text).toMatch(/pending local edits: 1\n {4}modified faq\.md/);

    fake.resetLog();
    await fake.restart();
    const backAt = Date.now();
    await within(8_000, 'the push once the API is back', () => contentBatches(fake).length > 0);
    expect(Math.min(...fake.requests.map((r) => r.at)) - backAt).toBeLessThan(5_000);
    await within(5_000, 'in sync again', async () => (await status()).state === 'in-sync');
    await lineWithin(sync, /^Back online/, 5_000);
    sync.child.kill('SIGTERM');
    const run = await sync.exited;
    // Retrying in the background said it once, not at every attempt.
    expect(run.stderr.split('\n').filter((l) => l.startsWith('Offline'))).toHaveLength(1);
    expect(run.code).toBe(0);
  }, 60_000);
});

describe('review and change requests with the API stopped', () => {
  it('answer from the mirror at once, and a queued action is acknowledged in its own words', async () => {
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\nMore questions.\n');
    expect((await quire(['sync', '--dir', root, '--once'], { env: env() })).code).toBe(0);
    await fake.stop();

    const review = await timed(['review']);
    expect(review.code).toBe(0);
    expect(review.ms).toBeLessThan(AT_ONCE_MS);
    expect(review.stderr).toMatch(/^Showing the local mirror, last refreshed .* \(the API is not reachable\)$/m);
    expect(review.stdout).toMatch(/Open change requests \(1\):\n {2}#1 Edit ‘FAQ’/);

    const list = await timed(['cr', 'list']);
    expect(list.code).toBe(0);
    expect(list.ms).toBeLessThan(AT_ONCE_MS);
    expect(list.stdout).toMatch(/^#1 Edit ‘FAQ’ — /);

    const remark = await timed(['comment', 'new', '--change-request', '1', '--body', 'Offline remark']);
    expect(remark.ms).toBeLessThan(AT_ONCE_MS);
    expect(remark.stdout.trimEnd()).toBe(
      'Comment on change request #1: queued — the API is not reachable now. It shows as pending and is sent by the next `quire sync` (or `quire review`).',
    );
    const rename = await timed(['cr', 'edit', '1', '--subject', 'Questions, answered']);
    expect(rename.ms).toBeLessThan(AT_ONCE_MS);
    expect(rename.stdout.trimEnd()).toBe(
      'Renaming #1 to “Questions, answered”: queued — the API is not reachable now. It shows as pending and is sent by the next `quire sync` (or `quire review`).',
    );
    const shown = await quire(['review', '--dir', root, '--json'], { env: env() });
    const pending = (JSON.parse(shown.stdout) as { comments: { id: string; body: string }[] }).comments.find((c) => c.body === 'Offline remark')!;
    const reply = await timed(['comment', 'reply', pending.id, '--body', 'And one more thing.']);
    expect(reply.stdout.trimEnd()).toBe(
      'Reply to your pending comment “Offline remark”: queued — the API is not reachable now. It shows as pending and is sent by the next `quire sync` (or `quire review`).',
    );
    for (const run of [remark, rename, reply]) expect(run.stdout + run.stderr).not.toMatch(/local:|POST |GET /);

    await fake.restart();
    const back = await quire(['sync', '--dir', root, '--once'], { env: env() });
    expect(back.stdout).toMatch(/Sent 3 queued review actions\./);
  }, 60_000);
});
