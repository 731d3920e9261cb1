/** Files Quire cannot push as they are: markdown that is not UTF-8, pages and assets over the size limits. */
import { type CheckedSpace, joinRoot } from './folder-index';
import { MAX_ASSET_BYTES, MAX_PAGE_BYTES } from './limits';
import type { Problem } from './problem';

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

export function checkEncodingAndSize(space: CheckedSpace): Problem[] {
  const problems: Problem[] = [];
  for (const f of space.files) {
    const file = joinRoot(space.folder, f.path);
    if (f.unreadable?.reason === 'not-utf8') {
      problems.push({
        file,
        line: f.unreadable.line,
        severity: 'error',
        code: 'not-utf8',
        message: 'This file is not UTF-8 text (first bad byte on this line): pushed as is, its characters would be garbled on the server.',
        fix: 'Re-save it as UTF-8 in your editor (for example "Save with encoding… UTF-8").',
      });
    } else if (f.unreadable?.reason === 'too-large') {
      problems.push({
        file,
        line: null,
        severity: 'error',
        code: 'too-large',
        message: `This page is ${mib(f.size)}, over the ${mib(MAX_PAGE_BYTES)} Quire pushes.`,
        fix: 'Split it into several pages (one per section), or move large tables or code into attached files.',
      });
    } else if (f.kind === 'asset' && f.size > MAX_ASSET_BYTES) {
      problems.push({
        file,
        line: null,
        severity: 'error',
        code: 'too-large',
        message: `This asset is ${mib(f.size)}; the API takes uploads up to ${mib(MAX_ASSET_BYTES)}, so Quire cannot push it.`,
        fix: 'Compress or resize it below the limit, or link to it where it is hosted instead.',
      });
    }
  }
  return problems;
}
