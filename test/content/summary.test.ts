import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planLayout, type LayoutPage, type LayoutPlan } from '../../src/main/core/naming';
import { parseSummary, renderSummary, type SummaryEntry } from '../../src/main/core/content';

const doc = (id: string, title: string, slug: string, pages: LayoutPage[] = []): LayoutPage => ({ id, title, slug, type: 'document', pages });
const group = (id: string, title: string, slug: string, pages: LayoutPage[] = []): LayoutPage => ({ id, title, slug, type: 'group', pages });
const link = (id: string, title: string, href?: string): LayoutPage => ({ id, title, type: 'link', ...(href === undefined ? {} : { href }) });

/** The shape parseSummary should give back for a tree. */
function expected(pages: readonly LayoutPage[], plan: LayoutPlan): unknown[] {
  return pages.map((p) => {
    const planned = plan.pages.get(p.id)!;
    const children = expected(p.pages ?? [], plan);
    if (planned.kind === 'link') return { kind: 'link', title: p.title, path: null, href: p.href ?? '#', children };
    if (planned.kind === 'group') return { kind: 'group', title: p.title, path: null, href: null, children };
    return { kind: 'page', title: p.title, path: planned.file, href: null, children };
  });
}

const strip = (entries: SummaryEntry[]): unknown[] =>
  entries.map(({ kind, title, path, href, children }) => ({ kind, title, path, href, children: strip(children) }));

describe('renderSummary', () => {
  it("writes GitBook's table of contents: nested bullets, groups as headings, links to URLs", () => {
    const tree = [
      doc('p1', 'Introduction', 'intro'),
      doc('p2', 'Guide', 'guide', [doc('p3', 'Install', 'install'), link('l1', 'Source', 'https://example.com/src')]),
      group('g1', 'Reference', 'reference', [doc('p4', 'API', 'api', [doc('p5', 'Errors', 'errors')])]),
      doc('p6', 'After the group', 'later'),
    ];
    expect(renderSummary(tree, planLayout(tree))).toBe(
      [
        '# Table of contents',
        '',
        '* [Introduction](README.md)',
        '* [Guide](guide/README.md)',
        '  * [Install](guide/install.md)',
        '  * [Source](https://example.com/src)',
        '',
        '## Reference',
        '',
        '* [API](reference/api/README.md)',
        '  * [Errors](reference/api/errors.md)',
        '',
        '---',
        '',
        '* [After the group](later.md)',
        '',
      ].join('\n'),
    );
  });

  it('percent-encodes paths that need it and escapes Markdown in titles', () => {
    const tree = [doc('p1', 'Home', 'home'), doc('p2', 'A [tricky] *title* & <tag>', 'with space (1)#%')];
    const text = renderSummary(tree, planLayout(tree));
    expect(text).toContain('* [A \\[tricky\\] \\*title\\* \\& \\<tag\\>](with%20space%20%281%29%23%25.md)');
  });

  it('keeps readable non-ASCII letters in paths', () => {
    const tree = [doc('p1', 'Home', 'home'), doc('p2', 'Café', 'café-über')];
    expect(renderSummary(tree, planLayout(tree))).toContain('* [Café](café-über.md)');
  });

  it('renders an empty space as just the heading', () => {
    expect(renderSummary([], planLayout([]))).toBe('# Table of contents\n');
  });
});

describe('parseSummary', () => {
  it('reads back what renderSummary wrote', () => {
    const tree = [
      group('g0', 'Start here', 'start', [doc('p1', 'Welcome', 'welcome', [doc('p2', 'Child', 'child')])]),
      group('g1', 'Empty group', 'empty'),
      group('g2', '', ''),
      doc('p3', 'Root page # with hash', 'root'),
      link('l1', 'Link [x]', 'https://example.com/a b(c)'),
      link('l2', 'No target'),
      doc('p4', '1. Numbered', 'numbered', [group('g3', '- nested group *x*', 'nested', [doc('p5', 'Deep', 'deep')])]),
      doc('p6', 'Spaces  and\\backslash', 'spaces and more'),
    ];
    const plan = planLayout(tree);
    const parsed = parseSummary(renderSummary(tree, plan));
    expect(strip(parsed)).toEqual(expected(tree, plan));
  });

  it('round-trips random titles and trees', () => {
    const titleArb = fc
      .string({
        unit: fc.constantFrom('a', 'B', ' ', '[', ']', '(', ')', '*', '_', '\\', '#', '&', '<', '>', '`', '-', '1', '.', 'é', '%'),
        minLength: 1,
        maxLength: 12,
      })
      .filter((t) => t.trim() === t && t !== '');
    const nodeArb = fc.record({ title: titleArb, type: fc.constantFrom('document', 'document', 'link'), parent: fc.nat() });
    const treeArb = fc.array(nodeArb, { maxLength: 25 }).map((specs) => {
      const roots: LayoutPage[] = [];
      const docs: LayoutPage[] = [];
      specs.forEach((spec, i) => {
        const node: LayoutPage =
          spec.type === 'link'
            ? { id: `l${i}`, title: spec.title, type: 'link', href: 'https://x.test/' }
            : { id: `p${i}`, title: spec.title, slug: spec.title, type: 'document', pages: [] };
        const choice = spec.parent % (docs.length + 1);
        (choice === docs.length ? roots : (docs[choice]!.pages as LayoutPage[])).push(node);
        if (spec.type !== 'link') docs.push(node);
      });
      return roots;
    });
    fc.assert(
      fc.property(treeArb, (tree) => {
        const plan = planLayout(tree);
        expect(strip(parseSummary(renderSummary(tree, plan)))).toEqual(expected(tree, plan));
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('tolerates hand edits: - and + bullets, 4-space and tab indentation, CRLF, BOM, <> destinations, titles, anchors', () => {
    const text = [
      '\uFEFF# Table of contents',
      '',
      '- [Intro](README.md)',
      '- [Guide](guide/README.md "Tooltip")',
      '    + [Install](<guide/install me.md>)',
      '\t- [Tabbed](./guide/tabbed.md#section)',
      '        * [Deeper](guide/tabbed/deeper.md)',
      '- [Encoded](caf%C3%A9%20menu.md)',
      '- [Bad escape](100%.md)',
      '- [Windows](guide\\win.md)',
      '1. [Numbered](numbered.md)',
      'Some stray paragraph',
      '<!-- a comment -->',
      '## Group ##',
      '',
      '* [In group](group/a.md)',
      '* Plain title',
      '  * [Under plain](group/plain/b.md)',
      '',
      '***',
      '* [Back at root](root.md)',
    ].join('\r\n');
    const entries = strip(parseSummary(text));
    const page = (title: string, path: string, children: unknown[] = []) => ({ kind: 'page', title, path, href: null, children });
    expect(entries).toEqual([
      page('Intro', 'README.md'),
      page('Guide', 'guide/README.md', [page('Install', 'guide/install me.md'), page('Tabbed', 'guide/tabbed.md', [page('Deeper', 'guide/tabbed/deeper.md')])]),
      page('Encoded', 'café menu.md'),
      page('Bad escape', '100%.md'),
      page('Windows', 'guide/win.md'),
      page('Numbered', 'numbered.md'),
      {
        kind: 'group',
        title: 'Group',
        path: null,
        href: null,
        children: [
          page('In group', 'group/a.md'),
          { kind: 'group', title: 'Plain title', path: null, href: null, children: [page('Under plain', 'group/plain/b.md')] },
        ],
      },
      page('Back at root', 'root.md'),
    ]);
  });

  it('accepts 2-space indentation and reports line numbers', () => {
    const entries = parseSummary('# Table of contents\n\n* [A](a.md)\n  * [B](a/b.md)\n    * [C](a/b/c.md)\n  * [D](a/d.md)\n');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.line).toBe(3);
    expect(entries[0]!.children.map((c) => c.title)).toEqual(['B', 'D']);
    expect(entries[0]!.children[0]!.children[0]).toMatchObject({ title: 'C', path: 'a/b/c.md', line: 5 });
  });

  it('reads a group heading without the anchor GitBook writes after it', () => {
    const entries = parseSummary('# Table of contents\n\n## About Lawnchair <a href="#about" id="about"></a>\n\n* [History](about/project-history.md)\n');
    expect(entries.map((e) => [e.kind, e.title, e.children.length])).toEqual([['group', 'About Lawnchair', 1]]);
  });

  it('decodes NFD paths to NFC and classifies URLs as links', () => {
    const entries = parseSummary('* [X](cafe\u0301.md)\n* [Y](mailto:a@b.c)\n* [Z](//cdn.example/x)\n* [W](#top)\n');
    expect(entries.map((e) => [e.kind, e.path, e.href])).toEqual([
      ['page', 'café.md', null],
      ['link', null, 'mailto:a@b.c'],
      ['link', null, '//cdn.example/x'],
      ['link', null, '#top'],
    ]);
  });
});
