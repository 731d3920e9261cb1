/**
 * `quire status` reads the path deviations the last cycle kept (core/sync/deviations.ts) without
 * comparing main's tree with the folder's: that is only right while both trees are as they were.
 * The mirror forgets a space's kept deviations as soon as either changes, whoever writes it, and
 * keeps them through what does not change them (a file's stat recorded, a text fetched). Which
 * pages wait to be pushed is compared as they are read: a push sets and clears it in one cycle.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BaseRow, type FolderNodeRow, Mirror } from '../../src/main/core/mirror';
import { keepPathDeviations, pathDeviations } from '../../src/main/core/sync/deviations';

const SPACE = 'space1';
const OTHER = 'space2';

const base = (id: string, over: Partial<BaseRow> = {}): BaseRow => ({
  id,
  parentId: null,
  position: 0,
  type: 'document',
  title: 'Guide',
  slug: 'guide',
  meta: {},
  documentId: null,
  updatedAt: null,
  ...over,
});

const node = (key: string, over: Partial<FolderNodeRow> = {}): FolderNodeRow => ({
  key,
  kind: 'document',
  parentKey: null,
  position: 0,
  title: 'Guide',
  name: 'guide',
  path: 'guide.md',
  folder: null,
  href: null,
  placedLocally: false,
  pending: false,
  pathKept: false,
  textHash: 'h1',
  size: 10,
  mtimeMs: 1,
  ino: '1',
  fileHash: 'f1',
  linkMap: null,
  ...over,
});

let mirror: Mirror;
const kept = (spaceId = SPACE) => mirror.folder.keptDeviations(spaceId);
const keep = () => {
  for (const spaceId of [SPACE, OTHER]) mirror.folder.keepDeviations(spaceId, { rules: 'null', pending: '[]', deviations: '[]' });
};

beforeEach(() => {
  mirror = Mirror.open(mkdtempSync(join(tmpdir(), 'quire-kept-deviations-')));
  mirror.transaction(() => {
    for (const spaceId of [SPACE, OTHER]) {
      mirror.content.upsertBase(spaceId, base('p1'));
      mirror.folder.upsert(spaceId, node('p1'));
    }
  });
  keep();
});
afterEach(() => mirror.close());

describe('kept path deviations', () => {
  it('are kept while nothing they come from changes', () => {
    expect(kept()).toEqual({ rules: 'null', pending: '[]', deviations: '[]' });
    mirror.folder.setStat(SPACE, 'p1', { size: 11, mtimeMs: 2, ino: '2' });
    mirror.content.upsertBase(SPACE, base('p1', { updatedAt: '2026-11-26T00:00:00.000Z' }), { value: 'New text.\n' });
    mirror.folder.upsert(SPACE, node('p1', { textHash: 'h2', fileHash: 'f2' }));
    expect(kept()).toBeDefined();
  });

  it.each<[string, () => void]>([
    ['a page of main is renamed', () => mirror.content.upsertBase(SPACE, base('p1', { title: 'The guide', slug: 'the-guide' }))],
    ['a page of main moves', () => mirror.content.upsertBase(SPACE, base('p1', { parentId: 'p0', position: 3 }))],
    ['a page of main is flagged in its meta', () => mirror.content.upsertBase(SPACE, base('p1', { meta: { goneRemotely: true } }))],
    ['a page comes to main', () => mirror.content.upsertBase(SPACE, base('p2'))],
    ['a page leaves main', () => mirror.content.deletePage(SPACE, 'p1')],
    ['a file is renamed here', () => mirror.folder.upsert(SPACE, node('p1', { name: 'guide-2', path: 'guide-2.md' }))],
    ['a file is placed by the writer', () => mirror.folder.upsert(SPACE, node('p1', { placedLocally: true }))],
    ['a file is kept where the writer put it', () => mirror.folder.upsert(SPACE, node('p1', { pathKept: true }))],
    ['a file is new here', () => mirror.folder.upsert(SPACE, node('p2', { path: 'new.md', name: 'new' }))],
    ['a file is gone here', () => mirror.folder.remove(SPACE, 'p1')],
  ])('are forgotten when %s, for that space only', (_, change) => {
    mirror.transaction(change);
    expect(kept()).toBeUndefined();
    expect(kept(OTHER)).toBeDefined();
  });

  it('are read only while the pages waiting are those they were worked out with', () => {
    // GitBook writes p1, the first page, as README.md; the folder has it at guide-2.md.
    mirror.transaction(() => mirror.folder.upsert(SPACE, node('p1', { name: 'guide-2', path: 'guide-2.md' })));
    keepPathDeviations(mirror, SPACE);
    const deviation = expect.objectContaining({ pageId: 'p1', gitbookPath: 'README.md', path: 'guide-2.md' });
    expect(pathDeviations(mirror, SPACE)).toEqual([deviation]);
    // An edit waits: the page is the writer's until it is pushed, not a deviation.
    mirror.transaction(() => mirror.folder.setPending(SPACE, 'p1', true));
    expect(pathDeviations(mirror, SPACE)).toEqual([]);
    // Pushed: as it was, and what was kept is read again (the pages waiting set and cleared in one cycle forget nothing).
    mirror.transaction(() => mirror.folder.setPending(SPACE, 'p1', false));
    expect(kept()).toBeDefined();
    expect(pathDeviations(mirror, SPACE)).toEqual([deviation]);
  });
});
