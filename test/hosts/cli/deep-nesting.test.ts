/**
 * Issue 27, item 4: a page whose frontmatter nests 5,000 deep (`x: [[[[…]]]]`, 10 KB) killed
 * the process — "FATAL ERROR: RegExpCompiler Allocation failed", exit 134 — in `sync --once` on
 * every run, in `sync --dry-run` and in `quire preview` when the page was opened; `check` said
 * "Maximum call stack size exceeded". Run as users run it (the bundled `quire`, its own
 * process): every reader holds the page with one line saying how deep it nests, and the rest of
 * the folder syncs.
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire, type Exited } from '../../helpers/cli-process';
import { contentBatches, seedGuide, syncOnce } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let root: string;
beforeEach(async () => {
  fake = await startFakeApi();
  seedGuide(fake);
  root = tempDir('quire-deep-');
  expect((await syncOnce(fake, root)).code).toBe(0);
  fake.resetLog();
  writeFileSync(join(root, 'guide/deep.md'), `---\nx: ${'['.repeat(5_000)}${']'.repeat(5_000)}\n---\n\n# Deep\n\nPelicans nest here.\n`);
  writeFileSync(join(root, 'guide/faq.md'), '# FAQ\n\nQuestions, edited beside it.\n');
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const DEPTH_WORDS = 'The frontmatter nests lists and mappings more than 100 levels deep, and Quire reads at most 100.';
const run = (...args: string[]): Promise<Exited> => startQuire(args, { QUIRE_TOKEN: fake.token }).exited;

/** Neither a crash nor a stack overflow, in any form. */
function survived(r: Exited): void {
  expect(r.signal, r.stderr).toBeNull();
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/FATAL|RegExpCompiler|Maximum call stack|RangeError|\n\s+at /);
}

it('sync --once holds the page with one line, pushes the rest, and does so again on the next run', async () => {
  for (let round = 0; round < 2; round++) {
    const once = await run('sync', '--api', fake.url, '--dir', root, '--once');
    survived(once);
    expect(once.code).toBe(3);
    const lines = once.stderr.split('\n').filter((l) => l.includes('deep.md'));
    expect(lines).toEqual([`Guide: deep.md is not pushed: ${DEPTH_WORDS} (line 2). Fix the file; the next sync pushes it.`]);
  }
  const sent = contentBatches(fake).flatMap((r) => (r.body as { changes: { operation: string }[] }).changes);
  expect(sent.map((c) => c.operation)).toEqual(['update_page']);
});

it('sync --dry-run says it would hold the page, with the same words and exit code as the sync', async () => {
  const dry = await run('sync', '--api', fake.url, '--dir', root, '--dry-run');
  survived(dry);
  expect(dry.code).toBe(3);
  expect(dry.stdout).toContain(`held           deep.md is not pushed: ${DEPTH_WORDS} (line 2).`);
  expect(dry.stdout).not.toMatch(/push insert\s+deep\.md/);
  expect(dry.stdout).toMatch(/push update\s+faq\.md/);
});

it('check reports the page at its line, with what to do', async () => {
  const check = await run('check', '--dir', root);
  survived(check);
  expect(check.code).toBe(3);
  expect(check.stdout).toContain(`guide/deep.md:2: error: ${DEPTH_WORDS}`);
  expect(check.stdout).toContain('fix: Nest them less deeply and sync again.');
});

it('preview shows the page with the reason, and keeps serving', async () => {
  const preview = startQuire(['preview', '--dir', root]);
  let stdout = '';
  preview.child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  await preview.stderrLine(/^Previewing /);
  const base = stdout.split('\n')[0]!; // the address comes first
  const page = await get(`${base}guide/deep.md`);
  expect(page.status).toBe(200);
  expect(page.body).toContain(DEPTH_WORDS);
  expect(page.body).toContain('Pelicans nest here.');
  expect(preview.child.exitCode).toBeNull();
  preview.child.kill('SIGINT');
  survived(await preview.exited);
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}
