#!/usr/bin/env -S QUIRE_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS} NODE_EXTRA_CA_CERTS=${QUIRE_UNSET} node --max-semi-space-size=4
/**
 * The `quire` command (package.json's `bin`; `npm run quire` runs it too): the bundled CLI,
 * out/cli/quire.cjs, built by scripts/build-cli.mjs (`npm install` builds it, see `prepare`).
 *
 * In a development checkout (the build script beside it) it first rebuilds what is stale, at the
 * cost of a stat per file the bundle was built from (a few milliseconds): the bundle when one of
 * those files changed, and for `quire ui` the app's web files (scripts/build-app.mjs, which
 * checks its own sources). A copy without the sources runs the bundle as it is.
 *
 * The bundle is compiled with V8's code cache, one per command, kept in out/cli/code-cache and
 * named by the bundle's build id (out/cli/build-id, a digest of it): a command's second run
 * starts without parsing and compiling what its first run compiled (~30 ms of `quire status`).
 * A cache is written when a command ends well and had none, or V8 refused it (another Node,
 * other flags); a folder Quire may not write to just means no cache. With
 * NODE_OPTIONS=--enable-source-maps, Node's own loader runs the bundle, so stack traces map to
 * the sources (no cache then).
 *
 * CommonJS, like the bundle: Node's ES module loader would cost a start of its own.
 *
 * The first line (`env -S`; at most 127 bytes, all that kernels before Linux 5.1 read of it) sets
 * what Node reads only as it starts:
 * - a V8 flag (v8.setFlagsFromString changes nothing afterwards): a 4 MB young generation holds
 *   a sync over a large folder ~20 MB smaller (a no-op `sync --once` over 20,000 pages: ~87 MB
 *   instead of ~109 MB); it costs ~10 ms of every start, as any V8 flag makes Node compile the
 *   modules of its own it loads without the code cache built into it;
 * - NODE_EXTRA_CA_CERTS, moved to QUIRE_EXTRA_CA_CERTS: Node 20 parses that file (and its own
 *   roots) at every start, ~55 ms with a system bundle, connecting or not; Quire's first HTTPS
 *   connection reads it instead (src/main/core/api/extra-ca-certs.ts). `${QUIRE_UNSET}` is
 *   meant to be unset, so env leaves NODE_EXTRA_CA_CERTS empty (Node then skips it); an empty
 *   value written as such would make npm's Windows shims take the assignment for the program.
 */
'use strict';
const { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const root = dirname(__dirname);
const outDir = join(root, 'out/cli');
const bundle = join(outDir, 'quire.cjs');

/** Whether a file the bundle was built from (out/cli/inputs.json, written by the build) is newer than the bundle. */
function bundleStale() {
  const builtAt = modified(bundle);
  if (builtAt === null) return true;
  try {
    const inputs = JSON.parse(readFileSync(join(outDir, 'inputs.json'), 'utf8'));
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
function build(script) {
  const { spawnSync } = require('node:child_process'); // only when building: not loaded on every command
  const run = spawnSync(process.execPath, [join(root, script)], { cwd: root, stdio: ['ignore', 2, 2] });
  if (run.status !== 0) {
    process.stderr.write(`quire: ${script} failed (see above); the command was not run.\n`);
    process.exit(1);
  }
}

/** Where this command's code cache is: named by the bundle's build id and the command; null without a build id. */
function codeCachePath() {
  let id;
  try {
    id = readFileSync(join(outDir, 'build-id'), 'utf8').trim();
  } catch {
    return null;
  }
  const command = /^[a-z]+$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
  return /^[0-9a-f]+$/.test(id) ? join(outDir, 'code-cache', `${id}-${command}.bin`) : null;
}

/** Writes the cache beside its final name, then renames it: another `quire` never reads half of one. */
function keepCodeCache(path, script) {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, path);
  } catch {
    // A folder Quire may not write to (installed for all users, read-only): no cache, no harm.
  }
}

/** Runs the bundle as Node's CommonJS loader would, compiled with its code cache. */
function run() {
  if (process.sourceMapsEnabled) return require(bundle);
  const vm = require('node:vm');
  const { createRequire } = require('node:module');
  const cachePath = codeCachePath();
  let cachedData;
  try {
    if (cachePath) cachedData = readFileSync(cachePath);
  } catch {
    // none yet
  }
  const source = readFileSync(bundle, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  if (cachePath && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', (code) => {
      if (code === 0) keepCodeCache(cachePath, script);
    });
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, outDir);
}

if (existsSync(join(root, 'scripts/build-cli.mjs'))) {
  if (bundleStale()) build('scripts/build-cli.mjs');
  if (process.argv[2] === 'ui') build('scripts/build-app.mjs');
} else if (!existsSync(bundle)) {
  process.stderr.write(`quire: ${bundle} is missing: this copy of Quire was installed without its build. Run \`npm install\` in the Quire folder.\n`);
  process.exit(1);
}
run();
