import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PageFileError, parsePageFile, pickPageMeta, renderPageFile } from '../../src/main/core/content';

describe('renderPageFile', () => {
  it('writes only the title heading and body when there is no metadata', () => {
    expect(renderPageFile({ title: 'Hello', body: 'Some text.\n' })).toBe('# Hello\n\nSome text.\n');
    expect(renderPageFile({ title: 'Hello', body: '' })).toBe('# Hello\n');
  });

  it("puts metadata in a YAML frontmatter block as GitBook's Git Sync writes it: its keys first, in its order", () => {
    const text = renderPageFile({
      title: 'Setup',
      body: 'Body\n',
      meta: { zeta: 1, hidden: true, description: 'How to: set up', icon: 'gear', alpha: [1, 2] },
    });
    expect(text).toBe("---\ndescription: 'How to: set up'\nhidden: true\nicon: gear\nalpha:\n  - 1\n  - 2\nzeta: 1\n---\n\n# Setup\n\nBody\n");
  });

  it('writes a long description folded at 80 columns, a no-break space escaped, and the layout nested, as GitBook does', () => {
    const text = renderPageFile({
      title: 'Installation and Fundamentals',
      body: 'Body\n',
      meta: {
        layout: {
          title: { visible: true },
          description: { visible: true },
          tableOfContents: { visible: true },
          outline: { visible: false },
          pagination: { visible: true },
        },
        coverY: 0,
        description: 'Learn and understand the core concepts related to how you can install the SDK package, authenticate, and get started.',
        tags: ['changelog'],
      },
    });
    expect(text).toBe(
      [
        '---',
        'description: >-',
        '  Learn and understand the core concepts related to how you can install the SDK',
        '  package, authenticate, and get started.',
        'coverY: 0',
        'layout:',
        '  title:',
        '    visible: true',
        '  description:',
        '    visible: true',
        '  tableOfContents:',
        '    visible: true',
        '  outline:',
        '    visible: false',
        '  pagination:',
        '    visible: true',
        'tags:',
        '  - changelog',
        '---',
        '',
        '# Installation and Fundamentals',
        '',
        'Body',
        '',
      ].join('\n'),
    );
    expect(renderPageFile({ title: 'T', body: '', meta: { description: 'Cards —\u00a0with images' } })).toBe(
      '---\ndescription: "Cards —\\_with images"\n---\n\n# T\n',
    );
  });

  it('moves a title a heading cannot hold exactly into the frontmatter', () => {
    expect(renderPageFile({ title: ' padded', body: 'x' })).toBe("---\ntitle: ' padded'\n---\n\nx");
    expect(renderPageFile({ title: 'C #', body: '', meta: { emoji: '1f600' } })).toBe("---\ntitle: 'C #'\nemoji: 1f600\n---\n\n");
  });

  it('writes the body as is when no title is given', () => {
    expect(renderPageFile({ body: '# From body\n\ntext', meta: { hidden: true } })).toBe('---\nhidden: true\n---\n\n# From body\n\ntext');
  });

  it("refuses metadata that holds 'title'", () => {
    expect(() => renderPageFile({ title: 'a', body: '', meta: { title: 'b' } })).toThrow(/title/);
  });
});

describe('parsePageFile', () => {
  it('reads the frontmatter, the title heading and the body', () => {
    expect(parsePageFile('---\ndescription: Intro\nhidden: true\n---\n\n# Welcome\n\nHello\n')).toEqual({
      title: 'Welcome',
      meta: { description: 'Intro', hidden: true },
      body: 'Hello\n',
    });
  });

  it('tolerates CRLF, a BOM, no blank lines and a closing "..." line', () => {
    expect(parsePageFile('\uFEFF---\r\nicon: book\r\n...\r\n# Title\r\nLine 1\r\nLine 2\r\n')).toEqual({
      title: 'Title',
      meta: { icon: 'book' },
      body: 'Line 1\nLine 2\n',
    });
  });

  it('takes the heading as the title when `title:` has no value, as GitBook does', () => {
    expect(parsePageFile('---\ntitle: \ndescription: All the networks.\n---\n\n# Networks\n\nBody\n')).toEqual({
      title: 'Networks',
      meta: { description: 'All the networks.' },
      body: 'Body\n',
    });
  });

  it('returns a null title when the file has no heading, and reads a closing heading sequence', () => {
    expect(parsePageFile('Just text\n')).toEqual({ title: null, meta: {}, body: 'Just text\n' });
    expect(parsePageFile('#  Spaced  ##\nx')).toEqual({ title: 'Spaced', meta: {}, body: 'x' });
    expect(parsePageFile('## Not a title\n')).toEqual({ title: null, meta: {}, body: '## Not a title\n' });
  });

  it('accepts an empty frontmatter block', () => {
    expect(parsePageFile('---\n---\n# T\n')).toEqual({ title: 'T', meta: {}, body: '' });
  });

  it('keeps a second heading in the body', () => {
    expect(parsePageFile('# Title\n\n# Section\n')).toEqual({ title: 'Title', meta: {}, body: '# Section\n' });
  });

  it('keeps a "__proto__" key as plain data', () => {
    const parsed = parsePageFile('---\n__proto__:\n  polluted: true\n---\n# T\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(parsed.meta)).toEqual(['__proto__']);
    expect(renderPageFile({ title: 'T', body: parsed.body, meta: parsed.meta })).toBe('---\n__proto__:\n  polluted: true\n---\n\n# T\n');
  });

  describe('malformed files give a PageFileError naming the problem', () => {
    const errorOf = (text: string): PageFileError => {
      try {
        parsePageFile(text);
      } catch (err) {
        expect(err).toBeInstanceOf(PageFileError);
        return err as PageFileError;
      }
      throw new Error('expected parsePageFile to throw');
    };

    it('bad YAML, with the line in the file', () => {
      const err = errorOf('---\ndescription: ok\nicon: [unclosed\n---\n# T\n');
      expect(err.message).toMatch(/frontmatter .* not valid YAML at line \d/);
      expect(err.line).toBeGreaterThanOrEqual(3);
    });

    it('duplicate keys, at the line of the repeated key, nested mappings included', () => {
      const top = errorOf('---\nicon: a\ndescription: x\nicon: b\n---\n');
      expect(top.message).toMatch(/not valid YAML at line 4: Map keys must be unique/);
      expect(top.line).toBe(4);
      const nested = errorOf('---\nlayout:\n  title:\n    visible: true\n    visible: false\n---\n');
      expect(nested.line).toBe(5);
      // The same key in two mappings is no repeat.
      expect(parsePageFile('---\na:\n  x: 1\nb:\n  x: 2\n---\n').meta).toEqual({ a: { x: 1 }, b: { x: 2 } });
    });

    it('no closing line', () => {
      expect(errorOf('---\nicon: a\n# T\n').message).toMatch(/no closing '---' line/);
    });

    it('frontmatter that is not a mapping', () => {
      expect(errorOf('---\n- a\n- b\n---\n').message).toMatch(/key: value/);
    });

    it('a title that is not text', () => {
      expect(errorOf('---\ntitle: [a]\n---\n').message).toMatch(/'title' must be text/);
    });
  });
});

describe('round trips', () => {
  const jsonValue = fc.jsonValue({ maxDepth: 2 }).filter((v) => !Object.is(v, -0));
  const metaArb = fc.dictionary(
    fc
      .oneof(fc.constantFrom('description', 'icon', 'emoji', 'hidden', 'layout', 'cover'), fc.string({ minLength: 1, maxLength: 8 }))
      .filter((k) => k !== 'title'),
    jsonValue,
    { maxKeys: 5 },
  );
  const textArb = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '#', '-', '---', ':', '"', "'", 'é', '\t', '…', '\\', '{', '['), maxLength: 40 });
  const pageArb = fc.record({ title: textArb, body: textArb, meta: metaArb });

  it('parse(render(page)) gives the page back', () => {
    fc.assert(
      fc.property(pageArb, (page) => {
        expect(parsePageFile(renderPageFile(page))).toEqual(page);
      }),
      { seed: 1234, numRuns: 500 },
    );
  });

  it('render(parse(file)) gives a file we wrote back byte for byte', () => {
    fc.assert(
      fc.property(pageArb, (page) => {
        const text = renderPageFile(page);
        const parsed = parsePageFile(text);
        expect(renderPageFile({ title: parsed.title!, body: parsed.body, meta: parsed.meta })).toBe(text);
      }),
      { seed: 4321, numRuns: 500 },
    );
  });

  it('covers the awkward cases explicitly', () => {
    const cases = [
      { title: '', body: '', meta: {} },
      { title: 'T', body: '\n\nleading blank lines', meta: {} },
      { title: 'T', body: '---\nnot frontmatter\n---\n', meta: {} },
      { title: 'multi\nline', body: '# looks like a title\n', meta: { description: 'yes' } },
      { title: '#', body: 'x', meta: { n: 1.5, list: [null, true, 'no'], nested: { a: { b: 'c' } } } },
      { title: 'Ünïcödé 😀', body: 'body', meta: { description: 'line1\nline2\n', icon: '' } },
    ];
    for (const page of cases) expect(parsePageFile(renderPageFile(page))).toEqual(page);
  });
});

describe('pickPageMeta', () => {
  it('keeps the metadata worth a round trip and leaves out defaults', () => {
    expect(
      pickPageMeta({
        id: 'p1',
        title: 'T',
        description: 'D',
        emoji: '',
        hidden: false,
        noIndex: true,
        cover: { yPos: 0 },
        variables: {},
        markdown: 'ignored',
      }),
    ).toEqual({ description: 'D', noIndex: true, cover: { yPos: 0 } });
  });
});
