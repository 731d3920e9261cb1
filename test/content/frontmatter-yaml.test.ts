/**
 * Issue 20, item 2 (and issue 17, item 9, frontmatter half): every frontmatter key survives,
 * untouched frontmatter stays byte for byte, a changed key is written in its place in the
 * writer's own formatting, and reading is linear with a limit that says what was too large.
 */
import { describe, expect, it } from 'vitest';
import { frontmatterFor, MAX_FRONTMATTER_BYTES, PageFileError, parsePageFile, readPageFile } from '../../src/main/core/content';
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
