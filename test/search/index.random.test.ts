/**
 * The search index against a brute-force search over the same texts: random edits, pulls,
 * new files, pages getting their ids, moves, deletes, and comments and replies coming and
 * going, all driven through the store's methods as the engine and the review store call
 * them. After every step, random queries (words, prefixes, phrases, across spaces and kinds)
 * must find exactly what the brute force finds, each with its current path and title.
 *
 * Fixed seed per run (printed); replay a failure with QUIRE_SEARCH_SEED=<seed>.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Mirror, type SearchHit, type SearchKind } from '../../src/main/core/mirror';

const SEED = Number(process.env.QUIRE_SEARCH_SEED ?? 20261124);
const RUNS = Number(process.env.QUIRE_SEARCH_RUNS ?? 60);

/** Words with and without diacritics, and words sharing prefixes, so queries collide often. */
const WORDS = ['café', 'cafe', 'naïve', 'install', 'installer', 'installation', 'config', 'résumé', 'resume', 'alpha', 'beta', 'Ärger', 'über', 'setup'];
const SPACES = ['s1', 's2'];
const AUTHORS = ['Zoë', 'Ann Lee', 'Émile'];

interface Doc {
  kind: SearchKind;
  spaceId: string;
  key: string;
  path: string | null;
  commentId: string | null;
  fields: string[];
}

/** What unicode61 with remove_diacritics 2 makes of a text: lower-case ASCII-folded tokens. */
function tokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

type Term = { word: string; prefix: boolean } | { phrase: string[] };

function fieldMatches(field: string[], term: Term): boolean {
  if ('phrase' in term) {
    for (let i = 0; i + term.phrase.length <= field.length; i++) if (term.phrase.every((w, j) => field[i + j] === w)) return true;
    return false;
  }
  return field.some((t) => (term.prefix ? t.startsWith(term.word) : t === term.word));
}

function bruteForce(docs: Iterable<Doc>, terms: Term[], spaceId: string | undefined, kinds: SearchKind[]): Set<string> {
  const out = new Set<string>();
  for (const d of docs) {
    if (spaceId !== undefined && d.spaceId !== spaceId) continue;
    if (!kinds.includes(d.kind)) continue;
    const fields = d.fields.map(tokens);
    if (terms.every((t) => fields.some((f) => fieldMatches(f, t)))) out.add(idOf(d.kind, d.spaceId, d.key));
  }
  return out;
}

const idOf = (kind: SearchKind, spaceId: string, key: string) => `${kind}|${spaceId}|${key}`;
const hitId = (h: SearchHit) => (h.kind === 'page' ? idOf('page', h.spaceId, h.key) : idOf(h.kind, h.spaceId, h.id));

const text = fc.array(fc.constantFrom(...WORDS, 'the', 'and', '—', '**bold**'), { minLength: 0, maxLength: 12 }).map((ws) => ws.join(' '));
const pageIndex = fc.nat({ max: 11 });
const arbOp = fc.oneof(
  fc.record({ op: fc.constant('edit' as const), page: pageIndex, title: text, description: text, body: text }),
  fc.record({ op: fc.constant('pull' as const), pages: fc.array(fc.tuple(pageIndex, text), { minLength: 1, maxLength: 5 }) }),
  fc.record({ op: fc.constant('new-file' as const), space: fc.constantFrom(...SPACES), name: fc.nat({ max: 5 }), body: text }),
  fc.record({ op: fc.constant('gets-id' as const), which: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), page: pageIndex, to: fc.nat({ max: 5 }) }),
  fc.record({ op: fc.constant('delete' as const), page: pageIndex }),
  fc.record({ op: fc.constant('comment' as const), n: fc.nat({ max: 3 }), space: fc.constantFrom(...SPACES), author: fc.constantFrom(...AUTHORS), body: text }),
  fc.record({ op: fc.constant('reply' as const), n: fc.nat({ max: 4 }), comment: fc.nat({ max: 3 }), author: fc.constantFrom(...AUTHORS), body: text }),
  fc.record({ op: fc.constant('remove-comment' as const), n: fc.nat({ max: 3 }) }),
  fc.record({ op: fc.constant('remove-reply' as const), n: fc.nat({ max: 4 }) }),
);
const arbQuery = fc.record({
  terms: fc.array(
    fc.oneof(
      fc.record({ word: fc.constantFrom(...WORDS, 'ann', 'zoe', 'emile'), prefix: fc.boolean() }),
      fc.record({ phrase: fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 2 }) }),
    ),
    { minLength: 1, maxLength: 2 },
  ),
  space: fc.option(fc.constantFrom(...SPACES), { nil: undefined }),
  kinds: fc.subarray<SearchKind>(['page', 'comment', 'reply'], { minLength: 1 }),
  // How the query is typed: accents and capitals must not matter.
  spelling: fc.constantFrom('as-is' as const, 'upper' as const, 'folded' as const),
});

function typed(word: string, spelling: 'as-is' | 'upper' | 'folded'): string {
  if (spelling === 'upper') return word.toUpperCase();
  if (spelling === 'folded') return tokens(word).join(' ');
  return word;
}

describe('search index over random changes, against brute force', () => {
  it(`finds exactly what a brute-force search over the same texts finds (seed ${SEED})`, () => {
    console.log(`search random test: seed ${SEED}, ${RUNS} runs (replay with QUIRE_SEARCH_SEED=${SEED})`);
    fc.assert(
      fc.property(fc.array(fc.tuple(arbOp, fc.array(arbQuery, { minLength: 1, maxLength: 3 })), { minLength: 5, maxLength: 40 }), (steps) => {
        const dir = mkdtempSync(join(tmpdir(), 'quire-search-random-'));
        const mirror = Mirror.open(dir);
        try {
          const docs = new Map<string, Doc>();
          const put = (d: Doc) => docs.set(idOf(d.kind, d.spaceId, d.key), d);
          // Twelve synced pages, two spaces.
          const pageSpace = (i: number) => SPACES[i % 2]!;
          const pagePath = new Map<number, string>();
          for (let i = 0; i < 12; i++) {
            const entry = {
              spaceId: pageSpace(i),
              key: `p${i}`,
              path: `page-${i}.md`,
              title: WORDS[i]!,
              description: '',
              body: `${WORDS[(i + 3) % WORDS.length]} text`,
            };
            mirror.search.indexPage(entry);
            pagePath.set(i, entry.path);
            put({ kind: 'page', spaceId: entry.spaceId, key: entry.key, path: entry.path, commentId: null, fields: [entry.title, '', entry.body, ''] });
          }
          let idCounter = 100;
          const indexPageDoc = (spaceId: string, key: string, path: string, title: string, description: string, body: string) => {
            mirror.search.indexPage({ spaceId, key, path, title, description, body });
            put({ kind: 'page', spaceId, key, path, commentId: null, fields: [title, description, body, ''] });
          };
          for (const [op, queries] of steps) {
            switch (op.op) {
              case 'edit': {
                const d = docs.get(idOf('page', pageSpace(op.page), `p${op.page}`));
                if (d) indexPageDoc(d.spaceId, d.key, d.path!, op.title, op.description, op.body);
                break;
              }
              case 'pull':
                mirror.transaction(() => {
                  for (const [i, body] of op.pages) {
                    const d = docs.get(idOf('page', pageSpace(i), `p${i}`));
                    if (d) indexPageDoc(d.spaceId, d.key, d.path!, d.fields[0]!, d.fields[1]!, body);
                  }
                });
                break;
              case 'new-file': {
                const path = `new-${op.name}.md`;
                indexPageDoc(op.space, `new:${path}`, path, '', '', op.body);
                break;
              }
              case 'gets-id': {
                const fresh = [...docs.values()].filter((d) => d.kind === 'page' && d.key.startsWith('new:'));
                const d = fresh[op.which % Math.max(1, fresh.length)];
                if (!d) break;
                const id = `p${idCounter++}`;
                mirror.search.renamePage(d.spaceId, d.key, id);
                docs.delete(idOf('page', d.spaceId, d.key));
                put({ ...d, key: id });
                break;
              }
              case 'move': {
                const d = docs.get(idOf('page', pageSpace(op.page), `p${op.page}`));
                if (!d) break;
                const path = `moved-${op.to}/page-${op.page}.md`;
                indexPageDoc(d.spaceId, d.key, path, d.fields[0]!, d.fields[1]!, d.fields[2]!);
                break;
              }
              case 'delete':
                mirror.search.removePage(pageSpace(op.page), `p${op.page}`);
                docs.delete(idOf('page', pageSpace(op.page), `p${op.page}`));
                break;
              case 'comment': {
                const id = `c${op.n}`;
                const existing = [...docs.values()].find((d) => d.kind === 'comment' && d.key === id);
                const spaceId = existing?.spaceId ?? op.space;
                mirror.search.indexComment({ id, spaceId, author: op.author, body: op.body });
                put({ kind: 'comment', spaceId, key: id, path: null, commentId: id, fields: ['', '', op.body, op.author] });
                break;
              }
              case 'reply': {
                const comment = [...docs.values()].find((d) => d.kind === 'comment' && d.key === `c${op.comment}`);
                const id = `r${op.n}`;
                const existing = [...docs.values()].find((d) => d.kind === 'reply' && d.key === id);
                if (!comment || (existing && existing.commentId !== comment.key)) break;
                mirror.search.indexReply({ id, commentId: comment.key, spaceId: comment.spaceId, author: op.author, body: op.body });
                put({ kind: 'reply', spaceId: comment.spaceId, key: id, path: null, commentId: comment.key, fields: ['', '', op.body, op.author] });
                break;
              }
              case 'remove-comment':
                mirror.search.removeComment(`c${op.n}`);
                for (const [k, d] of docs) if (d.kind !== 'page' && d.commentId === `c${op.n}`) docs.delete(k);
                break;
              case 'remove-reply':
                mirror.search.removeReply(`r${op.n}`);
                for (const [k, d] of docs) if (d.kind === 'reply' && d.key === `r${op.n}`) docs.delete(k);
                break;
            }
            for (const q of queries) {
              const typedQuery = q.terms
                .map((t) => ('phrase' in t ? `"${t.phrase.map((w) => typed(w, q.spelling)).join(' ')}"` : `${typed(t.word, q.spelling)}${t.prefix ? '*' : ''}`))
                .join(' ');
              const terms: Term[] = q.terms.map((t) =>
                'phrase' in t ? { phrase: t.phrase.flatMap(tokens) } : { word: tokens(t.word).join(''), prefix: t.prefix },
              );
              const hits = mirror.search.search(typedQuery, { spaceId: q.space, kinds: q.kinds, limit: 200 });
              const context = `query ${JSON.stringify(typedQuery)} space ${q.space ?? 'any'} kinds ${q.kinds.join(',')}`;
              expect(new Set(hits.map(hitId)), context).toEqual(bruteForce(docs.values(), terms, q.space, q.kinds));
              for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
              for (const h of hits) {
                const d = docs.get(hitId(h))!;
                if (h.kind === 'page') {
                  expect(h.path).toBe(d.path);
                  expect(h.title).toBe(d.fields[0]);
                  expect(h.pageId).toBe(d.key.startsWith('new:') ? null : d.key);
                } else {
                  expect(h.commentId).toBe(d.commentId);
                  expect(h.author).toBe(d.fields[3]);
                }
              }
            }
          }
          // What the engine reconciles the folder against: every page's key and where its file is.
          for (const spaceId of SPACES) {
            const pages = [...docs.values()].filter((d) => d.kind === 'page' && d.spaceId === spaceId).map((d) => [d.key, d.path]);
            expect(mirror.search.indexedPages(spaceId)).toEqual(new Map(pages as [string, string][]));
          }
          expectIndexIntact(dir);
        } finally {
          mirror.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

/** FTS5's own check that the index matches the text it indexes. */
function expectIndexIntact(dir: string): void {
  const db = new Database(join(dir, '.quire', 'mirror.db'));
  try {
    expect(() => db.prepare(`INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)`).run()).not.toThrow();
  } finally {
    db.close();
  }
}
