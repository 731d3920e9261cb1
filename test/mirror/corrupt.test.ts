/**
 * A corrupt mirror (issue 9, item 3, outside sync): not a database, an unreadable schema, a
 * malformed page. Read-only opening reports it and touches nothing; opening for sync moves it
 * aside with its -wal and -shm, keeps it, and starts a fresh one with one line saying so.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, closeSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CorruptMirrorError, isCorruptionError, Mirror } from '../../src/main/core/mirror';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'quire-corrupt-'));
}

/** A mirror holding a space, closed (its WAL checkpointed into the file). */
function healthy(dir: string): void {
  const mirror = Mirror.open(dir);
  mirror.catalog.upsertOrganization({ id: 'org', title: 'Acme' }, {}, '2024-01-01T00:00:00Z');
  mirror.catalog.upsertSpace({ id: 'space', organization: 'org', title: 'Guide', revision: 'r1' }, {});
  mirror.close();
}

const stateFiles = (dir: string) => readdirSync(join(dir, '.quire')).sort();

/** Kinds of damage, each made the way it happens: a file overwritten, a schema edited by hand. */
const DAMAGE: [string, (dir: string) => void, RegExp][] = [
  [
    'not a database',
    (dir) => {
      mkdirSync(join(dir, '.quire'), { recursive: true });
      writeFileSync(join(dir, '.quire/mirror.db'), 'this is not SQLite, just text that landed here'.repeat(200));
      writeFileSync(join(dir, '.quire/mirror.db-wal'), 'junk');
      writeFileSync(join(dir, '.quire/mirror.db-shm'), 'junk');
    },
    /file is not a database/,
  ],
  [
    'an unreadable schema',
    (dir) => {
      healthy(dir);
      const path = join(dir, '.quire/mirror.db');
      // The schema's statement for a table no longer parses (every copy in the file: freed pages hold old ones).
      const text = readFileSync(path).toString('latin1');
      expect(text).toContain('CREATE TABLE spaces (');
      writeFileSync(path, Buffer.from(text.replaceAll('CREATE TABLE spaces (', 'CREATE TABLX spaces ('), 'latin1'));
    },
    /malformed database schema/,
  ],
];

it.each(DAMAGE)('%s: a read-only open says what is wrong and that the next sync rebuilds it, and changes nothing', (_what, damage, reason) => {
  const dir = folder();
  damage(dir);
  const before = stateFiles(dir).map((f) => [f, readFileSync(join(dir, '.quire', f)).toString('base64')]);

  let error: unknown;
  try {
    Mirror.open(dir).close();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CorruptMirrorError);
  expect((error as Error).message).toMatch(reason);
  expect((error as Error).message).toContain('The next sync moves it aside, keeps it for inspection, and rebuilds it from the server and your folder.');
  expect(stateFiles(dir).map((f) => [f, readFileSync(join(dir, '.quire', f)).toString('base64')])).toEqual(before);
});

it.each(DAMAGE)('%s: opening for sync keeps it aside (with -wal and -shm) and starts a fresh mirror, saying so once', (_what, damage, reason) => {
  const dir = folder();
  damage(dir);
  const hadWal = existsSync(join(dir, '.quire/mirror.db-wal'));

  const mirror = Mirror.open(dir, { ifCorrupt: 'set-aside' });
  try {
    expect(mirror.setAside?.reason).toMatch(reason);
    const kept = mirror.setAside!.keptAs;
    expect(kept).toMatch(/\.quire[/\\]mirror\.db\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(existsSync(kept)).toBe(true);
    if (hadWal) {
      expect(readFileSync(`${kept}-wal`, 'utf8')).toBe('junk');
      expect(readFileSync(`${kept}-shm`, 'utf8')).toBe('junk');
    }
    expect(mirror.setAside!.notice).toBe(
      `Quire's sync state was unreadable (${mirror.setAside!.reason}): it is kept as ${kept} for inspection, and a fresh one was started. Sync rebuilds it from the server and your folder.`,
    );
    expect(mirror.catalog.spaces()).toEqual([]);
    expect(mirror.log.recent().map((e) => e.message)).toEqual([mirror.setAside!.notice]);
  } finally {
    mirror.close();
  }
  const again = Mirror.open(dir);
  expect(again.setAside).toBeNull();
  again.close();
});

it('damage found while working (a malformed table page) is set aside by setAsideAfter, and the next open is fresh', () => {
  const dir = folder();
  healthy(dir);
  const path = join(dir, '.quire/mirror.db');
  const probe = new Database(path);
  const { rootpage } = probe.prepare(`SELECT rootpage FROM sqlite_schema WHERE name = 'spaces'`).get() as { rootpage: number };
  const pageSize = probe.pragma('page_size', { simple: true }) as number;
  probe.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (rootpage - 1) * pageSize);
  closeSync(fd);

  const mirror = Mirror.open(dir, { ifCorrupt: 'set-aside' }); // the schema reads fine: the damage is in a table
  expect(mirror.setAside).toBeNull();
  let error: unknown;
  try {
    mirror.catalog.spaces();
  } catch (e) {
    error = e;
  }
  expect(isCorruptionError(error)).toBe(true);
  const moved = Mirror.setAsideAfter(mirror, dir, error);
  expect(moved.reason).toMatch(/malformed/);
  expect(existsSync(moved.keptAs)).toBe(true);

  const fresh = Mirror.open(dir);
  expect(fresh.catalog.spaces()).toEqual([]);
  expect(fresh.log.recent()[0]?.message).toBe(moved.notice);
  fresh.close();
});
