/**
 * The import rules lint holds beyond biome (scripts/check-imports.mjs): a probe import that breaks
 * each one is refused with a line naming the file and what to do, and the project's own source
 * keeps them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, without types
import { checkImports } from '../../scripts/check-imports.mjs';

const check = checkImports as (root: string) => string[];
let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'quire-imports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const core = 'src/main/core';

it('refuses a core module reaching into another core module past its index.ts', () => {
  const problems = check(
    tree({
      [`${core}/sync/plan/names.ts`]: 'export const rule = 1;\n',
      [`${core}/sync/plan/index.ts`]: "export { rule } from './names';\n",
      [`${core}/sync/index.ts`]: "export * from './plan';\n",
      [`${core}/check/index.ts`]: "import { rule } from '../sync/plan/names';\nimport { rule as same } from '../sync';\nexport const x = rule + same;\n",
    }),
  );
  expect(problems).toEqual([
    `${core}/check/index.ts: imports '../sync/plan/names', a file inside core/sync/plan; import core/sync/plan through its index.ts (add the export there).`,
  ]);
});

it("refuses a Node built-in anywhere in the planner's import chain, and lets type-only imports by", () => {
  const problems = check(
    tree({
      [`${core}/diff3.ts`]: "import { createRequire } from 'node:module';\nexport const load = createRequire;\n",
      [`${core}/sync/plan/merge.ts`]:
        "import { load } from '../../diff3';\nimport type { Stats } from 'node:fs';\nexport const m = load;\nexport type S = Stats;\n",
      [`${core}/sync/plan/index.ts`]: "export { m } from './merge';\n",
    }),
  );
  expect(problems).toEqual([
    `${core}/diff3.ts: imports 'node:module', and the planner does no I/O (${core}/sync/plan/merge.ts → ${core}/diff3.ts); pass what it needs in from the caller.`,
  ]);
});

it("holds for the project's own source", () => {
  expect(check(process.cwd())).toEqual([]);
});
