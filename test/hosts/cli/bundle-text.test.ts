/**
 * The installed command's bundle is ASCII text (issue 31, item 4): the launcher then reads it as
 * one byte a character, where one character outside ASCII (a `…` in a comment, a `¹` in a
 * regular expression) makes Node decode the whole bundle as UTF-8 and V8 hold it at two bytes a
 * character, at every start of every command. `status` and `search` have a bundle of their own,
 * without the other commands' code, which the launcher runs for them (fewer bytes to read at start).
 */
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildCli } from '../../helpers/cli-process';

it('is ASCII from its first byte to its last, as are the bundles of a command of their own', () => {
  buildCli();
  const bundles = readdirSync('out/cli').filter((name) => /^quire.*\.cjs$/.test(name));
  expect(bundles).toEqual(expect.arrayContaining(['quire.cjs', 'quire-status.cjs', 'quire-search.cjs']));
  for (const name of bundles) {
    const bundle = readFileSync(`out/cli/${name}`);
    const first = bundle.findIndex((b) => b > 0x7f);
    // The text around the first byte outside ASCII, when there is one: where it came from.
    expect(first === -1 ? null : `${name}: ${bundle.subarray(Math.max(0, first - 60), first + 20).toString('utf8')}`).toBe(null);
    expect(isAscii(bundle)).toBe(true);
  }
});

it('leaves the other commands out of a command’s own bundle, and keeps every command in the whole one', () => {
  buildCli();
  const holds = (name: string, command: string) => readFileSync(`out/cli/${name}`, 'latin1').includes(`"src/main/hosts/cli/commands/${command}.ts"`);
  expect(['status', 'search', 'sync', 'cr'].map((c) => holds('quire.cjs', c))).toEqual([true, true, true, true]);
  expect(['status', 'search', 'sync', 'cr'].map((c) => holds('quire-status.cjs', c))).toEqual([true, false, false, false]);
  expect(['status', 'search', 'sync', 'cr'].map((c) => holds('quire-search.cjs', c))).toEqual([false, true, false, false]);
});
