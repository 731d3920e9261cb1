import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { MIRROR_FILE } from './corrupt';
import { migrations as defaultMigrations, type Migration } from './migrations';
import { openSqlite } from './sqlite';
import { checkStateFile, lstatOrNull, stateDir } from './state-files';

export type Db = Database.Database;

/** The mirror's file and the companions SQLite opens beside it by name. */
const MIRROR_FILES = ['', '-wal', '-shm', '-journal'].map((suffix) => `${MIRROR_FILE}${suffix}`);

/** How long a write waits for another connection's write to finish before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/** `.quire`, with the mirror's files in it checked (state-files.ts): none is a link, a folder or a device. */
export function checkMirrorFiles(syncFolder: string, options: { create: boolean }): string {
  const dir = stateDir(syncFolder, options);
  for (const name of MIRROR_FILES) checkStateFile(join(dir, name));
  return dir;
}

/**
 * Opens (creating if needed) the mirror of a sync folder and brings its
 * schema up to date. WAL lets the UI read while the engine writes.
 */
export function openDatabase(syncFolder: string, migrations: Migration[] = defaultMigrations): Db {
  const dir = checkMirrorFiles(syncFolder, { create: true });
  const db = openSqlite(join(dir, MIRROR_FILE), { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    configure(db);
    migrate(db, migrations);
    // Reading the schema finds a damaged one now, not halfway through a cycle.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The mirror for a dry run, which writes nothing anywhere: the folder's own, read as it is
 * (never created, migrated or set aside; a read-write connection that writes nothing leaves
 * no file behind when it closes, unlike a read-only one, which leaves -wal and -shm). A folder
 * without a mirror — or with none yet in a folder that does not exist — gets an empty one in
 * memory; a mirror from an older Quire is copied into memory and brought up to date there.
 */
export function openDatabaseToPlan(syncFolder: string, migrations: Migration[] = defaultMigrations): Db {
  const dir = checkMirrorFiles(syncFolder, { create: false });
  const found = lstatOrNull(join(dir, MIRROR_FILE));
  if (!found || found.size === 0) return inMemory(null, migrations);
  const db = openSqlite(join(dir, MIRROR_FILE), { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
  try {
    const current = db.pragma('user_version', { simple: true }) as number;
    const newest = Math.max(0, ...migrations.map((m) => m.version));
    if (current < newest) {
      const copy = inMemory(db.serialize(), migrations);
      db.close();
      return copy;
    }
    configure(db);
    migrate(db, migrations); // refuses a newer schema; nothing to apply otherwise
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (err) {
    if (db.open) db.close();
    throw err;
  }
}

function inMemory(image: Buffer | null, migrations: Migration[]): Db {
  // A WAL file's header says so (bytes 18-19 = 2), which an in-memory database cannot open: say rollback (1).
  if (image && image.length >= 20) image.fill(1, 18, 20);
  const db = openSqlite(image ?? ':memory:');
  configure(db);
  migrate(db, migrations);
  return db;
}

/**
 * SQLite's page cache, per connection and database, in KiB. better-sqlite3 sets 16 MB, which a
 * large pull fills (its transactions touch every page row) and keeps; the operating system
 * caches the file anyway, so a read the cache misses costs a system call, not a disk read.
 */
const PAGE_CACHE_KIB = 4096;

/**
 * The write-ahead log is copied into the mirror's file (a checkpoint: two fsyncs, on the thread
 * that commits) once it holds this many pages. At SQLite's 1,000 (4 MB) a first pull of 2,000
 * pages stopped for 39 such fsyncs (a third of a second on a busy disk, its requests waiting);
 * at 2,000 (8 MB), for 27, and a page written again between two checkpoints is copied once.
 * (At 4,000, a 20,000-page pull peaked 2-4 MB higher, past its 150 MB.)
 */
const WAL_PAGES_BEFORE_CHECKPOINT = 2000;

/** Per-connection settings (the journal mode is the file's own). */
function configure(db: Db): void {
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.pragma(`temp.cache_size = -${PAGE_CACHE_KIB}`); // the sync's spool (content.ts) is a temporary table
  db.pragma(`wal_autocheckpoint = ${WAL_PAGES_BEFORE_CHECKPOINT}`);
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
