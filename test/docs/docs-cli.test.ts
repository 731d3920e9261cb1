/**
 * `npm run docs:cli -- --check`, as CI runs it: it passes on the docs as committed, and fails,
 * saying what to run or which link, when the command reference is stale or a link between the
 * README and docs/ leads nowhere. Run on a copy of README.md and docs/ in a temp folder.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A copy of the docs, changed by `edit`, then `docs:cli -- --check` on it. */
function checkCopy(edit: (dir: string) => void = () => {}): { code: number | null; stderr: string } {
  const dir = tempDir('quire-docs-');
  cpSync(join(ROOT, 'README.md'), join(dir, 'README.md'));
  cpSync(join(ROOT, 'docs'), join(dir, 'docs'), { recursive: true, filter: (src) => !src.endsWith('screenshots') });
  symlinkSync(join(ROOT, 'docs/screenshots'), join(dir, 'docs/screenshots'));
  edit(dir);
  const run = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/docs-cli.ts'), '--check'], { cwd: dir, encoding: 'utf8' });
  return { code: run.status, stderr: run.stderr };
}

const change = (file: string, from: string, to: string) => (dir: string) => {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(dir, file), text.replace(from, to));
};

describe('docs:cli --check', () => {
  it('passes on the docs as committed', () => {
    expect(checkCopy()).toEqual({ code: 0, stderr: '' });
  });

  it('fails when the command reference is not what the commands declare', () => {
    const stale = checkCopy(change('docs/cli.md', 'quire status --dir <folder> [--json]', 'quire status --dir <folder>'));
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(
      'docs/cli.md: the command reference is out of date with src/main/hosts/cli/commands.ts. Run `npm run docs:cli` and commit it.',
    );
  });

  it("fails when the README's list of commands is not what the commands declare", () => {
    const stale = checkCopy(change('README.md', '- `quire logout`: ', '- `quire signout`: '));
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('README.md: the list of commands is out of date with src/main/hosts/cli/commands.ts. Run `npm run docs:cli` and commit it.');
  });

  it('fails on a link to no file, or to no heading of a file', () => {
    const broken = checkCopy((dir) => {
      change('README.md', '(docs/refusals.md)', '(docs/refused.md)')(dir);
      change('README.md', '(docs/writers-guide.md#a-writers-day-tried-on-the-demo)', '(docs/writers-guide.md#a-writers-night)')(dir);
    });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('README.md: docs/refused.md leads to no file');
    expect(broken.stderr).toContain('README.md: docs/writers-guide.md#a-writers-night leads to no heading of docs/writers-guide.md');
  });
});
