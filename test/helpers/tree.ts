import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every file below `root` (POSIX relative paths), skipping the given top-level folders. */
export function listFiles(root: string, skip: string[] = ['.quire']): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      const rel = relative(root, abs).split(sep).join('/');
      if (skip.includes(rel)) continue;
      if (e.isDirectory()) walk(abs);
      else out.push(rel);
    }
  };
  walk(root);
  return out.sort();
}

/** mtime of every file, to prove a pull wrote nothing. */
export function snapshotMtimes(root: string): Map<string, number> {
  return new Map(listFiles(root).map((f) => [f, statSync(join(root, f)).mtimeMs]));
}
