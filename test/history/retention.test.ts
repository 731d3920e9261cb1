/**
 * Retention keeps what it promises: every version younger than the retention's days, and
 * the latest `minVersions` of each page however old; nothing else once `prune` has come
 * round; every kept version still reads back; no text is kept that no version needs.
 * Random pages, times and settings; replay a failure with QUIRE_HISTORY_SEED=<seed>.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, Mirror, type Retention } from '../../src/main/core/mirror';

const SEED = Number(process.env.QUIRE_HISTORY_SEED ?? 20261124);
const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-24T12:00:00Z');

interface Written {
  page: string;
  number: number;
  at: number;
  text: string;
}

function expectKept(mirror: Mirror, written: Written[], retention: Retention, now: number): void {
  const byPage = new Map<string, Written[]>();
  for (const w of written) byPage.set(w.page, [...(byPage.get(w.page) ?? []), w]);
  for (const [page, versions] of byPage) {
    const newestFirst = [...versions].sort((a, b) => b.number - a.number);
    const kept = new Set(newestFirst.filter((v, i) => i < retention.minVersions || v.at >= now - retention.days * DAY).map((v) => v.number));
    expect(
      mirror.history.versions('s1', page).map((v) => v.number),
      page,
    ).toEqual(newestFirst.filter((v) => kept.has(v.number)).map((v) => v.number));
    for (const v of newestFirst) if (kept.has(v.number)) expect(mirror.history.text('s1', page, v.number)).toBe(v.text);
  }
}

/** Every stored text is a kept version's, or the keyframe one of those is stored against. */
function expectNoOrphanTexts(dir: string): void {
  const db = new Database(join(dir, '.quire', 'mirror.db'), { readonly: true });
  try {
    const orphans = db
      .prepare(
        `SELECT id FROM history_blobs b WHERE NOT EXISTS (SELECT 1 FROM history_versions v WHERE v.blob = b.id)
           AND NOT EXISTS (SELECT 1 FROM history_blobs d JOIN history_versions v ON v.blob = d.id WHERE d.base = b.id)`,
      )
      .all();
    expect(orphans).toEqual([]);
  } finally {
    db.close();
  }
}

describe('history retention', () => {
  it(`keeps the last days and the last versions of every page, and drops the rest (seed ${SEED})`, () => {
    console.log(`history retention test: seed ${SEED} (replay with QUIRE_HISTORY_SEED=${SEED})`);
    fc.assert(
      fc.property(
        fc.record({ days: fc.integer({ min: 0, max: 120 }), minVersions: fc.integer({ min: 1, max: 8 }) }).chain((retention) =>
          fc.tuple(
            fc.constant(retention),
            // Hours ago: anywhere, or right at the retention's edge.
            fc.array(
              fc.tuple(
                fc.constantFrom('a', 'b', 'c', 'd'),
                fc.oneof(fc.integer({ min: 0, max: 200 * 24 }), fc.integer({ min: Math.max(0, retention.days * 24 - 2), max: retention.days * 24 + 2 })),
                fc.nat({ max: 6 }),
              ),
              { minLength: 1, maxLength: 60 },
            ),
          ),
        ),
        fc.integer({ min: 1, max: 3 }),
        ([retention, events], step) => {
          const dir = mkdtempSync(join(tmpdir(), 'quire-retention-'));
          const mirror = Mirror.open(dir);
          try {
            mirror.history.setRetention(retention);
            // Times only move forward, as a sync folder's do: hours ago, oldest first.
            const sorted = [...events].sort((x, y) => y[1] - x[1]);
            const written: Written[] = [];
            let n = 0;
            for (const [page, hoursAgo, variant] of sorted) {
              const at = NOW - hoursAgo * HOUR + n++;
              const text = `# ${page}\n\n${'Shared paragraph. '.repeat(20)}\n\nVariant ${variant} at ${n}.\n`;
              const v = mirror.history.record({
                spaceId: 's1',
                pageId: page,
                path: `${page}.md`,
                title: page,
                text,
                reason: 'pulled',
                at: new Date(at).toISOString(),
              });
              if (v) written.push({ page, number: v.number, at, text });
            }
            // Recording enforced retention on each page as of its own last write; prune applies it as of now.
            for (let guard = 0; !mirror.history.prune(undefined, { pages: step, now: NOW }).complete; guard++) expect(guard).toBeLessThan(10);
            expectKept(mirror, written, retention, NOW);
            expectNoOrphanTexts(dir);
          } finally {
            mirror.close();
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { seed: SEED, numRuns: 80, endOnFailure: true },
    );
  });

  it('defaults to 90 days and 20 versions, is set per folder, and refuses nonsense', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-retention-'));
    let mirror = Mirror.open(dir);
    try {
      expect(mirror.history.retention()).toEqual(DEFAULT_RETENTION);
      expect(DEFAULT_RETENTION).toEqual({ days: 90, minVersions: 20 });
      mirror.history.setRetention({ days: 30, minVersions: 5 });
      expect(() => mirror.history.setRetention({ days: -1, minVersions: 5 })).toThrow(/days must be a whole number of 0 or more/);
      expect(() => mirror.history.setRetention({ days: 3, minVersions: 0 })).toThrow(/versions kept per page must be a whole number of 1 or more/);
      mirror.close();
      mirror = Mirror.open(dir);
      expect(mirror.history.retention()).toEqual({ days: 30, minVersions: 5 });
    } finally {
      mirror.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
