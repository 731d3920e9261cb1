import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import {
  findPageByFile,
  LayoutError,
  planAssetPaths,
  planLayout,
  POSIX_NAMES,
  PORTABLE_NAMES,
  safeSegment,
  type LayoutPage,
  type LayoutPlan,
} from '../../../src/main/core/naming';

const doc = (id: string, slug: string, pages: LayoutPage[] = []): LayoutPage => ({ id, title: slug, slug, type: 'document', pages });
const group = (id: string, slug: string, pages: LayoutPage[] = []): LayoutPage => ({ id, title: slug, slug, type: 'group', pages });
const link = (id: string, title: string, href = 'https://example.com'): LayoutPage => ({ id, title, type: 'link', href });

const files = (plan: LayoutPlan) => Object.fromEntries(plan.pagePaths);

describe('planLayout: the Git Sync layout', () => {
  it('puts the first page in README.md, childless pages in <slug>.md and parents in <slug>/README.md', () => {
    const plan = planLayout([doc('p1', 'intro'), doc('p2', 'guide', [doc('p3', 'install'), doc('p4', 'advanced', [doc('p5', 'tuning')])]), doc('p6', 'faq')]);
    expect(files(plan)).toEqual({
      p1: 'README.md',
      p2: 'guide/README.md',
      p3: 'guide/install.md',
      p4: 'guide/advanced/README.md',
      p5: 'guide/advanced/tuning.md',
      p6: 'faq.md',
    });
    expect(plan.firstPageId).toBe('p1');
    expect(plan.pages.get('p4')).toMatchObject({ parentId: 'p2', index: 1, name: 'advanced', folder: 'guide/advanced' });
    expect(plan.byFile.get('guide/install.md')).toBe('p3');
    expect(plan.byFolder.get('guide')).toBe('p2');
  });

  it('keeps the first page in README.md when it has children, which go in a folder named by its slug', () => {
    const plan = planLayout([doc('p1', 'welcome', [doc('p2', 'child')]), doc('p3', 'welcome-2')]);
    expect(files(plan)).toEqual({ p1: 'README.md', p2: 'welcome/child.md', p3: 'welcome-2.md' });
    expect(plan.pages.get('p1')?.folder).toBe('welcome');
  });

  it('reserves the first page slug even without children, so gaining one renames nothing else', () => {
    const before = planLayout([doc('p1', 'home'), doc('p2', 'home')]);
    const after = planLayout([doc('p1', 'home', [doc('p3', 'new')]), doc('p2', 'home')]);
    expect(before.pagePaths.get('p2')).toBe('home-p2.md');
    expect(after.pagePaths.get('p2')).toBe('home-p2.md');
    expect(after.pagePaths.get('p3')).toBe('home/new.md');
  });

  it('makes groups folders without a file, and gives links no file at all', () => {
    const plan = planLayout([
      doc('p1', 'intro'),
      group('g1', 'basics', [doc('p2', 'setup'), link('l1', 'Website'), doc('p3', 'usage', [doc('p4', 'cli')])]),
      link('l2', 'Blog'),
    ]);
    expect(files(plan)).toEqual({
      p1: 'README.md',
      g1: null,
      p2: 'basics/setup.md',
      l1: null,
      p3: 'basics/usage/README.md',
      p4: 'basics/usage/cli.md',
      l2: null,
    });
    expect(plan.pages.get('g1')).toMatchObject({ kind: 'group', folder: 'basics', file: null });
    expect(plan.pages.get('l1')).toMatchObject({ kind: 'link', name: null, folder: null });
    expect(plan.byFolder.get('basics')).toBe('g1');
  });

  it('takes the first document inside a leading group as README.md, keeping its name in the group folder', () => {
    const plan = planLayout([group('g1', 'start', [link('l1', 'x'), doc('p1', 'overview', [doc('p2', 'more')])]), doc('p3', 'next')]);
    expect(plan.firstPageId).toBe('p1');
    expect(files(plan)).toMatchObject({ p1: 'README.md', p2: 'start/overview/more.md', p3: 'next.md' });
  });

  it('treats computed pages as documents', () => {
    const plan = planLayout([doc('p1', 'a'), { id: 'c1', title: 'API', slug: 'api', type: 'computed' }]);
    expect(plan.pagePaths.get('c1')).toBe('api.md');
  });

  it('falls back to a slug of the title, then to "page"', () => {
    const plan = planLayout([doc('p0', 'a'), { id: 'p1', title: 'Hello, World!', slug: '', type: 'document' }, { id: 'p2', title: '', type: 'document' }]);
    expect(plan.pagePaths.get('p1')).toBe('hello-world.md');
    expect(plan.pagePaths.get('p2')).toBe('page.md');
  });

  it('gives clashing later pages a -<short id> suffix, comparing names case-insensitively', () => {
    const plan = planLayout([doc('p1', 'a'), doc('first-page-id-x', 'Setup'), doc('second-page-id', 'setup'), doc('abc', 'SETUP')]);
    expect(files(plan)).toMatchObject({ 'first-page-id-x': 'Setup.md', 'second-page-id': 'setup-secondpa.md', abc: 'SETUP-abc.md' });
  });

  it('uses the longer id, then a counter, when short ids clash too', () => {
    const plan = planLayout([doc('p0', 'a'), doc('aaaaaaaa1', 'x'), doc('aaaaaaaa2', 'x'), doc('AAAAAAAA2', 'x')]);
    expect(plan.pagePaths.get('aaaaaaaa2')).toBe('x-aaaaaaaa.md');
    expect(plan.pagePaths.get('AAAAAAAA2')).toBe('x-aaaaaaaa2.md');
    const twins = planLayout([doc('p0', 'a'), doc('q', 'x'), doc('Q', 'x'), doc('q.', 'x')]);
    expect(files(twins)).toMatchObject({ q: 'x.md', Q: 'x-q.md', 'q.': 'x-q-2.md' });
  });

  it('does not let a file and a folder share a name (a page slugged "x.md" next to a page "x")', () => {
    const plan = planLayout([doc('p0', 'a'), doc('p1', 'x.md', [doc('p2', 'c')]), doc('p3', 'x')]);
    expect(plan.pages.get('p1')?.folder).toBe('x.md');
    expect(plan.pagePaths.get('p3')).toBe('x-p3.md');
  });

  it('is deterministic', () => {
    const tree = [doc('p1', 'a', [doc('p2', 'b')]), doc('p3', 'b'), group('g', 'b', [doc('p4', 'b')])];
    expect(files(planLayout(tree))).toEqual(files(planLayout(structuredClone(tree))));
  });

  it('does not rename existing files when a page is appended anywhere', () => {
    const tree = [doc('p1', 'a'), doc('p2', 'b', [doc('p3', 'c')]), doc('p4', 'c')];
    const before = planLayout(tree);
    const grown = structuredClone(tree);
    grown[1]!.pages = [...grown[1]!.pages!, doc('new1', 'c')];
    grown.push(doc('new2', 'b'));
    const after = planLayout(grown);
    for (const [id, path] of before.pagePaths) expect(after.pagePaths.get(id)).toBe(path);
    expect(after.pagePaths.get('new1')).toBe('b/c-new1.md');
    expect(after.pagePaths.get('new2')).toBe('b-new2.md');
  });

  it('with the previous plan, an inserted clashing page does not take the name of an existing one', () => {
    const before = planLayout([doc('p1', 'a'), doc('p2', 'guide')]);
    const tree = [doc('p1', 'a'), doc('new', 'guide'), doc('p2', 'guide')];
    expect(planLayout(tree).pagePaths.get('p2')).toBe('guide-p2.md');
    const after = planLayout(tree, { previous: before.pages });
    expect(after.pagePaths.get('p2')).toBe('guide.md');
    expect(after.pagePaths.get('new')).toBe('guide-new.md');
  });

  it('with the previous plan, a suffixed page takes its GitBook name back when the page holding it goes', () => {
    const before = planLayout([doc('p1', 'a'), doc('p2', 'x'), doc('p3', 'x')]);
    expect(before.pagePaths.get('p3')).toBe('x-p3.md');
    const after = planLayout([doc('p1', 'a'), doc('p3', 'x')], { previous: before.pages });
    expect(after.pagePaths.get('p3')).toBe('x.md');
  });

  it('with the previous plan, a suffixed page keeps its suffix while its GitBook name is taken', () => {
    const before = planLayout([doc('p1', 'a'), doc('p2', 'x'), doc('p3', 'X'), doc('p4', 'x')]);
    expect(files(before)).toMatchObject({ p2: 'x.md', p3: 'X-p3.md', p4: 'x-p4.md' });
    const after = planLayout([doc('p1', 'a'), doc('p4', 'x'), doc('p3', 'X'), doc('p2', 'x')], { previous: before.pages });
    expect(files(after)).toMatchObject({ p2: 'x.md', p3: 'X-p3.md', p4: 'x-p4.md' });
  });

  it('with the previous plan, a renamed slug still gives the new name', () => {
    const before = planLayout([doc('p1', 'a'), doc('p2', 'old')]);
    const after = planLayout([doc('p1', 'a'), doc('p2', 'new')], { previous: before.pages });
    expect(after.pagePaths.get('p2')).toBe('new.md');
  });

  it('rejects a tree where an id appears twice', () => {
    expect(() => planLayout([doc('p1', 'a'), doc('p2', 'b', [doc('p1', 'c')])])).toThrow(LayoutError);
    expect(() => planLayout([doc('p1', 'a'), doc('p2', 'b', [doc('p1', 'c')])])).toThrow(/"p1" appears twice/);
  });

  it('accepts the API page type as is', () => {
    const apiPages: RevisionPage[] = [];
    expect(planLayout(apiPages).pages.size).toBe(0);
  });
});

describe("planLayout: GitBook's own paths", () => {
  const posix = { rules: POSIX_NAMES };
  const caseless = { rules: { ...POSIX_NAMES, caseInsensitive: true } };

  it('puts the children of the first page under its own slug, even when that slug is readme (the first page inside a group)', () => {
    // As in BeefreeSDK/beefree-sdk-docs: `## Getting Started` / `* [Introduction](README.md)` / `  * [Create an Application](getting-started/readme/create-an-application.md)`.
    const tree = [
      group('g1', 'getting-started', [
        doc('p1', 'readme', [doc('p2', 'create-an-application'), doc('p3', 'installation', [doc('p4', 'configuration-parameters')])]),
        doc('p5', 'sample-code'),
      ]),
      group('g2', 'quickstart-guides', [doc('p6', 'react-no-code-email-builder')]),
    ];
    for (const options of [{}, posix, caseless]) {
      expect(files(planLayout(tree, options))).toEqual({
        g1: null,
        p1: 'README.md',
        p2: 'getting-started/readme/create-an-application.md',
        p3: 'getting-started/readme/installation/README.md',
        p4: 'getting-started/readme/installation/configuration-parameters.md',
        p5: 'getting-started/sample-code.md',
        g2: null,
        p6: 'quickstart-guides/react-no-code-email-builder.md',
      });
    }
  });

  it('keeps a slug ending in dots, and dots inside a slug, as they are', () => {
    const tree = [doc('p1', 'intro'), doc('p2', 'f.a.q.'), doc('p3', 'vue.js-no-code-email-builder'), doc('p4', 'v1.2.', [doc('p5', 'notes')])];
    expect(files(planLayout(tree, posix))).toEqual({
      p1: 'README.md',
      p2: 'f.a.q..md',
      p3: 'vue.js-no-code-email-builder.md',
      p4: 'v1.2./README.md',
      p5: 'v1.2./notes.md',
    });
    // Windows refuses a folder ending in a dot: only there does the folder lose it.
    expect(files(planLayout(tree, { rules: PORTABLE_NAMES }))).toMatchObject({ p2: 'f.a.q..md', p4: 'v1.2/README.md', p5: 'v1.2/notes.md' });
  });

  it('keeps unicode slugs as GitBook sends them (NFC)', () => {
    const plan = planLayout([doc('p1', 'intro'), doc('p2', 'café'), doc('p3', '日本語', [doc('p4', 'cafe\u0301-2')]), doc('p5', 'привет')], posix);
    expect(files(plan)).toEqual({ p1: 'README.md', p2: 'café.md', p3: '日本語/README.md', p4: '日本語/café-2.md', p5: 'привет.md' });
  });

  it('deviates only where the volume cannot hold the name: Windows names and characters on a portable layout, not on Linux', () => {
    const tree = [doc('p1', 'intro'), doc('p2', 'CON'), doc('p3', 'a:b'), doc('p4', 'what?')];
    expect(files(planLayout(tree, posix))).toMatchObject({ p2: 'CON.md', p3: 'a:b.md', p4: 'what?.md' });
    expect(files(planLayout(tree, { rules: { ...POSIX_NAMES, windowsCharacters: true } }))).toMatchObject({ p2: 'CON.md', p3: 'a-b.md', p4: 'what-.md' });
    expect(files(planLayout(tree))).toMatchObject({ p2: 'CON_.md', p3: 'a-b.md', p4: 'what-.md' });
  });

  it('keeps names differing only in case apart on a case-sensitive volume, and suffixes the later one where case is ignored', () => {
    const tree = [doc('p1', 'intro'), doc('p2', 'Guide'), doc('p3', 'guide')];
    expect(files(planLayout(tree, posix))).toMatchObject({ p2: 'Guide.md', p3: 'guide.md' });
    expect(files(planLayout(tree, caseless))).toMatchObject({ p2: 'Guide.md', p3: 'guide-p3.md' });
  });

  it('refuses README.md and SUMMARY.md only where the folder has them, and only for what the page writes there', () => {
    const plan = planLayout(
      [
        doc('p1', 'intro'),
        doc('p2', 'summary'),
        doc('p3', 'readme', [doc('p4', 'readme'), doc('p5', 'summary')]),
        group('g1', 'more', [doc('p6', 'readme'), doc('p7', 'summary', [doc('p8', 'x')])]),
      ],
      posix,
    );
    expect(files(plan)).toEqual({
      p1: 'README.md',
      p2: 'summary-p2.md',
      p3: 'readme/README.md',
      p4: 'readme/readme-p4.md',
      p5: 'readme/summary.md',
      g1: null,
      p6: 'more/readme.md',
      p7: 'more/summary/README.md',
      p8: 'more/summary/x.md',
    });
  });

  it('never writes a hidden name: a leading dot goes', () => {
    const plan = planLayout([doc('p1', 'intro'), doc('p2', '.gitbook', [doc('p3', '.quire')])], posix);
    expect(files(plan)).toMatchObject({ p2: 'gitbook/README.md', p3: 'gitbook/quire.md' });
  });

  it('names assets as GitBook does where the volume holds the name', () => {
    const paths = planAssetPaths(
      [
        { id: 'f1', name: 'image (6).png' },
        { id: 'f2', name: 'what?.png' },
        { id: 'f3', name: 'Logo.PNG' },
        { id: 'f4', name: 'logo.png' },
      ],
      posix,
    );
    expect(Object.fromEntries(paths)).toEqual({
      f1: '.gitbook/assets/image (6).png',
      f2: '.gitbook/assets/what?.png',
      f3: '.gitbook/assets/Logo.PNG',
      f4: '.gitbook/assets/logo.png',
    });
  });
});

describe('findPageByFile', () => {
  const plan = planLayout([doc('p1', 'a'), doc('p2', 'Café', [doc('p3', 'Notes')])]);

  it('finds a page by its exact path', () => {
    expect(findPageByFile(plan, 'Café/Notes.md')).toBe('p3');
  });

  it('tolerates NFD names, another letter case, backslashes and ./', () => {
    expect(findPageByFile(plan, './cafe\u0301\\README.md')).toBe('p2');
    expect(findPageByFile(plan, 'CAFÉ/notes.md')).toBe('p3');
  });

  it('returns null for unknown paths', () => {
    expect(findPageByFile(plan, 'nope.md')).toBeNull();
  });
});

describe('planAssetPaths', () => {
  it('puts files in .gitbook/assets under their names', () => {
    const paths = planAssetPaths([
      { id: 'f1', name: 'logo.png' },
      { id: 'f2', name: 'Screen Shot 2024.png' },
    ]);
    expect(Object.fromEntries(paths)).toEqual({ f1: '.gitbook/assets/logo.png', f2: '.gitbook/assets/Screen Shot 2024.png' });
  });

  it('suffixes clashing names before the extension, case-insensitively', () => {
    const paths = planAssetPaths([
      { id: 'f1', name: 'logo.png' },
      { id: 'file2', name: 'LOGO.png' },
    ]);
    expect(paths.get('file2')).toBe('.gitbook/assets/LOGO-file2.png');
  });

  it('keeps names stable with the previous plan when an earlier file with the same name appears', () => {
    const before = planAssetPaths([{ id: 'f1', name: 'a.png' }]);
    const after = planAssetPaths(
      [
        { id: 'f0', name: 'a.png' },
        { id: 'f1', name: 'a.png' },
      ],
      { previous: before },
    );
    expect(after.get('f1')).toBe('.gitbook/assets/a.png');
    expect(after.get('f0')).toBe('.gitbook/assets/a-f0.png');
  });

  it('makes hostile names safe and limits the name before the extension to 120 bytes', () => {
    const paths = planAssetPaths([
      { id: 'f1', name: '../../etc/passwd' },
      { id: 'f2', name: 'con.png' },
      { id: 'f3', name: `${'é'.repeat(200)}.jpeg` },
      { id: 'f4', name: '' },
    ]);
    expect(paths.get('f1')).toBe('.gitbook/assets/-..-etc-passwd');
    expect(paths.get('f2')).toBe('.gitbook/assets/con_.png');
    expect(paths.get('f3')).toBe(`.gitbook/assets/${'é'.repeat(60)}.jpeg`);
    expect(paths.get('f4')).toBe('.gitbook/assets/file');
  });
});

describe('safeSegment', () => {
  it('slugifies free text and falls back when nothing is left', () => {
    expect(safeSegment('My Space: Docs')).toBe('my-space-docs');
    expect(safeSegment('../..', 'space-1')).toBe('space-1');
    expect(safeSegment('NUL', 'x')).toBe('nul_');
  });
});
