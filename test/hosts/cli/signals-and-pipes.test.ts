/**
 * Ctrl-C and pipes (issue 9, item 7), as the real `quire` process: SIGINT mid-cycle stops with
 * exit 130 and "stopped"; so does SIGINT while `check` or `search` is busy with CPU work
 * (issue 17, item 10); a reader that goes away (`quire status | head`) ends it quietly;
 * `quire review` over many change requests prints no MaxListenersExceededWarning.
 */
import { spawn } from 'node:child_process';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../../bench/cli-process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mirror } from '../../../src/main/core/mirror';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { holdingProxy } from '../../helpers/sync';
import { buildCli } from '../../helpers/cli-process';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

function quireProcess(args: string[], stdio: 'pipe' | 'ignore' = 'pipe') {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, ...args], {
    env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }),
    stdio: ['ignore', stdio, 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  const waiting: { pattern: RegExp; seen: () => void }[] = [];
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of waiting.filter((w) => w.pattern.test(stderr))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.seen();
    }
  });
  const exited = new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr, stdout })),
  );
  /** Settles once stderr matches `pattern`; fails if the process exits first. */
  const saw = (pattern: RegExp) =>
    Promise.race([
      new Promise<void>((seen) => waiting.push({ pattern, seen })),
      exited.then(({ code }) => Promise.reject(new Error(`exited (${code}) before printing ${pattern}: ${stderr}`))),
    ]);
  return { child, exited, saw };
}

function seedSpace(title = 'Guide') {
  const org = fake.store.addOrg({ title: 'Acme' });
  return fake.store.addSpace(org.id, {
    title,
    pages: [
      { title: 'Home', markdown: 'hi\n' },
      { title: 'FAQ', markdown: 'Questions.\n' },
    ],
  });
}

it('Ctrl-C during `sync --once` stops with exit 130 and says "stopped"', async () => {
  seedSpace();
  const proxy = await holdingProxy(fake.url, { match: (m, p) => m === 'GET' && /^\/v1\/spaces\/[^/]+\/content$/.test(p), when: 'before' });
  try {
    const { child, exited } = quireProcess(['sync', '--api', proxy.url, '--dir', dir, '--once'], 'ignore');
    await Promise.race([proxy.held, exited.then(({ stderr }) => Promise.reject(new Error(`exited before the request was held: ${stderr}`)))]);
    child.kill('SIGINT');
    const { code, stderr } = await exited;
    expect(stderr.trim()).toBe('quire sync: stopped.');
    expect(code).toBe(130);
  } finally {
    await proxy.close();
  }
}, 30_000);

it('Ctrl-C while `quire check` is busy checking a large folder stops it with exit 130, the report unprinted', async () => {
  // 10,000 pages linking to each other: seconds of CPU work, well past the first progress line
  // (printed after a second of work, with the count still to do).
  const pages = 10_000;
  for (let i = 0; i < pages; i++) {
    if (i % 1000 === 0) mkdirSync(join(dir, `part-${i / 1000}`));
    const body = Array.from({ length: 8 }, (_, k) => `See [page ${k}](../part-${(i + k) % 10}/page-${(i + k * 7) % pages}.md#section) and more words.`);
    writeFileSync(join(dir, `part-${Math.floor(i / 1000)}`, `page-${i}.md`), `# Page ${i}\n\n## Section\n\n${body.join('\n\n')}\n`);
  }
  writeFileSync(
    join(dir, 'SUMMARY.md'),
    `# Table of contents\n\n${Array.from({ length: pages }, (_, i) => `* [Page ${i}](part-${Math.floor(i / 1000)}/page-${i}.md)`).join('\n')}\n`,
  );
  const { child, exited, saw } = quireProcess(['check', '--dir', dir]);
  await saw(/Checking: \d+ of 10001 files…/);
  child.kill('SIGINT');
  const { code, stderr, stdout } = await exited;
  expect(stderr.trim().split('\n').at(-1)).toBe('quire check: stopped.');
  expect(stdout).toBe('');
  expect(code).toBe(130);
}, 120_000);

it('Ctrl-C while `quire search` is busy indexing a large space stops it with exit 130, nothing found printed', async () => {
  // 300 pages of ~60 KB: indexing them for search is seconds of CPU work.
  const org = fake.store.addOrg({ title: 'Acme' });
  const paragraph = (i: number) => `Paragraph ${i} about pelicans, herons and the install of gateways across ${i % 97} valleys. `.repeat(8);
  const space = fake.store.addSpace(org.id, {
    title: 'Big',
    pages: Array.from({ length: 300 }, (_, i) => ({
      title: `Page ${i}`,
      markdown: `${Array.from({ length: 80 }, (_, k) => paragraph(i + k)).join('\n\n')}\n`,
    })),
  });
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  // A folder whose search index is not built yet (a mirror from before search existed): the search builds it first.
  const mirror = Mirror.open(dir);
  mirror.transaction(() => mirror.search.forgetSpacePages(space.id));
  mirror.close();
  const { child, exited, saw } = quireProcess(['search', 'pelicans', '--dir', dir]);
  await saw(/Indexing 1 space for search/);
  child.kill('SIGINT');
  const { code, stderr, stdout } = await exited;
  expect(stderr.trim().split('\n').at(-1)).toBe('quire search: stopped.');
  expect(stdout).toBe('');
  expect(code).toBe(130);
  const after = Mirror.open(dir);
  expect(after.search.spaceIndexed(space.id)).toBe(false); // stopped midway: the next search finishes it
  after.close();
}, 120_000);

it('`quire status | head` ends quietly when the reader goes away', async () => {
  seedSpace();
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  const { child, exited } = quireProcess(['status', '--dir', dir]);
  child.stdout!.destroy(); // the reader is gone before quire prints anything
  const { code, stderr } = await exited;
  expect(stderr).toBe('');
  expect(code).toBe(0);
}, 30_000);

it('`quire review` over many change requests prints no MaxListenersExceededWarning', async () => {
  const space = seedSpace();
  for (let i = 0; i < 25; i++) {
    const cr = fake.store.addChangeRequest(space.id, { subject: `Change ${i}` });
    fake.store.addComment(space.id, { body: `Comment ${i}`, changeRequest: cr.id });
  }
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  const { exited } = quireProcess(['review', '--dir', dir], 'ignore');
  const { code, stderr } = await exited;
  expect(stderr).not.toMatch(/MaxListenersExceededWarning|Warning/);
  expect(code).toBe(0);
}, 30_000);
