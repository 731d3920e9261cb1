/**
 * The page renderer (core/preview) on its own: what GitBook's blocks become, highlight.js's
 * languages found by name and alias, and the writer's input kept from running whatever block
 * it sits in. The browser's view of the same is test/hosts/preview.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type RenderContext, renderPage } from '../../src/main/core/preview';
import { LANGUAGE_ALIASES, languageModule, splitHighlightedLines } from '../../src/main/core/preview/highlight';

const context: RenderContext = {
  rootPath: 'page.md',
  link: (href) => ({ href: /^javascript:/i.test(href) ? null : `/x/${href}`, external: /^https?:/.test(href), broken: null }),
  linkedPage: () => null,
  include: () => null,
};
const html = (markdown: string) => renderPage(`# Page\n\n${markdown}`, context).html;

describe('code', () => {
  it('knows every language and alias highlight.js has, and loads only what a page uses', () => {
    const hljs = createRequire(import.meta.url)('highlight.js') as typeof import('highlight.js').default;
    const expected: Record<string, string> = {};
    for (const name of hljs.listLanguages())
      for (const alias of hljs.getLanguage(name)?.aliases ?? []) if (alias.toLowerCase() !== name) expected[alias.toLowerCase()] ??= name;
    expect(LANGUAGE_ALIASES).toEqual(expected);
    expect(['js', 'TS', 'yml', 'c++', 'shell', 'sh', 'py'].map(languageModule)).toEqual(['javascript', 'typescript', 'yaml', 'cpp', 'bash', 'bash', 'python']);
    expect(['../etc', 'a b', ''].map(languageModule)).toEqual([null, null, null]);
  });

  it('highlights by class, one element per line even through a multi-line comment, and shows an unknown language as text', () => {
    const out = html('```js\nconst a = 1; /* one\ntwo */\n```\n\n```klingon\n<b>qapla</b>\n```\n');
    expect(out).toContain('<span class="hljs-keyword">const</span>');
    expect(out).toContain('<span class="gb-line"><span class="hljs-comment">two */</span></span>');
    expect(out).not.toContain('style=');
    expect(out).toContain('<span class="gb-line">&lt;b&gt;qapla&lt;/b&gt;</span>');
    expect(splitHighlightedLines('<span class="a">x\n<span class="b">y\nz</span></span>\nw')).toEqual([
      '<span class="a">x</span>',
      '<span class="a"><span class="b">y</span></span>',
      '<span class="a"><span class="b">z</span></span>',
      'w',
    ]);
  });
});

describe('GitBook blocks', () => {
  it('typesets math: $$…$$ inline, between $$ lines, and a paragraph of one $$…$$ as a block; positions only as data', () => {
    const out = html('Inline $$a^2$$ here.\n\n$$\n\\frac{1}{2}\n$$\n\n$$b_1$$\n');
    expect(out.match(/class="katex-display"/g)).toHaveLength(2);
    expect(out).toContain('<span class="gb-math"><span class="katex">');
    expect(out).not.toMatch(/ style="/);
    expect(out).toContain('data-gb-style="');
    // Untrusted TeX: no \\href, no raw HTML.
    const hostile = html('$$\\href{javascript:alert(1)}{x} <img src=x onerror=alert(1)>$$');
    expect(hostile).not.toMatch(/href="javascript|<img/i);
  });

  it('turns a cards table into cards: hidden columns out, the target and the cover through the link policy', () => {
    const out = html(
      '<table data-view="cards" data-card-size="large"><thead><tr><th></th><th data-hidden data-card-target></th><th data-hidden data-card-cover></th><th data-hidden data-card-cover-dark></th></tr></thead><tbody><tr><td><strong>One</strong></td><td><a href="one.md">one.md</a></td><td><a href="cover.png">c</a></td><td><a href="dark.png">d</a></td></tr><tr><td onclick="x()">Two<script>x()</script></td><td><a href="javascript:x()">j</a></td><td></td><td></td></tr></tbody></table>\n',
    );
    expect(out).toContain('<div class="gb-cards gb-cards-large" role="list">');
    expect(out).toContain('<img class="gb-card-cover" src="/x/cover.png" alt="">');
    expect(out).toContain('<a class="gb-card-target" href="/x/one.md" aria-label="Open “One”"></a>');
    expect(out).not.toMatch(/dark\.png|javascript|onclick|<script/);
    expect(out.match(/role="listitem"/g)).toHaveLength(2);
  });

  it('shows OpenAPI and swagger blocks as operation cards, and integration blocks as cards with their parameters', () => {
    const out = html(
      '{% openapi src="spec.yaml" path="/pets" method="get" %}\n[spec.yaml](spec.yaml)\n{% endopenapi %}\n\n{% swagger method="delete" path="/pets/{id}" summary="Remove a pet" %}\n{% endswagger %}\n\n{% @github-files/github-code-block url="https://github.com/a/b" title="<b>x</b>" %}\n\n{% mystery %}\n',
    );
    expect(out).toContain('<span class="gb-method gb-method-get">GET</span><code class="gb-op-path">/pets</code>');
    expect(out).toContain(
      '<span class="gb-method gb-method-delete">DELETE</span><code class="gb-op-path">/pets/{id}</code></header><p class="gb-op-summary">Remove a pet</p>',
    );
    expect(out).toContain('aria-label="Integration block: github-files"');
    expect(out).toContain('<dt>title</dt><dd>&lt;b&gt;x&lt;/b&gt;</dd>');
    expect(out).toContain('Block “mystery”');
    expect(out).not.toContain('{%');
  });

  it('gives tabs a tablist whose ids are unique on the page, includes included', () => {
    const out = renderPage(
      '# P\n\n{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}\n{% tab title="B" %}\nb\n{% endtab %}\n{% endtabs %}\n\n{% include "inc.md" %}\n',
      {
        ...context,
        include: () => ({ rootPath: 'inc.md', text: '{% tabs %}\n{% tab title="C" %}\nc\n{% endtab %}\n{% endtabs %}\n' }),
      },
    ).html;
    const ids = [...out.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(out.match(/role="tab"/g)).toHaveLength(3);
    expect(out).toContain('aria-selected="true"');
    expect(out.match(/role="tabpanel"[^>]* hidden/g)).toHaveLength(1);
  });

  it('closes a block whose end tag follows an HTML line directly, as GitBook’s export writes it', () => {
    const columns = html(
      [
        '{% columns %}',
        '{% column %}',
        '<figure><img src="a.png" alt=""><figcaption></figcaption></figure>',
        '{% endcolumn %}',
        '{% column %}',
        'Text [link](b.md)',
        '{% endcolumn %}',
        '{% endcolumns %}',
        '',
        'After the columns.',
      ].join('\n'),
    );
    expect(columns).not.toContain('{%');
    expect(columns).not.toContain('gb-error');
    expect(columns.match(/class="gb-column"/g)).toHaveLength(2);
    expect(columns).toMatch(/<\/div>\n<\/div>\n<p>After the columns\.<\/p>/);
    const tabs = html(
      [
        '{% tabs %}',
        '{% tab title="A" %}',
        '<table><tr><td>a</td></tr></table>',
        '{% endtab %}',
        '{% tab title="B" %}',
        'b',
        '{% endtab %}',
        '{% tab title="C" %}',
        '<div>c</div>',
        '{% endtab %}',
        '{% endtabs %}',
      ].join('\n'),
    );
    expect(tabs).not.toContain('{%');
    expect(tabs.match(/role="tab"/g)).toHaveLength(3);
    expect(tabs.match(/role="tabpanel"/g)).toHaveLength(3);
    // A `<pre>` runs to its own end, tags and all, as check reads it.
    expect(html('<pre>\n{% hint %}\n</pre>\n')).toContain('{% hint %}');
  });
});

describe('nesting deeper than the renderer goes (issue 27, items 4 and 21)', () => {
  const NOTE = 'nests quotes and lists more than 100 levels deep';

  it('renders what lies past 100 nested lists or quotes flat, says so once in the page, and the rest of the page after it', () => {
    for (const deep of [
      `${'- '.repeat(5_000)}deep list\n  still deep\n`,
      `${'1. '.repeat(300)}deep numbers\n`,
      `${'> '.repeat(150)}deep quote\n${'> '.repeat(150)}*more* quote\n`,
      `${'> - '.repeat(80)}deep mixed\n`,
    ]) {
      const out = html(`Before.\n\n${deep}\nAfter **all**.\n`);
      expect(out, deep.slice(0, 12)).toContain('Before.');
      expect(out, deep.slice(0, 12)).toMatch(/deep (?:list|numbers|quote|mixed)/);
      expect(out, deep.slice(0, 12)).toContain('<strong>all</strong>');
      expect(out.split(NOTE), deep.slice(0, 12)).toHaveLength(2);
    }
    const twice = html(`${'> '.repeat(120)}one\n\nBetween.\n\n${'> '.repeat(120)}two\n`);
    expect(twice).toMatch(/one[\s\S]*Between\.[\s\S]*two/);
    expect(twice.split(NOTE)).toHaveLength(2);
    // Flat, its inline markdown still read.
    expect(html(`${'> '.repeat(150)}deep\n${'> '.repeat(150)}*more* quote\n`)).toContain('<em>more</em> quote');
  });

  it('renders 40 nested quotes as quotes, without a word', () => {
    const out = html(`${'> '.repeat(40)}fine\n`);
    expect(out.match(/<blockquote>/g)).toHaveLength(40);
    expect(out).not.toContain(NOTE);
  });

  it('shows math nested past 50 groups as its source, with the reason, and renders the rest', () => {
    for (const tex of [
      `${'{'.repeat(5_000)}x${'}'.repeat(5_000)}`,
      `${'\\frac{'.repeat(51)}x${'}{y}'.repeat(51)}`,
      `${'\\left('.repeat(60)}x${'\\right)'.repeat(60)}`,
    ]) {
      const out = html(`$$${tex}$$\n\nAfter.\n`);
      expect(out).toContain('class="katex-error"');
      expect(out).toContain('title="Math nested more than 50 groups deep: the preview shows it as written"');
      expect(out).toContain('After.');
    }
    expect(html(`$$${'{'.repeat(50)}x${'}'.repeat(50)} \\{ \\}$$`)).not.toContain('katex-error');
  });
});

describe('Git Sync’s forms as GitBook shows them (issue 29, item 5)', () => {
  it('takes the title heading out of a page with `layout:` frontmatter, and gives its cover and layout', () => {
    const page = renderPage(
      [
        '---',
        'cover: .gitbook/assets/cover.png',
        'coverY: -40',
        'layout:',
        '  cover:',
        '    visible: true',
        '    size: full',
        '  title:',
        '    visible: true',
        '  description:',
        '    visible: false',
        '---',
        '',
        '# Welcome',
        '',
        'Body.',
      ].join('\n'),
      context,
    );
    expect(page.title).toBe('Welcome');
    expect(page.html).not.toContain('<h1');
    expect(page.cover).toEqual({ src: '.gitbook/assets/cover.png', size: 'full', y: -40 });
    expect([page.showTitle, page.showDescription]).toEqual([true, false]);
    expect(renderPage('---\ncover: a.png\nlayout:\n  cover:\n    visible: false\n---\n\n# T\n', context).cover).toBeNull();
  });

  it('draws updates as a timeline, each entry’s date and tags beside it', () => {
    const out = html(
      '{% updates format="full" %}\n{% update date="2026-04-09" tags="sdk, api" %}\n## Added a kit\n\nText.\n{% endupdate %}\n{% update date="2026-03-01" %}\nOlder.\n{% endupdate %}\n{% endupdates %}\n',
    );
    expect(out).toContain('<ol class="gb-updates" aria-label="Updates">');
    expect(out.match(/<li class="gb-update">/g)).toHaveLength(2);
    expect(out).toContain('<time datetime="2026-04-09">April 9, 2026</time>');
    expect(out).toContain('<span class="gb-update-tag">sdk</span><span class="gb-update-tag">api</span>');
    expect(out).not.toContain('{%');
  });

  it('draws GitBook’s search and ask buttons as what they open, with their icon', () => {
    const out = html(
      '<p align="center"><button type="button" class="button primary" data-action="search" data-icon="magnifying-glass">Search help contents</button> <button type="button" class="button secondary" data-action="ask">Ask</button></p>\n',
    );
    expect(out).toContain('class="button primary gb-action gb-action-search"');
    expect(out).toContain('aria-label="magnifying-glass"');
    expect(out).toContain('<kbd class="gb-action-key">Ctrl K</kbd>Search help contents</button>');
    expect(out).toContain('class="button secondary gb-action gb-action-ask"');
  });

  it('gives an expandable block’s summary the anchor GitBook’s links use', () => {
    const out = html('<details>\n\n<summary>What does <strong>Match dock</strong> do?</summary>\n\nIt matches.\n\n</details>\n');
    expect(out).toContain('<summary id="what-does-match-dock-do">');
  });
});
