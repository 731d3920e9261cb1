/**
 * Which lines of a page file each block of its document is (core/review/blocks.ts), against
 * documents shaped as GitBook sends them: text split into leaves by marks, a hint holding
 * paragraphs, list items holding paragraphs, code lines, and a block the file does not show.
 */
import { describe, expect, it } from 'vitest';
import { blockAt, blockForLine, blockSpans } from '../../src/main/core/review/blocks';
import { documentOf } from '../fake/document';

const text = (t: string, marks: string[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: marks.map((type) => ({ type })) }] });
const block = (type: string, key: string, nodes: unknown[], data: Record<string, unknown> = {}) => ({ object: 'block', type, key, data, nodes });

const FILE = [
  '---',
  'description: How to install',
  '---',
  '',
  '# Install',
  '',
  'Get the **latest** release from [the site](https://example.com).',
  '',
  '{% hint style="info" %}',
  'You need Node 20.',
  '{% endhint %}',
  '',
  '* First step',
  '* Second step',
  '',
  '```sh',
  'npm i',
  '',
  'npm test',
  '```',
  '',
].join('\n');

const DOC = {
  object: 'document',
  data: {},
  nodes: [
    block('paragraph', 'p1', [
      text('Get the '),
      text('latest', ['bold']),
      text(' release from '),
      { object: 'inline', type: 'link', nodes: [text('the site')] },
      text('.'),
    ]),
    block('embed', 'e1', [], { url: 'https://example.com/video' }),
    block('hint', 'h1', [block('paragraph', 'h1p', [text('You need Node 20.')])], { style: 'info' }),
    block('list-unordered', 'l1', [
      block('list-item', 'i1', [block('paragraph', 'i1p', [text('First step')])]),
      block('list-item', 'i2', [block('paragraph', 'i2p', [text('Second step')])]),
    ]),
    block('code', 'c1', [block('code-line', 'c1a', [text('npm i')]), block('code-line', 'c1b', [text('')]), block('code-line', 'c1c', [text('npm test')])], {
      syntax: 'sh',
    }),
  ],
};

describe('blocks and lines', () => {
  it('puts each block of a GitBook document on its lines of the file, past the frontmatter and the title', () => {
    const spans = blockSpans(FILE, DOC);
    const at = (key: string) => spans.find((s) => s.key === key);
    expect(at('p1')).toMatchObject({ start: 7, end: 7, depth: 0 });
    expect(at('e1')).toBeUndefined();
    expect(at('h1')).toMatchObject({ start: 9, end: 11 });
    expect(at('h1p')).toMatchObject({ start: 10, end: 10, depth: 1 });
    expect(at('l1')).toMatchObject({ start: 13, end: 14 });
    expect([at('i1'), at('i2')].map((s) => s?.start)).toEqual([13, 14]);
    expect(at('c1')).toMatchObject({ start: 16, end: 20 });
    expect(['c1a', 'c1b', 'c1c'].map((k) => at(k)?.start)).toEqual([17, 18, 19]);
  });

  it('names the block a reader sees on a line: the item, not its paragraph; a code line; a blank line goes with the block above', () => {
    const spans = blockSpans(FILE, DOC);
    expect(blockAt(spans, 14)?.key).toBe('i2');
    expect(blockAt(spans, 19)?.key).toBe('c1c');
    expect(blockAt(spans, 16)?.key).toBe('c1');
    expect(blockAt(spans, 8)).toBeNull();
    expect(blockForLine(spans, 8)?.key).toBe('p1');
    expect(blockForLine(spans, 6)?.key).toBe('p1');
    expect(blockForLine(spans, 5)).toBeNull();
    expect(blockForLine(spans, 2)).toBeNull();
  });

  it('keeps a block on its lines when another block was inserted above it, and leaves out one whose words the file lacks', () => {
    const before = documentOf('page', 'One.\n\nTwo words here.\n\nThree.\n');
    const after = documentOf('page', 'One.\n\nInserted.\n\nTwo words here.\n\nThree.\n', before);
    const spans = blockSpans('# T\n\nOne.\n\nInserted.\n\nTwo words here.\n\nThree.\n', after);
    const two = before.nodes[1]!.key;
    expect(spans.find((s) => s.key === two)).toMatchObject({ start: 7, end: 7 });
    // The file is missing the paragraph the document has: it gets no lines, the others keep theirs.
    const partial = blockSpans('# T\n\nOne.\n\nThree.\n', after);
    expect(partial.map((s) => s.start)).toEqual([3, 5]);
    expect(partial.find((s) => s.key === two)).toBeUndefined();
  });
});
