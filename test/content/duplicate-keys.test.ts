/**
 * A key given twice in one mapping, at any depth, is found in one pass by the page format's
 * reader, and the OpenAPI file reader names it with its line (both use firstDuplicateKey).
 */
import { expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { firstDuplicateKey } from '../../src/main/core/content';
import { readSpecText } from '../../src/main/core/openapi/spec-text';

it('finds the first key a mapping repeats, however deep, with where it is', () => {
  const source = 'a: 1\nb:\n  - c: 1\n    d: 2\n    c: 3\n';
  expect(firstDuplicateKey(parseDocument(source, { uniqueKeys: false }).contents)).toEqual({ offset: source.lastIndexOf('c:'), name: 'c' });
  expect(firstDuplicateKey(parseDocument('a: 1\nb: {a: 2}\n', { uniqueKeys: false }).contents)).toBeNull();
});

it('refuses an OpenAPI file that gives a key twice, naming the key and its line', () => {
  expect(readSpecText('openapi: 3.1.0\ninfo:\n  title: a\n  title: b\npaths: {}\n')).toEqual({
    ok: false,
    line: 4,
    reason: 'the key title is given twice in the same mapping',
  });
});
