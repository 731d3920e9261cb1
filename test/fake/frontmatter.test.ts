/**
 * The head of `format=markdown` answers (settings `frontmatter` and `titleHeading`) and the
 * import precedence of writes (`documentMetadataFirst`), as GitBook does them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { GITBOOK_MARKDOWN, startFakeApi, type FakeApi, type MarkdownSettings } from './index';
import { testClient } from './test-client';

let running: FakeApi | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

const LONG = 'Run Lumen on your laptop and scrape your first target in five minutes, with Docker, Homebrew or the install script';

async function seeded(markdown?: Partial<MarkdownSettings>) {
  const fake = await startFakeApi(markdown ? { markdown } : {});
  running = fake;
  const org = fake.store.addOrg({ title: 'Lumen' });
  const space = fake.store.addSpace(org.id, {
    title: 'Docs',
    pages: [
      { title: 'Quickstart', description: LONG, icon: 'rocket', markdown: 'Install it.\n' },
      { title: 'Internal: checklist', description: 'Steps: tag, build, ship', hidden: true, noIndex: true, emoji: '🚀', markdown: 'Tag it.\n' },
      { title: 'Plain', markdown: 'Nothing else.\n' },
    ],
  });
  const page = (title: string) => fake.store.pageByTitle(space.id, title).id;
  return { fake, space, page, client: testClient(fake) };
}

describe('format=markdown head', () => {
  it('is off by default: the answer is the stored body', async () => {
    const { space, page, client } = await seeded();
    expect(await client.markdown(space.id, page('Quickstart'))).toBe('Install it.\n');
  });

  it('frontmatter: GitBook keys in GitBook order, a long description folded at 80 columns', async () => {
    const { space, page, client } = await seeded({ frontmatter: true });
    expect(await client.markdown(space.id, page('Quickstart'))).toBe(
      [
        '---',
        'description: >-',
        '  Run Lumen on your laptop and scrape your first target in five minutes, with',
        '  Docker, Homebrew or the install script',
        'icon: rocket',
        '---',
        '',
        'Install it.',
        '',
      ].join('\n'),
    );
    const internal = await client.markdown(space.id, page('Internal: checklist'));
    expect(internal).toBe("---\ndescription: 'Steps: tag, build, ship'\nhidden: true\nnoIndex: true\nemoji: 🚀\n---\n\nTag it.\n");
    expect(parseYaml(internal.split('---')[1] ?? '')).toEqual({ description: 'Steps: tag, build, ship', hidden: true, noIndex: true, emoji: '🚀' });
    expect(await client.markdown(space.id, page('Plain'))).toBe('Nothing else.\n'); // nothing to say: no frontmatter
  });

  it('titleHeading: a leading # Title, alone or under the frontmatter', async () => {
    const { fake, space, page, client } = await seeded({ titleHeading: true });
    expect(await client.markdown(space.id, page('Plain'))).toBe('# Plain\n\nNothing else.\n');
    fake.markdown.frontmatter = true; // settable at run time
    expect(await client.markdown(space.id, page('Internal: checklist'))).toMatch(/^---\n[\s\S]*\n---\n\n# Internal: checklist\n\nTag it\.\n$/);
  });

  it('a title with line breaks still makes one heading line', async () => {
    const { fake, space, client } = await seeded({ titleHeading: true });
    const odd = fake.store.addPage(space.id, { title: 'Two\nlines', markdown: 'x' });
    expect(await client.markdown(space.id, odd.id)).toBe('# Two lines\n\nx\n');
  });
});

describe('writes: GitBook import precedence (documentMetadataFirst)', () => {
  it('frontmatter and the leading heading win over the fields of the change; the heading leaves the body', async () => {
    const { fake, space, page, client } = await seeded(GITBOOK_MARKDOWN);
    const cr = fake.store.addChangeRequest(space.id);
    const answer = await client.batch(space.id, cr.id, [
      {
        operation: 'update_page',
        page: page('Plain'),
        title: 'From the field',
        icon: 'gear',
        document: { markdown: '---\nicon: book\nnoRobotsIndex: true\nlayout:\n  width: wide\n---\n\n# From the heading\n\nBody.' },
      },
      { operation: 'insert_page', document: { markdown: 'No title anywhere.' } },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(fake.store.page(space.id, page('Plain'), { changeRequest: cr.id })).toMatchObject({
      title: 'From the heading',
      icon: 'book',
      noRobotsIndex: true,
      markdown: 'Body.\n',
    });
    expect(fake.store.page(space.id, answer.body.changes[1].page.id, { changeRequest: cr.id }).title).toBe('Untitled');
  });

  it('off (the default): the fields win and a page without any title is refused', async () => {
    const { fake, space, page, client } = await seeded();
    const cr = fake.store.addChangeRequest(space.id);
    await client.batch(space.id, cr.id, [
      { operation: 'update_page', page: page('Plain'), title: 'From the field', document: { markdown: '# Heading\n\nBody.' } },
    ]);
    expect(fake.store.page(space.id, page('Plain'), { changeRequest: cr.id })).toMatchObject({ title: 'From the field', markdown: '# Heading\n\nBody.\n' });
    const untitled = await client.batch(space.id, cr.id, [{ operation: 'insert_page', document: { markdown: 'No title.' } }]);
    expect(untitled.status).toBe(400);
    expect(untitled.body.error.message).toMatch(/a new page needs a title/);
  });

  it('a heading closed by a run of # keeps a # that belongs to the title', async () => {
    const { fake, space, client } = await seeded();
    const cr = fake.store.addChangeRequest(space.id);
    const answer = await client.batch(space.id, cr.id, [
      { operation: 'insert_page', document: { markdown: '# C# SDK\n\nx' } },
      { operation: 'insert_page', document: { markdown: '# F# notes ##\n\nx' } },
    ]);
    const titles = answer.body.changes.map((c: { page: { id: string } }) => fake.store.page(space.id, c.page.id, { changeRequest: cr.id }).title);
    expect(titles).toEqual(['C# SDK', 'F# notes']);
  });
});

describe("Git Sync's own keys: cover, coverY, coverHeight, layout, tags", () => {
  const layout = { width: 'wide', title: { visible: true }, description: { visible: false }, outline: { visible: false } };

  it('are written in the head in GitBook order, and the API reports the layout switches', async () => {
    const fake = await startFakeApi({ markdown: { frontmatter: true } });
    running = fake;
    const org = fake.store.addOrg({ title: 'Lumen' });
    const space = fake.store.addSpace(org.id, {
      title: 'Docs',
      pages: [
        {
          title: 'Home',
          description: 'Start here',
          coverY: 0,
          cover: '.gitbook/assets/hero.png',
          coverHeight: 324,
          layout,
          tags: ['intro'],
          markdown: 'Hi.\n',
        },
      ],
    });
    const client = testClient(fake);
    const id = fake.store.pageByTitle(space.id, 'Home').id;
    expect(await client.markdown(space.id, id)).toBe(
      [
        '---',
        'description: Start here',
        'cover: .gitbook/assets/hero.png',
        'coverY: 0',
        'coverHeight: 324',
        'layout:',
        '  width: wide',
        '  title:',
        '    visible: true',
        '  description:',
        '    visible: false',
        '  outline:',
        '    visible: false',
        'tags:',
        '  - intro',
        '---',
        '',
        'Hi.',
        '',
      ].join('\n'),
    );
    const revision = (await client.get(`/spaces/${space.id}/content`)).body;
    expect(revision.pages[0].layout).toMatchObject({ width: 'wide', title: true, description: false, outline: false, tableOfContents: true });
  });

  it('are set by a document: a block without one clears it (what pushing a file without `coverY: 0` would do)', async () => {
    const fake = await startFakeApi({ markdown: GITBOOK_MARKDOWN });
    running = fake;
    const org = fake.store.addOrg({ title: 'Lumen' });
    const space = fake.store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Home', coverY: 0, layout, markdown: 'Hi.\n' }] });
    const client = testClient(fake);
    const id = fake.store.pageByTitle(space.id, 'Home').id;
    const cr = fake.store.addChangeRequest(space.id);
    await client.batch(space.id, cr.id, [{ operation: 'update_page', page: id, document: { markdown: '---\ncoverY: 12\n---\n\n# Home\n\nHi.' } }]);
    const after = fake.store.page(space.id, id, { changeRequest: cr.id });
    expect(after.coverY).toBe(12);
    expect(after.layout).toBeUndefined();
    // A change of fields alone leaves them.
    await client.batch(space.id, cr.id, [{ operation: 'update_page', page: id, title: 'Home page' }]);
    expect(fake.store.page(space.id, id, { changeRequest: cr.id }).coverY).toBe(12);
  });
});
