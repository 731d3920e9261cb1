/**
 * `quire cr diff` (issue 30, item 1) as the real `quire` process against the fake: a change
 * request with an edit, a move, a rename and a new page, as a unified diff of the page files in
 * git's format (paths from the sync folder), `--stat` and `--word`, `--page`; no colour when
 * piped, colour on a terminal (a pseudo-terminal from util-linux's `script`); offline from the
 * mirror, or saying it needs the server when the mirror does not have the content.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../../bench/cli-process';
import { startFakeApi, type FakeApi } from '../../fake';
import type { SpaceRec } from '../../fake/model';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let space: SpaceRec;

beforeAll(() => buildCli(), 120_000);
beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const quire = async (...args: string[]) => {
  const { code, stdout, stderr } = await startQuire([...args, '--dir', dir], { QUIRE_TOKEN: fake.token }).exited;
  return { code, stdout, stderr };
};

/** A change request that edits Setup, moves Options out of Reference, renames “Old name” and adds FAQ. */
async function seed(): Promise<number> {
  const alex = fake.store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
  const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'Setup', markdown: 'Install the tool.\n\nThen configure it with care.\n\nDone.\n' },
      { title: 'Reference', markdown: 'Ref.\n', pages: [{ title: 'Options', markdown: 'All the options.\n' }] },
      { title: 'Old name', markdown: 'Renamed page.\n' },
    ],
  });
  expect((await quire('sync', '--api', fake.url, '--once')).code).toBe(0);
  const cr = fake.store.addChangeRequest(space.id, { subject: 'Better setup', createdBy: alex.id });
  const t = { changeRequest: cr.id };
  const id = (title: string) => fake.store.pageByTitle(space.id, title).id;
  fake.store.editPage(space.id, id('Setup'), { markdown: 'Install the tool.\n\nThen configure it with great care.\n\nDone.\n' }, t);
  fake.store.movePage(space.id, id('Options'), { parent: null }, t);
  fake.store.editPage(space.id, id('Old name'), { title: 'New name', slug: 'new-name' }, t);
  fake.store.addPage(space.id, { title: 'FAQ', markdown: 'Questions and answers.\n' }, t);
  return cr.number;
}

describe('quire cr diff', () => {
  it('shows an edit, a move, a rename and a new page as a unified diff of the page files, without colour when piped', async () => {
    const n = await seed();
    const { code, stdout, stderr } = await quire('cr', 'diff', String(n));
    expect(code, stderr).toBe(0);
    expect(stdout).not.toContain('\x1b');
    expect(stdout).toContain(
      [
        'diff --git a/guide/setup.md b/guide/setup.md',
        '--- a/guide/setup.md',
        '+++ b/guide/setup.md',
        '@@ -2,6 +2,6 @@',
        ' ',
        ' Install the tool.',
        ' ',
        '-Then configure it with care.',
        '+Then configure it with great care.',
        ' ',
        ' Done.',
      ].join('\n'),
    );
    expect(stdout).toContain(
      [
        'diff --git a/guide/reference/options.md b/guide/options.md',
        'similarity index 100%',
        'rename from guide/reference/options.md',
        'rename to guide/options.md',
      ].join('\n'),
    );
    expect(stdout).toContain(
      [
        'diff --git a/guide/old-name.md b/guide/new-name.md',
        'similarity index 67%',
        'rename from guide/old-name.md',
        'rename to guide/new-name.md',
        '--- a/guide/old-name.md',
        '+++ b/guide/new-name.md',
        '@@ -1,3 +1,3 @@',
        '-# Old name',
        '+# New name',
      ].join('\n'),
    );
    expect(stdout).toContain(
      [
        'diff --git a/guide/faq.md b/guide/faq.md',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/guide/faq.md',
        '@@ -0,0 +1,3 @@',
        '+# FAQ',
        '+',
        '+Questions and answers.',
      ].join('\n'),
    );
  });

  it('--stat counts each page’s lines and says what was created, moved and renamed; --word and --page show one page word by word', async () => {
    const n = await seed();
    const stat = await quire('cr', 'diff', String(n), '--stat');
    expect(stat.code, stat.stderr).toBe(0);
    const lines = stat.stdout.trimEnd().split('\n');
    // The names are padded to one width: the bars line up.
    expect(new Set(lines.slice(0, 5).map((l) => l.indexOf('|'))).size).toBe(1);
    const rows = lines.map((l) => l.replace(/ +\|/, ' |'));
    expect(rows).toContain(' guide/setup.md | 2 +-');
    expect(rows).toContain(' guide/{reference/options.md => options.md} | 0');
    expect(rows).toContain(' guide/{old-name.md => new-name.md} | 2 +-');
    expect(rows).toContain(' guide/faq.md | 3 +++');
    expect(lines).toContain(' 5 pages changed, 5 insertions(+), 2 deletions(-)');
    expect(lines).toContain(' create guide/faq.md');
    expect(lines).toContain(' move guide/{reference/options.md => options.md} (100%)');
    expect(lines).toContain(' rename guide/{old-name.md => new-name.md} (67%)');

    const words = await quire('cr', 'diff', String(n), '--word', '--page', 'guide/setup.md');
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toBe(
      [
        'diff --git a/guide/setup.md b/guide/setup.md',
        '--- a/guide/setup.md',
        '+++ b/guide/setup.md',
        '@@ -2,6 +2,6 @@',
        '',
        'Install the tool.',
        '',
        'Then configure it with {+great +}care.',
        '',
        'Done.',
        '',
      ].join('\n'),
    );
    const none = await quire('cr', 'diff', String(n), '--page', 'guide/welcome.md');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^quire cr: #1 does not change guide\/welcome\.md; it changes guide\/setup\.md, /);
  });

  it('colours the diff on a terminal', async () => {
    const n = await seed();
    const command = [process.execPath, ...CLI_NODE_FLAGS, CLI, 'cr', 'diff', String(n), '--page', 'guide/setup.md', '--dir', dir].map(shellQuote).join(' ');
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token, TERM: 'xterm', NO_COLOR: '', FORCE_COLOR: '' }),
    });
    expect(stdout).toContain('\x1b[1mdiff --git a/guide/setup.md b/guide/setup.md\x1b[m');
    expect(stdout).toContain('\x1b[36m@@ -2,6 +2,6 @@\x1b[m');
    expect(stdout).toContain('\x1b[31m-Then configure it with care.\x1b[m');
    expect(stdout).toContain('\x1b[32m+Then configure it with great care.\x1b[m');
  });

  it('offline, answers from the mirror when it has the content, and says it needs the server when it does not', async () => {
    const n = await seed();
    expect((await quire('review')).code).toBe(0); // the refresh stores the change request's content
    const archived = fake.store.addChangeRequest(space.id, { subject: 'Shelved' });
    fake.store.addPage(space.id, { title: 'Draft page', markdown: 'Not yet.\n' }, { changeRequest: archived.id });
    fake.store.updateChangeRequestFields(space.id, archived.id, { status: 'archived' });
    expect((await quire('cr', 'list', '--status', 'all')).stdout).toContain('Shelved');
    fake.faults.offline = true;

    const offline = await quire('cr', 'diff', String(n), '--stat');
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain(' 5 pages changed, 5 insertions(+), 2 deletions(-)');
    expect(offline.stderr).toMatch(/^Showing #1 as the mirror last had it \(.*could not reach the API/m);

    const missing = await quire('cr', 'diff', String(archived.number));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(
      new RegExp(
        `^quire cr diff: the content of #${archived.number} is not in the mirror yet, and it needs the server \\(.*\\)\\. Run it again when the API is reachable\\.$`,
        'm',
      ),
    );
  });
});

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
