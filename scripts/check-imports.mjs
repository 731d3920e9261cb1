// The import rules biome cannot state, checked over the whole import graph of src/main/core:
// 1. a core module imports another core module through its index.ts only (core/sync/plan is a
//    module of its own), so each module's index.ts is the whole of what others may use;
// 2. the planner (core/sync/plan) is pure: nothing it imports, however indirectly, imports a
//    Node built-in or a package that does I/O.
// `node scripts/check-imports.mjs [--root <dir>]` prints each broken rule on one line and exits 1.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative, sep } from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
const IO_PACKAGES = new Set(['electron', 'better-sqlite3', 'chokidar', 'keytar']);
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveLocal(from, specifier) {
  const base = normalize(join(dirname(from), specifier));
  for (const ext of ['', ...EXTENSIONS]) {
    try {
      if (statSync(base + ext).isFile()) return base + ext;
    } catch {
      // try the next form
    }
  }
  return null;
}

/** Every import of a file: local ones resolved to a path, packages and built-ins by name. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const specifier = m[1] ?? m[2] ?? m[3];
    const typeOnly = /^\s*(?:import|export)\s+type\s/.test(m[0]);
    return { specifier, typeOnly, file: specifier.startsWith('.') ? resolveLocal(file, specifier) : null };
  });
}

export function checkImports(root) {
  const core = join(root, 'src', 'main', 'core');
  /** The module of a core file: core/<name>, or core/sync/plan; a file directly in core/ is its own. */
  const moduleOf = (file) => {
    const parts = relative(core, file).split(sep);
    if (parts[0] === 'sync' && parts[1] === 'plan' && parts.length > 2) return 'sync/plan';
    return parts.length > 1 ? parts[0] : parts[0].replace(/\.tsx?$/, '');
  };
  const isIndex = (file) => /[\\/]index\.tsx?$/.test(file) || !relative(core, file).includes(sep);
  const problems = [];
  const files = sourceFiles(core);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  for (const [file, imports] of graph) {
    for (const { specifier, file: target } of imports) {
      if (!target?.startsWith(core + sep)) continue;
      const [from, to] = [moduleOf(file), moduleOf(target)];
      if (from === to || isIndex(target)) continue;
      problems.push(
        `${relative(root, file)}: imports '${specifier}', a file inside core/${to}; import core/${to} through its index.ts (add the export there).`,
      );
    }
  }
  // Breadth first from every planner file at once: each offending import is named once, with
  // the shortest chain that brings it into the planner. Type-only imports are erased: not followed.
  const reached = new Map(files.filter((f) => moduleOf(f) === 'sync/plan').map((f) => [f, [f]]));
  const queue = [...reached.keys()];
  while (queue.length > 0) {
    const file = queue.shift();
    const chain = reached.get(file);
    for (const { specifier, typeOnly, file: target } of graph.get(file) ?? importsOf(file)) {
      if (typeOnly) continue;
      const bare = specifier.replace(/^node:/, '').split('/')[0];
      if (specifier.startsWith('node:') || builtinModules.includes(bare) || IO_PACKAGES.has(bare)) {
        const path = chain.map((f) => relative(root, f)).join(' → ');
        problems.push(`${relative(root, file)}: imports '${specifier}', and the planner does no I/O (${path}); pass what it needs in from the caller.`);
      } else if (target?.startsWith(join(root, 'src') + sep) && !reached.has(target)) {
        reached.set(target, [...chain, target]);
        queue.push(target);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--root');
  const problems = checkImports(at > 0 ? process.argv[at + 1] : process.cwd());
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`${problems.length} import rule${problems.length === 1 ? '' : 's'} broken.`);
    process.exit(1);
  }
}
