/**
 * Search and history made again (derived.ts) have exactly the schema the migrations give them
 * (the definitions are repeated there, so a migration that changes these tables must change
 * derived.ts too: this test says so), and damage is placed where it is: in search, in history,
 * or in the mirror's own tables (never repaired in place).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/mirror/database';
import { findDamage, rebuildHistory, rebuildSearch } from '../../src/main/core/mirror/derived';

const fresh = (): Db => openDatabase(mkdtempSync(join(tmpdir(), 'quire-derived-')));

/** The derived objects as sqlite_schema holds them, and the FTS5 settings (the rank function). */
function derivedSchema(db: Db) {
  return {
    objects: db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name LIKE 'search%' OR name LIKE 'history%' ORDER BY name`).all() as {
      sql: string | null;
    }[],
    config: db.prepare(`SELECT k, v FROM search_fts_config ORDER BY k`).all(),
  };
}

/** Whitespace inside a CREATE statement is not part of the schema. */
const normal = (s: ReturnType<typeof derivedSchema>) => ({
  ...s,
  objects: s.objects.map((o) => ({ ...o, sql: o.sql?.replace(/\s+/g, ' ') ?? null })),
});

describe('derived data', () => {
  it('search and history made again have the schema the migrations give them', () => {
    const migrated = fresh();
    const rebuilt = fresh();
    rebuildSearch(rebuilt);
    expect(rebuildHistory(rebuilt)).toEqual({ kept: true, lost: { versions: 0, pages: 0 } });
    rebuilt.exec(`DROP TABLE history_versions`);
    expect(rebuildHistory(rebuilt).kept).toBe(false);
    expect(normal(derivedSchema(rebuilt))).toEqual(normal(derivedSchema(migrated)));
  });

  it('a healthy mirror has no damage, a cheap look or a thorough one', () => {
    const db = fresh();
    expect(findDamage(db, { thorough: false })).toEqual({ derived: new Set(), core: [], reason: '' });
    expect(findDamage(db, { thorough: true })).toEqual({ derived: new Set(), core: [], reason: '' });
  });

  it('places damage: a missing history table, a garbled FTS5 index, and a table of the mirror itself', () => {
    const db = fresh();
    db.exec(`INSERT INTO search_docs (kind, space_id, key, body, scope) VALUES ('page', 's1', 'p1', 'hello world', 'kpage s00')`);
    db.exec(`DROP TABLE history_pages`);
    expect(findDamage(db, { thorough: false }).derived).toEqual(new Set(['history']));

    // From a second connection, as damage comes (this one's FTS5 caches what it wrote).
    const other = new Database(db.name);
    other.unsafeMode(true);
    other.exec(`UPDATE search_fts_data SET block = x'00ff00ff' WHERE id = 10`);
    other.close();
    const found = findDamage(db, { thorough: true });
    expect(found.derived).toEqual(new Set(['history', 'search']));
    expect(found.core).toEqual([]);

    // The mirror's own table with a page of garbage: not derived, so not repaired in place.
    const path = db.name;
    db.close();
    const raw = new Database(path);
    raw.exec(`INSERT INTO sync_log (at, kind, message) SELECT datetime('now'), 'info', hex(randomblob(200)) FROM (SELECT 1 UNION SELECT 2 UNION SELECT 3)`);
    const { rootpage } = raw.prepare(`SELECT rootpage FROM sqlite_schema WHERE name = 'sync_log'`).get() as { rootpage: number };
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    raw.close();
    const bytes = readFileSync(path);
    bytes.fill(0xee, (rootpage - 1) * pageSize + 8, (rootpage - 1) * pageSize + 64);
    writeFileSync(path, bytes);
    const damaged = new Database(path);
    expect(findDamage(damaged, { thorough: true }).core).toContain('sync_log');
    damaged.close();
  });
});
