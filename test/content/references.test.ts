import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodePercent,
  findReferences,
  formatStableRef,
  hrefText,
  parseStableRef,
  type Reference,
  relativeHref,
  resolveRelativeHref,
  rewriteReferences,
  type StableRef,
} from '../../src/main/core/content/references';
import { ANY_HREF, announce, HOSTILE_DOC, ID, INERT, PLAIN_HREF, RUNS, SEED, SYNTAX, writeRef } from './gen';

const hrefs = (markdown: string): string[] => findReferences(markdown).map((r) => r.href);
/**
 * Characters the tokenizer may look at for an input of length n: a constant per character
 * (each line pass, the inline pass, and one search to the end per kind of closing string),
 * independent of n. Quadratic behaviour on any input exceeds it.
 */
const linearBound = (n: number): number => 16 * n + 200;
const raw = (markdown: string, ref: Reference): string => markdown.slice(ref.start, ref.end);

describe('findReferences: markdown links, images and definitions', () => {
  it('finds inline links and images with their offsets, kind and line', () => {
    const md = 'Intro\n\nSee [setup](/pages/p1#install) and ![logo](/files/f1 "Logo").\n';
    const refs = findReferences(md);
    expect(refs.map((r) => [r.kind, r.href, r.line, raw(md, r), r.delimiter])).toEqual([
      ['link', '/pages/p1#install', 3, '/pages/p1#install', ''],
      ['image', '/files/f1', 3, '/files/f1', ''],
    ]);
  });

  it('reads every title form and keeps the title out of the href', () => {
    expect(hrefs('[a](x.md "t") [b](y.md \'t\') [c](z.md (t)) [d](w.md\n  "multi\nline")')).toEqual(['x.md', 'y.md', 'z.md', 'w.md']);
    expect(hrefs('[page](page.md "mention")')).toEqual(['page.md']);
  });

  it('reads angle-bracket destinations, spaces included, with offsets inside the brackets', () => {
    const md = '![img](<../.gitbook/assets/image (8).png>)';
    const [ref] = findReferences(md);
    expect(ref).toMatchObject({ href: '../.gitbook/assets/image (8).png', delimiter: '<', kind: 'image' });
    expect(raw(md, ref!)).toBe('../.gitbook/assets/image (8).png');
  });

  it('handles nested brackets, balanced parentheses, escapes and character references', () => {
    expect(hrefs('[a [b] c](x.md)')).toEqual(['x.md']);
    expect(hrefs('[wiki](https://en.wikipedia.org/wiki/Foo_(bar))')).toEqual(['https://en.wikipedia.org/wiki/Foo_(bar)']);
    expect(hrefs('[a](x\\(y.md) [b](a\\_b.md) [c](a&amp;b.md) [d](&#x2F;pages/p)')).toEqual(['x(y.md', 'a_b.md', 'a&b.md', '/pages/p']);
    expect(hrefs('[![inner](i.png)](outer.md)')).toEqual(['i.png', 'outer.md']);
    expect(hrefs('[empty]() [sp]( spaced.md )')).toEqual(['', 'spaced.md']);
  });

  it('finds reference definitions, bare or in angle brackets, with or without a title', () => {
    const md = '[a]: /pages/p1\n[b]: <../x y.md> "Title"\n  [c]: https://e.com \'t\'\n\nText [a] and [b][].';
    expect(findReferences(md).map((r) => [r.kind, r.href, r.line])).toEqual([
      ['definition', '/pages/p1', 1],
      ['definition', '../x y.md', 2],
      ['definition', 'https://e.com', 3],
    ]);
    // A definition cannot interrupt a paragraph.
    expect(hrefs('Para\n[a]: /pages/p1')).toEqual([]);
    // A footnote is not a definition, but the links in its text count.
    expect(hrefs('Note[^1].\n\n[^1]: https://x.com/a and [b](/pages/b)')).toEqual(['/pages/b']);
  });

  it('rejects what is not a link: unbalanced destinations, spaces, no closing parenthesis', () => {
    expect(hrefs('[a](b c) [d](e(f) [g](h "t" x) [i] (j) [k](l')).toEqual([]);
  });
});

describe('findReferences: HTML', () => {
  it('reads src, href and srcset in any quoting, inside figures, pictures and cards', () => {
    const md = [
      '<figure><img src="/files/f1" alt="A"><figcaption><p>Cap</p></figcaption></figure>',
      '',
      '<picture><source srcset="../.gitbook/assets/dark mode.svg" media="(prefers-color-scheme: dark)"><img src=\'light.svg\'></picture>',
      '',
      '<table data-view="cards"><tbody><tr><td><a href="/pages/p2">Card</a></td><td><a href=/files/cover>c</a></td></tr></tbody></table>',
      '',
      'Text <a href="https://x.com/?a=1&amp;b=2" class="button primary">Go</a> <IMG SRC="UP.png">',
    ].join('\n');
    expect(findReferences(md).map((r) => [r.name, r.attribute, r.href, r.delimiter, r.line])).toEqual([
      ['img', 'src', '/files/f1', '"', 1],
      ['source', 'srcset', '../.gitbook/assets/dark mode.svg', '"', 3],
      ['img', 'src', 'light.svg', "'", 3],
      ['a', 'href', '/pages/p2', '"', 5],
      ['a', 'href', '/files/cover', '', 5],
      ['a', 'href', 'https://x.com/?a=1&b=2', '"', 7],
      ['img', 'src', 'UP.png', '"', 7],
    ]);
  });

  it('reads tags spread over several lines inside an HTML block', () => {
    const md = '<figure>\n  <picture>\n    <img\n      src="/files/f9"\n      alt="GitHub logo"\n    />\n  </picture>\n</figure>\n';
    expect(findReferences(md).map((r) => [r.href, r.line])).toEqual([['/files/f9', 4]]);
  });

  it('reads no markdown links inside an HTML block (as CommonMark), but does after its blank line', () => {
    expect(hrefs('<div>\n[not](/pages/a)\n</div>\n\n[yes](/pages/b)')).toEqual(['/pages/b']);
  });

  it('ends an HTML block where the list item or quote holding it ends, as CommonMark: the next items are markdown', () => {
    // GitBook's export writes a figure inside a list item, indented, and the next item right below it.
    const list = [
      '*   End users can save a row.',
      '',
      '    <figure><img src="/files/f1" alt=""><figcaption></figcaption></figure>',
      '*   They can [name rows](/pages/names) and [more](names.md#categories).',
      '',
      '    <figure><img src="/files/f2" alt=""><figcaption></figcaption></figure>',
      '1. Then [this](/pages/next).',
    ].join('\n');
    expect(hrefs(list)).toEqual(['/files/f1', '/pages/names', 'names.md#categories', '/files/f2', '/pages/next']);
    expect(hrefs('> <div>\n> [inside](/pages/a)\n[after the quote](/pages/b)')).toEqual(['/pages/b']);
    // Still one HTML block while the item goes on, and a lazy line is no continuation of it.
    expect(hrefs('* Item\n\n  <div>\n  [inside](/pages/a)\n  </div>\n[lazy](/pages/b)')).toEqual(['/pages/b']);
  });

  it('ends an HTML block at a line holding only a `{% %}` tag, as GitBook’s export writes a block’s end after HTML', () => {
    const columns = [
      '{% columns %}',
      '{% column %}',
      '<figure><img src="/files/f1" alt=""><figcaption></figcaption></figure>',
      '{% endcolumn %}',
      '{% column %}',
      'See [the guide](/pages/guide).',
      '{% endcolumn %}',
      '{% endcolumns %}',
    ].join('\n');
    expect(hrefs(columns)).toEqual(['/files/f1', '/pages/guide']);
    const tabs =
      '{% tabs %}\n{% tab title="A" %}\n<table><tr><td><a href="/pages/a">A</a></td></tr></table>\n{% endtab %}\n{% tab title="B" %}\n[b](/pages/b)\n{% endtab %}\n{% endtabs %}';
    expect(hrefs(tabs)).toEqual(['/pages/a', '/pages/b']);
    // A `<pre>` or a comment runs to its own end, tags and all.
    expect(hrefs('<pre>\n{% endtab %}\n[not](/pages/a)\n</pre>\n\n[yes](/pages/b)')).toEqual(['/pages/b']);
  });
});

describe('findReferences: GitBook blocks', () => {
  it('reads the content reference of every block that holds one', () => {
    const md = [
      '{% content-ref url="../guide/setup.md" %}',
      '[setup.md](../guide/setup.md)',
      '{% endcontent-ref %}',
      '{% file src="../.gitbook/assets/example (1).pdf" %}',
      'Caption',
      '{% endfile %}',
      "{% embed url='https://www.youtube.com/watch?v=x' %}",
      '{% include "../.gitbook/includes/note.md" %}',
      '{% openapi src="../.gitbook/assets/api.yaml" path="/pet" method="post" %}',
      '[api.yaml](../.gitbook/assets/api.yaml)',
      '{% endopenapi %}',
      '{% page-ref page="legacy.md" %}',
      '{% hint style="info" %}Not a reference: style{% endhint %}',
    ].join('\n');
    expect(findReferences(md).map((r) => [r.kind, r.name, r.attribute, r.href, r.line])).toEqual([
      ['block', 'content-ref', 'url', '../guide/setup.md', 1],
      ['link', null, null, '../guide/setup.md', 2],
      ['block', 'file', 'src', '../.gitbook/assets/example (1).pdf', 4],
      ['block', 'embed', 'url', 'https://www.youtube.com/watch?v=x', 7],
      ['block', 'include', null, '../.gitbook/includes/note.md', 8],
      ['block', 'openapi', 'src', '../.gitbook/assets/api.yaml', 9],
      ['link', null, null, '../.gitbook/assets/api.yaml', 10],
      ['block', 'page-ref', 'page', 'legacy.md', 12],
    ]);
  });

  it('reads tags written inline, as GitBook writes tabs', () => {
    const md = '{% tabs %}\n{% tab title="A" %} See [a](a.md) {% endtab %}\n{% endtabs %}';
    expect(hrefs(md)).toEqual(['a.md']);
  });
});

describe('findReferences: nothing inside code, comments or frontmatter', () => {
  it('skips fenced code (backticks and tildes, in lists and quotes), indented code and code spans', () => {
    const md = [
      '```js',
      '[a](/pages/fenced)',
      '```',
      '',
      '    [b](/pages/indented)',
      '',
      '1. Step',
      '',
      '   ```bash',
      '   <img src="/files/in-list-fence">',
      '   ```',
      '',
      '> ~~~',
      '> {% content-ref url="/pages/quoted" %}',
      '> ~~~',
      '',
      'Text `[c](/pages/span)` and ``a ` [d](/pages/span2)`` then [e](/pages/real).',
    ].join('\n');
    expect(hrefs(md)).toEqual(['/pages/real']);
  });

  it('keeps list items indented four spaces as text, as GitBook nests lists', () => {
    expect(hrefs('* [a](a.md)\n    * [b](b.md)\n        * [c](c.md)\n\n      [d](d.md)')).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
  });

  it('skips {% code %} bodies, HTML comments and YAML frontmatter', () => {
    const md = [
      '---',
      'description: see [x](/pages/fm)',
      '---',
      '{% code title="x.md" %}',
      '[a](/pages/code-body)',
      '{% endcode %}',
      '<!-- [b](/pages/comment) -->',
      '',
      '<!--',
      '<img src="/files/c">',
      '',
      '-->',
      'Inline <!-- [c](/pages/c2) --> and [d](/pages/d).',
    ].join('\n');
    expect(hrefs(md)).toEqual(['/pages/d']);
  });

  it('skips an unclosed fence to the end, but an unclosed {% code %} hides nothing', () => {
    expect(hrefs('[a](a.md)\n```\n[b](b.md)')).toEqual(['a.md']);
    expect(hrefs('{% code %}\n[b](b.md)')).toEqual(['b.md']);
  });
});

describe('findReferences: hostile input', () => {
  it('survives unbalanced brackets, stray tags and quotes', () => {
    expect(hrefs('[[[[a](x.md)]]]] ](y) [z](')).toEqual(['x.md']);
    expect(hrefs('{% {% content-ref url="a.md" %} {%')).toEqual([]);
    // `<a href="x <img src="` is followed by `y.png"`, not by a space: not a tag, so the img is one.
    expect(hrefs('<a href="x <img src="y.png">')).toEqual(['y.png']);
  });

  it('reads CRLF line endings and a BOM', () => {
    const md = '\uFEFF---\r\ntitle: x\r\n---\r\n[a](a.md)\r\n\r\n```\r\n[b](b.md)\r\n```\r\n[c](c.md\r\n "t")';
    const refs = findReferences(md);
    expect(refs.map((r) => [r.href, r.line])).toEqual([
      ['a.md', 4],
      ['c.md', 9],
    ]);
  });

  it('reads a 1 MB line with a link at each end', () => {
    const md = `[a](a.md) ${'x[y]('.repeat(200_000)} [b](b.md)`;
    expect(md.length).toBeGreaterThan(1_000_000);
    expect(hrefs(md)).toEqual(['a.md', 'b.md']);
  });

  const PATHOLOGICAL: Record<string, (n: number) => string> = {
    'open brackets': (n) => '['.repeat(n),
    'unclosed destinations': (n) => '[](('.repeat(n / 4),
    'balanced parentheses, no end': (n) => `${'[](()()'.repeat(n / 7)} x`,
    'unclosed titles': (n) => '[](x "'.repeat(n / 6),
    'unclosed paren titles': (n) => '[](x ('.repeat(n / 6),
    'unclosed angle destinations': (n) => '[](<'.repeat(n / 4),
    'unclosed attribute quotes': (n) => '<a x="'.repeat(n / 6),
    'mixed attribute quotes': (n) => `<a x="<b y='`.repeat(n / 12),
    'endless attributes': (n) => `<a ${'b '.repeat(n / 2)}`,
    'tags without end': (n) => '{%'.repeat(n / 2),
    'tags without end, many lines': (n) => `${'{% x\n'.repeat(n / 5)}%}`,
    'backtick runs of every length': (n) => Array.from({ length: Math.sqrt(n) | 0 }, (_, k) => '`'.repeat(k + 1)).join('a'),
    'unclosed comments': (n) => 'x <!-- a\n\n'.repeat(n / 10),
    'unclosed autolinks': (n) => '<a:'.repeat(n / 3),
    'deep lists': (n) => Array.from({ length: Math.sqrt(n) | 0 }, (_, k) => `${' '.repeat(2 * k)}* x`).join('\n'),
    'fence lines': (n) => '```\n'.repeat(n / 4),
    definitions: (n) => '[a]: <\n'.repeat(n / 7),
    'everything at once': (n) => '[a `b` <c d="e"> {% f %}](g "h") <!-- '.repeat(n / 37),
  };

  for (const [name, make] of Object.entries(PATHOLOGICAL)) {
    it(`does work linear in the input on ${name}`, () => {
      for (const n of [20_000, 200_000]) {
        const text = make(n);
        const meter = { steps: 0 };
        findReferences(text, meter);
        expect(meter.steps).toBeLessThanOrEqual(linearBound(text.length));
      }
    });
  }
});

describe('rewriteReferences', () => {
  it('replaces only the href text and keeps every other byte', () => {
    const md = 'A [link](/pages/p1 "mention") and <img src="/files/f1" alt="x">\r\n{% embed url="/pages/p2" %}\n`[code](/pages/p1)`';
    const out = rewriteReferences(md, (r) => (r.href.startsWith('/pages/') ? `new-${r.href.slice(7)}.md` : null));
    expect(out).toBe('A [link](new-p1.md "mention") and <img src="/files/f1" alt="x">\r\n{% embed url="new-p2.md" %}\n`[code](/pages/p1)`');
  });

  it('returns the very same text when nothing changes', () => {
    const md = '[a](b.md) <img src="c.png">';
    expect(rewriteReferences(md, (r) => r.href)).toBe(md);
    expect(rewriteReferences(md, () => null)).toBe(md);
  });

  it('keeps a markdown destination valid: angle brackets for spaces, escapes for parentheses and markup', () => {
    const rewrite = (md: string, value: string) => rewriteReferences(md, () => value);
    expect(rewrite('[a](x)', 'my file.md')).toBe('[a](<my file.md>)');
    expect(rewrite('[a](<x>)', 'a(b.md')).toBe('[a](<a(b.md>)');
    expect(rewrite('[a](x)', 'a(b.md')).toBe('[a](a\\(b.md)');
    expect(rewrite('[a](x)', 'a(b)c.md')).toBe('[a](a(b)c.md)');
    expect(rewrite('[a](x)', '<a>"\'`|.md')).toBe('[a](&lt;a&gt;&quot;&#39;&#96;\\|.md)');
    expect(rewrite('[a](x)', 'a&amp;b\\')).toBe('[a](a\\&amp;b\\\\)');
    expect(rewrite('[a]: x', '')).toBe('[a]: <>');
    expect(rewrite('[a](x)', 'a{%b%}c')).toBe('[a](a{\\%b%\\}c)');
  });

  it('keeps an HTML attribute valid: its quote escaped, quotes added when unquoted', () => {
    const rewrite = (md: string, value: string) => rewriteReferences(md, () => value);
    expect(rewrite('<img src="x">', 'a"b\'c&lt;.png')).toBe('<img src="a&quot;b&#39;c&amp;lt;.png">');
    expect(rewrite("<img src='x'>", "it's.png")).toBe("<img src='it&#39;s.png'>");
    expect(rewrite('<img src=x>', 'a b.png')).toBe('<img src="a b.png">');
    expect(rewrite('<img src=x>', 'plain.png')).toBe('<img src=plain.png>');
  });

  it('leaves an href whose removal would reshape its line, and rewrites the others', () => {
    // The backtick in the old href is what keeps the first line from opening a code fence.
    const md = '```x [a](b`c) [d](e.md)';
    expect(rewriteReferences(md, (r) => `new-${r.href.replace('`', '')}`)).toBe('```x [a](b`c) [d](new-e.md)');
  });

  it('keeps a block argument valid: what it cannot hold is percent-encoded', () => {
    const rewrite = (md: string, value: string) => rewriteReferences(md, () => value);
    expect(rewrite('{% file src="x" %}', 'a b "c".pdf')).toBe('{% file src="a b %22c%22.pdf" %}');
    expect(rewrite('{% embed url=x %}', 'a b')).toBe('{% embed url="a b" %}');
    expect(rewrite('{% include "x" %}', 'a%}b')).toBe('{% include "a%25}b" %}');
  });

  it(`keeps the structure on any input: same references, new values, other text unchanged, idempotent (seed ${SEED})`, () => {
    announce('rewriteReferences on hostile documents');
    fc.assert(
      fc.property(HOSTILE_DOC, fc.array(ANY_HREF, { minLength: 1, maxLength: 8 }), (md, values) => {
        const before = findReferences(md);
        const valueFor = (k: number) => values[k % values.length]!;
        let k = 0;
        const out = rewriteReferences(md, () => valueFor(k++));
        const after = findReferences(out);
        expect(after.map((r) => [r.kind, r.name, r.attribute, r.line])).toEqual(before.map((r) => [r.kind, r.name, r.attribute, r.line]));
        after.forEach((r, i) => {
          const wanted = values[i % values.length]!;
          // What a place cannot hold at all (a line break in a destination, a quote in a block argument) is percent-encoded.
          if (decodePercent(r.href) === decodePercent(wanted)) return;
          // Held back: its old text holds a character that shapes the line (see rewriteReferences).
          expect(raw(md, before[i]!)).toMatch(/[`"'<>]/);
          expect(raw(out, r)).toBe(raw(md, before[i]!));
        });
        expect(gaps(out, after)).toEqual(gaps(md, before).map((gap, i) => withDelimiters(gap, before, after, i)));
        let again = 0;
        expect(rewriteReferences(out, () => valueFor(again++))).toBe(out);
        expect(rewriteReferences(md, (r) => r.href)).toBe(md);
      }),
      { seed: SEED, numRuns: RUNS * 3, endOnFailure: true },
    );
  });

  it(`finds exactly the references a document holds, wherever code and comments sit (seed ${SEED})`, () => {
    announce('findReferences on documents with known references');
    const paragraph = fc.oneof(
      fc.record({ syntax: SYNTAX, href: PLAIN_HREF, title: fc.stringMatching(/^[A-Za-z ]{0,8}$/) }).map(({ syntax, href, title }) => {
        const usable = syntax === 'html=' && href.includes('=') ? 'link' : syntax;
        return writeRef(usable, href, title);
      }),
      INERT.map((text) => ({ text, ref: null })),
    );
    fc.assert(
      fc.property(fc.array(paragraph, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (paragraphs, eol, bom) => {
        const md = (bom ? '\uFEFF' : '') + paragraphs.map((p) => p.text.replace(/\n/g, eol)).join(eol + eol);
        const expected = paragraphs.flatMap((p) => (p.ref ? [p.ref] : []));
        expect(findReferences(md).map((r) => ({ href: r.href, kind: r.kind }))).toEqual(expected);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it(`does linear work on any hostile document (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(HOSTILE_DOC, { minLength: 1, maxLength: 40 }), (parts) => {
        const md = parts.join('');
        const meter = { steps: 0 };
        findReferences(md, meter);
        expect(meter.steps).toBeLessThanOrEqual(linearBound(md.length));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

/** The text between references (before the first, between each, after the last). */
function gaps(md: string, refs: readonly Reference[]): string[] {
  const out: string[] = [];
  let last = 0;
  for (const r of refs) {
    out.push(md.slice(last, r.start));
    last = r.end;
  }
  out.push(md.slice(last));
  return out;
}

const CLOSE: Record<string, string> = { '': '', '<': '>', '"': '"', "'": "'" };

/** A gap as it must read after rewriting: with the delimiters a reference had to gain on either side. */
function withDelimiters(gap: string, before: readonly Reference[], after: readonly Reference[], i: number): string {
  const prev = i > 0 && before[i - 1]!.delimiter !== after[i - 1]!.delimiter ? CLOSE[after[i - 1]!.delimiter]! : '';
  const next = i < after.length && before[i]!.delimiter !== after[i]!.delimiter ? after[i]!.delimiter : '';
  return prev + gap + next;
}

describe('hrefText', () => {
  it('is what rewriteReferences writes, so a caller can tell text written the usual way from odd spellings', () => {
    const md = '[a](/pages/p) <a href="&#x2F;pages/p">';
    const [link, html] = findReferences(md);
    expect(hrefText(link!, link!.href)).toEqual({ text: '/pages/p', delimiter: '' });
    expect(hrefText(html!, html!.href).text).not.toBe(raw(md, html!));
  });
});

describe('parseStableRef / formatStableRef', () => {
  it('reads the four stable forms', () => {
    expect(parseStableRef('/pages/p1')).toEqual({ kind: 'page', spaceId: null, pageId: 'p1', anchor: null });
    expect(parseStableRef('/pages/p1#install')).toEqual({ kind: 'page', spaceId: null, pageId: 'p1', anchor: 'install' });
    expect(parseStableRef('/spaces/s1/pages/-Lum_x')).toEqual({ kind: 'page', spaceId: 's1', pageId: '-Lum_x', anchor: null });
    expect(parseStableRef('/files/MNWX7498k8mPYo6bgjPF')).toEqual({ kind: 'file', spaceId: null, fileId: 'MNWX7498k8mPYo6bgjPF' });
    expect(parseStableRef('/spaces/s1/files/f1')).toEqual({ kind: 'file', spaceId: 's1', fileId: 'f1' });
    expect(parseStableRef('/pages/p1#')).toEqual({ kind: 'page', spaceId: null, pageId: 'p1', anchor: '' });
  });

  it('refuses anything else', () => {
    for (const href of [
      'pages/p1',
      '/pages/',
      '/pages/p1/',
      '/pages/p 1',
      '/files/f1#x',
      '/pages/p1?x=1',
      '//pages/p1',
      'https://x/pages/p1',
      '/spaces/s1/p1',
      '/docs/a.md',
      '',
    ]) {
      expect(parseStableRef(href)).toBeNull();
    }
  });

  it('refuses to write an id that is not one', () => {
    expect(() => formatStableRef({ kind: 'page', spaceId: null, pageId: 'a/b', anchor: null })).toThrow(/page id "a\/b"/);
    expect(() => formatStableRef({ kind: 'file', spaceId: 'x y', fileId: 'f' })).toThrow(/space id/);
  });

  it(`are exact inverses (seed ${SEED})`, () => {
    const stable: fc.Arbitrary<StableRef> = fc.oneof(
      fc.record({ kind: fc.constant('page' as const), spaceId: fc.option(ID), pageId: ID, anchor: fc.option(fc.string()) }),
      fc.record({ kind: fc.constant('file' as const), spaceId: fc.option(ID), fileId: ID }),
    );
    fc.assert(
      fc.property(stable, (ref) => {
        const href = formatStableRef(ref);
        expect(parseStableRef(href)).toEqual(ref);
        expect(formatStableRef(parseStableRef(href)!)).toBe(href);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

describe('relativeHref / resolveRelativeHref', () => {
  it('writes the path from one file to another, x.md rather than ./x.md', () => {
    expect(relativeHref('docs/guide/a.md', 'docs/guide/b.md')).toBe('b.md');
    expect(relativeHref('docs/guide/a.md', 'docs/guide/setup.md', 'install')).toBe('setup.md#install');
    expect(relativeHref('docs/guide/a.md', 'docs/.gitbook/assets/logo.png')).toBe('../.gitbook/assets/logo.png');
    expect(relativeHref('docs/a/b/c.md', 'other-space/intro.md')).toBe('../../../other-space/intro.md');
    expect(relativeHref('docs/README.md', 'docs/README.md', 'top')).toBe('README.md#top');
    expect(relativeHref('docs/a.md', 'docs/a.md/b.md')).toBe('a.md/b.md');
  });

  it('percent-encodes what a link cannot hold and keeps readable letters', () => {
    expect(relativeHref('s/a.md', 's/Café 日本 (1).md')).toBe('Caf\u00e9%20日本%20(1).md');
    expect(relativeHref('s/a.md', 's/a#b%c?d=e:f\'g"h`i[j]k|l.md')).toBe('a%23b%25c%3Fd%3De%3Af%27g%22h%60i%5Bj%5Dk%7Cl.md');
    expect(relativeHref('s/a.md', 's/Cafe\u0301.md')).toBe('Caf\u00e9.md');
    expect(relativeHref('s/a.md', 's/x.md', 'a b#c')).toBe('x.md#a%20b%23c');
    expect(relativeHref('s/a.md', 's/😀\u200b.md')).toBe('%F0%9F%98%80%E2%80%8B.md');
  });

  it('refuses paths that are not relative to the root', () => {
    expect(() => relativeHref('/abs/a.md', 'b.md')).toThrow(/fromFile must be a POSIX path/);
    expect(() => relativeHref('a.md', '../b.md')).toThrow(/toFile/);
    expect(() => relativeHref('a.md', 'x//b.md')).toThrow(/toFile/);
  });

  it('resolves relative hrefs, decoding them, with ./, ../, backslashes and NFD', () => {
    expect(resolveRelativeHref('docs/guide/a.md', 'setup.md#install')).toEqual({ path: 'docs/guide/setup.md', anchor: 'install' });
    expect(resolveRelativeHref('docs/guide/a.md', './../.gitbook/assets/logo%20(1).png')).toEqual({ path: 'docs/.gitbook/assets/logo (1).png', anchor: null });
    expect(resolveRelativeHref('docs/guide/a.md', '..\\other\\b.md')).toEqual({ path: 'docs/other/b.md', anchor: null });
    expect(resolveRelativeHref('docs/a.md', 'Cafe\u0301.md#re%CC%81sume\u0301')).toEqual({ path: 'docs/Caf\u00e9.md', anchor: 'r\u00e9sum\u00e9' });
    expect(resolveRelativeHref('docs/a.md', '100%.md')).toEqual({ path: 'docs/100%.md', anchor: null });
    expect(resolveRelativeHref('docs/a.md', 'b.md#')).toEqual({ path: 'docs/b.md', anchor: '' });
    expect(resolveRelativeHref('docs/a.md', ' b.md ')).toEqual({ path: 'docs/b.md', anchor: null });
  });

  it('reads a link to a folder as its README.md, as GitBook writes them', () => {
    expect(resolveRelativeHref('docs/a/b.md', './')).toEqual({ path: 'docs/a/README.md', anchor: null });
    expect(resolveRelativeHref('docs/a/b.md', 'site-structure/')).toEqual({ path: 'docs/a/site-structure/README.md', anchor: null });
    expect(resolveRelativeHref('docs/a/b.md', '..#x')).toEqual({ path: 'docs/README.md', anchor: 'x' });
  });

  it('returns null for what is not a relative path to a file', () => {
    for (const href of [
      'https://x.com/a.md',
      'mailto:a@b.c',
      '//host/a.md',
      '/pages/p1',
      '/a.md',
      '#anchor',
      '',
      '?q=1',
      'a.md?q=1',
      'C:\\x.md',
      '../../../x.md',
      'a%2Fb.md',
      'a%00.md',
    ]) {
      expect(resolveRelativeHref('docs/a/b.md', href), href).toBeNull();
    }
  });

  it(`resolve(from, relativeHref(from, to, anchor)) gives back to and anchor, for hostile names (seed ${SEED})`, () => {
    const segment = fc
      .string({
        unit: fc.constantFrom(
          'a',
          'Z',
          '0',
          ' ',
          '#',
          '%',
          '?',
          '(',
          ')',
          "'",
          '"',
          '[',
          ']',
          '`',
          '|',
          ':',
          '=',
          '&',
          ';',
          'é',
          'e\u0301',
          '日',
          '😀',
          '.',
          '-',
          '\\',
        ),
      })
      .filter((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\\'));
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(path, path, fc.option(fc.string({ maxLength: 8 })), (from, to, anchor) => {
        const href = relativeHref(from, to, anchor);
        expect(resolveRelativeHref(from, href)).toEqual({ path: to.normalize('NFC'), anchor: anchor === null ? null : anchor.normalize('NFC') });
        expect(href).not.toMatch(/[\s"'<>`=|\\]/);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
