/**
 * Issue 20, item 2 (and issue 17, item 9, frontmatter half): every frontmatter key survives,
 * untouched frontmatter stays byte for byte, a changed key is written in its place in the
 * writer's own formatting, and reading is linear with a limit that says what was too large.
 */
import { describe, expect, it } from 'vitest';
import {
  frontmatterFor,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  PageFileError,
  parsePageFile,
  parseYamlMapping,
  readPageFile,
} from '../../src/main/core/content';
import { patchFrontmatter } from '../../src/main/core/content/frontmatter-yaml';

// A writer's own formatting: quoted strings, a comment, a flow list, odd spacing.
const WRITTEN = [
  'description: "Set up the SDK"   # kept as written',
  "cover: '.gitbook/assets/hero.png'",
  'coverY: 0',
  'layout:',
  '    title: {visible: true}',
  '    outline:',
  '        visible: false',
  'tags: [sdk, setup]',
  'custom_key: anything',
  '',
].join('\n');

describe('patchFrontmatter', () => {
  it('gives back the very same text when no value changes, whatever its formatting', () => {
    const data = parsePageFile(`---\n${WRITTEN}---\n# T\n`).meta;
    expect(patchFrontmatter(WRITTEN, data)).toBe(WRITTEN);
    expect(patchFrontmatter(WRITTEN, JSON.parse(JSON.stringify(data)) as Record<string, unknown>)).toBe(WRITTEN);
  });

  it('writes a changed key again in its place, every other line as it was', () => {
    const data = parsePageFile(`---\n${WRITTEN}---\n# T\n`).meta;
    const out = patchFrontmatter(WRITTEN, { ...data, coverY: 42 });
    expect(out).toBe(WRITTEN.replace('coverY: 0\n', 'coverY: 42\n'));
    const outline = patchFrontmatter(WRITTEN, { ...data, layout: { title: { visible: true }, outline: { visible: true } } });
    expect(outline).toBe(
      WRITTEN.replace(
        'layout:\n    title: {visible: true}\n    outline:\n        visible: false\n',
        'layout:\n  title:\n    visible: true\n  outline:\n    visible: true\n',
      ),
    );
  });

  it('puts a new key where GitBook writes it, and cuts a key that goes', () => {
    const data = parsePageFile(`---\n${WRITTEN}---\n# T\n`).meta;
    const added = patchFrontmatter(WRITTEN, { ...data, hidden: true });
    expect(added).toBe(WRITTEN.replace("cover: '", "hidden: true\ncover: '"));
    const { cover: _c, ...withoutCover } = data;
    expect(patchFrontmatter(WRITTEN, withoutCover)).toBe(WRITTEN.replace("cover: '.gitbook/assets/hero.png'\n", ''));
    const { custom_key: _k, ...withoutLast } = data;
    expect(patchFrontmatter(WRITTEN, { ...withoutLast, zzz: 1 })).toBe(WRITTEN.replace('custom_key: anything\n', 'zzz: 1\n'));
  });

  it('writes a changed description folded as GitBook does, and keeps a folded one that did not change', () => {
    const folded = 'description: >-\n  A description long enough to be folded by GitBook when it writes the page, at\n  eighty columns.\nhidden: true\n';
    const data = parsePageFile(`---\n${folded}---\n# T\n`).meta;
    expect(patchFrontmatter(folded, data)).toBe(folded);
    expect(patchFrontmatter(folded, { ...data, hidden: false })).toBe(folded.replace('hidden: true', 'hidden: false'));
    expect(patchFrontmatter(folded, { ...data, description: 'Short now.' })).toBe('description: Short now.\nhidden: true\n');
  });
});

describe('frontmatterFor', () => {
  it('adds `title:` only when the heading cannot hold the title, and a block in GitBook form when there was none', () => {
    expect(frontmatterFor(null, { coverY: 0, description: 'D' }, 'Title')).toBe('description: D\ncoverY: 0\n');
    expect(frontmatterFor('coverY: 0\n', {}, 'tab\there')).toBe('title: "tab\\there"\n');
    expect(frontmatterFor(null, {}, 'Title')).toBe('');
  });
});

describe('reading frontmatter: linear, with a limit', () => {
  it('refuses a block over the limit, saying how large it is and what Quire reads', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `key${i}: value ${i}`).join('\n');
    let error: unknown;
    try {
      parsePageFile(`---\n${keys}\n---\n# T\n`);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PageFileError);
    expect((error as PageFileError).message).toMatch(/^The frontmatter is \d+ KB and Quire reads at most 64 KB of it\. Shorten it and sync again\.$/);
  });

  it('reads a block just under the limit with thousands of keys, and still finds a repeated key deep down', () => {
    const many = Array.from({ length: 4_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    expect(many.length).toBeLessThan(MAX_FRONTMATTER_BYTES);
    expect(Object.keys(readPageFile(`---\n${many}\n---\n# T\n`).meta)).toHaveLength(4_000);
    expect(() => parsePageFile(`---\n${many}\nlayout:\n  a: 1\n  b: 2\n  a: 3\n---\n# T\n`)).toThrow(/not valid YAML at line 4005: Map keys must be unique/);
  });
});

describe('reading frontmatter: nesting bounded before it is parsed (issue 27, item 4)', () => {
  const deep = (n: number): Record<string, string> => ({
    'flow lists': `x: ${'['.repeat(n)}${']'.repeat(n)}\n`,
    'flow mappings': `x: ${'{a: '.repeat(n)}1${'}'.repeat(n)}\n`,
    'unclosed flow lists': `x: ${'['.repeat(n)}\n`,
    'block lists on one line': `x:\n  ${'- '.repeat(n)}1\n`,
    // The top-level mapping and n more, indented 1 column a level (300 levels is most of 64 KB).
    'indented mappings': `${Array.from({ length: Math.min(n + 1, 300) }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`,
  });
  const failure = (text: string): unknown => {
    try {
      parsePageFile(text);
    } catch (err) {
      return err;
    }
    return null;
  };

  it('holds a block nested 5,000 deep in any form with one line saying so, and never overflows the stack', () => {
    for (const [form, yaml] of Object.entries(deep(5_000))) {
      const error = failure(`---\n${yaml}---\n\n# T\n`);
      expect(error, form).toBeInstanceOf(PageFileError);
      expect((error as PageFileError).message, form).toBe(
        `The frontmatter nests lists and mappings more than ${MAX_FRONTMATTER_DEPTH} levels deep, and Quire reads at most ${MAX_FRONTMATTER_DEPTH}. Nest them less deeply and sync again.`,
      );
      expect((error as PageFileError).line, form).toBeGreaterThanOrEqual(2);
      // A server's block nested as deep is not read either: it stays in the body, as sent.
      expect(parseYamlMapping(yaml), form).toBeNull();
    }
    expect((failure(`---\ntitle: T\nlist:\n  - a\n  - ${'['.repeat(200)}${']'.repeat(200)}\n---\n`) as PageFileError).line).toBe(5);
  });

  it('refuses a key that is a list, a mapping or an alias (written out as text, such keys grow exponentially as they nest)', () => {
    for (const yaml of [`${'? '.repeat(5_000)}1\n`, `${'? '.repeat(60)}1\n`, 'a: 1\n[b]: 2\n', 'a: &x 1\n*x : 2\n']) {
      const error = failure(`---\n${yaml}---\n\n# T\n`);
      expect(error, yaml).toBeInstanceOf(PageFileError);
      expect((error as PageFileError).message, yaml).toBe(
        'The frontmatter could not be read: a key is a list, a mapping or an alias, where a key is a name (such as `description`). Fix it and sync again.',
      );
      expect(parseYamlMapping(yaml), yaml).toBeNull();
    }
    expect((failure('---\na: 1\n[b]: 2\n---\n') as PageFileError).line).toBe(3);
  });

  it('reads a block exactly at the limit, in every form', () => {
    for (const [form, yaml] of Object.entries(deep(MAX_FRONTMATTER_DEPTH - 1))) {
      if (form.startsWith('unclosed')) continue;
      expect(failure(`---\n${yaml}---\n\n# T\n`), form).toBeNull();
    }
    for (const [form, yaml] of Object.entries(deep(MAX_FRONTMATTER_DEPTH))) expect(failure(`---\n${yaml}---\n\n# T\n`), form).toBeInstanceOf(PageFileError);
  });
});
