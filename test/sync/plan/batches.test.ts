/** Batch building: planned pushes turned into the API's change-request content changes, in batches. */
import { describe, expect, it } from 'vitest';
import { buildBatches, changeRequestSubject, resolveChange, slugFor, subjectItemsOf } from '../../../src/main/core/sync/change-request';
import type { PushOp } from '../../../src/main/core/sync/plan';

describe('batch building', () => {
  const update = (i: number): PushOp => ({
    op: 'update',
    id: `p${i}`,
    path: `p${i}.md`,
    text: `# P${i}\n`,
    record: `# P${i}\n`,
    move: null,
    rename: null,
    title: null,
    restore: false,
    parentKey: null,
    after: null,
    name: `p${i}`,
  });

  it('holds at most 50 changes per batch', () => {
    const batches = buildBatches(Array.from({ length: 120 }, (_, i) => update(i)));
    expect(batches.map((b) => b.changes.length)).toEqual([50, 50, 20]);
  });

  it('creates a new parent in an earlier batch than its children, and resolves `into` to its id', () => {
    const ops: PushOp[] = [
      {
        op: 'insert',
        key: 'new:recipes/soup.md',
        path: 'recipes/soup.md',
        text: '# Soup\n',
        parentKey: 'new:recipes/README.md',
        after: null,
        last: true,
        name: 'soup',
      },
      {
        op: 'insert',
        key: 'new:recipes/README.md',
        path: 'recipes/README.md',
        text: '# Recipes\n',
        parentKey: null,
        after: 'p1',
        last: false,
        name: 'recipes',
      },
    ];
    const [first, second] = buildBatches(ops);
    expect(first!.changes.map((c) => c.change)).toEqual([
      { operation: 'insert_page', ref: 'quire-recipes-README-md', document: { markdown: '# Recipes\n' }, slug: 'recipes' },
    ]);
    expect(second!.changes[0]!.intoKey).toBe('new:recipes/README.md');
    expect(resolveChange(second!.changes[0]!, new Map([['new:recipes/README.md', 'page_42']]))).toMatchObject({
      operation: 'insert_page',
      into: 'page_42',
      slug: 'soup',
    });
    expect(() => resolveChange(second!.changes[0]!, new Map())).toThrow(/was not created/);
  });

  it('moves pages out before deleting their old parent, and restores with revert then update', () => {
    const ops: PushOp[] = [
      { op: 'delete', id: 'guide', path: 'guide/README.md' },
      { ...update(1), move: { parentKey: null, after: null, last: true }, text: null, rename: 'renamed' } as PushOp,
      { ...update(2), restore: true } as PushOp,
    ];
    const [batch] = buildBatches(ops);
    expect(batch!.changes.map((c) => c.change)).toEqual([
      { operation: 'update_page', page: 'p1', slug: 'renamed', into: null },
      { operation: 'revert_page', page: 'p2' },
      { operation: 'update_page', page: 'p2', document: { markdown: '# P2\n' } },
      { operation: 'delete_page', page: 'guide' },
    ]);
  });

  it('gives a page without a title heading its file name as title, and uploads assets 20 per change', () => {
    const ops: PushOp[] = [
      { op: 'insert', key: 'new:notes.md', path: 'notes.md', text: 'Just a note.\n', parentKey: null, after: null, last: true, name: 'notes' },
      { op: 'files', assets: Array.from({ length: 25 }, (_, i) => ({ path: `.gitbook/assets/a${i}.png`, name: `a${i}.png`, size: 3 })) },
    ];
    const assets = new Map(Array.from({ length: 25 }, (_, i) => [`.gitbook/assets/a${i}.png`, { base64: 'AAAA', contentType: 'image/png' }]));
    const changes = buildBatches(ops, assets).flatMap((b) => b.changes.map((c) => c.change));
    expect(changes.filter((c) => c.operation === 'insert_files').map((c) => (c.files as unknown[]).length)).toEqual([20, 5]);
    expect(changes.find((c) => c.operation === 'insert_page')).toMatchObject({ title: 'notes', slug: 'notes' });
  });

  it('makes slugs the API accepts and subjects that say in words what changed (issue 18)', () => {
    expect(slugFor('getting-started')).toBe('getting-started');
    expect(slugFor('Café Menu!')).toBe('cafe-menu');
    expect(slugFor('***')).toBeNull();
    const ops: PushOp[] = [
      update(1),
      update(2),
      { op: 'delete', id: 'x', path: 'old/README.md' },
      {
        op: 'insert',
        key: 'new:my-new-page.md',
        path: 'my-new-page.md',
        text: '# My new page\n\nHi.\n',
        parentKey: null,
        after: null,
        last: true,
        name: 'my-new-page',
      },
      { ...update(3), text: null, record: null, rename: 'moved', name: 'moved' } as PushOp,
    ];
    expect(changeRequestSubject(subjectItemsOf(ops))).toBe('Add ‘My new page’, edit ‘P1’ (+3 more)');
    expect(changeRequestSubject(subjectItemsOf([update(1)]))).toBe('Edit ‘P1’');
    expect(changeRequestSubject(subjectItemsOf([{ op: 'delete', id: 'x', path: 'old/README.md' }]))).toBe('Delete ‘old’');
    expect(changeRequestSubject(subjectItemsOf([{ ...update(3), text: null, record: null, rename: 'moved', name: 'moved' } as PushOp]))).toBe('Move ‘moved’');
    const long = changeRequestSubject([
      { verb: 'add', title: 'x'.repeat(300) },
      { verb: 'edit', title: 'y'.repeat(300) },
      { verb: 'edit', title: 'z' },
    ]);
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long).toMatch(/^Add ‘x+…’, edit ‘y+…’ \(\+1 more\)$/);
    expect(long).not.toMatch(/Quire [0-9a-f]/);
    // Titles cut between characters, and without control characters (issue 27, item 21).
    const emoji = changeRequestSubject([
      { verb: 'add', title: `${'x'.repeat(38)}🎉🎉` },
      { verb: 'edit', title: 'Red \u001b[31mtitle' },
    ]);
    expect(emoji).toBe(`Add ‘${'x'.repeat(38)}…’, edit ‘Red [31mtitle’`);
  });
});
