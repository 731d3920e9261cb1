/**
 * Another program holding the mirror's write lock: a write waits for it (5 s), and what is written
 * after such a write failed — the failure's own record — does not wait again, so the failure is
 * said after one wait, not one per record. Each write here is timed against a bound far from both
 * sides: at once (well under 2.5 s) or after the wait (at least 4.5 s).
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { isOtherWriter, Mirror } from '../../src/main/core/mirror';
import { recordAttemptFailed } from '../../src/main/core/sync';

const AT = '2026-05-01T10:00:00.000Z';
/** Half the busy timeout: a write that returns sooner did not wait for the other program. */
const AT_ONCE_MS = 2_500;

let mirror: Mirror;
let release: (() => void) | undefined;
afterEach(() => {
  release?.();
  release = undefined;
  mirror?.close();
});

function openWithSpace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-other-writer-'));
  mirror = Mirror.open(dir);
  mirror.catalog.upsertOrganization({ id: 'org', title: 'Acme' }, {}, AT);
  mirror.catalog.upsertSpace({ id: 'space', organization: 'org', title: 'Guide', revision: 'r1' }, {});
  return dir;
}

/** A second connection in the middle of a write, as another program would be. */
function holdWrite(dir: string): void {
  const db = new Database(join(dir, '.quire/mirror.db'));
  db.exec('BEGIN IMMEDIATE');
  release = () => {
    db.exec('ROLLBACK');
    db.close();
  };
}

/** How long `fn` took, and what it threw (undefined if nothing). */
function timed(fn: () => void): { ms: number; thrown: unknown } {
  const start = performance.now();
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  return { ms: performance.now() - start, thrown };
}

it('without waiting, a write fails at once as another writer; the writes after it wait again, and get through once that program is done', () => {
  const dir = openWithSpace();
  holdWrite(dir);
  const write = () => mirror.transaction(() => mirror.catalog.markReached('space', AT));

  const atOnce = timed(() => mirror.withoutWaiting(write));
  expect(isOtherWriter(atOnce.thrown)).toBe(true);
  expect(atOnce.ms).toBeLessThan(AT_ONCE_MS);

  const waited = timed(write);
  expect(isOtherWriter(waited.thrown)).toBe(true);
  expect(waited.ms).toBeGreaterThanOrEqual(4_500);

  release!();
  release = undefined;
  expect(timed(write).thrown).toBeUndefined();
  expect(mirror.catalog.space('space')?.reachedAt).toBe(AT);
}, 20_000);

it('a failed attempt is recorded at once when another program stopped it, and recorded once that program is done', () => {
  const dir = openWithSpace();
  holdWrite(dir);
  const busy = timed(() => mirror.withoutWaiting(() => mirror.transaction(() => mirror.catalog.markReached('space', AT)))).thrown;
  expect(isOtherWriter(busy)).toBe(true);

  const recording = timed(() => recordAttemptFailed(mirror, ['space'], busy, AT));
  expect(recording.thrown).toBeUndefined(); // the mirror could not be written: the failure itself says so
  expect(recording.ms).toBeLessThan(AT_ONCE_MS);
  expect(mirror.catalog.space('space')?.failedAt).toBeNull();

  release!();
  release = undefined;
  recordAttemptFailed(mirror, ['space'], busy, AT);
  expect(mirror.catalog.space('space')?.failedAt).toBe(AT);
}, 20_000);
