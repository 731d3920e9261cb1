/**
 * SUMMARY.md as the writer wrote it (issue 28, item 2), with continuous `quire sync` running as
 * the `quire` process: a new page listed there under another parent and title, in the same
 * moment as its file is created, is pushed on save with the writer's nesting; the writer's entry
 * wins over the one Quire appended (no "listed twice" for `quire check`); the typed title is kept
 * while the page's heading says otherwise, and that hold is said until it is settled, never
 * "In sync"; an entry whose file is not there yet is kept, not dropped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { contentBatches, openChangeRequests, seedGuide } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
const env = () => ({ QUIRE_TOKEN: fake.token });

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  root = tempDir();
  dir = join(root, 'guide');
  expect((await quire(['sync', '--api', fake.url, '--dir', root, '--once'], { env: env() })).code).toBe(0);
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

interface StatusJson {
  state: string;
  reasons: { kind: string; path?: string; message: string }[];
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

const summary = () => readFileSync(join(dir, 'SUMMARY.md'), 'utf8');
/** The change request's tree: the titles under a page (by title; null: the root). */
function crChildren(parentTitle: string | null): string[] {
  const [cr] = openChangeRequests(fake, space.id);
  if (!cr) return [];
  const revision = fake.store.revisionOf(space.id, { changeRequest: cr.id });
  const parent = parentTitle === null ? '' : ([...revision.pages.values()].find((p) => p.title === parentTitle)?.id ?? '?');
  return (revision.children.get(parent) ?? []).map((id) => revision.pages.get(id)!.title);
}

/** Continuous `quire sync` (a timer far off: only saves start cycles), once its start-up cycle is done (the watch is set before it). */
async function running() {
  fake.resetLog();
  const sync = startQuire(['sync', '--dir', root, '--interval', '3600'], env());
  await sync.stderrLine(/on every saved edit/);
  const listings = () => fake.requests.filter((r) => /^\/v1\/orgs\/[^/]+\/spaces$/.test(r.path)).length;
  await within(20_000, 'the start-up cycle', async () => listings() >= 1 && (await status()).state === 'in-sync');
  return sync;
}

const NESTED = /\n {2}\* \[Configure\]\(getting-started\/configure\.md\)\n {2}\* \[Upgrade guide\]\([^)]*upgrading\.md\)\n\* \[FAQ\]/;

it('a new page listed under another parent and title as Quire lists it at the root: the writer’s entry wins, pushed on save', async () => {
  const sync = await running();
  writeFileSync(join(dir, 'upgrading.md'), '# Upgrading\n\nHow to upgrade.\n');
  await within(10_000, 'the new page pushed', () => crChildren(null).includes('Upgrading') && summary().includes('upgrading.md'));

  // The writer's editor reloads SUMMARY.md (Quire listed the page at the end) and lists it where it belongs.
  const pushes = contentBatches(fake).length;
  writeFileSync(
    join(dir, 'SUMMARY.md'),
    summary().replace('  * [Configure](getting-started/configure.md)\n', '  * [Configure](getting-started/configure.md)\n  * [Upgrade guide](upgrading.md)\n'),
  );
  await within(5_000, 'the nesting pushed on save', () => contentBatches(fake).length > pushes && crChildren('Getting Started').includes('Upgrading'));
  expect(crChildren(null)).not.toContain('Upgrading');

  await within(5_000, 'SUMMARY.md written again', () => summary().split('upgrading.md').length === 2);
  expect(summary()).toMatch(NESTED); // listed once, where the writer put it, with the title the writer typed
  const check = await quire(['check', '--dir', root]);
  expect(check.stdout + check.stderr).not.toMatch(/listed twice/);
  expect(check.code).toBe(0);

  // The heading says “Upgrading”: the typed title is held, and said until the writer settles it.
  await within(5_000, 'the cycle over', async () => !(await status()).reasons.some((r) => r.kind === 'syncing'));
  const held = await status();
  expect(held.state).toBe('needs-you');
  expect(held.reasons).toEqual([
    expect.objectContaining({
      kind: 'summary-edit',
      path: 'SUMMARY.md',
      message: expect.stringMatching(/“Upgrade guide” is not the title of [^,]*upgrading\.md, which says “Upgrading”/),
    }),
  ]);
  const before = contentBatches(fake).length;
  writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nAnother save, another cycle.\n');
  await within(5_000, 'the next save pushed', () => contentBatches(fake).length > before);
  expect((await status()).state).toBe('needs-you');
  expect(summary()).toMatch(NESTED);

  // Settled in the file: the heading takes the typed title.
  const file = summary().match(/\[Upgrade guide\]\(([^)]*upgrading\.md)\)/)![1]!;
  writeFileSync(join(dir, file), '# Upgrade guide\n\nHow to upgrade.\n');
  await within(5_000, 'the new title pushed', () => crChildren('Getting Started').includes('Upgrade guide'));
  await within(5_000, 'in sync', async () => (await status()).state === 'in-sync');
  sync.child.kill('SIGTERM');
  expect((await sync.exited).code).toBe(0);
}, 90_000);

it('an entry listed before its file exists is kept and said, then places the file once it is there', async () => {
  const sync = await running();
  writeFileSync(
    join(dir, 'SUMMARY.md'),
    summary().replace('  * [Configure](getting-started/configure.md)\n', '  * [Configure](getting-started/configure.md)\n  * [Upgrade guide](upgrading.md)\n'),
  );
  await within(5_000, 'the entry said', async () => {
    const now = await status();
    return now.state === 'needs-you' && !now.reasons.some((r) => r.kind === 'syncing');
  });
  expect((await status()).reasons).toEqual([
    expect.objectContaining({ kind: 'summary-edit', message: expect.stringMatching(/upgrading\.md is not in the folder/) }),
  ]);
  expect(summary()).toMatch(NESTED);

  writeFileSync(join(dir, 'upgrading.md'), 'How to upgrade.\n');
  await within(10_000, 'the page pushed where SUMMARY.md lists it', () => crChildren('Getting Started').includes('Upgrade guide'));
  expect(crChildren(null)).not.toContain('Upgrade guide');
  await within(5_000, 'in sync', async () => (await status()).state === 'in-sync');
  // The change request is named after the page's title as SUMMARY.md gives it, not its file name.
  expect(fake.store.changeRequestsOf(space.id).map((cr) => cr.subject)).toEqual(['Add ‘Upgrade guide’']);
  expect(summary()).toMatch(NESTED);
  sync.child.kill('SIGTERM');
  expect((await sync.exited).code).toBe(0);
}, 90_000);
