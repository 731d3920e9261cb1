/** Assets no page, reusable content or SUMMARY.md reaches: information only (they cost nothing but space). */
import { type CheckedSpace, joinRoot } from './folder-index';
import type { Problem } from './problem';

export function unusedAssets(space: CheckedSpace, reached: ReadonlySet<string>): Problem[] {
  return space.files
    .filter((f) => f.kind === 'asset' && !reached.has(joinRoot(space.folder, f.path)))
    .map((f) => ({
      file: joinRoot(space.folder, f.path),
      line: null,
      severity: 'info' as const,
      code: 'unused-asset' as const,
      message: 'No page uses this asset.',
      fix: 'Delete it if it is not needed (the server keeps its copy: the API cannot delete files).',
    }));
}
