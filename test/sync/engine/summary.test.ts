/**
 * SUMMARY.md edited by hand (Git Sync's table of contents): order and nesting become page
 * moves, group and link titles become title updates, and what the API cannot do (create a
 * group or a link, change a link's target, delete through SUMMARY.md) is reported, never
 * guessed. Nothing else changes: no text is sent and no file is lost.
 */
import { describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { contentBatches, exists, openChangeRequests, read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (fake, space) => {
    fake.store.addPage(space.id, { title: 'Reference', type: 'group', pages: [{ title: 'API', markdown: 'Calls.\n' }] });
    fake.store.addPage(space.id, { title: 'Status page', type: 'link', href: 'https://status.example.com' });
  },
);

type Change = { operation: string; page?: string; into?: string | null; title?: string; document?: unknown };
const sentChanges = (): Change[] => contentBatches(fake).flatMap((r) => (r.body as { changes: Change[] }).changes);
const editSummary = (edit: (text: string) => string) => write(dir, 'SUMMARY.md', edit(read(dir, 'SUMMARY.md')));
const idOf = (title: string) => fake.store.pageByTitle(space.id, title).id;
const crTree = () => {
  const [cr] = openChangeRequests(fake, space.id);
  const revision = fake.store.revisionOf(space.id, { changeRequest: cr!.id });
  const titles = (parent: string | null): string[] => (revision.children.get(parent ?? '') ?? []).map((id) => revision.pages.get(id)!.title);
  return { titles, id: (title: string) => [...revision.pages.values()].find((p) => p.title === title)!.id };
};
/** A second cycle after a SUMMARY.md edit is quiet: the edit was taken once. */
async function expectQuietNextCycle(): Promise<void> {
  fake.resetLog();
  expect((await syncOnce(fake, root)).code).toBe(0);
  expect(contentBatches(fake)).toHaveLength(0);
}

describe('SUMMARY.md edited by hand', () => {
  it('reordering entries alone moves the fewest pages, without sending any text or moving files', async () => {
    editSummary((t) => t.replace('* [FAQ](faq.md)\n* [Changelog](changelog.md)\n', '* [Changelog](changelog.md)\n* [FAQ](faq.md)\n'));
    expect((await syncOnce(fake, root)).code).toBe(0);

    const changes = sentChanges();
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ operation: 'update_page' });
    expect(changes[0]!.document).toBeUndefined();
    expect([idOf('FAQ'), idOf('Changelog')]).toContain(changes[0]!.page);
    expect(crTree().titles(null)).toEqual(['Welcome', 'Getting Started', 'Changelog', 'FAQ', 'Reference', 'Status page']);
    expect(exists(dir, 'faq.md') && exists(dir, 'changelog.md')).toBe(true);
    expect(read(dir, 'SUMMARY.md')).toMatch(/\* \[Changelog\]\(changelog\.md\)\n\* \[FAQ\]\(faq\.md\)/);
    await expectQuietNextCycle();
  });

  it('an entry indented under another page moves the page there; its file stays where it is (issue 28, item 1)', async () => {
    editSummary((t) => t.replace('* [FAQ](faq.md)\n', '  * [FAQ](faq.md)\n'));
    expect((await syncOnce(fake, root)).code).toBe(0);

    const tree = crTree();
    expect(tree.titles(tree.id('Getting Started'))).toEqual(['Install', 'Configure', 'FAQ']);
    expect(sentChanges()).toEqual([expect.objectContaining({ operation: 'update_page', page: idOf('FAQ'), into: idOf('Getting Started') })]);
    expect(exists(dir, 'faq.md')).toBe(true);
    expect(exists(dir, 'getting-started/faq.md')).toBe(false);
    expect(read(dir, 'SUMMARY.md')).toContain('  * [FAQ](faq.md)\n');
    await expectQuietNextCycle();
  });

  it('an entry moved under a group heading goes into that group', async () => {
    editSummary((t) =>
      t
        .replace('* [Changelog](changelog.md)\n', '')
        .replace('## Reference\n\n* [API](reference/api.md)\n', '## Reference\n\n* [API](reference/api.md)\n* [Changelog](changelog.md)\n'),
    );
    expect((await syncOnce(fake, root)).code).toBe(0);
    const tree = crTree();
    expect(tree.titles(tree.id('Reference'))).toEqual(['API', 'Changelog']);
    expect(exists(dir, 'changelog.md')).toBe(true); // the file stays where it is
    await expectQuietNextCycle();
  });

  it('a renamed group heading or link title is a title update', async () => {
    editSummary((t) => t.replace('## Reference', '## API reference').replace('[Status page]', '[Service status]'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    const changes = sentChanges();
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'update_page', page: idOf('Reference'), title: 'API reference' }),
        expect.objectContaining({ operation: 'update_page', page: idOf('Status page'), title: 'Service status' }),
      ]),
    );
    expect(changes.every((c) => c.document === undefined)).toBe(true);
    expect(read(dir, 'SUMMARY.md')).toContain('## API reference');
    await expectQuietNextCycle();
  });

  it('what the API cannot do from SUMMARY.md is reported, and nothing is deleted', async () => {
    editSummary((t) =>
      t
        .replace('* [Changelog](changelog.md)\n', '')
        .replace('---\n', '## Tutorials\n\n---\n')
        .replace('(https://status.example.com)', '(https://status.example.org)'),
    );
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).toMatch(/SUMMARY\.md line \d+: “Tutorials” is a new group/);
    expect(run.stdout + run.stderr).toMatch(/SUMMARY\.md line \d+: the link “Status page” points elsewhere/);
    expect(sentChanges()).toHaveLength(0);
    expect(exists(dir, 'changelog.md')).toBe(true);
    // SUMMARY.md lists the page again (it is there), and keeps the writer's lines it could not take, as written.
    expect(read(dir, 'SUMMARY.md')).toContain('[Changelog](changelog.md)');
    expect(read(dir, 'SUMMARY.md')).toMatch(/\n## Tutorials\n/);
    expect(read(dir, 'SUMMARY.md')).toContain('[Status page](https://status.example.org)');
    // Said again by the next cycle (never "in sync" while held), with nothing sent.
    fake.resetLog();
    const again = await syncOnce(fake, root);
    expect(again.code).toBe(3);
    expect(again.stdout + again.stderr).toMatch(/“Tutorials” is a new group/);
    expect(contentBatches(fake)).toHaveLength(0);

    // Settled by the writer: the lines taken out again.
    editSummary((t) => t.replace('## Tutorials\n\n', '').replace('(https://status.example.org)', '(https://status.example.com)'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'SUMMARY.md')).not.toContain('Tutorials');
    await expectQuietNextCycle();
  });
});

describe('titles in SUMMARY.md', () => {
  const listed = () => read(dir, 'SUMMARY.md');
  const inserted = (): Change[] => sentChanges().filter((c) => c.operation === 'insert_page');
  const crTitles = () => crTree().titles(null);

  it('a new page is listed under its title: its heading, else its frontmatter title, else its file name', async () => {
    write(dir, 'new-page.md', '# My new page\n\nSome text.\n');
    write(dir, 'titled.md', '---\ntitle: Set in the frontmatter\ndescription: A page without a heading.\n---\n\nTitled by its frontmatter.\n');
    write(dir, 'untitled-notes.md', 'No title at all.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);

    expect(listed()).toContain('* [My new page](new-page.md)\n');
    expect(listed()).toContain('* [Set in the frontmatter](titled.md)\n');
    expect(listed()).toContain('* [untitled-notes](untitled-notes.md)\n');
    expect(crTitles()).toEqual(expect.arrayContaining(['My new page', 'Set in the frontmatter', 'untitled-notes']));
    await expectQuietNextCycle();
    expect(listed()).toContain('* [My new page](new-page.md)\n');
  });

  it('a heading edited in a page file is its title in SUMMARY.md at once, before the change request is merged', async () => {
    write(dir, 'faq.md', read(dir, 'faq.md').replace('# FAQ', '# Questions and answers'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(listed()).toContain('* [Questions and answers](faq.md)\n');
    expect(crTitles()).toContain('Questions and answers');
    await expectQuietNextCycle();
  });

  it('a title typed in SUMMARY.md for a page file without a title of its own stays, and is the page’s title on the server', async () => {
    write(dir, 'blocks.md', 'Every block, one after the other.\n');
    editSummary((t) => t.replace('* [FAQ](faq.md)\n', '* [FAQ](faq.md)\n* [Blocks tour](blocks.md)\n'));
    expect((await syncOnce(fake, root)).code).toBe(0);

    expect(inserted()).toEqual([expect.objectContaining({ title: 'Blocks tour' })]);
    expect(crTitles()).toEqual(['Welcome', 'Getting Started', 'FAQ', 'Blocks tour', 'Changelog', 'Reference', 'Status page']);
    expect(listed()).toContain('* [FAQ](faq.md)\n* [Blocks tour](blocks.md)\n');
    await expectQuietNextCycle();
    expect(listed()).toContain('* [Blocks tour](blocks.md)\n');

    // Retyped later: an update of the page's title, as for a link or a group.
    fake.resetLog();
    editSummary((t) => t.replace('[Blocks tour]', '[A tour of every block]'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(sentChanges()).toEqual([expect.objectContaining({ operation: 'update_page', title: 'A tour of every block' })]);
    expect(sentChanges()[0]!.document).toBeUndefined();
    expect(crTitles()).toContain('A tour of every block');
    expect(listed()).toContain('* [A tour of every block](blocks.md)\n');
    await expectQuietNextCycle();
  });

  it('a title typed in SUMMARY.md that the page’s own heading contradicts is reported, and the heading stays the title', async () => {
    editSummary((t) => t.replace('* [FAQ](faq.md)', '* [Questions](faq.md)'));
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).toMatch(
      /SUMMARY\.md line \d+: “Questions” is not the title of faq\.md, which says “FAQ”: a page's title is its file's `# heading`/,
    );
    expect(sentChanges()).toHaveLength(0);
    // The typed title stays in SUMMARY.md, held (said again by the next cycle) until the two agree.
    expect(listed()).toContain('* [Questions](faq.md)\n');
    expect(read(dir, 'faq.md')).toContain('# FAQ');
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(sentChanges()).toHaveLength(0);

    write(dir, 'faq.md', read(dir, 'faq.md').replace('# FAQ', '# Questions'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(crTitles()).toContain('Questions');
    expect(listed()).toContain('* [Questions](faq.md)\n');
    await expectQuietNextCycle();
  });
});

describe('groups and links changed on the server', () => {
  it('a link retitled or re-pointed on the server, or moved there, is pulled into SUMMARY.md and never pushed as a delete', async () => {
    const link = idOf('Status page');
    fake.store.editPage(space.id, link, { title: 'Service status', href: 'https://status.example.org' });
    fake.store.movePage(space.id, link, { parent: idOf('Reference') });
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(sentChanges()).toEqual([]);
    expect(read(dir, 'SUMMARY.md')).toContain('* [Service status](https://status.example.org)');
    expect(read(dir, 'SUMMARY.md')).not.toContain('Status page');
    await expectQuietNextCycle();
  });

  it('a group without pages retitled on the server is pulled, and never pushed as a delete', async () => {
    const empty = fake.store.addPage(space.id, { title: 'Later', type: 'group' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'SUMMARY.md')).toContain('## Later');
    fake.store.editPage(space.id, empty.id, { title: 'Soon' });
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(sentChanges()).toEqual([]);
    expect(read(dir, 'SUMMARY.md')).toContain('## Soon');
    await expectQuietNextCycle();
  });
});
