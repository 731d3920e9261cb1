/**
 * An SQLite file opened with better-sqlite3, its native addon named for it. Left to find the
 * addon itself, better-sqlite3 asks the `bindings` package, which reads a stack trace to learn
 * where it was called from and requires one place after another, throwing and catching "module
 * not found" at each (~10 ms of every command that opens the mirror). The same places are tried
 * here in the same order, a stat each; when none holds it, better-sqlite3 looks as it always did.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where `bindings` finds a built addon first: build/, build/Debug/, build/Release/. */
const PLACES = ['build', 'build/Debug', 'build/Release'];

let addon: string | null | undefined;

function addonPath(): string | null {
  if (addon === undefined) {
    try {
      const root = dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3'))); // its lib/index.js
      addon = PLACES.map((place) => join(root, place, 'better_sqlite3.node')).find((path) => existsSync(path)) ?? null;
    } catch {
      addon = null;
    }
  }
  return addon;
}

export function openSqlite(file: string | Buffer, options: Database.Options = {}): Database.Database {
  const nativeBinding = addonPath();
  return new Database(file, nativeBinding === null ? options : { ...options, nativeBinding });
}
