/**
 * The installed command's bundle is ASCII text (issue 31, item 4): the launcher then reads it as
 * one byte a character, where one character outside ASCII (a `…` in a comment, a `¹` in a
 * regular expression) makes Node decode the whole bundle as UTF-8 and V8 hold it at two bytes a
 * character, at every start of every command.
 */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildCli } from '../../helpers/cli-process';

it('is ASCII from its first byte to its last', () => {
  buildCli();
  const bundle = readFileSync('out/cli/quire.cjs');
  const first = bundle.findIndex((b) => b > 0x7f);
  // The text around the first byte outside ASCII, when there is one: where it came from.
  expect(first === -1 ? null : bundle.subarray(Math.max(0, first - 60), first + 20).toString('utf8')).toBe(null);
  expect(isAscii(bundle)).toBe(true);
});
