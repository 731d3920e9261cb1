/**
 * Generators for the content property tests: GitBook markdown built from fragments whose
 * references are known (so a test can say exactly what findReferences must return), and
 * hostile token soup (so a test can check what must hold on any input).
 *
 * Fixed seed per run (printed by each test); replay with QUIRE_CONTENT_SEED=<seed>.
 */
import fc from 'fast-check';

export const SEED = Number(process.env.QUIRE_CONTENT_SEED ?? 20261201);
export const RUNS = Number(process.env.QUIRE_CONTENT_RUNS ?? 300);

export function announce(what: string): void {
  console.log(`${what}: seed ${SEED}, ${RUNS} runs (replay with QUIRE_CONTENT_SEED=${SEED})`);
}

export const ID = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);

/** Href text that needs no escaping in any place: the value is the text itself. */
export const PLAIN_HREF = fc.oneof(
  fc.constantFrom('/pages/abc', '/pages/abc#install', '/spaces/s2/pages/p9', '/files/f1', 'https://example.com/a?b=1', 'guide.md', '../x/y.md#z'),
  fc.stringMatching(/^[A-Za-z0-9._~/#-]{1,16}$/),
);

export type Syntax = 'link' | 'image' | 'definition' | 'angle' | 'html"' | "html'" | 'html=' | 'srcset' | 'content-ref' | 'file' | 'embed' | 'include';

export interface KnownRef {
  href: string;
  kind: 'link' | 'image' | 'definition' | 'html' | 'block';
}

/** One reference written in `syntax` with an href that needs no escaping there, as a paragraph. */
export function writeRef(syntax: Syntax, href: string, title: string): { text: string; ref: KnownRef } {
  switch (syntax) {
    case 'link':
      return { text: `See [${title}](${href}) here.`, ref: { href, kind: 'link' } };
    case 'image':
      return { text: `![${title}](${href} "${title}")`, ref: { href, kind: 'image' } };
    case 'definition':
      return { text: `[${title.trim() || 'x'}]: ${href} 'title'`, ref: { href, kind: 'definition' } };
    case 'angle':
      return { text: `[a [nested] ${title}](<${href} x> (t))`, ref: { href: `${href} x`, kind: 'link' } };
    case 'html"':
      return { text: `Text <a class="button" href="${href}">${title}</a>`, ref: { href, kind: 'html' } };
    case "html'":
      return { text: `<figure><img src='${href}' alt="${title}"><figcaption></figcaption></figure>`, ref: { href, kind: 'html' } };
    case 'html=':
      return { text: `<img width=100 src=${href} >`, ref: { href, kind: 'html' } };
    case 'srcset':
      return {
        text: `<picture><source srcset="${href} dark.svg" media="(prefers-color-scheme: dark)"></picture>`,
        ref: { href: `${href} dark.svg`, kind: 'html' },
      };
    case 'content-ref':
      return { text: `{% content-ref url="${href}" %}\n${title}\n{% endcontent-ref %}`, ref: { href, kind: 'block' } };
    case 'file':
      return { text: `{% file src="${href}" %}\nCaption\n{% endfile %}`, ref: { href, kind: 'block' } };
    case 'embed':
      return { text: `{% embed url='${href}' %}`, ref: { href, kind: 'block' } };
    case 'include':
      return { text: `{% include "${href}" %}`, ref: { href, kind: 'block' } };
  }
}

export const SYNTAX = fc.constantFrom<Syntax>(
  'link',
  'image',
  'definition',
  'angle',
  'html"',
  "html'",
  'html=',
  'srcset',
  'content-ref',
  'file',
  'embed',
  'include',
);

/** Paragraphs in which nothing is a reference (code, comments, plain text), each holding would-be references. */
export const INERT = fc.constantFrom(
  '```md\n[in fence](/pages/fenced)\n{% content-ref url="/pages/f" %}\n```',
  '~~~\n<img src="/files/tilde">\n~~~',
  '    [indented](/pages/indented)\n    <a href="/pages/i">',
  'Inline `[code](/pages/span)` and ``<img src="/files/span">`` spans.',
  '<!-- [comment](/pages/c) {% embed url="/pages/c" %} -->',
  '<!--\n[multi line](/pages/c2)\n\n<img src="/files/c2">\n-->',
  '{% code title="a.md" %}\n```\n[x](/pages/code)\n```\n{% endcode %}',
  'Plain *text* with a ] bracket, a [ bracket and (parens).',
  '# Heading',
  '> Quote with `[x](/pages/q)` code',
  '<pre>`[x](/pages/pre)`</pre>',
);

/** Tokens from which hostile documents are built: every piece of syntax, unbalanced. */
export const HOSTILE_TOKEN = fc.constantFrom(
  '[',
  ']',
  '(',
  ')',
  '![',
  '](',
  '<',
  '>',
  '"',
  "'",
  '`',
  '``',
  '```',
  '~~~',
  '\\',
  '{%',
  '%}',
  '{% hint style="info" %}',
  '{% endhint %}',
  '{% content-ref url="',
  '{% file src=',
  '<img src="',
  '<a href=',
  '<!--',
  '-->',
  '&amp;',
  '&#x2F;',
  '/pages/p1',
  '../a b.md',
  ' ',
  '    ',
  '\t',
  '\n',
  '\r\n',
  '\n\n',
  '# ',
  '* ',
  '1. ',
  '> ',
  '---',
  '|',
  'text',
  'é',
  '\u0301',
  '=',
  ':',
  '#',
);

export const HOSTILE_DOC = fc.array(HOSTILE_TOKEN, { maxLength: 60 }).map((tokens) => tokens.join(''));

/** Any value a caller might put in an href, hostile characters included. */
export const ANY_HREF = fc.oneof(
  PLAIN_HREF,
  fc.string({ unit: fc.constantFrom('a', ' ', '(', ')', '<', '>', '"', "'", '`', '\\', '&', 'amp;', '|', '{', '}', '%', '#', '\n', 'é', '/', '=') }),
);
