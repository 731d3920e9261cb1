#!/usr/bin/env -S node --max-semi-space-size=4
/**
 * The `quire` command (package.json's `bin`; `npm run quire` runs it too): the bundled CLI in
 * out/cli, built by scripts/build-cli.mjs (`npm install` builds it, see `prepare`).
 *
 * In a development checkout (the build script beside it) it first rebuilds what is stale, at the
 * cost of a stat per file the bundle was built from (a few milliseconds): the bundle when one of
 * those files changed, and for `quire ui` the app's web files (scripts/build-app.mjs, which
 * checks its own sources). A copy without the sources runs the bundle as it is.
 *
 * The Node flags are on the first line, read only as V8 starts (v8.setFlagsFromString changes
 * nothing afterwards), hence the `env -S` line. A 4 MB young generation holds a sync over a
 * large folder ~20 MB smaller (a no-op `sync --once` over 20,000 pages: ~87 MB instead of
 * ~109 MB); it costs ~15 ms of every start, as any V8 flag makes Node compile its own modules
 * without the code cache built into it. No `--enable-source-maps`: it read and parsed the
 * bundle's maps on every start (~10 ms) for stack traces the command never prints; set
 * NODE_OPTIONS=--enable-source-maps to have them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bundle = join(root, 'out/cli/quire.mjs');

/** Whether a file the bundle was built from (out/cli/inputs.json, written by the build) is newer than the bundle. */
function bundleStale() {
  const builtAt = modified(bundle);
  if (builtAt === null) return true;
  try {
    const inputs = JSON.parse(readFileSync(join(root, 'out/cli/inputs.json'), 'utf8'));
    // A file gone is not newer: whichever imported it changed, and that file is.
    return inputs.some((path) => (modified(join(root, path)) ?? 0) > builtAt);
  } catch {
    return true;
  }
}

function modified(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
}

/** Runs a build script; its output goes to stderr, so stdout stays the command's. */
async function build(script) {
  const { spawnSync } = await import('node:child_process'); // only when building: not loaded on every command
  const run = spawnSync(process.execPath, [join(root, script)], { cwd: root, stdio: ['ignore', 2, 2] });
  if (run.status !== 0) {
    process.stderr.write(`quire: ${script} failed (see above); the command was not run.\n`);
    process.exit(1);
  }
}

if (existsSync(join(root, 'scripts/build-cli.mjs'))) {
  if (bundleStale()) await build('scripts/build-cli.mjs');
  if (process.argv[2] === 'ui') await build('scripts/build-app.mjs');
} else if (!existsSync(bundle)) {
  process.stderr.write(`quire: ${bundle} is missing: this copy of Quire was installed without its build. Run \`npm install\` in the Quire folder.\n`);
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
