/**
 * kill -9 mid-push: a real `quire sync --once` process is killed with SIGKILL while one of
 * its writes is in flight; the next run must neither lose an edit nor create a second
 * change request (nor a second copy of a new page).
 */
import { beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../../bench/cli-process';
import { readdirSync } from 'node:fs';
import type { FakeApi, SpaceRec } from '../../fake';
import { holdingProxy, openChangeRequests, pageByTitle, read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';
import { buildCli } from '../../helpers/cli-process';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

/** Runs the CLI as its own process through `proxyUrl`, kills it with SIGKILL once the proxy holds a request. */
async function killMidRequest(proxy: { url: string; held: Promise<void> }): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, 'sync', '--api', proxy.url, '--dir', root, '--once'], {
    env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const outcome = await Promise.race([proxy.held.then(() => 'held' as const), exited.then(() => 'exited' as const)]);
  if (outcome === 'exited') throw new Error(`the sync process ended before the request was held: ${stderr}`);
  child.kill('SIGKILL');
  return exited;
}

const files = (d: string) => (readdirSync(d, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).sort();

function editTwoPages() {
  write(dir, 'faq.md', '# FAQ\n\nAnswers, edited before the crash.\n');
  write(dir, 'recipes.md', '# Recipes\n\nA new page, written before the crash.\n');
}

function expectEditsOnceInOneChangeRequest() {
  const crs = fake.store.changeRequestsOf(space.id);
  expect(crs).toHaveLength(1);
  const pages = [...fake.store.revisionOf(space.id, { changeRequest: crs[0]!.id }).pages.values()];
  expect(pages.filter((p) => p.title === 'Recipes')).toHaveLength(1);
  expect(pageByTitle(fake, space.id, 'FAQ', crs[0]!.id).markdown).toBe('Answers, edited before the crash.\n');
  expect(pageByTitle(fake, space.id, 'Recipes', crs[0]!.id).markdown).toBe('A new page, written before the crash.\n');
  expect(read(dir, 'faq.md')).toBe('# FAQ\n\nAnswers, edited before the crash.\n');
  expect(read(dir, 'recipes.md')).toBe('# Recipes\n\nA new page, written before the crash.\n');
}

const isContentBatch = (m: string, p: string) => m === 'POST' && /\/change-requests\/[^/]+\/content$/.test(p);
const isCreate = (m: string, p: string) => m === 'POST' && /\/change-requests$/.test(p);

it('killed after the server applied a batch but before it heard back: the next run finds it, sends nothing twice', async () => {
  editTwoPages();
  const proxy = await holdingProxy(fake.url, { match: isContentBatch, when: 'after' });
  try {
    expect(await killMidRequest(proxy)).toBe('SIGKILL');
  } finally {
    await proxy.close();
  }
  // Edits made while nothing ran are not lost either.
  write(dir, 'changelog.md', '# Changelog\n\nWritten after the crash.\n');
  expect((await syncOnce(fake, root)).code).toBe(0);
  expectEditsOnceInOneChangeRequest();
  expect(pageByTitle(fake, space.id, 'Changelog', openChangeRequests(fake, space.id)[0]!.id).markdown).toBe('Written after the crash.\n');
}, 60_000);

it('killed before the batch reached the server: the next run sends it', async () => {
  editTwoPages();
  const proxy = await holdingProxy(fake.url, { match: isContentBatch, when: 'before' });
  try {
    expect(await killMidRequest(proxy)).toBe('SIGKILL');
  } finally {
    await proxy.close();
  }
  expect((await syncOnce(fake, root)).code).toBe(0);
  expectEditsOnceInOneChangeRequest();
}, 60_000);

it('killed while creating the change request: the next run adopts it instead of creating a second one', async () => {
  editTwoPages();
  const proxy = await holdingProxy(fake.url, { match: isCreate, when: 'after' });
  try {
    expect(await killMidRequest(proxy)).toBe('SIGKILL');
  } finally {
    await proxy.close();
  }
  expect(fake.store.changeRequestsOf(space.id)).toHaveLength(1); // created, answer lost
  expect((await syncOnce(fake, root)).code).toBe(0);
  expectEditsOnceInOneChangeRequest();
}, 60_000);

it('killed after the server created a new page, the change request then merged: the next run adopts main’s page, never a second one', async () => {
  write(dir, 'recipes.md', '# Recipes\n\nA new page, written before the crash.\n');
  const proxy = await holdingProxy(fake.url, { match: isContentBatch, when: 'after' });
  try {
    expect(await killMidRequest(proxy)).toBe('SIGKILL');
  } finally {
    await proxy.close();
  }
  const [cr] = openChangeRequests(fake, space.id);
  fake.store.mergeChangeRequest(space.id, cr!.id); // a reviewer merges before Quire runs again

  const run = await syncOnce(fake, root);
  expect(run.code, run.stderr).toBe(0);
  const onMain = fake.store.pages(space.id).filter((p) => p.title === 'Recipes');
  expect(onMain).toHaveLength(1);
  expect(files(dir).filter((f) => f.startsWith('recipes'))).toEqual(['recipes.md']);
  for (const open of openChangeRequests(fake, space.id))
    expect([...fake.store.revisionOf(space.id, { changeRequest: open.id }).pages.values()].filter((p) => p.title === 'Recipes')).toHaveLength(1);
  // Settled: the next run sends nothing.
  fake.resetLog();
  expect((await syncOnce(fake, root)).code).toBe(0);
  expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
}, 60_000);
