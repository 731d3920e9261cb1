/**
 * The history store: what `record` keeps and skips, that every version reads back exactly,
 * that similar versions cost little, a new page's history following it to its id, and
 * lookups by path for deleted pages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HistoryRecord, Mirror } from '../../src/main/core/mirror';

const SEED = Number(process.env.QUIRE_HISTORY_SEED ?? 20261124);

let dir: string;
let mirror: Mirror;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-history-'));
  mirror = Mirror.open(dir);
});
afterEach(() => {
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

let clock = Date.parse('2026-11-01T10:00:00Z');
function tick(): string {
  clock += 60_000;
  return new Date(clock).toISOString();
}
const rec = (text: string, patch: Partial<HistoryRecord> = {}) =>
  mirror.history.record({ spaceId: 's1', pageId: 'p1', path: 'guide/install.md', title: 'Install', text, reason: 'pulled', at: tick(), ...patch });
const reasons = (key = 'p1') => mirror.history.versions('s1', key).map((v) => `${v.number}:${v.reason}`);

describe('recording versions', () => {
  it('numbers a page’s versions and keeps when, why and where', () => {
    rec('# Install\n\nOne.\n');
    rec('# Install\n\nTwo.\n', { reason: 'pushed', detail: 'change request #12' });
    const [latest, first] = mirror.history.versions('s1', 'p1');
    expect(latest).toMatchObject({ number: 2, reason: 'pushed', detail: 'change request #12', path: 'guide/install.md', title: 'Install', size: 16 });
    expect(first).toMatchObject({ number: 1, reason: 'pulled', detail: null });
    expect(mirror.history.text('s1', 'p1', 1)).toBe('# Install\n\nOne.\n');
    expect(mirror.history.page('s1', 'p1')).toMatchObject({ versions: 2, lastNumber: 2, lastReason: 'pushed', deleted: false });
  });

  it('does not record the latest text again as local or pulled, nor under the same reason', () => {
    rec('A\n');
    expect(rec('A\n', { reason: 'local' })).toBeNull();
    expect(rec('A\n', { reason: 'pulled' })).toBeNull();
    expect(rec('A\n', { reason: 'pushed' })?.number).toBe(2); // something new happened to it
    expect(rec('A\n', { reason: 'pushed' })).toBeNull();
    expect(rec('A\n', { reason: 'deleted-locally' })?.number).toBe(3);
    expect(rec('A\n', { reason: 'pulled' })?.number).toBe(4); // back after a deletion
    expect(reasons()).toEqual(['4:pulled', '3:deleted-locally', '2:pushed', '1:pulled']);
  });

  it('records the latest text again when an older one came between', () => {
    rec('A\n');
    rec('B\n', { reason: 'local' });
    expect(rec('A\n', { reason: 'restored', detail: 'version 1' })?.number).toBe(3);
    expect(mirror.history.stats().texts).toBe(2); // one copy of each text
  });

  it('refuses an unknown reason or a bad time, saying what it wants', () => {
    expect(() => rec('x', { reason: 'lost' as never })).toThrow(/Unknown history reason "lost": use one of pulled, pushed/);
    expect(() => rec('x', { at: 'yesterday' })).toThrow(/ISO date/);
    expect(mirror.history.versions('s1', 'p1')).toEqual([]);
  });

  it('reads every version back exactly, whatever the texts', () => {
    const arbText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.constant(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), arbText), { minLength: 1, maxLength: 25 }), (steps) => {
        const space = `s-${clock}`;
        const written = new Map<string, string[]>();
        for (const [page, text] of steps) {
          const v = mirror.history.record({ spaceId: space, pageId: page, path: `${page}.md`, title: page, text, reason: 'merged', at: tick() });
          if (v) written.set(`${page}#${v.number}`, [page, text]);
        }
        for (const [id, [page, text]] of written) expect(mirror.history.text(space, page!, Number(id.split('#')[1])), id).toBe(text);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('stores ten similar versions of a page in little more than one', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet, '.repeat(3)}${i * 7919}.`);
    let text = '';
    for (let v = 0; v < 10; v++) {
      paragraphs[(v * 13) % paragraphs.length] = `Paragraph rewritten in version ${v}, with new words ${v * 104729}.`;
      text = `# Page\n\n${paragraphs.join('\n\n')}\n`;
      rec(text, { reason: v % 2 ? 'pushed' : 'pulled' });
    }
    const stats = mirror.history.stats();
    const whole = mirror.history.versions('s1', 'p1').reduce((n, v) => n + v.size, 0);
    expect(stats.versions).toBe(10);
    expect(stats.storedBytes).toBeLessThan(text.length / 2); // all ten, deflated against each other
    expect(stats.storedBytes).toBeLessThan(whole / 20);
    for (const v of mirror.history.versions('s1', 'p1')) expect(mirror.history.text('s1', 'p1', v.number)).toMatch(/^# Page\n\nParagraph/);
  });
});

describe('a new page getting its id', () => {
  it('takes its history under new:<path> along', () => {
    mirror.history.record({ spaceId: 's1', pageId: 'new:notes.md', path: 'notes.md', title: 'Notes', text: 'draft\n', reason: 'local', at: tick() });
    mirror.history.record({ spaceId: 's1', pageId: 'new:notes.md', path: 'notes.md', title: 'Notes', text: 'final\n', reason: 'pushed', at: tick() });
    mirror.history.renameKey('s1', 'new:notes.md', 'p9');
    expect(reasons('p9')).toEqual(['2:pushed', '1:local']);
    expect(mirror.history.versions('s1', 'new:notes.md')).toEqual([]);
    expect(mirror.history.text('s1', 'p9', 1)).toBe('draft\n');
    expect(mirror.history.page('s1', 'p9')).toMatchObject({ lastNumber: 2, path: 'notes.md' });
  });

  it('numbers it after any versions the id already had', () => {
    mirror.history.record({ spaceId: 's1', pageId: 'p9', path: 'old.md', title: 'Old', text: 'old\n', reason: 'pulled', at: tick() });
    mirror.history.record({ spaceId: 's1', pageId: 'new:notes.md', path: 'notes.md', title: 'Notes', text: 'new\n', reason: 'local', at: tick() });
    mirror.history.renameKey('s1', 'new:notes.md', 'p9');
    expect(reasons('p9')).toEqual(['2:local', '1:pulled']);
    expect(mirror.history.page('s1', 'p9')).toMatchObject({ lastNumber: 2, path: 'notes.md', title: 'Notes' });
    rec('next\n', { pageId: 'p9' });
    expect(reasons('p9')[0]).toBe('3:pulled');
  });
});

describe('finding pages', () => {
  it('finds a deleted page by the path it had, and lists pages newest first', () => {
    rec('A\n');
    rec('A\n', { reason: 'deleted-remotely' });
    mirror.history.record({ spaceId: 's1', pageId: 'p2', path: 'faq.md', title: 'FAQ', text: 'Q\n', reason: 'pulled', at: tick() });
    expect(mirror.history.keyAtPath('s1', 'guide/install.md')).toBe('p1');
    expect(mirror.history.keyAtPath('s1', 'nowhere.md')).toBeUndefined();
    expect(mirror.history.pages().map((p) => [p.pageKey, p.deleted])).toEqual([
      ['p2', false],
      ['p1', true],
    ]);
    expect(mirror.history.pages({ text: 'INSTALL' }).map((p) => p.pageKey)).toEqual(['p1']);
  });

  it('finds a page by a path it had before it moved', () => {
    rec('A\n');
    rec('B\n', { path: 'moved/install.md' });
    expect(mirror.history.keyAtPath('s1', 'guide/install.md')).toBe('p1');
  });
});
