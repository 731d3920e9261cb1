import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
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

/**
 * Everything below `root`, links not followed: each file's bytes (base64), each folder and each
 * link (with its target) by path. `root` itself missing gives an empty map. To prove nothing
 * was written, created or followed.
 */
export function snapshotTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      const rel = relative(root, abs).split(sep).join('/');
      if (e.isSymbolicLink()) out.set(rel, `link to ${readlinkSync(abs)}`);
      else if (e.isDirectory()) {
        out.set(`${rel}/`, 'folder');
        walk(abs);
      } else out.set(rel, readFileSync(abs).toString('base64'));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}
