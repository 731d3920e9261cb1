/**
 * `quire search`, `quire history` and `quire restore` in process, on a folder synced from
 * the fake API by the real `quire sync --once`.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryJson } from '../../../src/main/hosts/cli/commands/history';
import type { SearchJson } from '../../../src/main/hosts/cli/commands/search';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { pageByTitle, read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (fake, space) => {
    fake.store.addPage(space.id, { title: 'Evil \u001b]0;pwned\u0007 title', markdown: 'Contains the word pelican and \u001b[2J a screen clear.\n' });
    const alice = fake.store.addUser({ displayName: 'Alice Reviewer' });
    fake.store.addComment(space.id, { body: 'Line three of install needs a pelican diagram.', page: pageByTitle(fake, space.id, 'Install').id, by: alice.id });
  },
);
beforeEach(async () => {
  expect((await quire(['review', '--dir', root], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
});

describe('quire search', () => {
  it('lists pages and comments with where they are and the words highlighted', async () => {
    const run = await quire(['search', 'pelican', '--dir', root]);
    expect(run.code).toBe(0);
    // The sync indexed each page as it wrote it: the search reads no file.
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^2 results for pelican:/);
    expect(run.stdout).toMatch(/ {2}guide\/evil-\S+\.md — Evil \\u001b\]0;pwned\\u0007 title\n/);
    expect(run.stdout).toContain('Contains the word [pelican] and \\u001b[2J a screen clear.');
    expect(run.stdout).toMatch(
      /comment \S+ by Alice Reviewer on main content, guide\/getting-started\/install\.md\n {6}Line three of install needs a \[pelican\] diagram\./,
    );
    expect(run.stdout).not.toContain('\u001b');
    // The index is built once; the next search does not read the folder again.
    expect((await quire(['search', 'pelican', '--dir', root])).stderr).toBe('');
  });

  it('finds local edits not pushed yet once indexed, and prints --json for scripts', async () => {
    await quire(['search', 'x', '--dir', root]);
    const run = await quire(['search', '"line two"', '--dir', root, '--json']);
    const json = JSON.parse(run.stdout) as SearchJson;
    expect(json.query).toBe('"line two"');
    expect(json.results).toEqual([
      {
        kind: 'page',
        spaceId: space.id,
        spaceTitle: 'Guide',
        file: 'guide/getting-started/install.md',
        pageId: pageByTitle(fake, space.id, 'Install').id,
        title: 'Install',
        snippet: expect.stringContaining('Line two.'),
        highlights: [expect.any(Array)],
      },
    ]);
    const [hit] = json.results;
    expect(hit!.snippet.slice(...hit!.highlights[0]!)).toBe('Line two');
    const comments = JSON.parse((await quire(['search', 'diagram', '--kind', 'comment', '--dir', root, '--json'])).stdout) as SearchJson;
    expect(comments.results).toMatchObject([{ kind: 'comment', author: 'Alice Reviewer', changeRequest: null, file: 'guide/getting-started/install.md' }]);
  });

  it('says what is wrong with a bad invocation, and never shows an SQLite error', async () => {
    expect((await quire(['search', '--dir', root])).stderr).toMatch(/missing <terms>: the words to search for/);
    expect((await quire(['search', 'x', '--dir', root, '--space', 'nope'])).stderr).toMatch(/no space nope in .*quire status/);
    expect((await quire(['search', 'x', '--dir', root, '--kind', 'pages'])).code).toBe(2);
    expect((await quire(['search', 'x', '--dir', root, '--limit', '0'])).stderr).toBe('quire search: --limit 0 is out of range: it takes from 1 to 200.');
    const odd = await quire(['search', 'zebra AND (', '--dir', root]);
    expect(odd.code).toBe(0);
    expect(odd.stdout).toMatch(/^Nothing found for zebra AND \(\./);
    expect(odd.stderr).not.toMatch(/SQLITE|fts5/i);
  });
  it('reads a bare last word as the start of a word, as the app’s search box does', async () => {
    const run = await quire(['search', 'instal', '--dir', root, '--json']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as SearchJson;
    expect(json.query).toBe('instal');
    expect(json.results.map((r) => r.title)).toContain('Install');
    // A finished word in a phrase, or a word written with its own operator, is left as written.
    expect(JSON.parse((await quire(['search', '"instal"', '--dir', root, '--json'])).stdout).results).toEqual([]);
  });

  it('refuses a query too large to search in one line, at once (a 20,000-word query took 45 s)', async () => {
    const huge = await quire(['search', ...Array.from({ length: 20_000 }, (_, i) => `word${i}`), '--dir', root]);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toBe('quire search: The search is 188,889 characters long; at most 1,000 are searched. Search for a few distinctive words instead.');
    const many = await quire(['search', ...Array.from({ length: 40 }, () => 'pelican'), '--dir', root]);
    expect(many.code).toBe(2);
    expect(many.stderr).toBe('quire search: The search has 40 words; at most 32 are searched at a time. Search for a few distinctive words instead.');
  });
});

describe('quire history and quire restore', () => {
  it('list the versions of a page, restore one, and the next sync pushes it', async () => {
    write(dir, 'faq.md', '# FAQ\n\nA rewrite nobody wanted.\n');
    const restored = await quire(['restore', join(dir, 'faq.md'), '--version', '1', '--dir', root]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toBe(
      [
        'Restored version 1 into guide/faq.md.',
        `Its previous text is kept as version 2 (\`quire history ${join(dir, 'faq.md')} --dir ${root}\`).`,
        'The next sync pushes it like any edit.',
      ].join('\n'),
    );
    expect(read(dir, 'faq.md')).toBe('# FAQ\n\nQuestions.\n');

    const listed = await quire(['history', 'guide/faq.md', '--dir', root]);
    const faqId = pageByTitle(fake, space.id, 'FAQ').id;
    expect(listed.stdout.split('\n')[0]).toBe(`guide/faq.md — FAQ (page ${faqId} in Guide)`);
    expect(listed.stdout).toMatch(
      /v3 +\S+ \S+ {2}restored \(version 1\)\n {2}v2 +\S+ \S+ {2}your text before Quire changed the file \(before a restore\)\n {2}v1 +\S+ \S+ {2}pulled from the server/,
    );
    const json = JSON.parse((await quire(['history', faqId, '--dir', root, '--json'])).stdout) as HistoryJson;
    expect(json.page).toEqual({ spaceId: space.id, pageKey: faqId, pageId: faqId, path: 'faq.md', file: 'guide/faq.md', title: 'FAQ', deleted: false });
    expect(json.versions.map((v) => [v.number, v.reason])).toEqual([
      [3, 'restored'],
      [2, 'local'],
      [1, 'pulled'],
    ]);

    // Restoring version 2 brings the rewrite back; the sync pushes it.
    expect((await quire(['restore', 'guide/faq.md', '--version', '2', '--dir', root])).code).toBe(0);
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = fake.store.changeRequestsOf(space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('A rewrite nobody wanted.\n');
  });

  it('lists pages with history when no page is named, and sets this folder’s retention', async () => {
    const run = await quire(['history', '--dir', root]);
    expect(run.stdout).toMatch(/^Pages with history, latest change first:\n/);
    expect(run.stdout).toContain('guide/faq.md — FAQ: 1 version, last pulled from the server');
    const set = await quire(['history', '--dir', root, '--keep-days', '30', '--keep-versions', '5']);
    expect(set.stderr).toBe('This folder now keeps every version from the last 30 days, and at least the last 5 versions of each page.');
    expect((await quire(['history', '--dir', root, '--keep-versions', '0'])).stderr).toMatch(
      /--keep-versions 0 is out of range: it takes from 1 to 100000 versions/,
    );
    expect((await quire(['history', '--dir', root, '--keep-days', 'soon'])).code).toBe(2);
  });

  it('say what to do when the page or the version is not there', async () => {
    const missing = await quire(['restore', 'guide/faq.md', '--version', '9', '--dir', root]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('quire restore: Version 9 of faq.md is not in history (it has version 1). See them with `quire history`.');
    expect((await quire(['history', 'guide/nothing.md', '--dir', root])).stderr).toMatch(/not a page file of a synced space/);
    // Without --version, only a page whose file is gone comes back (as last kept); one still there needs its version.
    expect((await quire(['restore', 'guide/faq.md', '--dir', root])).stderr).toMatch(/guide\/faq\.md is not a deleted page: give --version <n>/);
    expect((await quire(['restore', 'guide/faq.md', '--version', 'last', '--dir', root])).stderr).toMatch(
      /--version takes a version number from `quire history`, such as --version 3; got "last"/,
    );
  });
});
