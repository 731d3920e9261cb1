// Bundles the `quire` command into out/cli/quire.mjs when any source is newer
// than the bundle, so `npm run quire` runs plain JavaScript: no TypeScript
// loader at run time, faster start-up, less memory. Dependencies stay in
// node_modules (native modules cannot be bundled). The bundle is split along
// the CLI's dynamic imports (one per command, see cli/run.ts) into chunks
// beside it, so a command loads only its own code and packages.
import { build } from 'esbuild';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'src/main/hosts/cli/main.ts';
const OUT_DIR = 'out/cli';
const OUT = `${OUT_DIR}/quire.mjs`;
const SOURCES = ['src/main', 'src/shared', 'package.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), st.mtimeMs);
}

let builtAt = 0;
try {
  builtAt = statSync(OUT).mtimeMs;
} catch {
  // not built yet
}
const force = process.argv.includes('--force');
if (force || SOURCES.some((s) => newestMtime(s) > builtAt)) {
  rmSync(OUT_DIR, { recursive: true, force: true }); // no stale chunks from an earlier build
  await build({
    entryPoints: { quire: ENTRY },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}
