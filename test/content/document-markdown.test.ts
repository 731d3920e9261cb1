/**
 * A GitBook JSON document written as GitBook markdown (what `.gitbook/includes/` holds): every
 * block the preview renders in the form GitBook's Git Sync writes it, references in stable form,
 * and a block Quire does not know kept whole as a marked `gitbook-block`, never dropped. The
 * document is checked against the OpenAPI document's `JSONDocument` first: it is one GitBook
 * could send.
 */
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, scanBlocks } from '../../src/main/core/content';
import { renderPage } from '../../src/main/core/preview';
import { validateComponent } from '../fake/validation';
import { code, condition, divider, doc, expression, h, hint, ordered, p, pageLink, tabs, text, urlLink } from '../helpers/gitbook-document';

type Json = Record<string, unknown>;
const block = (type: string, data: Json = {}, more: Json = {}): Json => ({ object: 'block', type, data, ...more });
const inline = (type: string, data: Json, more: Json = {}): Json => ({ object: 'inline', type, data, isVoid: true, ...more });
const fileRef = (file: string) => ({ kind: 'file', file });
const item = (...nodes: Json[]) => block('list-item', {}, { nodes });
const caption = (...parts: (string | Json)[]) => ({ object: 'fragment', fragment: 'caption', nodes: [p(...parts)] });

const EVERY_BLOCK = doc(
  h(1, 'Title ', text('code', 'code')),
  { ...h(2, 'Custom anchor'), data: { id: 'custom-anchor' } },
  p(
    text('bold', 'bold'),
    ' ',
    text('italic', 'italic'),
    ' ',
    text('gone', 'strikethrough'),
    ' ',
    text('Ctrl', 'keyboard'),
    ' x',
    text('2', 'superscript'),
    ' a*b_c [d]',
  ),
  p(
    pageLink('a page', 'pg1'),
    ', ',
    pageLink('an anchor', 'pg1', 'setup'),
    ', ',
    urlLink('a site', 'https://example.com/a b'),
    ', ',
    inline('emoji', { code: '1f680' }),
    ', ',
    inline('icon', { icon: 'check' }),
    ', ',
    expression('space.vars.version'),
    ', ',
    inline('inline-math', { formula: 'e^x' }),
    ', ',
    inline('inline-image', { ref: fileRef('f1'), alt: 'logo', size: 'line' }),
    ', ',
    {
      object: 'inline',
      type: 'annotation',
      isVoid: false,
      data: {},
      nodes: [text('noted')],
      fragments: [{ object: 'fragment', type: 'annotation-body', nodes: [p('A note.')] }],
    },
  ),
  p('# not a heading'),
  block('list-unordered', {}, { nodes: [item(p('one'), ordered('nested')), item(p('two'))] }),
  block('list-tasks', {}, { nodes: [block('list-item', { checked: true }, { nodes: [p('done')] }), item(p('todo'))] }),
  block('blockquote', {}, { nodes: [p('Quoted.'), p('Twice.')] }),
  divider(),
  hint('warning', p('Careful.')),
  code('js', ['const a = 1;'], { title: 'a.js', lineNumbers: true }),
  code('bash', ['echo ```']),
  code('markdown', ['```', 'fenced', '```']),
  block('math', { formula: 'x^2' }, { isVoid: true }),
  block('images', {}, { isVoid: false, nodes: [block('image', { ref: fileRef('f1'), alt: 'Plain' }, { isVoid: true, fragments: [] })] }),
  block('images', {}, { isVoid: false, nodes: [block('image', { ref: fileRef('f2'), alt: 'Chart' }, { isVoid: true, fragments: [caption('Latency')] })] }),
  block('file', { ref: fileRef('f3') }, { isVoid: true }),
  block('drawing', { ref: fileRef('f4') }, { isVoid: true }),
  block('embed', { url: 'https://youtu.be/x' }, { isVoid: true }),
  block('content-ref', { ref: { kind: 'page', page: 'pg1' } }, { isVoid: true }),
  block('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc2' } }, { isVoid: true }),
  condition('space.vars.beta', p('Beta only.')),
  tabs({ title: 'Docker', nodes: [p('Run it.')] }, { title: 'Helm', nodes: [p('Install it.')] }),
  block('stepper', {}, { nodes: [block('stepper-step', {}, { nodes: [p('First.')] }), block('stepper-step', {}, { nodes: [p('Second.')] })] }),
  block('columns', {}, { isVoid: false, nodes: [block('column', { width: 50 }, { nodes: [p('Left.')] }), block('column', {}, { nodes: [p('Right.')] })] }),
  block('updates', { format: 'full' }, { nodes: [block('update', { date: '2024-05-01T00:00:00.000Z' }, { nodes: [p('Shipped.')] })] }),
  block(
    'expandable',
    {},
    {
      isVoid: true,
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [p('More')] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [p('Hidden text.')] },
      ],
    },
  ),
  block(
    'table',
    {
      view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
      definition: { c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' }, c2: { id: 'c2', title: 'Size', type: 'number' } },
      records: { r2: { orderIndex: 'b', values: { c1: 'frag2', c2: 2 } }, r1: { orderIndex: 'a', values: { c1: 'frag1', c2: 1 } } },
    },
    {
      isVoid: true,
      fragments: [
        { object: 'fragment', fragment: 'frag1', nodes: [p('alpha | beta')] },
        { object: 'fragment', fragment: 'frag2', nodes: [p(text('gamma', 'bold'))] },
      ],
    },
  ),
  block('swagger', { ref: { kind: 'url', url: 'https://api.example.com/openapi.yaml' }, path: '/pets', method: 'get' }, { isVoid: true }),
  block('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'post' }, { isVoid: true }),
  block('integration', { integration: 'github-files', block: 'github-code-block', props: {}, url: 'https://github.com/a/b' }, { isVoid: true }),
);

const EXPECTED = `# Title \`code\`

## Custom anchor <a href="#custom-anchor" id="custom-anchor"></a>

**bold** _italic_ ~~gone~~ <kbd>Ctrl</kbd> x<sup>2</sup> a\\*b\\_c \\[d\\]

[a page](/pages/pg1), [an anchor](/pages/pg1#setup), [a site](<https://example.com/a b>), 🚀, <i class="fa-check">:check:</i>, <code class="expression">space.vars.version</code>, $$e^x$$, <img src="/files/f1" alt="logo" data-size="line">, noted[^1]

\\# not a heading

* one
  1. nested
* two

* [x] done
* [ ] todo

> Quoted.
>
> Twice.

***

{% hint style="warning" %}
Careful.
{% endhint %}

{% code title="a.js" lineNumbers="true" %}
\`\`\`js
const a = 1;
\`\`\`
{% endcode %}

\`\`\`bash
echo \`\`\`
\`\`\`

\`\`\`\`markdown
\`\`\`
fenced
\`\`\`
\`\`\`\`

$$
x^2
$$

![Plain](/files/f1)

<figure><img src="/files/f2" alt="Chart"><figcaption><p>Latency</p></figcaption></figure>

{% file src="/files/f3" %}

<img src="/files/f4" alt="" class="gitbook-drawing">

{% embed url="https://youtu.be/x" %}

{% content-ref url="/pages/pg1" %}
[Setup guide](/pages/pg1)
{% endcontent-ref %}

{% include "/reusable-content/rc2" %}

{% if space.vars.beta %}
Beta only.
{% endif %}

{% tabs %}
{% tab title="Docker" %}
Run it.
{% endtab %}

{% tab title="Helm" %}
Install it.
{% endtab %}
{% endtabs %}

{% stepper %}
{% step %}
First.
{% endstep %}

{% step %}
Second.
{% endstep %}
{% endstepper %}

{% columns %}
{% column width="50%" %}
Left.
{% endcolumn %}

{% column %}
Right.
{% endcolumn %}
{% endcolumns %}

{% updates format="full" %}
{% update date="2024-05-01T00:00:00.000Z" %}
Shipped.
{% endupdate %}
{% endupdates %}

<details>

<summary>More</summary>

Hidden text.

</details>

| Name | Size |
| --- | --- |
| alpha \\| beta | 1 |
| **gamma** | 2 |

{% openapi src="https://api.example.com/openapi.yaml" path="/pets" method="get" %}
[https://api.example.com/openapi.yaml](https://api.example.com/openapi.yaml)
{% endopenapi %}

{% openapi-operation spec="petstore" path="/pets" method="post" %}
{% endopenapi-operation %}

{% @github-files/github-code-block url="https://github.com/a/b" %}

[^1]: A note.
`;

describe('documentToMarkdown', () => {
  it('is given a document GitBook could send', () => {
    expect(validateComponent('JSONDocument', EVERY_BLOCK)).toEqual({ ok: true });
  });

  it('writes every block the preview renders as GitBook’s Git Sync writes it, references in stable form', () => {
    const markdown = documentToMarkdown(EVERY_BLOCK, { pageTitle: (page) => (page === 'pg1' ? 'Setup guide' : null) });
    expect(markdown).toBe(EXPECTED);
    expect(scanBlocks(markdown).problems).toEqual([]);
    // The preview renders every one of them: nothing unknown, nothing left open.
    const ok = { href: '#', external: false, broken: null };
    const { html } = renderPage(markdown, {
      rootPath: 'x.md',
      link: () => ok,
      linkedPage: () => null,
      include: () => ({ rootPath: 'rc.md', text: 'Shared.' }),
    });
    expect(html).not.toMatch(/gb-error|gb-unknown-block/);
  });

  it('writes prompts and buttons, which the OpenAPI document describes in forms no document can hold (a required key it forbids)', () => {
    const button = inline('button', { label: 'Search', kind: 'primary', action: { action: 'search' } });
    const prompt = block('prompt', {}, { nodes: [code('', ['Summarise this page.'])] });
    expect(documentToMarkdown(doc(p('Try ', button), prompt))).toBe(
      'Try <button type="button" class="button primary" data-action="search">Search</button>\n\n{% prompt %}\n```\nSummarise this page.\n```\n{% endprompt %}\n',
    );
  });

  it('keeps a block it does not know whole, marked, never dropped', () => {
    const odd = { object: 'block', type: 'poll', data: { question: 'Tabs or spaces?' }, isVoid: true };
    const markdown = documentToMarkdown({ object: 'document', data: {}, nodes: [p('Before.'), odd, p('After.')] });
    const fence = /```gitbook-block poll\n([\s\S]*?)\n```/.exec(markdown);
    expect(fence).not.toBeNull();
    expect(JSON.parse(fence![1]!)).toEqual(odd);
    expect(markdown.startsWith('Before.\n\n')).toBe(true);
    expect(markdown.endsWith('\n\nAfter.\n')).toBe(true);
  });

  it('writes nothing for an empty or malformed document, and never throws on one', () => {
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [] })).toBe('');
    expect(documentToMarkdown(null)).toBe('');
    expect(documentToMarkdown({ nodes: [{ type: 'paragraph', nodes: 'nope' }, 7, { type: 'heading-2' }] })).toBe('## \n');
  });
});
