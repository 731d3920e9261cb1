/**
 * Restoring a version into the folder, and the next sync pushing it like any edit: an edited
 * page, a page deleted here, a page deleted on the server. The real `quire sync --once` runs
 * against the fake API and keeps the versions (pulled, pushed, deleted) as it goes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PageNotFoundError, restoreVersion, VersionNotFoundError } from '../../src/main/core/history';
import { type HistoryReason, Mirror } from '../../src/main/core/mirror';
import type { FakeApi, SpaceRec } from '../fake';
import { exists, openChangeRequests, pageByTitle, read, remove, syncOnce, syncedGuideEachTest, write } from '../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;
let faqId: string;
const ORIGINAL = '# FAQ\n\nQuestions.\n';

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});
beforeEach(async () => {
  faqId = pageByTitle(fake, space.id, 'FAQ').id;
  expect(read(dir, 'faq.md')).toBe(ORIGINAL);
});

let clock = Date.parse('2026-11-24T09:00:00Z');
function now(): string {
  clock += 60_000;
  return new Date(clock).toISOString();
}

function withMirror<T>(fn: (m: Mirror) => T): T {
  const mirror = Mirror.open(root);
  try {
    return fn(mirror);
  } finally {
    mirror.close();
  }
}

function record(reason: HistoryReason, text: string, detail: string | null = null): void {
  withMirror((m) => m.history.record({ spaceId: space.id, pageId: faqId, path: 'faq.md', title: 'FAQ', text, reason, detail, at: now() }));
}

async function restore(target: string, version: number) {
  const mirror = Mirror.open(root);
  try {
    return await restoreVersion(mirror, root, { target, version, cwd: root, now });
  } finally {
    mirror.close();
  }
}
const pulledRevision = () => withMirror((m) => m.history.versions(space.id, faqId).at(-1)?.detail?.replace('revision ', ''));
const versions = () => withMirror((m) => m.history.versions(space.id, faqId).map((v) => `${v.number}:${v.reason}${v.detail ? ` (${v.detail})` : ''}`));

describe('restore', () => {
  it('an edited page: the current text goes into history first, then the next sync pushes the old version', async () => {
    write(dir, 'faq.md', '# FAQ\n\nQuestions, rewritten badly.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    write(dir, 'faq.md', '# FAQ\n\nQuestions, rewritten worse, not pushed yet.\n');

    const result = await restore('guide/faq.md', 1);
    expect(result).toMatchObject({ spaceId: space.id, pageKey: faqId, path: 'faq.md', file: 'guide/faq.md', outcome: 'written', besideOther: false });
    expect(read(dir, 'faq.md')).toBe(ORIGINAL);
    expect(versions()).toEqual([
      '4:restored (version 1)',
      '3:local (before a restore)',
      `2:pushed (change request #${cr!.number})`,
      `1:pulled (revision ${pulledRevision()})`,
    ]);
    expect(withMirror((m) => m.history.text(space.id, faqId, 3))).toBe('# FAQ\n\nQuestions, rewritten worse, not pushed yet.\n');

    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Questions.\n');
  });

  it('a page deleted here comes back at its path, named by its id, and the next sync undoes the delete', async () => {
    remove(dir, 'faq.md');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(() => pageByTitle(fake, space.id, 'FAQ', cr!.id)).toThrow(/no page titled FAQ/);

    const result = await restore(faqId, 1);
    expect(result).toMatchObject({ path: 'faq.md', outcome: 'written', saved: null });
    expect(read(dir, 'faq.md')).toBe(ORIGINAL);
    expect(versions()[0]).toBe('3:restored (version 1)');

    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Questions.\n');
  });

  it('a page deleted on the server comes back at its last path, and the next sync proposes it again', async () => {
    fake.store.deletePage(space.id, faqId);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(exists(dir, 'faq.md')).toBe(false);
    // What the engine records just before it removes the file.
    record('deleted-remotely', ORIGINAL, 'main');

    const result = await restore('guide/faq.md', 1);
    expect(result).toMatchObject({ path: 'faq.md', outcome: 'written' });
    expect(read(dir, 'faq.md')).toBe(ORIGINAL);

    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Questions.\n');
  });

  it('never replaces a file another page now has at that path: the version goes beside it', async () => {
    fake.store.deletePage(space.id, faqId);
    expect((await syncOnce(fake, root)).code).toBe(0);
    record('deleted-remotely', ORIGINAL, 'main');
    write(dir, 'faq.md', '# Questions\n\nA new page, written since.\n');

    const result = await restore('guide/faq.md', 1);
    expect(result).toMatchObject({ path: 'faq.restored.md', file: 'guide/faq.restored.md', besideOther: true, saved: null });
    expect(read(dir, 'faq.md')).toBe('# Questions\n\nA new page, written since.\n');
    expect(read(dir, 'faq.restored.md')).toBe(ORIGINAL);
  });

  it('leaves the file alone when it already holds that version', async () => {
    const result = await restore(join(dir, 'faq.md'), 1);
    expect(result.outcome).toBe('unchanged');
    expect(versions()).toEqual([`1:pulled (revision ${pulledRevision()})`]);
  });

  it('says which versions exist when asked for one that does not, and what to name when the page is unknown', async () => {
    await expect(restore('guide/faq.md', 7)).rejects.toThrow(VersionNotFoundError);
    await expect(restore('guide/faq.md', 7)).rejects.toThrow(/Version 7 of faq\.md is not in history \(it has version 1\)/);
    await expect(restore('guide/nothing-here.md', 1)).rejects.toThrow(PageNotFoundError);
    await expect(restore('no-such-id', 1)).rejects.toThrow(/No page with id no-such-id/);
    expect(readFileSync(join(dir, 'faq.md'), 'utf8')).toBe(ORIGINAL);
  });
});
