import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIRROR_FILE } from './corrupt';
import { migrations as defaultMigrations, type Migration } from './migrations';
import { STATE_DIR } from './state-dir';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the mirror of a sync folder and brings its
 * schema up to date. WAL lets the UI read while the engine writes.
 */
export function openDatabase(syncFolder: string, migrations: Migration[] = defaultMigrations): Db {
  const dir = join(syncFolder, STATE_DIR);
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, MIRROR_FILE));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    // Reading the schema finds a damaged one now, not halfway through a cycle.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Applies every migration newer than the database, each in its own transaction. */
export function migrate(db: Db, migrations: Migration[]): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  let current = db.pragma('user_version', { simple: true }) as number;
  const newest = sorted.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(
      `The mirror in this folder was written by a newer Quire (schema ${current}, this one knows ${newest}). Update Quire, or sync into another folder.`,
    );
  }
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    current = m.version;
  }
  return current;
}
