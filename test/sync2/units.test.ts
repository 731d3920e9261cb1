/** Unit tests of the pure parts of two-way sync: edit detection, batch building, merging. */
import { describe, expect, it } from 'vitest';
import { buildLocalTree, type KnownPage } from '../../src/main/core/sync/local-tree';
import { buildBatches, changeRequestSubject, markerOf, resolveChange, slugFor } from '../../src/main/core/sync/change-request';
import { mergeText } from '../../src/main/core/sync/merge';
import { samePageText } from '../../src/main/core/content';
import { parseSummary } from '../../src/main/core/content';
import type { PushOp } from '../../src/main/core/sync/planner';
import { apply, initialState, plan, remoteOf, type SimTree } from './planner-sim';

const tree: SimTree = [
  { id: 'home', parentId: null, title: 'Home', slug: 'home', body: 'Welcome.\n' },
  { id: 'guide', parentId: null, title: 'Guide', slug: 'guide', body: 'The guide.\n' },
  { id: 'install', parentId: 'guide', title: 'Install', slug: 'install', body: 'Run it.\n' },
  { id: 'faq', parentId: null, title: 'FAQ', slug: 'faq', body: 'Questions.\n' },
];
const known = (): KnownPage[] =>
  [...initialState(tree).base.values()].map((b) => ({ id: b.id, kind: b.kind, parentId: b.parentId, name: b.name, path: b.path, text: b.text }));
const filesOf = (files: Record<string, string>) => Object.entries(files).map(([path, text]) => ({ path, text }));

describe('edit detection (the local tree)', () => {
  const synced = initialState(tree).files;
  const text = (path: string) => synced.get(path)!;

  it('knows every file by the path it was synced to', () => {
    const local = buildLocalTree(
      filesOf({
        'README.md': text('README.md'),
        'guide/README.md': text('guide/README.md'),
        'guide/install.md': text('guide/install.md'),
        'faq.md': text('faq.md'),
      }),
      known(),
    );
    expect([...local.pages.values()].map((p) => [p.path, p.id, p.parentKey, p.movedFrom])).toEqual([
      ['README.md', 'home', null, null],
      ['faq.md', 'faq', null, null],
      ['guide/README.md', 'guide', null, null],
      ['guide/install.md', 'install', 'guide', null],
    ]);
  });

  it('recognises a moved file by its text and a renamed, edited file by its title', () => {
    const local = buildLocalTree(
      filesOf({
        'README.md': text('README.md'),
        'guide/README.md': text('guide/README.md'),
        'guide/faq.md': text('faq.md'),
        'setup.md': '# Install\n\nRun it, then configure it.\n',
      }),
      known(),
    );
    expect(local.pages.get('faq')).toMatchObject({ path: 'guide/faq.md', parentKey: 'guide', movedFrom: 'faq.md' });
    expect(local.pages.get('install')).toMatchObject({ path: 'setup.md', parentKey: null, name: 'setup', movedFrom: 'guide/install.md' });
  });

  it('places a new file under the page of its folder, at its SUMMARY.md position', () => {
    const summary = parseSummary(
      '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Upgrade](guide/upgrade.md)\n  * [Install](guide/install.md)\n',
    );
    const local = buildLocalTree(
      filesOf({ 'guide/README.md': text('guide/README.md'), 'guide/install.md': text('guide/install.md'), 'guide/upgrade.md': '# Upgrade\n' }),
      known(),
      summary,
    );
    expect(local.pages.get('new:guide/upgrade.md')).toMatchObject({ id: null, parentKey: 'guide', name: 'upgrade', position: 0 });
  });

  it('does not count line endings, blank lines or frontmatter order as an edit', () => {
    expect(
      samePageText('---\ndescription: d\nhidden: true\n---\n\n# T\n\nBody.\n', '---\r\nhidden: true\r\ndescription: d\r\n---\r\n# T\r\nBody.\r\n\r\n'),
    ).toBe(true);
    expect(samePageText('# T\n\nBody.\n', '# T\n\nBody!\n')).toBe(false);
  });

  it('turns only the edited, added and deleted files into pushes', () => {
    const state = initialState(tree);
    state.files.set('faq.md', '# FAQ\n\nQuestions and answers.\n');
    state.files.set('guide/upgrade.md', '# Upgrade\n\nSteps.\n');
    state.files.delete('guide/install.md');
    const p = plan(state, remoteOf(tree));
    expect(p.push.map((op) => [op.op, 'id' in op ? op.id : 'key' in op ? op.key : ''])).toEqual([
      ['insert', 'new:guide/upgrade.md'],
      ['update', 'faq'],
      ['delete', 'install'],
    ]);
    apply(state, p);
    expect(plan(state, remoteOf(tree)).push).toEqual([]);
  });
});

describe('batch building', () => {
  const update = (i: number): PushOp => ({
    op: 'update',
    id: `p${i}`,
    path: `p${i}.md`,
    text: `# P${i}\n`,
    record: `# P${i}\n`,
    move: null,
    rename: null,
    restore: false,
    parentKey: null,
    name: `p${i}`,
  });

  it('holds at most 50 changes per batch', () => {
    const batches = buildBatches(Array.from({ length: 120 }, (_, i) => update(i)));
    expect(batches.map((b) => b.changes.length)).toEqual([50, 50, 20]);
  });

  it('creates a new parent in an earlier batch than its children, and resolves `into` to its id', () => {
    const ops: PushOp[] = [
      { op: 'insert', key: 'new:recipes/soup.md', path: 'recipes/soup.md', text: '# Soup\n', parentKey: 'new:recipes/README.md', position: null, name: 'soup' },
      { op: 'insert', key: 'new:recipes/README.md', path: 'recipes/README.md', text: '# Recipes\n', parentKey: null, position: 2, name: 'recipes' },
    ];
    const [first, second] = buildBatches(ops);
    expect(first!.changes.map((c) => c.change)).toEqual([
      { operation: 'insert_page', ref: 'quire-recipes-README-md', document: { markdown: '# Recipes\n' }, slug: 'recipes', at: 2 },
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
      { ...update(1), move: { parentKey: null, position: null }, text: null, rename: 'renamed' } as PushOp,
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
      { op: 'insert', key: 'new:notes.md', path: 'notes.md', text: 'Just a note.\n', parentKey: null, position: null, name: 'notes' },
      { op: 'files', assets: Array.from({ length: 25 }, (_, i) => ({ path: `.gitbook/assets/a${i}.png`, name: `a${i}.png`, size: 3 })) },
    ];
    const assets = new Map(Array.from({ length: 25 }, (_, i) => [`.gitbook/assets/a${i}.png`, { base64: 'AAAA', contentType: 'image/png' }]));
    const changes = buildBatches(ops, assets).flatMap((b) => b.changes.map((c) => c.change));
    expect(changes.filter((c) => c.operation === 'insert_files').map((c) => (c.files as unknown[]).length)).toEqual([20, 5]);
    expect(changes.find((c) => c.operation === 'insert_page')).toMatchObject({ title: 'notes', slug: 'notes' });
  });

  it('makes slugs the API accepts and subjects that say what changed, with a marker it can find again', () => {
    expect(slugFor('getting-started')).toBe('getting-started');
    expect(slugFor('Café Menu!')).toBe('cafe-menu');
    expect(slugFor('***')).toBeNull();
    const subject = changeRequestSubject([update(1), update(2), update(3), { op: 'delete', id: 'x', path: 'old/README.md' }], 'a1b2c3d4');
    expect(subject).toBe('Update “P1”, “P2” and 2 more (Quire a1b2c3d4)');
    expect(markerOf(subject)).toBe('a1b2c3d4');
    expect(markerOf('Fix typos')).toBeNull();
  });
});

describe('three-way merge', () => {
  const base = 'one\n\ntwo\n\nthree\n\nfour\n\nfive\n';

  it('merges edits to different parts, and the same edit made twice once', () => {
    expect(mergeText(base.replace('one', 'ONE'), base, base.replace('five', 'FIVE'))).toEqual({
      kind: 'merged',
      text: 'ONE\n\ntwo\n\nthree\n\nfour\n\nFIVE\n',
    });
    expect(mergeText(base.replace('two', 'TWO'), base, base.replace('two', 'TWO'))).toEqual({ kind: 'merged', text: base.replace('two', 'TWO') });
  });

  it('reports a clash for the same line edited differently, and for adjacent lines (classic diff3)', () => {
    expect(mergeText(base.replace('three', 'mine'), base, base.replace('three', 'theirs'))).toEqual({ kind: 'conflict', reason: 'overlap' });
    const tight = 'a\nb\nc\nd\n';
    expect(mergeText('a\nB\nc\nd\n', tight, 'a\nb\nC\nd\n').kind).toBe('conflict');
  });

  it('gives up with a clash, not a long stall, when the diff would cost too much', () => {
    const big = Array.from({ length: 2500 }, (_, i) => `line ${i}`).join('\n');
    const started = performance.now();
    const outcome = mergeText(big.replace('line 1\n', 'LINE 1\n'), big, big.replace('line 2490', 'LINE 2490'), { maxLines: 20_000, maxCost: 1_000_000 });
    expect(outcome).toEqual({ kind: 'conflict', reason: 'too-costly' });
    expect(performance.now() - started).toBeLessThan(500);
    expect(mergeText(big.replace('line 1\n', 'LINE 1\n'), big, big.replace('line 2490', 'LINE 2490')).kind).toBe('merged');
  });
});
