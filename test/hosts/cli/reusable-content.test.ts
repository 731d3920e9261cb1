/**
 * Issue 29, item 1: reusable content lands in `.gitbook/includes/<name>.md` as GitBook's Git
 * Sync writes it (a `title:` frontmatter, the document as GitBook markdown, links relative), and
 * pages include it by its path. It follows the server (only the content that changed is fetched,
 * and a cycle where nothing changed asks for none), takes part in search and history, and a
 * local edit to it is kept, never overwritten nor pushed, and held with one line: the API's
 * change-request operations cannot change reusable content.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type FakeApi, type SpaceRec, startFakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { code, doc, expression, h, hint, ordered, p, pageLink, text } from '../../helpers/gitbook-document';
import { contentBatches } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

const PLATFORMS = 'rcPlatforms000000001';
const STEPS = 'rcInstallSteps000001';
const INSTALL = 'pgInstall00000000001';

const platforms = (os: string) =>
  doc(hint('info', p('Lumen ', expression('space.vars.latest_version'), ` runs on ${os}; see the `, pageLink('install guide', INSTALL), '.')));
const steps = doc(
  h(2, 'Before you start'),
  ordered('Download the archive.', 'Unpack it.'),
  code('bash', ['tar xzf lumen.tgz', './lumen serve']),
  p(text('Done', 'bold'), '.'),
);

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Lumen',
    variables: { product: 'Lumen', latest_version: '2.4.1', beta: true },
    pages: [
      { title: 'Welcome', markdown: 'Hello.\n' },
      {
        id: INSTALL,
        title: 'Install',
        variables: { min_ram: '4 GB' },
        markdown: `{% include "/reusable-content/${PLATFORMS}" %}\n\nNeeds <code class="expression">page.vars.min_ram</code> of memory.\n\n{% include "/reusable-content/${STEPS}" %}\n`,
      },
    ],
  });
  fake.store.addReusableContent(space.id, { id: PLATFORMS, title: 'Supported platforms', document: platforms('Linux and macOS') });
  fake.store.addReusableContent(space.id, { id: STEPS, title: 'Install steps', document: steps });
  root = tempDir('quire-includes-');
  dir = join(root, 'lumen');
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const sync = () => startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], { QUIRE_TOKEN: fake.token }).exited;
const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');
const said = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !/^(Pulling|Pushing) /.test(l));
const documentReads = () => fake.requests.filter((r) => r.path.includes('/reusable-contents/'));

const PLATFORMS_FILE = `---
title: Supported platforms
---

{% hint style="info" %}
Lumen <code class="expression">space.vars.latest_version</code> runs on Linux and macOS; see the [install guide](../../install.md).
{% endhint %}
`;

it('pulls each reusable content to .gitbook/includes/ as GitBook markdown, and pages include it by its path', async () => {
  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  expect(read('.gitbook/includes/supported-platforms.md')).toBe(PLATFORMS_FILE);
  expect(read('.gitbook/includes/install-steps.md')).toBe(
    '---\ntitle: Install steps\n---\n\n## Before you start\n\n1. Download the archive.\n2. Unpack it.\n\n```bash\ntar xzf lumen.tgz\n./lumen serve\n```\n\n**Done**.\n',
  );
  const install = read('install.md');
  expect(install).toContain('{% include ".gitbook/includes/supported-platforms.md" %}');
  expect(install).toContain('{% include ".gitbook/includes/install-steps.md" %}');
  // The includes resolve: check finds nothing wrong with them.
  const check = await quire(['check', '--dir', root, '--json']);
  expect(JSON.parse(check.stdout).spaces[0].problems).toEqual([]);
  // Search finds the shared text; history keeps it.
  const found = JSON.parse((await quire(['search', 'archive', '--dir', root, '--json'])).stdout) as { results: { file: string; pageId: string | null }[] };
  expect(found.results).toEqual([expect.objectContaining({ file: 'lumen/.gitbook/includes/install-steps.md', pageId: null })]);
  // Said as what it is: reusable content of the space, not a page waiting to be pushed.
  const listed = (await quire(['search', 'archive', '--dir', root])).stdout;
  expect(listed).toContain('lumen/.gitbook/includes/install-steps.md — Install steps (reusable content)');
  expect(listed).not.toMatch(/not pushed/);
  const history = await quire(['history', 'lumen/.gitbook/includes/install-steps.md', '--dir', root]);
  expect(history.code, history.stderr).toBe(0);
  expect(history.stdout).toMatch(/pulled/);
  expect(history.stdout.split('\n')[0]).toBe(`lumen/.gitbook/includes/install-steps.md — Install steps (reusable content ${STEPS} in Lumen)`);
});

it('check says an include naming no reusable content is to be fixed there, not made a page', async () => {
  expect((await sync()).code).toBe(0);
  writeFileSync(join(dir, 'faq.md'), '# FAQ\n\n{% include ".gitbook/includes/install-step.md" %}\n');
  writeFileSync(join(dir, 'SUMMARY.md'), `${read('SUMMARY.md')}* [FAQ](faq.md)\n`);
  const check = await quire(['check', '--dir', root, '--json']);
  const problems = JSON.parse(check.stdout).spaces[0].problems as { file: string; line: number; fix: string }[];
  expect(problems).toEqual([expect.objectContaining({ file: 'lumen/faq.md', line: 3 })]);
  expect(problems[0]?.fix).toMatch(/\.gitbook\/includes\/.*GitBook's editor/);
  expect(problems[0]?.fix).toContain('install-steps.md');
  expect(problems[0]?.fix).not.toMatch(/SUMMARY/);
});

it('an include edited on the server updates the local file, fetching only that one; a cycle where nothing changed fetches none', async () => {
  expect((await sync()).code).toBe(0);
  fake.resetLog();
  expect((await sync()).code).toBe(0);
  const idle = fake.requests.length;
  expect(documentReads()).toEqual([]);

  fake.store.addReusableContent(space.id, { id: PLATFORMS, title: 'Supported platforms', document: platforms('Linux, macOS and Windows') });
  fake.resetLog();
  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  expect(read('.gitbook/includes/supported-platforms.md')).toContain('runs on Linux, macOS and Windows; see');
  expect(documentReads().map((r) => r.path)).toEqual([expect.stringContaining(`/reusable-contents/${PLATFORMS}/document`)]);

  fake.resetLog();
  expect((await sync()).code).toBe(0);
  expect(documentReads()).toEqual([]);
  expect(fake.requests.length).toBe(idle);
});

it('a local edit to an include is kept, never pushed nor overwritten, and held with one line; deleting the file takes GitBook’s version back', async () => {
  expect((await sync()).code).toBe(0);
  const mine = PLATFORMS_FILE.replace('runs on', 'now runs on');
  writeFileSync(join(dir, '.gitbook/includes/supported-platforms.md'), mine);
  fake.resetLog();

  const held = await sync();
  expect(held.code).toBe(3);
  const lines = said(held.stderr).filter((l) => l.includes('supported-platforms.md'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/\.gitbook\/includes\/supported-platforms\.md.*only be changed in GitBook's editor/);
  expect(read('.gitbook/includes/supported-platforms.md')).toBe(mine);
  expect(contentBatches(fake)).toEqual([]);

  // The server changes it too: the local edit still stands.
  fake.store.addReusableContent(space.id, { id: PLATFORMS, title: 'Supported platforms', document: platforms('every platform') });
  const again = await sync();
  expect(again.code).toBe(3);
  expect(read('.gitbook/includes/supported-platforms.md')).toBe(mine);
  const status = await quire(['status', '--dir', root]);
  expect(status.stdout + status.stderr).toMatch(/supported-platforms\.md.*GitBook's editor/);
  // What to do is never "the next sync pushes it": it never does.
  const todo = status.stdout.split('\n').filter((l) => l.includes('to do:') && l.includes('supported-platforms.md'));
  expect(todo).toHaveLength(1);
  expect(todo[0]).not.toMatch(/pushes/);
  expect(todo[0]).toMatch(/GitBook's editor.*delete .*supported-platforms\.md/);

  rmSync(join(dir, '.gitbook/includes/supported-platforms.md'));
  const back = await sync();
  expect(back.code, back.stderr).toBe(0);
  expect(read('.gitbook/includes/supported-platforms.md')).toContain('runs on every platform; see');
  expect(contentBatches(fake)).toEqual([]);
});

it('pushes an include, kept or newly typed, as GitBook’s reusable-content reference', async () => {
  expect((await sync()).code).toBe(0);
  writeFileSync(join(dir, 'install.md'), read('install.md').replace('of memory.', 'of memory, or more.'));
  writeFileSync(join(dir, 'faq.md'), '# FAQ\n\n{% include ".gitbook/includes/install-steps.md" %}\n');
  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  const sent = contentBatches(fake).flatMap((r) => (r.body as { changes: { operation: string; document?: { markdown?: string } }[] }).changes);
  const markdownOf = (operation: string) => sent.find((c) => c.operation === operation)?.document?.markdown ?? '';
  expect(markdownOf('update_page')).toContain(`{% include "/reusable-content/${PLATFORMS}" %}`);
  expect(markdownOf('update_page')).toContain('of memory, or more.');
  expect(markdownOf('insert_page')).toContain(`{% include "/reusable-content/${STEPS}" %}`);
});

it('a reusable content whose document is gone by the time it is read is left out, and the rest of the space syncs', async () => {
  fake.faults.fail(1, 404, { match: (r) => r.path.includes(`/reusable-contents/${STEPS}/document`) });
  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  expect(read('.gitbook/includes/supported-platforms.md')).toBe(PLATFORMS_FILE);
  expect(() => read('.gitbook/includes/install-steps.md')).toThrow(/ENOENT/);
  expect(read('install.md')).toContain('{% include ".gitbook/includes/supported-platforms.md" %}');
});
