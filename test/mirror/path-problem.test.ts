/**
 * The rule every path the mirror hands out meets (`pathProblem`, stored-paths.ts), checked for
 * every short path over the characters that matter to it: a path passes exactly when it is not
 * empty or blank, holds no NUL, is not absolute (POSIX or Windows), has no segment made only of
 * dots and spaces other than `.`, and is more than separators and dots. Its shortcut for plain
 * names (issue 31: one test per path of a large space) must never let through what the rule refuses.
 */
import { posix, win32 } from 'node:path';
import { expect, it } from 'vitest';
import { pathProblem } from '../../src/main/core/mirror';

function refused(p: string): boolean {
  const dotsAndSpaces = p.split(/[\\/]/).some((s) => s !== '.' && /^[. ]+$/.test(s));
  const drive = process.platform === 'win32' && /^[A-Za-z]:/.test(p);
  return p.trim() === '' || p.includes('\0') || posix.isAbsolute(p) || win32.isAbsolute(p) || drive || dotsAndSpaces || /^[\\/.]*$/.test(p);
}

/** Every string of `alphabet` from 1 to `max` characters long. */
function* strings(alphabet: string[], max: number): Generator<string> {
  let level = [''];
  for (let n = 1; n <= max; n++) {
    level = level.flatMap((s) => alphabet.map((c) => s + c));
    yield* level;
  }
}

it('passes a path exactly when the rule does, for every path of up to 4 characters (5 of the commonest)', () => {
  const wrong: string[] = [];
  const check = (p: string) => {
    if ((pathProblem(p) === null) === refused(p)) wrong.push(JSON.stringify(p));
  };
  for (const p of strings(['a', 'Z', '0', '_', '-', '.', '/', '\\', ' ', ':', '\0', 'é', '\t'], 4)) check(p);
  for (const p of strings(['a', '-', '.', '/', ' '], 5)) check(p);
  expect(wrong.slice(0, 20)).toEqual([]);
});
