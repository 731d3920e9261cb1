/**
 * What the command line says matches what it listed (issue 18, item 8): counts singular or
 * plural, and `check`'s last line names the notes it printed instead of "no problems found".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { quire, tempDir } from '../../helpers/cli';

function space(files: Record<string, string>): string {
  const dir = tempDir('quire-wording-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

it('`quire check` after listing one note does not say "no problems found"', async () => {
  const dir = space({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': '# Home\n\nHello.\n', '.gitbook/assets/unused.png': 'png' });
  const run = await quire(['check', '--dir', dir]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(': info: ');
  expect(run.stdout.split('\n').at(-1)).toBe('Checked 1 space: 0 errors, 0 warnings, 1 info — no errors or warnings; the notes above are for information.');
});

it('`quire check` counts one error as one', async () => {
  const dir = space({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': '# Home\n\nSee [the guide](guide.md).\n' });
  const run = await quire(['check', '--dir', dir]);
  expect(run.code).toBe(3);
  expect(run.stdout.split('\n').at(-1)).toBe('Checked 1 space: 1 error, 0 warnings, 0 info — 1 error to fix before pushing.');
});
