import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, openDatabase } from '../../src/main/core/mirror/database';
import { migrations } from '../../src/main/core/mirror/migrations';
import { Mirror } from '../../src/main/core/mirror';

const tempDir = () => mkdtempSync(join(tmpdir(), 'quire-mirror-'));
const newest = Math.max(...migrations.map((m) => m.version));

describe('mirror migrations', () => {
  it('creates a fresh mirror at the newest schema, in WAL mode, inside .quire/', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(newest);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.name).toBe(join(dir, '.quire', 'mirror.db'));
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name);
    for (const t of ['organizations', 'spaces', 'revisions', 'pages', 'files', 'change_requests', 'comments', 'sites', 'sync_log']) {
      expect(tables).toContain(t);
    }
    db.close();
  });

  it('upgrades an older mirror step by step and keeps its data', () => {
    const dir = tempDir();
    const v1 = openDatabase(
      dir,
      migrations.filter((m) => m.version === 1),
    );
    v1.prepare(`INSERT INTO organizations (id, title, json, refreshed_at) VALUES ('o1', 'Acme', '{}', 'now')`).run();
    v1.close();

    const db = openDatabase(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(newest);
    expect(db.prepare(`SELECT title FROM organizations WHERE id = 'o1'`).get()).toEqual({ title: 'Acme' });
    db.close();
  });

  it('runs each migration once and rolls a failing one back whole', () => {
    const db = new Database(':memory:');
    const steps = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER);' },
      { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => migrate(db, steps)).toThrow(/nowhere/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(['a']);
    expect(migrate(db, steps.slice(0, 1))).toBe(1);
  });

  it('v14: the change request a space pushes into stays Quire’s own, its subject Quire’s to follow', () => {
    const dir = tempDir();
    const v13 = openDatabase(
      dir,
      migrations.filter((m) => m.version <= 13),
    );
    v13
      .prepare(`INSERT INTO sync_change_requests (space_id, change_request_id, number, marker, subject, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run('s1', 'cr1', 4, 'a1b2c3d4', 'Update “Install” (Quire a1b2c3d4)', 'open', 'then');
    v13.close();
    const mirror = Mirror.open(dir);
    expect(mirror.outbox.changeRequest('s1')).toMatchObject({
      changeRequestId: 'cr1',
      number: 4,
      state: 'open',
      chosen: false,
      subjectByUser: false,
      status: null,
    });
    expect(mirror.outbox.parkedChangeRequests('s1')).toEqual([]);
    expect(mirror.inboxMarks.seen()).toEqual(new Map());
    mirror.close();
  });

  it('v17: log entries written before read back as they were, without page-by-page activity', () => {
    const dir = tempDir();
    const v14 = openDatabase(
      dir,
      migrations.filter((m) => m.version <= 14),
    );
    v14
      .prepare(`INSERT INTO sync_log (at, space_id, kind, message) VALUES (?, ?, ?, ?)`)
      .run('2026-01-01T00:00:00.000Z', 's1', 'pulled', 'pulled revision r1: 2 written');
    v14.close();
    const mirror = Mirror.open(dir);
    expect(mirror.log.recent(5)).toEqual([
      { seq: 1, at: '2026-01-01T00:00:00.000Z', spaceId: 's1', kind: 'pulled', message: 'pulled revision r1: 2 written', activity: null },
    ]);
    const activity = {
      direction: 'push' as const,
      pages: [{ pageId: 'p1', title: 'Install', path: 'install.md', change: 'edited' as const }],
      morePages: 0,
      files: [],
      moreFiles: 0,
      relinked: 0,
    };
    mirror.log.add('pushed', 'Pushed 1 page', 's1', '2026-01-02T00:00:00.000Z', activity);
    expect(mirror.log.recent(1, undefined, { spaceId: 's1' })[0]!.activity).toEqual(activity);
    mirror.close();
  });

  it('refuses a mirror written by a newer Quire with a clear message', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.pragma(`user_version = ${newest + 5}`);
    db.close();
    expect(() => Mirror.open(dir)).toThrow(/newer Quire.*Update Quire/);
  });

  it('commits a state change as one transaction or not at all', () => {
    const mirror = Mirror.open(tempDir());
    expect(() =>
      mirror.transaction(() => {
        mirror.catalog.upsertOrganization({ id: 'o1', title: 'Acme' }, {}, 'now');
        throw new Error('crash mid-step');
      }),
    ).toThrow('crash mid-step');
    expect(mirror.catalog.organizations()).toEqual([]);
    mirror.close();
  });
});
