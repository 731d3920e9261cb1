/**
 * The reference scanner behind the fake's stable references: it must find every place GitBook
 * markdown holds a link target, rewrite only the target, and never touch code or math.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findReferences, rewriteReferences } from './ref-scanner';

const upper = (markdown: string): string => rewriteReferences(markdown, (site) => site.target.toUpperCase());

describe('reference sites', () => {
  it('finds markdown links, images, definitions, HTML src/href and the GitBook blocks, in order', () => {
    const markdown = [
      'See [setup](setup.md#install "Setup") and ![logo](<../assets/my logo.png>).',
      '[![badge](badge.svg)](https://ci.example.com)',
      '<figure><img src="/files/abc" alt="x"><figcaption><p>Cap</p></figcaption></figure>',
      '<table><tr><td><a href="/pages/p1">P1</a></td></tr></table>',
      '{% content-ref url="/pages/p2" %}',
      '[P2](/pages/p2)',
      '{% endcontent-ref %}',
      '{% embed url="https://youtu.be/x" %}',
      '{% file src="/files/f1" %}',
      'Caption',
      '{% endfile %}',
      '{% include "/reusable-content/rc1" %}',
      '',
      '[label]: /pages/p3 "Title"',
      '[^1]: a footnote is not a definition',
    ].join('\n');

    expect(findReferences(markdown).map((s) => [s.kind, s.target])).toEqual([
      ['link', 'setup.md#install'],
      ['image', '../assets/my logo.png'],
      ['image', 'badge.svg'],
      ['link', 'https://ci.example.com'],
      ['html', '/files/abc'],
      ['html', '/pages/p1'],
      ['content-ref', '/pages/p2'],
      ['link', '/pages/p2'],
      ['embed', 'https://youtu.be/x'],
      ['file', '/files/f1'],
      ['include', '/reusable-content/rc1'],
      ['definition', '/pages/p3'],
    ]);
  });

  it('rewrites only the targets: titles, brackets, attributes and block text stay byte for byte', () => {
    const markdown = 'A [b](c.md "T") <img src="d" alt="e"> {% file src="f" %}x{% endfile %}\n\n[g]: h "i"\n';
    expect(upper(markdown)).toBe('A [b](C.MD "T") <img src="D" alt="e"> {% file src="F" %}x{% endfile %}\n\n[g]: H "i"\n');
  });

  it('wraps a new markdown destination in <…> when it needs it, and keeps existing angle brackets', () => {
    expect(rewriteReferences('[a](b) [c](<d e>)', () => 'x y')).toBe('[a](<x y>) [c](<x y>)');
  });

  it('drops a link to its text when asked, but not a link whose text holds another reference', () => {
    const dropAll = (markdown: string) => rewriteReferences(markdown, () => ({ drop: true }));
    expect(dropAll('Read [the **guide**](gone.md) now.')).toBe('Read the **guide** now.');
    expect(dropAll('[![img](a.png)](gone.md)')).toBe('[![img](a.png)](gone.md)');
  });

  it('leaves unbalanced or escaped brackets alone', () => {
    const markdown = 'Not a link: \\[a](b). Not one either: a](b) [c] (d). Parens [e](f(g)h) work.';
    expect(findReferences(markdown).map((s) => s.target)).toEqual(['f(g)h']);
  });
});

describe('what is never rewritten', () => {
  it('skips fenced code (backticks and tildes, indented, unclosed), inline code, math and HTML comments', () => {
    const markdown = [
      '```liquid',
      '{% content-ref url="/pages/a" %} [x](/pages/b)',
      '```',
      '   ~~~~',
      '   <img src="/files/c">',
      '   ~~~~',
      'Inline `[x](/pages/d)` and ``a ` [y](/pages/e)`` and $$[z](/pages/f)$$ <!-- [w](/pages/g) -->',
      '$$',
      '[m](/pages/h)',
      '$$',
      '[real](/pages/i)',
      '```',
      '[unclosed](/pages/j)',
    ].join('\n');
    expect(findReferences(markdown).map((s) => s.target)).toEqual(['/pages/i']);
    expect(upper(markdown)).toBe(markdown.replace('/pages/i', '/PAGES/I'));
  });

  it('keeps every corpus page byte for byte when nothing is rewritten', () => {
    const roots = ['docs', 'docs/includes', 'api'].map((dir) => new URL(`../fixtures/gitbook/${dir}/`, import.meta.url));
    const files = roots.flatMap((root) =>
      readdirSync(root)
        .filter((name) => name.endsWith('.md'))
        .map((name) => new URL(name, root)),
    );
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const markdown = readFileSync(file, 'utf8');
      expect(rewriteReferences(markdown, () => undefined)).toBe(markdown);
      expect(rewriteReferences(markdown, (site) => site.target)).toBe(markdown);
    }
  });
});
