/**
 * Issue 20, item 2: every frontmatter key survives pull, edit and push (`coverY: 0` was dropped
 * on pull, so a later edit pushed the page without it); untouched frontmatter stays byte for
 * byte, in the writer's own formatting; a key the server changes is written in its place.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GITBOOK_MARKDOWN, startFakeApi, type FakeApi, type MarkdownSettings, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { openChangeRequests, read, syncOnce, write } from '../../helpers/sync';

const LAYOUT = {
  title: { visible: true },
  description: { visible: true },
  tableOfContents: { visible: true },
  outline: { visible: false },
  pagination: { visible: true },
};
const DESCRIPTION = 'Learn and understand the core concepts related to how you can install the SDK package, authenticate, and get started.';

let fake: FakeApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function pulled(markdown: MarkdownSettings): Promise<{ fake: FakeApi; space: SpaceRec; id: string; root: string; dir: string }> {
  fake = await startFakeApi({ markdown });
  const org = fake.store.addOrg({ title: 'Acme' });
  const space = fake.store.addSpace(org.id, {
    title: 'SDK',
    pages: [
      { title: 'Welcome', markdown: 'Hello.\n' },
      { title: 'Installation', description: DESCRIPTION, coverY: 0, layout: LAYOUT, markdown: 'Line one.\n\nLine two.\n' },
    ],
  });
  const root = tempDir();
  const run = await syncOnce(fake, root);
  expect(run.code, run.stderr).toBe(0);
  fake.resetLog();
  return { fake, space, id: fake.store.pageByTitle(space.id, 'Installation').id, root, dir: join(root, 'sdk') };
}

const GITBOOK_FILE = [
  '---',
  'description: >-',
  '  Learn and understand the core concepts related to how you can install the SDK',
  '  package, authenticate, and get started.',
  'coverY: 0',
  'layout:',
  '  title:',
  '    visible: true',
  '  description:',
  '    visible: true',
  '  tableOfContents:',
  '    visible: true',
  '  outline:',
  '    visible: false',
  '  pagination:',
  '    visible: true',
  '---',
  '',
  '# Installation',
  '',
  'Line one.',
  '',
  'Line two.',
  '',
].join('\n');

const writes = (f: FakeApi) => f.requests.filter((r) => r.method !== 'GET');

describe('frontmatter through pull, edit and push', () => {
  it('pulls the frontmatter as GitBook writes it, every key, and an edit pushes it with `coverY: 0` and the layout kept', async () => {
    const { fake, space, id, root, dir } = await pulled(GITBOOK_MARKDOWN);
    expect(read(dir, 'installation.md')).toBe(GITBOOK_FILE);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(writes(fake)).toEqual([]);

    write(dir, 'installation.md', GITBOOK_FILE.replace('Line two.', 'Line two, edited.'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    const page = fake.store.page(space.id, id, { changeRequest: cr!.id });
    expect(page.markdown).toBe('Line one.\n\nLine two, edited.\n');
    expect(page.coverY).toBe(0);
    expect(page.layout).toEqual(LAYOUT);
    expect(page.description).toBe(DESCRIPTION);
  });

  it("keeps the writer's own formatting byte for byte, and writes a key the server changed in its place", async () => {
    const { fake, space, id, root, dir } = await pulled(GITBOOK_MARKDOWN);
    const mine = [
      '---',
      `description: "${DESCRIPTION}"`,
      '# position of the cover image',
      'coverY: 0',
      'layout: {title: {visible: true}, description: {visible: true}, tableOfContents: {visible: true}, outline: {visible: false}, pagination: {visible: true}}',
      '---',
      '',
      '# Installation',
      '',
      'Line one.',
      '',
      'Line two.',
      '',
    ].join('\n');
    write(dir, 'installation.md', mine);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(writes(fake)).toEqual([]); // the same data: nothing to push
    expect(read(dir, 'installation.md')).toBe(mine);

    // The server changes the body: the frontmatter stays as the writer wrote it.
    fake.store.editPage(space.id, id, { markdown: 'Line one.\n\nLine two.\n\nLine three, from GitBook.\n' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'installation.md')).toBe(`${mine}\nLine three, from GitBook.\n`);

    // The server changes the description: that key alone is written again, in its place.
    fake.store.editPage(space.id, id, { description: 'Install the SDK.' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'installation.md')).toBe(`${mine.replace(`description: "${DESCRIPTION}"`, 'description: Install the SDK.')}\nLine three, from GitBook.\n`);
    expect(openChangeRequests(fake, space.id)).toEqual([]);
  });

  it('keeps keys the server does not report when it sends bare bodies, and pushes them', async () => {
    const { fake, space, id, root, dir } = await pulled({ ...GITBOOK_MARKDOWN, frontmatter: false });
    expect(read(dir, 'installation.md')).toBe(
      [
        '---',
        'description: >-',
        '  Learn and understand the core concepts related to how you can install the SDK',
        '  package, authenticate, and get started.',
        '---',
        '',
        '# Installation',
        '',
        'Line one.',
        '',
        'Line two.',
        '',
      ].join('\n'),
    );
    const mine = read(dir, 'installation.md').replace('---\n\n#', 'coverY: 10\ncustom: my own\n---\n\n#');
    write(dir, 'installation.md', mine);
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(fake.store.page(space.id, id, { changeRequest: cr!.id }).coverY).toBe(10);

    // Merged; then GitBook changes the body and a field: the keys it does not report stay.
    fake.store.mergeChangeRequest(space.id, cr!.id);
    fake.store.editPage(space.id, id, { markdown: 'Line one.\n\nLine two.\n\nLine three.\n', hidden: true });
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(read(dir, 'installation.md')).toBe(`${mine.replace('coverY: 10', 'hidden: true\ncoverY: 10')}\nLine three.\n`);
  });
});

describe('frontmatter too large to read (issue 17, item 9)', () => {
  it('holds a page with 50,000 frontmatter keys without reading them all, saying how large it is, in a dry run as in a sync', async () => {
    const { fake, root, dir } = await pulled(GITBOOK_MARKDOWN);
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    write(dir, 'installation.md', `---\n${keys}\n---\n\n# Installation\n\nLine one.\n`);
    const dry = await syncOnce(fake, root, '--dry-run');
    expect(dry.code, dry.stderr).toBe(3);
    expect(dry.stdout).toMatch(/held +installation\.md is not pushed: The frontmatter is \d+ KB and Quire reads at most 64 KB of it/);
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/installation\.md.*The frontmatter is \d+ KB and Quire reads at most 64 KB of it/);
    expect(writes(fake)).toEqual([]);
  });
});
