/** The conflict API hosts use: read the three versions of a conflict, resolve it either way. */
import { beforeEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/core/mirror';
import { readConflict, resolveConflict, ConflictNotFoundError } from '../../../src/main/core/sync/conflicts';
import type { FakeApi, SpaceRec } from '../../fake';
import { exists, openChangeRequests, pageByTitle, read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;

const withMirror = async <T>(fn: (m: Mirror) => Promise<T>): Promise<T> => {
  const m = Mirror.open(root);
  try {
    return await fn(m);
  } finally {
    m.close();
  }
};

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});
beforeEach(async () => {
  write(dir, 'faq.md', '# FAQ\n\nMine.\n');
  fake.store.editPage(space.id, pageByTitle(fake, space.id, 'FAQ').id, { markdown: 'Theirs.\n' });
  expect((await syncOnce(fake, root)).code).toBe(3);
});

describe('conflict resolution from a host', () => {
  it('reads the writer’s, the server’s and the common version', async () => {
    const texts = await withMirror((m) => readConflict(m, root, space.id, 'faq.md'));
    expect(texts).toMatchObject({ kind: 'both-changed', remotePath: 'faq.remote.md', local: '# FAQ\n\nMine.\n' });
    expect(texts.remote).toContain('Theirs.');
    expect(texts.base).toContain('Questions.');
  });

  it('“theirs” takes the server’s text; the next sync has nothing to push for it', async () => {
    await withMirror((m) => resolveConflict(m, root, space.id, 'faq.md', 'theirs'));
    expect(read(dir, 'faq.md')).toContain('Theirs.');
    expect(exists(dir, 'faq.remote.md')).toBe(false);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(openChangeRequests(fake, space.id)).toHaveLength(0);
  });

  it('“mine” keeps the writer’s file and pushes it', async () => {
    await withMirror((m) => resolveConflict(m, root, space.id, 'faq.md', 'mine'));
    expect(read(dir, 'faq.md')).toBe('# FAQ\n\nMine.\n');
    expect(exists(dir, 'faq.remote.md')).toBe(false);
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Mine.\n');
  });

  it('says so when there is no such conflict', async () => {
    await expect(withMirror((m) => resolveConflict(m, root, space.id, 'nope.md', 'mine'))).rejects.toBeInstanceOf(ConflictNotFoundError);
  });
});
