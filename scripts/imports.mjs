// The relative imports of the project's TypeScript files, as the docs generators read them
// (docs-graph.mjs: module to module; docs-tests.mjs: test file to source file).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** Every .ts/.tsx file under `dir` (no declaration files), skipping the folders `skip` names. */
export function sourceFiles(dir, skip = () => false) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip(path) ? [] : sourceFiles(path, skip);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

export function resolveImport(from, specifier) {
  const base = normalize(join(dirname(from), specifier));
  for (const ext of ['', ...EXTENSIONS]) {
    const candidate = base + ext;
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return null;
}

const IMPORT = /(?:import|export)\s([^'"]*?)from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm;

/**
 * The relative imports and re-exports of `file`, resolved: `export` tells a re-export from an
 * import, `names` the names it takes (null: all of them — a namespace, a default, a dynamic or a
 * bare import, `export *`), each as [name there, name here]. `types: false` leaves out type-only
 * names and statements (they bring no code).
 */
export function importsOf(file, { types = true } = {}) {
  const found = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const clause = m[1]?.trim() ?? '';
    if (!types && /^type\s/.test(clause)) continue;
    const target = resolveImport(file, m[2] ?? m[3] ?? m[4]);
    if (!target) continue;
    const braces = /^\{([^}]*)\}$/.exec(clause);
    const names = braces
      ? braces[1]
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '' && (types || !/^type\s/.test(n)))
          .map((n) => n.split(/\s+as\s+/))
      : null;
    found.push({ target, export: m[0].startsWith('export'), names });
  }
  return found;
}
