/**
 * Search and history follow the sync engine: what a cycle pulls, merges, moves, deletes and
 * pushes is in the index and in the page's history right after it, with no separate indexing.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/core/mirror';
import type { FakeApi, SpaceRec } from '../../fake';
import { pageByTitle, read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

function withMirror<T>(fn: (m: Mirror) => T): T {
  const m = Mirror.open(root);
  try {
    return fn(m);
  } finally {
    m.close();
  }
}
const found = (query: string) => withMirror((m) => m.search.search(query).map((h) => (h.kind === 'page' ? h.path : h.kind)));
const reasons = (title: string) =>
  withMirror((m) =>
    m.history
      .versions(space.id, pageByTitle(fake, space.id, title).id)
      .map((v) => v.reason)
      .reverse(),
  );

describe('search and history follow each cycle', () => {
  it('a pull is searchable and kept; a merge keeps the writer’s text first; a move follows; a delete there is kept', async () => {
    expect(found('questions')).toEqual(['faq.md']);
    expect(reasons('FAQ')).toEqual(['pulled']);

    const faq = pageByTitle(fake, space.id, 'FAQ').id;
    fake.store.editPage(space.id, faq, { markdown: 'Questions.\n\nOne.\n\nTwo.\n\nThree.\n\nA pelican answers.\n' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(found('pelican')).toEqual(['faq.md']);
    expect(reasons('FAQ')).toEqual(['pulled', 'pulled']);

    // Both sides edit, at different places: merged, and the writer's text is kept before it.
    write(dir, 'faq.md', '# FAQ\n\nQuestions, asked here.\n\nOne.\n\nTwo.\n\nThree.\n\nA pelican answers.\n');
    fake.store.editPage(space.id, faq, { markdown: 'Questions.\n\nOne.\n\nTwo.\n\nThree.\n\nA pelican answers, and a heron.\n' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'faq.md')).toContain('asked here');
    expect(read(dir, 'faq.md')).toContain('heron');
    expect(reasons('FAQ').slice(2, 4)).toEqual(['local', 'merged']);
    expect(reasons('FAQ')).toContain('pushed');
    expect(found('heron')).toEqual(['faq.md']);

    renameSync(join(dir, 'faq.md'), join(dir, 'questions.md'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(found('heron')).toEqual(['questions.md']);

    const changelog = pageByTitle(fake, space.id, 'Changelog').id;
    fake.store.deletePage(space.id, changelog);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(found('"nothing yet"')).toEqual([]);
    expect(withMirror((m) => m.history.versions(space.id, changelog).map((v) => v.reason))).toEqual(['deleted-remotely', 'pulled']);
  });
});
