/**
 * An SQLite file opened with better-sqlite3, given its native addon. Left to find the addon
 * itself, better-sqlite3 asks the `bindings` package, which reads a stack trace to learn where
 * it was called from and requires one place after another, throwing and catching "module not
 * found" at each (~10 ms of every command that opens the mirror). The places a build puts it
 * are tried here in the same order, a stat each; a build elsewhere is left to `bindings`.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where `bindings` finds a built addon first: build/, build/Debug/, build/Release/. */
const PLACES = ['build', 'build/Debug', 'build/Release'];

let addon: object | undefined;

function nativeAddon(): object {
  if (addon === undefined) {
    const load = createRequire(import.meta.url);
    const root = dirname(dirname(load.resolve('better-sqlite3'))); // from its lib/index.js
    const built = PLACES.map((place) => join(root, place, 'better_sqlite3.node')).find((path) => existsSync(path));
    // Asked as better-sqlite3 asks it, from its own folder.
    addon = (built ? load(built) : createRequire(join(root, 'package.json'))('bindings')({ bindings: 'better_sqlite3.node', module_root: root })) as object;
  }
  return addon;
}

export function openSqlite(file: string | Buffer, options: Database.Options = {}): Database.Database {
  // better-sqlite3 takes the addon itself as well as its path (its types say only the path).
  return new Database(file, { ...options, nativeBinding: nativeAddon() as unknown as string });
}
