import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCKS_BY_NAME, type BlockProblemKind, type BlockSpec, KNOWN_BLOCKS, scanBlocks } from '../../src/main/core/content/blocks';
import { announce, HOSTILE_DOC, RUNS, SEED } from './gen';

const kinds = (markdown: string): [BlockProblemKind, number][] => scanBlocks(markdown).problems.map((p) => [p.kind, p.line]);
const shape = (markdown: string) =>
  scanBlocks(markdown).blocks.map((b) => ({ name: b.name, parent: b.parent, lines: [b.startLine, b.endLine] as [number, number] }));

describe('scanBlocks: the blocks GitBook writes', () => {
  it('reads a page in GitBook’s own style with no problem', () => {
    const md = [
      '---',
      'description: A page',
      '---',
      '# Guide',
      '{% hint style="info" icon="books" %}',
      '**Info hints** are for tips.',
      '{% endhint %}',
      '{% tabs %}',
      '{% tab title="Windows" icon="windows" %} Instructions for Windows {% endtab %}',
      '',
      '{% tab title="macOS" %}',
      '{% code title="install.sh" overflow="wrap" lineNumbers="true" %}',
      '```bash',
      'brew install quire # {% endtabs %} in code does not count',
      '```',
      '{% endcode %}',
      '{% endtab %}',
      '{% endtabs %}',
      '{% stepper %}',
      '{% step %}',
      '## Install',
      '{% endstep %}',
      '{% endstepper %}',
      '{% columns %}',
      '{% column width="50%" %}',
      'Left',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '{% updates format="full" %}',
      '{% update date="2025-12-25" tags="beta" %}',
      '## News',
      '{% endupdate %}',
      '{% endupdates %}',
      '{% content-ref url="setup.md" %}',
      '[setup.md](setup.md)',
      '{% endcontent-ref %}',
      '{% embed url="https://www.youtube.com/watch?v=x" %}',
      '{% embed url="https://loom.com/x" %}',
      'A caption',
      '{% endembed %}',
      '{% file src="../.gitbook/assets/a (1).pdf" %}',
      '{% include "../.gitbook/includes/note.md" %}',
      '{% if visitor.claims.unsigned.beta === true %}',
      'Beta only',
      '{% endif %}',
      '{% prompt description="Review" defaultExpanded="partial" %}',
      'Summarize.',
      '{% endprompt %}',
      '{% openapi src="https://petstore3.swagger.io/api/v3/openapi.json" path="/pet" method="post" %}',
      '[openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)',
      '{% endopenapi %}',
      '{% openapi-operation spec="gitbook" path="/" method="get" %}',
      '{% endopenapi-operation %}',
    ].join('\n');
    const scan = scanBlocks(md);
    expect(scan.problems).toEqual([]);
    const byName = (name: string) => scan.blocks.filter((b) => b.name === name);
    expect(byName('hint')[0]).toMatchObject({ args: { style: 'info', icon: 'books' }, startLine: 5, endLine: 7, parent: null, known: true });
    expect(byName('tab').map((b) => [b.args.title, b.startLine, b.endLine, scan.blocks[b.parent!]!.name])).toEqual([
      ['Windows', 9, 9, 'tabs'],
      ['macOS', 11, 17, 'tabs'],
    ]);
    expect(byName('code')[0]).toMatchObject({ args: { title: 'install.sh', overflow: 'wrap', lineNumbers: 'true' }, startLine: 12, endLine: 16 });
    expect(byName('embed').map((b) => [b.startLine, b.endLine, b.close !== null])).toEqual([
      [37, 37, false],
      [38, 40, true],
    ]);
    expect(byName('file')[0]).toMatchObject({ args: { src: '../.gitbook/assets/a (1).pdf' }, startLine: 41, endLine: 41, close: null });
    expect(byName('include')[0]).toMatchObject({ values: ['../.gitbook/includes/note.md'], startLine: 42, endLine: 42 });
    expect(byName('if')[0]).toMatchObject({ condition: 'visitor.claims.unsigned.beta === true', startLine: 43, endLine: 45 });
    const hint = byName('hint')[0]!;
    expect(md.slice(hint.open.start, hint.open.end)).toBe('{% hint style="info" icon="books" %}');
    expect(md.slice(hint.close!.start, hint.close!.end)).toBe('{% endhint %}');
  });

  it('reads nesting and the parent of each block', () => {
    const md = '{% tabs %}\n{% tab title="a" %}\n{% hint style="info" %}\n{% embed url="x" %}\n{% endhint %}\n{% endtab %}\n{% endtabs %}';
    // A tag runs to the first `%}` on its line, whatever lies between.
    expect(shape('{% hint x {% endhint %}')).toEqual([{ name: 'hint', parent: null, lines: [1, 1] }]);
    expect(shape(md)).toEqual([
      { name: 'tabs', parent: null, lines: [1, 7] },
      { name: 'tab', parent: 0, lines: [2, 6] },
      { name: 'hint', parent: 1, lines: [3, 5] },
      { name: 'embed', parent: 2, lines: [4, 4] },
    ]);
  });

  it('reads legacy blocks from GitBook’s previous editor without calling them unknown', () => {
    const md = [
      '{% page-ref page="other.md" %}',
      '{% code-tabs %}',
      '{% code-tabs-item title="a.js" %}',
      '```js',
      'x',
      '```',
      '{% endcode-tabs-item %}',
      '{% endcode-tabs %}',
      '{% swagger src=".gitbook/assets/api.yaml" path="/x" method="get" %}',
      '{% swagger-description %}',
      'Text',
      '{% endswagger-description %}',
      '{% endswagger %}',
      '{% api-method method="get" host="https://x" path="/y" %}',
      '{% api-method-summary %}Get{% endapi-method-summary %}',
      '{% api-method-spec %}',
      '{% api-method-request %}',
      '{% api-method-path-parameters %}',
      '{% api-method-parameter name="id" type="string" required=true %}',
      'The id',
      '{% endapi-method-parameter %}',
      '{% endapi-method-path-parameters %}',
      '{% endapi-method-request %}',
      '{% endapi-method-spec %}',
      '{% endapi-method %}',
    ].join('\n');
    const scan = scanBlocks(md);
    expect(scan.problems).toEqual([]);
    expect(scan.blocks.find((b) => b.name === 'api-method-parameter')?.args).toEqual({ name: 'id', type: 'string', required: 'true' });
  });

  it('does not count tags in code, comments or frontmatter', () => {
    const md = [
      '---',
      'x: "{% hint %}"',
      '---',
      '```',
      '{% hint style="info" %}',
      '```',
      '',
      '    {% tabs %}',
      '',
      'Text `{% endtabs %}` and <!-- {% tab %} -->',
      '<!--',
      '{% content-ref %}',
      '-->',
      '~~~',
      '{% unclosed',
      '~~~',
    ].join('\n');
    expect(scanBlocks(md)).toEqual({ blocks: [], problems: [] });
  });

  it('reads CRLF line endings and a BOM', () => {
    const md = '\uFEFF{% hint style="info" %}\r\nText\r\n{% endhint %}\r\n{% tab %}\r\n';
    expect(shape(md)).toEqual([
      { name: 'hint', parent: null, lines: [1, 3] },
      { name: 'tab', parent: null, lines: [4, 4] },
    ]);
    expect(kinds(md)).toEqual([
      ['misplaced', 4],
      ['unclosed', 4],
    ]);
  });
});

describe('scanBlocks: problems, each with its line and how to fix it', () => {
  it('an unclosed block', () => {
    const [problem] = scanBlocks('Intro\n{% hint style="warning" %}\nText').problems;
    expect(problem).toEqual({ kind: 'unclosed', line: 2, message: 'line 2: {% hint %} is never closed: add {% endhint %} where the hint ends' });
  });

  it('an end tag with no opening one, and an end tag for a block that has none', () => {
    expect(kinds('Text\n{% endhint %}\n{% include "a.md" %}{% endinclude %}')).toEqual([
      ['unexpected-end', 2],
      ['unexpected-end', 3],
    ]);
    expect(scanBlocks('{% endinclude %}').problems[0]!.message).toMatch(/has no end tag; remove \{% endinclude %\}/);
  });

  it('an end tag that closes a block while another is open inside it', () => {
    const md = '{% tabs %}\n{% tab title="a" %}\n{% hint style="info" %}\nText\n{% endtab %}\n{% endtabs %}';
    const scan = scanBlocks(md);
    expect(scan.problems).toEqual([
      {
        kind: 'mismatched-end',
        line: 5,
        message: 'line 5: {% endtab %} closes {% tab %} while {% hint %} from line 3 is still open: add {% endhint %} before it',
      },
    ]);
    expect(shape(md).map((b) => b.lines)).toEqual([
      [1, 6],
      [2, 5],
      [3, 3],
    ]);
  });

  it('an unknown block name, and its end tag, are reported once', () => {
    expect(kinds('{% hnit style="info" %}\nx\n{% endhnit %}\n{% endhint %}')).toEqual([
      ['unknown-block', 1],
      ['unexpected-end', 4],
    ]);
    expect(scanBlocks('{% hnit %}').problems[0]!.message).toMatch(
      /^line 1: \{% hnit %\} is not a block GitBook documents \(known: hint, tabs, .*\); Quire keeps it as written: fix the name/,
    );
  });

  it("an integration's block (`{% @vendor/block … %}`) stands alone and is no problem, wherever it sits", () => {
    const md = '{% hint %}\n{% @github-files/github-code-block url="https://github.com/a/b/blob/main/x.ts" %}\n{% endhint %}\n{% @mermaid/diagram %}\n';
    const scan = scanBlocks(md);
    expect(scan.problems).toEqual([]);
    expect(scan.blocks.map((b) => [b.name, b.startLine, b.endLine, b.parent, b.args])).toEqual([
      ['hint', 1, 3, null, {}],
      ['@github-files/github-code-block', 2, 2, 0, { url: 'https://github.com/a/b/blob/main/x.ts' }],
      ['@mermaid/diagram', 4, 4, null, {}],
    ]);
    // Its quoting can still be broken.
    expect(kinds('{% @github-files/github-code-block url="https://x %}')).toEqual([['malformed-tag', 1]]);
    // `{% @ %}` or `{% @vendor %}` names no block.
    expect(kinds('{% @ %}\n{% @vendor %}')).toEqual([
      ['malformed-tag', 1],
      ['malformed-tag', 2],
    ]);
  });

  it('a missing required argument', () => {
    expect(scanBlocks('{% content-ref %}\n[a](a.md)\n{% endcontent-ref %}').problems).toEqual([
      { kind: 'missing-argument', line: 1, message: 'line 1: {% content-ref %} needs url="…": add it to the tag' },
    ]);
    expect(kinds('{% include %}\n{% embed %}\n{% file caption="x" %}\n{% if %}x{% endif %}')).toEqual([
      ['missing-argument', 1],
      ['missing-argument', 2],
      ['missing-argument', 3],
      ['missing-argument', 4],
    ]);
  });

  it('a block outside the block it belongs in', () => {
    expect(scanBlocks('{% tab title="a" %}\nx\n{% endtab %}').problems).toEqual([
      {
        kind: 'misplaced',
        line: 1,
        message: 'line 1: {% tab %} is outside any block, but it only works directly inside {% tabs %}: move it there',
      },
    ]);
    expect(kinds('{% hint style="info" %}\n{% step %}\n{% endstep %}\n{% endhint %}')).toEqual([['misplaced', 2]]);
  });

  it('a `{%` with no `%}` on its line, and a tag that cannot be read', () => {
    expect(kinds('{% hint style="info"\n%}\n{% %}\n{% hint style="info %}\n{% endhint %}')).toEqual([
      ['unterminated-tag', 1],
      ['malformed-tag', 3],
      ['malformed-tag', 4],
    ]);
    expect(scanBlocks('{% hint style="info %}{% endhint %}').problems[0]!.message).toBe(
      'line 1: {% hint %} cannot be read: the value of style has no closing quote; fix the quoting',
    );
  });
});

describe('KNOWN_BLOCKS', () => {
  it('is consistent: unique names, parents that exist and hold content, references only on blocks that take arguments', () => {
    expect(new Set(KNOWN_BLOCKS.map((b) => b.name)).size).toBe(KNOWN_BLOCKS.length);
    for (const block of KNOWN_BLOCKS) {
      for (const parent of block.parents ?? []) expect(BLOCKS_BY_NAME.get(parent)?.end, `${block.name} in ${parent}`).toBe('required');
      expect(block.name.startsWith('end'), block.name).toBe(false);
      if (block.condition) expect(block.end).toBe('required');
    }
    expect(KNOWN_BLOCKS.filter((b) => b.referenceArgs.length > 0).map((b) => `${b.name}:${b.referenceArgs.join(',')}`)).toEqual([
      'content-ref:url',
      'embed:url',
      'file:src',
      'include:',
      'openapi:src',
      'page-ref:page',
      'swagger:src',
    ]);
  });
});

describe('scanBlocks: hostile input and random pages', () => {
  it('reads a 1 MB line and many unterminated tags in linear work', () => {
    const md = `{% hint style="info" %}${'x %} { % '.repeat(125_000)}{% endhint %}\n${'{% '.repeat(1000)}`;
    expect(md.length).toBeGreaterThan(1_000_000);
    const meter = { steps: 0 };
    const scan = scanBlocks(md, meter);
    expect(scan.blocks.map((b) => [b.name, b.startLine, b.endLine])).toEqual([['hint', 1, 1]]);
    expect(scan.problems.length).toBe(1000);
    expect(new Set(scan.problems.map((p) => `${p.kind} ${p.line}`))).toEqual(new Set(['unterminated-tag 2']));
    expect(meter.steps).toBeLessThanOrEqual(16 * md.length + 200);
  });

  /** A line of text, or a block from the table with what it holds and whether an optional end tag is written. */
  type PageItem = string | [BlockSpec, PageItem[], boolean];

  /** A random well-formed page: blocks from the table, each where it may sit, with what it requires. */
  const arbPage = fc.letrec<{ page: PageItem[] }>((tie) => ({
    page: fc.array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('Some text.', '', '```\n{% hint %}\n```', '`{% x %}`', '- [a](b.md)') },
        { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KNOWN_BLOCKS.filter((b) => !b.parents)), tie('page'), fc.boolean()) },
      ),
      { maxLength: 4 },
    ),
  })).page;

  function render(
    items: PageItem[],
    parent: BlockSpec | null,
    out: { lines: string[]; blocks: { name: string; parent: number | null }[] },
    parentIndex: number | null,
  ): void {
    for (const item of items) {
      if (typeof item === 'string') {
        out.lines.push(item);
        continue;
      }
      const [chosen, inner, withEnd] = item;
      // Inside a block with required children, use them (tabs hold tabs); otherwise the chosen block.
      const child = parent ? KNOWN_BLOCKS.find((b) => b.parents?.includes(parent.name)) : undefined;
      const block = child ?? chosen;
      const args = block.requiredArgs.map((a) => (a === '' ? '"x.md"' : `${a}="v"`)).join(' ');
      out.lines.push(`{% ${block.name}${block.condition ? ' visitor.x' : ''}${args ? ` ${args}` : ''} %}`);
      const index = out.blocks.push({ name: block.name, parent: parentIndex }) - 1;
      if (block.end === 'none') continue;
      if (block.end === 'required') render(inner, block, out, index);
      if (block.end === 'required' || withEnd) out.lines.push(`{% end${block.name} %}`);
    }
  }

  it(`rebuilds random well-formed pages exactly, and reports a removed end tag (seed ${SEED})`, () => {
    announce('scanBlocks on random pages');
    fc.assert(
      fc.property(arbPage, fc.nat(), (items, pick) => {
        const out = { lines: [] as string[], blocks: [] as { name: string; parent: number | null }[] };
        render(items, null, out, null);
        const md = out.lines.join('\n');
        const scan = scanBlocks(md);
        expect(scan.problems).toEqual([]);
        expect(scan.blocks.map((b) => ({ name: b.name, parent: b.parent }))).toEqual(out.blocks);

        const ends = out.lines.flatMap((line, k) => (/^\{% end/.test(line) && BLOCKS_BY_NAME.get(line.slice(6, -3))?.end === 'required' ? [k] : []));
        if (ends.length === 0) return;
        const removed = ends[pick % ends.length]!;
        const broken = scanBlocks(out.lines.filter((_, k) => k !== removed).join('\n'));
        expect(broken.problems.some((p) => p.kind === 'unclosed' || p.kind === 'mismatched-end')).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it(`never throws on hostile input, and what it reports fits the page (seed ${SEED})`, () => {
    fc.assert(
      fc.property(HOSTILE_DOC, (md) => {
        const meter = { steps: 0 };
        const scan = scanBlocks(md, meter);
        const lines = md.split('\n').length;
        scan.blocks.forEach((b, k) => {
          expect(b.parent === null || b.parent < k).toBe(true);
          expect(b.startLine).toBeLessThanOrEqual(b.endLine);
          expect(b.endLine).toBeLessThanOrEqual(lines);
        });
        for (const p of scan.problems) expect(p.line).toBeGreaterThanOrEqual(1);
        for (const p of scan.problems) expect(p.line).toBeLessThanOrEqual(lines);
        expect(meter.steps).toBeLessThanOrEqual(16 * md.length + 200);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
