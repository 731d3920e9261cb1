/**
 * Issue 29, item 2: a space's variables land in `.gitbook/vars.yaml` and a page's in its
 * frontmatter under `vars:`, as GitBook's Git Sync writes them; a folder an older Quire wrote
 * with `variables:` moves to `vars:` once, locally, without a push. No change-request operation
 * carries variables (the OpenAPI document's `RevisionPageUpdate` has no such field, and the
 * revision's `variables` have no operation at all): a local edit to either is kept, not pushed,
 * and held with one line. `quire check` flags an expression naming a variable that does not
 * exist, with its line.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type FakeApi, type SpaceRec, startFakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { contentBatches } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

const INSTALL = 'pgInstall00000000001';

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
      { title: 'Welcome', markdown: 'Welcome to <code class="expression">space.vars.product</code>.\n' },
      {
        id: INSTALL,
        title: 'Install',
        description: 'Get it running',
        variables: { min_ram: '4 GB' },
        markdown: 'Needs <code class="expression">page.vars.min_ram</code>.\n',
      },
    ],
  });
  root = tempDir('quire-vars-');
  dir = join(root, 'lumen');
  const first = await sync();
  expect(first.code, first.stderr).toBe(0);
  fake.resetLog();
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const sync = () => startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], { QUIRE_TOKEN: fake.token }).exited;
const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');
const said = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !/^(Pulling|Pushing) /.test(l));

it('writes the space’s variables to .gitbook/vars.yaml and a page’s to its frontmatter as vars:', () => {
  expect(read('.gitbook/vars.yaml')).toBe('product: Lumen\nlatest_version: 2.4.1\nbeta: true\n');
  expect(read('install.md')).toBe(
    '---\ndescription: Get it running\nvars:\n  min_ram: 4 GB\n---\n\n# Install\n\nNeeds <code class="expression">page.vars.min_ram</code>.\n',
  );
});

it('follows the server’s variables, and holds a local edit to vars.yaml with one line, keeping it', async () => {
  fake.store.setVariables(space.id, { product: 'Lumen', latest_version: '2.5.0', beta: true });
  expect((await sync()).code).toBe(0);
  expect(read('.gitbook/vars.yaml')).toBe('product: Lumen\nlatest_version: 2.5.0\nbeta: true\n');

  const mine = 'product: Lumen\nlatest_version: 3.0.0\nbeta: false\n';
  writeFileSync(join(dir, '.gitbook/vars.yaml'), mine);
  fake.resetLog();
  const held = await sync();
  expect(held.code).toBe(3);
  const lines = said(held.stderr).filter((l) => l.includes('vars.yaml'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/\.gitbook\/vars\.yaml.*only be changed in GitBook's editor/);
  expect(contentBatches(fake)).toEqual([]);

  fake.store.setVariables(space.id, { product: 'Lumen', latest_version: '2.6.0', beta: true });
  expect((await sync()).code).toBe(3);
  expect(read('.gitbook/vars.yaml')).toBe(mine);
});

it('holds a page whose vars: changed here with one line, and pushes nothing of it', async () => {
  writeFileSync(join(dir, 'install.md'), read('install.md').replace('min_ram: 4 GB', 'min_ram: 8 GB').replace('Needs', 'Now needs'));
  const held = await sync();
  expect(held.code).toBe(3);
  const lines = said(held.stderr).filter((l) => l.includes('install.md'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/install\.md.*page variables.*GitBook's editor/);
  expect(contentBatches(fake)).toEqual([]);
  expect(read('install.md')).toContain('min_ram: 8 GB');
});

it('a folder an older Quire wrote with variables: moves to vars: once, without a push', async () => {
  const old = read('install.md').replace('vars:', 'variables:');
  writeFileSync(join(dir, 'install.md'), old);
  // The mirror as that Quire left it: the page's metadata and text under the old key.
  const db = new Database(join(root, '.quire/mirror.db'));
  db.prepare(`UPDATE pages SET meta = replace(meta, '"vars":', '"variables":'), base_content = replace(base_content, 'vars:', 'variables:') WHERE id = ?`).run(
    INSTALL,
  );
  db.prepare(`DELETE FROM meta WHERE key LIKE 'vars-key:%'`).run();
  db.close();

  const run = await sync();
  expect(run.code, run.stderr).toBe(0);
  expect(read('install.md')).toBe(old.replace('variables:', 'vars:'));
  expect(contentBatches(fake)).toEqual([]);

  fake.resetLog();
  const again = await sync();
  expect(again.code).toBe(0);
  expect(read('install.md')).toBe(old.replace('variables:', 'vars:'));
  expect(fake.requests.filter((r) => r.method === 'GET' && /\/content$/.test(r.path))).toEqual([]);
});

it('quire check flags an expression naming a variable that does not exist, with its line', async () => {
  writeFileSync(
    join(dir, 'README.md'),
    '# Welcome\n\nWelcome to <code class="expression">space.vars.product</code>.\n\nVersion <code class="expression">space.vars.latest_versoin</code>, <code class="expression">page.vars.min_ram</code>.\n',
  );
  const check = await quire(['check', '--dir', root, '--json']);
  const problems = JSON.parse(check.stdout).spaces[0].problems as { file: string; line: number; message: string; code: string; fix: string }[];
  expect(problems.map((p) => ({ file: p.file, line: p.line, code: p.code }))).toEqual([
    { file: 'lumen/README.md', line: 5, code: 'unknown-variable' },
    { file: 'lumen/README.md', line: 5, code: 'unknown-variable' },
  ]);
  const about = (name: string) => problems.find((p) => p.message.includes(`names \`${name}\``));
  expect(about('space.vars.latest_versoin')?.message).toBe(
    'The expression `space.vars.latest_versoin` names `space.vars.latest_versoin`, which is not in .gitbook/vars.yaml, so GitBook shows nothing there.',
  );
  expect(about('page.vars.min_ram')?.message).toBe(
    "The expression `page.vars.min_ram` names `page.vars.min_ram`, which is not among this page's vars (its frontmatter), so GitBook shows nothing there.",
  );
  // The fix offers the variables there are, or says there are none.
  expect(about('space.vars.latest_versoin')?.fix).toMatch(/^Use one of the space's variables \(product, latest_version, beta\)/);
  expect(about('page.vars.min_ram')?.fix).toBe(
    "This page has no variables: create `min_ram` in GitBook's editor (variables cannot be pushed), or remove the expression.",
  );
});
