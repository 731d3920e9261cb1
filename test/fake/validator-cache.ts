/**
 * On-disk cache of compiled validators (Ajv standalone code). Compiling the validators of the
 * content operations from the 1.7 MB spec costs about a second, and every Vitest worker process
 * would pay it again; with the cache, a process loads the generated module in milliseconds.
 *
 * Location: node_modules/.cache/quire-fake-validators/<fingerprint>/, where the fingerprint
 * covers the spec, the Ajv version and the source of the normalisation/validation modules, so
 * any change to them starts a fresh cache. Set QUIRE_FAKE_VALIDATOR_CACHE=off to disable it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
let directory: string | null | undefined;

function cacheDirectory(): string | null {
  if (directory !== undefined) return directory;
  if (process.env.QUIRE_FAKE_VALIDATOR_CACHE === 'off') return (directory = null);
  try {
    const specPath = require.resolve('@gitbook/api/spec/openapi.json');
    const hash = createHash('sha256');
    hash.update(readFileSync(specPath));
    hash.update(readFileSync(require.resolve('ajv/package.json')));
    for (const source of ['./openapi.ts', './validation.ts']) hash.update(readFileSync(new URL(source, import.meta.url)));
    const nodeModules = specPath.slice(0, specPath.lastIndexOf('node_modules') + 'node_modules'.length);
    const root = join(nodeModules, '.cache', 'quire-fake-validators');
    const fingerprint = hash.digest('hex').slice(0, 16);
    directory = join(root, fingerprint);
    if (!existsSync(directory)) {
      // A new fingerprint means the sources changed: caches of older fingerprints are stale.
      for (const stale of existsSync(root) ? readdirSync(root) : []) {
        if (stale !== fingerprint) rmSync(join(root, stale), { recursive: true, force: true });
      }
      mkdirSync(directory, { recursive: true });
    }
  } catch {
    directory = null; // no writable cache: validators are compiled in memory only
  }
  return directory;
}

function fileFor(key: string): string | null {
  const dir = cacheDirectory();
  return dir === null ? null : join(dir, `${key.replace(/[^A-Za-z0-9_-]+/g, '_')}.cjs`);
}

export function loadCachedValidator(key: string): ValidateFunction | undefined {
  const file = fileFor(key);
  if (file === null) return undefined;
  try {
    return require(file) as ValidateFunction;
  } catch {
    return undefined;
  }
}

export function storeCachedValidator(key: string, code: string): void {
  const file = fileFor(key);
  if (file === null) return;
  try {
    // Write-then-rename, so concurrent workers never read a half-written module.
    const temp = join(dirname(file), `.${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.tmp`);
    writeFileSync(temp, code);
    renameSync(temp, file);
  } catch {
    // A read-only tree only costs speed.
  }
}
