/**
 * Names that differ only in case (or Unicode normalisation) within one folder: on macOS and
 * Windows they are the same file, so a sync there overwrites one with the other.
 */
import { posix } from 'node:path';
import { foldKey } from '../naming';
import { type CheckedSpace, joinRoot } from './folder-index';
import type { Problem } from './problem';

export function checkCaseClashes(space: CheckedSpace): Problem[] {
  // Every file and every folder on the way to it, by the folder holding it.
  const names = new Map<string, Map<string, Set<string>>>();
  const note = (dir: string, name: string) => {
    const inDir = names.get(dir) ?? new Map<string, Set<string>>();
    names.set(dir, inDir);
    const key = foldKey(name);
    const same = inDir.get(key) ?? new Set<string>();
    inDir.set(key, same);
    same.add(name);
  };
  for (const f of space.files) {
    const parts = f.path.split('/');
    for (let i = 0; i < parts.length; i++) note(parts.slice(0, i).join('/'), parts[i]!);
  }
  const problems: Problem[] = [];
  for (const [dir, inDir] of names) {
    for (const same of inDir.values()) {
      if (same.size < 2) continue;
      const [first, ...others] = [...same].sort();
      for (const other of others) {
        problems.push({
          file: joinRoot(space.folder, posix.join(dir, other)),
          line: null,
          severity: 'error',
          code: 'case-clash',
          message: `"${other}" and "${first}" differ only in case: on macOS and Windows they are one file, and syncing there loses one of them.`,
          fix: `Rename one of them (or merge their content) so no two names in ${dir === '' ? 'the space folder' : dir} differ only in case.`,
        });
      }
    }
  }
  return problems;
}
