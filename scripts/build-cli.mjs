// Bundles the `quire` command into out/cli/quire.cjs when any source is newer
// than the bundle, so `quire` (bin/quire.cjs) runs plain JavaScript: no TypeScript
// loader at run time, faster start-up, less memory. Packages in plain
// JavaScript are bundled too, so the code cache covers them (the API client alone
// is 230 KB to compile); native ones stay in node_modules (NATIVE), and packages
// loaded by createRequire at run time (katex, highlight.js) are not bundled.
// One CommonJS file, not ES modules split into chunks: the launcher compiles it
// with V8's code cache (bin/quire.cjs), which Node 20 offers for a script and not
// for an ES module, and Node's ES module loader costs a start of its own (each
// chunk read through a promise, CommonJS packages lexed for their exports). A
// command still runs only its own code: each one is imported dynamically
// (cli/commands.ts), which esbuild keeps lazy inside the bundle, so `status`
// loads no HTTP module.
// The commands run most often and wanted at once, `status` and `search`, also have a bundle
// of their own (out/cli/quire-<command>.cjs, the same sources without the other commands),
// which the launcher runs for them: 40% of the bytes to read, and a smaller code cache to load.
// It also writes out/cli/inputs.json, the files the bundle was built from (the
// launcher stats those to know, in milliseconds, whether to call this again;
// package-lock.json stands for the packages), and
// out/cli/build-id, a digest of the bundle that names its code caches.
// package.json's `prepare` runs it, so `npm install` and `npm ci` leave it built.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'src/main/hosts/cli/main.ts';
const OUT_DIR = 'out/cli';
const OUT = `${OUT_DIR}/quire.cjs`;
const INPUTS = `${OUT_DIR}/inputs.json`;
const BUILD_ID = `${OUT_DIR}/build-id`;
/** Inputs esbuild does not name: the lock file stands for the packages, and this script says how the bundles are made. */
const ALSO_INPUTS = ['package-lock.json', 'scripts/build-cli.mjs'];
/** What the bundles are made from: a change to any makes them again. */
const SOURCES = ['src/main', 'src/shared', 'package.json', ...ALSO_INPUTS];
/**
 * Native packages (and ws's optional native helpers): required from node_modules at run time.
 * better-sqlite3 is bundled but for its addon, which the mirror loads from where its build put it
 * (core/mirror/sqlite.ts): `bindings`, its way of finding the addon, is never called in the bundle.
 */
const NATIVE = ['bindings', 'keytar', 'bufferutil', 'utf-8-validate'];
/** Commands with a bundle of their own beside the whole one (the launcher runs it when it is there). */
const OWN_BUNDLE = ['status', 'search'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), st.mtimeMs);
}

/**
 * The launcher compiles the bundle as a script, where `import()` has no module loader (without
 * an experimental flag): what the sources import on demand and the bundle cannot hold (keytar,
 * a Node module) is required on demand instead, by a module of one line that esbuild bundles
 * lazily. A bundled package imported on demand is initialised on demand by esbuild itself.
 */
const outside = (path) => path.startsWith('node:') || NATIVE.some((name) => path === name || path.startsWith(`${name}/`));
const requireOnDemand = {
  name: 'require-on-demand',
  setup(build) {
    build.onResolve({ filter: /.*/, namespace: 'on-demand' }, (args) => ({ path: args.path, external: true }));
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'dynamic-import' && outside(args.path) ? { path: args.path, namespace: 'on-demand' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'on-demand' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * In a command's own bundle, the other commands' modules (cli/commands.ts imports each on demand)
 * are left out: what `import('./commands/x')` gives there is a module whose every export says so,
 * which the launcher never lets run (it runs this bundle for its own command only).
 */
const onlyCommand = (command) => ({
  name: 'only-command',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+$/ }, (args) =>
      args.kind === 'dynamic-import' && args.importer.endsWith('hosts/cli/commands.ts') && args.path !== `./commands/${command}`
        ? { path: args.path.slice('./commands/'.length), namespace: 'left-out' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => {
      const message = JSON.stringify(`quire ${args.path} is not in the ${command} bundle`);
      return { contents: `module.exports = new Proxy({}, { get: () => () => { throw new Error(${message}); } });`, loader: 'js' };
    });
  },
});

/**
 * Writes what esbuild leaves outside ASCII (in comments and regular expressions; it escapes the
 * rest) as `\uXXXX`, which means the same character there, in strings and in names. An
 * ASCII bundle is read by the launcher as one byte a character: V8 keeps it as such, where one
 * character outside ASCII makes Node decode the whole 2.5 MB as UTF-8 and V8 hold it as two
 * bytes a character (tens of milliseconds of every command, `--version` too). A tagged template's raw text
 * (String.raw) would read the escape itself: the sources have none holding such characters.
 */
function asciiOnly(file) {
  const code = readFileSync(file, 'utf8');
  const ascii = code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== code) writeFileSync(file, ascii);
}

let builtAt = 0;
try {
  builtAt = statSync(OUT).mtimeMs;
} catch {
  // not built yet
}
const force = process.argv.includes('--force');
if (force || !existsSync(INPUTS) || !existsSync(BUILD_ID) || SOURCES.some((s) => newestMtime(s) > builtAt)) {
  rmSync(OUT_DIR, { recursive: true, force: true }); // no stale bundle or code cache from an earlier build
  // The bundles are dated from before esbuild reads a source: a source saved while it builds is
  // newer than them, so the next check builds again (dated when written, the bundle kept the
  // source as it was read, and ran it, unseen, until the next edit).
  const startedAt = new Date();
  const { build } = await import('esbuild'); // only when building: a fresh bundle costs a walk, not esbuild's start-up
  const bundle = (outfile, plugins) =>
    build({
      entryPoints: [ENTRY],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: NATIVE,
      plugins: [requireOnDemand, ...plugins],
      // The sources are ES modules: their import.meta.url is the bundle's own URL.
      define: { 'import.meta.url': '__quireBundleUrl' },
      banner: { js: 'const __quireBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
      sourcemap: true,
      // Without comments and indentation: a quarter less for every command to read and hold as it
      // starts. Names are kept (stack traces name functions; the source map gives lines).
      minifyWhitespace: true,
      metafile: true,
      logLevel: 'warning',
    });
  const bundles = [{ file: OUT, plugins: [] }, ...OWN_BUNDLE.map((command) => ({ file: `${OUT_DIR}/quire-${command}.cjs`, plugins: [onlyCommand(command)] }))];
  const files = bundles.map((b) => b.file);
  const results = await Promise.all(bundles.map((b) => bundle(b.file, b.plugins)));
  const loadedLater = results.flatMap((r) =>
    Object.values(r.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)),
  );
  if (loadedLater.length > 0) throw new Error(`the bundle still imports ${loadedLater.join(', ')} with import(), which bin/quire.cjs cannot load`);
  for (const file of files) asciiOnly(file);
  // Our files (not the one-line modules above, nor a package reached through a linked
  // node_modules, which esbuild names by where the link points): the whole bundle's hold every other's.
  const inputs = Object.keys(results[0].metafile.inputs).filter((path) => !path.startsWith('on-demand:') && !path.split('/').includes('node_modules'));
  writeFileSync(INPUTS, `${JSON.stringify([...inputs, ...ALSO_INPUTS].sort(), null, 1)}\n`);
  const digest = createHash('sha256');
  for (const file of files) digest.update(readFileSync(file));
  writeFileSync(BUILD_ID, `${digest.digest('hex').slice(0, 16)}\n`);
  for (const file of files) utimesSync(file, startedAt, startedAt);
}
