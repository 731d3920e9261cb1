import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  byteLength,
  foldKey,
  isSafeSegment,
  MAX_SEGMENT_BYTES,
  planAssetPaths,
  planLayout,
  type LayoutPage,
  type LayoutPlan,
} from '../../../src/main/core/naming';
import { resolveInside, writeFileAtomic } from '../../../src/main/core/sync/safe-fs';

const NASTY = [
  '../..',
  '..',
  '.',
  '/',
  '\\',
  'a/b',
  'a\\b',
  '../../etc/passwd',
  '..\\..\\windows',
  '\0',
  'a\0b',
  '\u0001\u001f',
  '\u007f',
  'tab\there',
  'line\nbreak',
  ' leading',
  'trailing ',
  '.hidden',
  'trailing.',
  '...',
  '   ',
  '',
  'x'.repeat(300),
  'é'.repeat(300),
  '😀'.repeat(100),
  `${'a'.repeat(118)}ééé`,
  'README',
  'Readme',
  'readme.md',
  'README.MD',
  'SUMMARY',
  'summary.md',
  '.gitbook',
  '.quire',
  '.git',
  'CON',
  'con',
  'PRN',
  'AUX',
  'NUL',
  'nul.txt',
  'COM1',
  'com9.md',
  'LPT1',
  'lpt9',
  'COM¹',
  'CON .txt',
  'conin$',
  '<>:"|?*',
  'a:b',
  'a?b',
  'a*b',
  'a|b',
  'a"b',
  'a<b>',
  'Café',
  'Cafe\u0301',
  'CAFÉ',
  'café',
  'Straße',
  'STRASSE',
  'ß',
  'SS',
  'ﬁle',
  'file',
  'İ',
  'i\u0307',
  '\u202Eevil.exe',
  '\u200B',
  '\uFEFFbom',
  '\uD800lone',
  'a\u00A0b',
  'a\u3000b',
  'same',
  'Same',
  'SAME',
  'same.',
  'same ',
];

let counter = 0;
const nasty = (name: string, type: string, pages: LayoutPage[] = []): LayoutPage => ({
  id: `id-${++counter}`,
  title: name,
  slug: name,
  type,
  pages,
});

function hostileTree(): LayoutPage[] {
  counter = 0;
  const leaves = () => NASTY.map((n) => nasty(n, 'document'));
  const parents = () => NASTY.map((n) => nasty(n, 'document', [nasty(n, 'document'), nasty('README', 'document')]));
  // A deep chain of 300-character names.
  let chain: LayoutPage = nasty('z'.repeat(300), 'document');
  for (let i = 0; i < 40; i++) chain = nasty('é'.repeat(300), 'document', [chain, nasty(`${i}`, 'document')]);
  return [
    ...leaves(),
    ...parents(),
    ...NASTY.map((n, i) => nasty(n, 'group', [nasty(n, 'document'), nasty(NASTY[(i + 1) % NASTY.length]!, 'document'), nasty('README', 'document')])),
    ...NASTY.map((n) => ({ ...nasty(n, 'link'), href: n })),
    nasty('a', 'document', [...leaves(), ...NASTY.map((n) => nasty(n, 'group', [nasty(n, 'document')]))]),
    { id: 'no-slug', title: '../../x', type: 'document' },
    chain,
  ];
}

function allPages(pages: readonly LayoutPage[]): LayoutPage[] {
  return pages.flatMap((p) => [p, ...allPages(p.pages ?? [])]);
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** The invariants every plan must hold, whatever the names. */
function expectSafePlan(tree: LayoutPage[], plan: LayoutPlan): string[] {
  const pages = allPages(tree);
  const files: string[] = [];
  for (const page of pages) {
    const planned = plan.pages.get(page.id);
    expect(planned, `page ${page.id} is planned`).toBeDefined();
    const isFileless = page.type === 'group' || page.type === 'link';
    if (isFileless) expect(planned!.file).toBeNull();
    else {
      expect(planned!.file, `page ${page.id} has a file`).toEqual(expect.any(String));
      files.push(planned!.file!);
    }
  }
  expect(plan.pages.size).toBe(pages.length);

  const folders = [...plan.byFolder.keys()];
  const fileSet = new Set(files);
  const keys = new Set([...files, ...folders].map((p) => foldKey(p.normalize('NFC'))));
  expect(keys.size, 'files and folders are distinct, case- and normalisation-insensitively').toBe(files.length + folders.length);
  expect(keys.has('summary.md')).toBe(false);

  for (const path of [...files, ...folders]) {
    expect(path.normalize('NFC')).toBe(path);
    expect(utf8(path)).toBeLessThan(4096);
    const segments = path.split('/');
    segments.forEach((segment, i) => {
      const isFile = i === segments.length - 1 && fileSet.has(path);
      expect(isSafeSegment(segment, MAX_SEGMENT_BYTES + (isFile ? 3 : 0)), `segment ${JSON.stringify(segment)} of ${JSON.stringify(path)}`).toBe(true);
      expect(segment.startsWith('.')).toBe(false);
    });
  }
  return files;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('hostile names', () => {
  let sandbox: string;
  let root: string;
  beforeEach(async () => {
    sandbox = await mkdtemp(join(tmpdir(), 'quire-layout-'));
    root = join(sandbox, 'space');
  });
  afterEach(async () => {
    await rm(sandbox, { recursive: true, force: true });
  });

  it('gives every page its own safe path inside the space folder, and writing them creates exactly those files', async () => {
    const tree = hostileTree();
    const plan = planLayout(tree);
    const files = expectSafePlan(tree, plan);
    expect(files.length).toBeGreaterThan(400);

    for (const file of files) {
      const abs = resolveInside(root, file);
      expect(abs.startsWith(root + sep)).toBe(true);
      await writeFileAtomic(root, file, file);
    }
    const written = await listFiles(root);
    expect(written).toHaveLength(files.length);
    expect(await readdir(sandbox)).toEqual(['space']);
  });

  it('keeps the longest relative path reasonable, even 41 levels deep', () => {
    const plan = planLayout(hostileTree());
    const longest = Math.max(...[...plan.byFile.keys()].map(utf8));
    expect(longest).toBeLessThan(3000);
    const shallow = [...plan.byFile.keys()].filter((p) => p.split('/').length <= 8);
    for (const p of shallow) expect(utf8(p)).toBeLessThanOrEqual(1024);
  });

  it('makes hostile asset names safe and distinct', async () => {
    const assets = NASTY.flatMap((n, i) => [
      { id: `f${i}`, name: n },
      { id: `g${i}`, name: `${n}.png` },
      { id: `h${i}`, name: `${n}.${n}` },
    ]);
    const paths = planAssetPaths(assets);
    const all = [...paths.values()];
    expect(new Set(all.map((p) => foldKey(p))).size).toBe(assets.length);
    for (const p of all) {
      expect(p.startsWith('.gitbook/assets/')).toBe(true);
      const name = p.slice('.gitbook/assets/'.length);
      expect(name.includes('/')).toBe(false);
      expect(isSafeSegment(name, MAX_SEGMENT_BYTES + 17), JSON.stringify(name)).toBe(true);
      await writeFileAtomic(root, p, 'x');
    }
    expect(await listFiles(root)).toHaveLength(assets.length);
  });
});

// ---------------------------------------------------------------------------
// Property-style: random trees of random names, fixed seed.

const nameArb = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('a', 'A', '.', '/', '\\', ' ', 'é', 'e\u0301', '\0', ':', '-', 'ß', 'readme', 'con'), maxLength: 10 }),
);

interface NodeSpec {
  name: string;
  slugless: boolean;
  type: 'document' | 'group' | 'link' | 'computed';
  parent: number;
}

const specArb = fc.record({
  name: nameArb,
  slugless: fc.boolean(),
  type: fc.constantFrom<NodeSpec['type']>('document', 'document', 'document', 'group', 'link', 'computed'),
  parent: fc.nat(),
});

/** Builds a tree: node i hangs under an earlier non-link node, or at the root. Ids clash in their first 8 chars. */
function buildTree(specs: NodeSpec[]): LayoutPage[] {
  const roots: LayoutPage[] = [];
  const nodes: LayoutPage[] = [];
  specs.forEach((spec, i) => {
    const id = i % 2 === 0 ? `AbCdEfGh${i}` : `abcdefgh${i}`;
    const node: LayoutPage = { id, title: spec.name, type: spec.type, pages: [], ...(spec.slugless ? {} : { slug: spec.name }) };
    if (spec.type === 'link') node.href = 'https://example.com';
    const candidates = nodes.filter((n) => n.type !== 'link');
    const choice = spec.parent % (candidates.length + 1);
    const parent = choice === candidates.length ? null : candidates[choice]!;
    (parent ? (parent.pages as LayoutPage[]) : roots).push(node);
    nodes.push(node);
  });
  return roots;
}

const treeArb = fc.array(specArb, { minLength: 1, maxLength: 60 }).map(buildTree);

describe('byteLength', () => {
  it('counts what UTF-8 makes of any text, lone surrogates as U+FFFD', () => {
    const unit = fc.constantFrom('a', '\u007f', '\u0080', '\u07ff', '\u0800', '\uffff', '😀', '\ud83d', '\ude00');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit }), fc.string({ unit: 'binary' })), (s) => {
        expect(byteLength(s)).toBe(new TextEncoder().encode(s).length);
      }),
      { seed: 20261126, numRuns: 500 },
    );
  });
});

describe('random trees (property-style, fixed seed)', () => {
  it('always give safe, distinct paths, deterministically', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const plan = planLayout(tree);
        expectSafePlan(tree, plan);
        expect([...planLayout(structuredClone(tree)).pagePaths]).toEqual([...plan.pagePaths]);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('never rename existing pages when one page is inserted anywhere (given the previous plan)', () => {
    fc.assert(
      fc.property(treeArb, specArb, fc.nat(), (tree, extra, position) => {
        const before = planLayout(tree);
        const grown = structuredClone(tree);
        const parents = allPages(grown).filter((p) => p.type === 'document' || p.type === 'group');
        const choice = extra.parent % (parents.length + 1);
        const parent = choice === parents.length ? null : parents[choice]!;
        const siblings = parent ? (parent.pages as LayoutPage[]) : grown;
        const wasChildless = parent !== null && siblings.length === 0;
        siblings.splice(position % (siblings.length + 1), 0, { id: 'inserted-page', title: extra.name, slug: extra.name, type: extra.type });

        const after = planLayout(grown, { previous: before.pages });
        expectSafePlan(grown, after);
        const firstChanged = after.firstPageId !== before.firstPageId;
        for (const [id, old] of before.pages) {
          const now = after.pages.get(id)!;
          // The parent that gains its first child, and the pages that stop or start being the
          // first page, write another file: one whose file was README.md may now take its slug.
          const mayMove = (wasChildless && id === parent!.id) || (firstChanged && (id === before.firstPageId || id === after.firstPageId));
          if (!mayMove) expect(now.name, `name of ${id}`).toBe(old.name);
          if (!mayMove) expect(now.file, `file of ${id}`).toBe(old.file);
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('write exactly one file per page and nothing outside the space folder', async () => {
    const sandbox = await mkdtemp(join(tmpdir(), 'quire-layout-prop-'));
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(treeArb, async (tree) => {
          const root = join(sandbox, `space-${run++}`);
          const files = expectSafePlan(tree, planLayout(tree));
          for (const file of files) await writeFileAtomic(root, file, 'x');
          expect(files.length === 0 ? [] : await listFiles(root)).toHaveLength(files.length);
        }),
        { seed: 99, numRuns: 25 },
      );
      const outside = (await readdir(sandbox)).filter((n) => !n.startsWith('space-'));
      expect(outside).toEqual([]);
    } finally {
      await rm(sandbox, { recursive: true, force: true });
    }
  });
});
