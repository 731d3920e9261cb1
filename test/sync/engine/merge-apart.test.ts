/**
 * Edits that do not overlap merge (issue 27, item 16): a page's frontmatter key by key and its
 * title apart from its body, so a writer's `description:` and the server's `icon:` on the next
 * line, or the server's retitle and a line the writer added at the end, are no conflict. Through
 * the CLI, against the fake.
 */
import { describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { exists, openChangeRequests, pageByTitle, read, syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (fake, space) => {
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'FAQ').id, { description: 'Old summary', icon: 'book' });
  },
);

describe('edits that do not overlap', () => {
  it('a description changed here and an icon changed there merge, and the merge is pushed', async () => {
    expect(read(dir, 'faq.md')).toBe('---\ndescription: Old summary\nicon: book\n---\n\n# FAQ\n\nQuestions.\n');
    write(dir, 'faq.md', read(dir, 'faq.md').replace('Old summary', 'Answers to what readers ask'));
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'FAQ').id, { icon: 'rocket' });

    const run = await syncOnce(fake, root);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(exists(dir, 'faq.remote.md')).toBe(false);
    expect(read(dir, 'faq.md')).toBe('---\ndescription: Answers to what readers ask\nicon: rocket\n---\n\n# FAQ\n\nQuestions.\n');
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id)).toMatchObject({ description: 'Answers to what readers ask', icon: 'rocket' });
  });

  it('a retitle there and a line added at the end of a three-line page here merge', async () => {
    expect(read(dir, 'README.md')).toBe('# Welcome\n\nHello, reader.\n');
    write(dir, 'README.md', '# Welcome\n\nHello, reader.\nGlad you came.\n');
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Welcome').id, { title: 'Hello' });

    const run = await syncOnce(fake, root);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(exists(dir, 'README.remote.md')).toBe(false);
    expect(read(dir, 'README.md')).toBe('# Hello\n\nHello, reader.\nGlad you came.\n');
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'Hello', cr!.id).markdown).toBe('Hello, reader.\nGlad you came.\n');
  });
});
