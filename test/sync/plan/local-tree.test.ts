/** Edit detection: how the local tree (scan's view of the folder) tells edits, moves, new files and deletions apart. */
import { describe, expect, it } from 'vitest';
import { buildLocalTree, type KnownPage } from '../../../src/main/core/sync/local-tree';
import { samePageText, parseSummary } from '../../../src/main/core/content';
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
