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
 * `status` and `search` run from a bundle of their own where the build made one
 * (out/cli/quire-<command>.cjs: the same sources without the other commands, 40% of the bytes to
 * read and a smaller code cache to load); every other command runs from the whole one.
 *
 * The bundle is compiled with V8's code cache, one per command, kept in out/cli/code-cache and
 * named by the bundle's build id (out/cli/build-id, a digest of it): a command's second run
 * starts without parsing and compiling what its first run compiled (~30 ms of `quire status`).
 * A cache is written when a command ends well and had none, or V8 refused it (another Node,
 * other flags); a folder Quire may not write to just means no cache. With
 * NODE_OPTIONS=--enable-source-maps, Node's own loader runs the bundle, so stack traces map to
 * the sources (no cache then).
 *
 * V8 runs what a cache holds, and checks little of it: changed bytes crash the process ("Fatal
 * error … unreachable code"), and a cache someone else wrote runs their code in a process that
 * holds the user's token. So a cache is read only from a folder that is the user's alone (their
 * own, 0700, not a link) and from a file of theirs that only they may write (0600, not a link),
 * whatever the umask; and each starts with a line naming the bundle it was made for (its size and
 * time beside the build id) and the checksum of the rest, checked before V8 sees it (a fraction
 * of a millisecond for the largest). Any doubt means no cache for that run, and a good one is written
 * after it.
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
const fs = require('node:fs');
const { closeSync, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } = fs;
const { dirname, join } = require('node:path');

const root = dirname(__dirname);
const outDir = join(root, 'out/cli');
const bundle = join(outDir, 'quire.cjs');
const cacheDir = join(outDir, 'code-cache');
/** The first line of a cache file: this, the checksum of the rest, and the bundle it was made for. */
const CACHE_MAGIC = 'quire-code-cache/1';
/** The user the cache must belong to (none on Windows, where folders carry no owner and mode to check). */
const uid = process.getuid?.();

/** Whether a file the bundle was built from (out/cli/inputs.json, written by the build) is newer than the bundle. */
function bundleStale() {
  const builtAt = modified(bundle);
  if (builtAt === null) return true;
  try {
    const inputs = JSON.parse(readFileSync(join(outDir, 'inputs.json'), 'utf8'));
    // A file gone is not newer: whichever imported it changed, and that file is.
    // Joined as strings (the build writes them relative, with `/`): path.join costs more than the stat.
    return inputs.some((path) => (modified(`${root}/${path}`) ?? 0) > builtAt);
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

/** The command asked for, when its name is a plain word (it names a file: a cache, a bundle); else null. */
const command = /^[a-z]+$/.test(process.argv[2] ?? '') ? process.argv[2] : null;

/** Where this command's code cache is: named by the bundle's build id and the command; null without a build id. */
function codeCachePath() {
  let id;
  try {
    id = readFileSync(join(outDir, 'build-id'), 'utf8').trim();
  } catch {
    return null;
  }
  return /^[0-9a-f]+$/.test(id) ? join(cacheDir, `${id}-${command ?? 'other'}.bin`) : null;
}

/** Only the user may write it: theirs, and no group or other bits (anything goes where there are no owners). */
const private_ = (st) => uid === undefined || (st.uid === uid && (st.mode & 0o077) === 0);

/**
 * FNV-1a over 64-bit words, in WebAssembly: a loop V8 runs at machine speed from its first call
 * (a fraction of a millisecond over a 600 KB cache, where the same loop in JavaScript starts
 * interpreted, several times slower), with no Node module to load (node:crypto, node:zlib and
 * node:v8 each load the stream modules, which `status` and `--version` never need). Every step
 * is reversible, so a change within one word always changes the sum: it finds changed bytes,
 * while who may write a cache is for its folder's owner and modes to say. The module, as text:
 *   (module (memory (export "m") 1)
 *     (func (export "h") (param $n i32) (result i64) (local $i i32) (local $h i64)
 *       (local.set $h (i64.const 0xcbf29ce484222325))
 *       (block (loop (br_if 1 (i32.ge_u (local.get $i) (local.get $n)))
 *         (local.set $h (i64.mul (i64.xor (local.get $h) (i64.load (i32.shl (local.get $i) (i32.const 3))))
 *           (i64.const 0x100000001b3)))
 *         (local.set $i (i32.add (local.get $i) (i32.const 1))) (br 0)))
 *       (local.get $h)))
 */
const FNV_WASM =
  '0061736d0100000001060160017f017e030201000503010001070902016d0200016800000a41013f02017f017e42a5c688a1c89ca7f94b21020240' +
  '0340200120004f0d01200220014103742903008542b383808080207e2102200141016a21010c000b0b20020b';

/** `size` bytes to fill (zeros past them, to the next word), and their checksum once filled: `<size>-<sum in hex>`. */
function checksummed(size) {
  const { h, m } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(FNV_WASM, 'hex'))).exports;
  const pages = Math.ceil((size + 8) / 65536) - 1; // it starts with one
  if (pages > 0) m.grow(pages);
  return { bytes: new Uint8Array(m.buffer, 0, size), sum: () => `${size}-${BigInt.asUintN(64, h(Math.ceil(size / 8))).toString(16)}` };
}

/** Reads `bytes.length` bytes of `fd` from `position` into `bytes`; false when the file ends before. */
function readFully(fd, bytes, position) {
  let done = 0;
  while (done < bytes.length) {
    const n = fs.readSync(fd, bytes, done, bytes.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/**
 * The code V8 may take from the cache at `path` for the bundle `stamp` names: never through a
 * link, only from the user's private folder and file, and only when its checksum holds; read
 * straight into the memory the checksum is taken over (no copy). Undefined on any doubt.
 */
function readCodeCache(path, stamp) {
  const folder = lstatSync(cacheDir, { throwIfNoEntry: false });
  if (!folder?.isDirectory() || !private_(folder)) return undefined;
  let fd;
  try {
    fd = openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined; // none yet, or a link
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || !private_(st)) return undefined;
    const head = Buffer.alloc(Math.min(256, st.size));
    const end = readFully(fd, head, 0) ? head.indexOf(10) : -1;
    const [magic, sum, madeFor] = end > 0 ? head.toString('latin1', 0, end).split(' ') : [];
    if (magic !== CACHE_MAGIC || madeFor !== stamp) return undefined;
    const data = checksummed(st.size - end - 1);
    return readFully(fd, data.bytes, end + 1) && data.sum() === sum ? data.bytes : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The cache folder, made the user's alone (0700 whatever the umask); null when it cannot be:
 * a link, not a folder, another user's. What it held while open to others is not trusted: a
 * file there is read only if it too is the user's alone.
 */
function privateCacheDir() {
  try {
    mkdirSync(cacheDir, { mode: 0o700 });
  } catch {
    // there already (checked below), or not ours to make
  }
  const st = lstatSync(cacheDir, { throwIfNoEntry: false });
  if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) return null;
  if (!private_(st)) fs.chmodSync(cacheDir, 0o700);
  return cacheDir;
}

/**
 * Writes the cache beside its final name (a new file only the user may read, never through a
 * link), then renames it: another `quire` never reads half of one.
 */
function keepCodeCache(path, script, stamp) {
  let temp = null;
  try {
    if (privateCacheDir() === null) return;
    const made = script.createCachedData();
    const copy = checksummed(made.length);
    copy.bytes.set(made);
    const name = `${path}.${process.pid}-${Date.now().toString(36)}.tmp`;
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    const fd = openSync(name, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
    temp = name; // ours from here on: removed if it is not renamed
    try {
      writeSync(fd, `${CACHE_MAGIC} ${copy.sum()} ${stamp}\n`);
      writeSync(fd, made);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch {
    // A folder Quire may not write to (installed for all users, read-only): no cache, no harm.
    try {
      if (temp !== null) rmSync(temp, { force: true });
    } catch {
      // left behind: a .tmp name no run reads
    }
  }
}

/** The command's own bundle when the build made one, else the whole one. */
function bundleFor(name) {
  const own = name === null ? null : join(outDir, `quire-${name}.cjs`);
  return own !== null && existsSync(own) ? own : bundle;
}

/**
 * How far V8 lets the heap grow between two full collections, bounded for the commands that talk
 * to the API (answers of up to 32 MiB, lists of up to 100 pages). Left to itself V8 lets the heap
 * reach up to 4x what survived the last full collection, so a command's peak memory depends on
 * when that one happened: 100 pages of a list that never ends peaked at ~181 MB on Node 20 and
 * ~209 MB on Node 24, whose V8 ran its second full collection later (live data ~38 MB then, not
 * ~28), and the heap then grew to ~140 MB before the next. At 2x, V8's own bound on machines with
 * less memory, the same runs peak at ~165-177 and ~172-184 MB, with no CPU cost beyond the noise.
 *
 * V8 reads it at every full collection, so it need not be on the first line; it is set before
 * the bundle is compiled because a code cache carries a digest of V8's flags as they were when it
 * was made: set later (as the bundle once did), every cache made at exit was refused by the next
 * run, which compiled the whole bundle again and wrote a new cache (~45 ms of CPU a sync). Only
 * for a command run from the whole bundle: `status` and `search` send no request, nor does
 * `--version`, and node:v8 loads the stream modules (~5 ms).
 */
function boundHeapGrowth(file) {
  if (command !== null && file === bundle) require('node:v8').setFlagsFromString('--heap-growing-percent=100');
}

/** Runs the bundle as Node's CommonJS loader would, compiled with its code cache. */
function run(bundle) {
  boundHeapGrowth(bundle);
  if (process.sourceMapsEnabled) return require(bundle);
  const vm = require('node:vm');
  const { createRequire } = require('node:module');
  const cachePath = codeCachePath();
  // The build makes the bundle ASCII: taken as one byte a character, as V8 then keeps it, not decoded as UTF-8 (~40 ms).
  const bytes = readFileSync(bundle);
  const source = require('node:buffer').isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // The bundle the cache is for, beyond its build id: one edited by hand, even to the same length, is another.
  const made = statSync(bundle);
  const stamp = `${made.size}:${made.mtimeMs}`;
  const cachedData = cachePath ? readCodeCache(cachePath, stamp) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  if (cachePath && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', (code) => {
      if (code === 0) keepCodeCache(cachePath, script, stamp);
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
run(bundleFor(command));
