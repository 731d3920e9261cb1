// Bundles the `quire` command into out/cli/quire.mjs when any source is newer
// than the bundle, so `quire` (bin/quire.mjs) runs plain JavaScript: no TypeScript
// loader at run time, faster start-up, less memory. Dependencies stay in
// node_modules (native modules cannot be bundled). The bundle is split along
// the CLI's dynamic imports (one per command, see cli/commands.ts) into chunks
// beside it, so a command loads only its own code and packages.
// It also writes out/cli/inputs.json, the files the bundle was built from: the
// launcher stats those to know, in milliseconds, whether to call this again.
// package.json's `prepare` runs it, so `npm install` and `npm ci` leave it built.
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'src/main/hosts/cli/main.ts';
const OUT_DIR = 'out/cli';
const OUT = `${OUT_DIR}/quire.mjs`;
const INPUTS = `${OUT_DIR}/inputs.json`;
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
if (force || !existsSync(INPUTS) || SOURCES.some((s) => newestMtime(s) > builtAt)) {
  rmSync(OUT_DIR, { recursive: true, force: true }); // no stale chunks from an earlier build
  const { build } = await import('esbuild'); // only when building: a fresh bundle costs a walk, not esbuild's start-up
  const result = await build({
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
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(INPUTS, `${JSON.stringify(Object.keys(result.metafile.inputs).sort(), null, 1)}\n`);
}
