/**
 * Search and history benchmark (issue 13).
 *
 * Search: 20,000 pages of ~3 KB and 5,000 comments, words drawn from a Zipf distribution over
 * a 20,000-word vocabulary (a few very common words, a long tail, as in real prose). Measures
 * what keeping the index current costs per page (the figure the sync engine adds to a pull),
 * and the median time of queries of every kind: common, mid-frequency and rare words, prefixes,
 * phrases, two words, one space, comments only.
 *
 * History: a 2,000-page space of ~3 KB pages after 10 versions of every page (each version
 * rewrites a paragraph, adds a sentence or changes a few words); the history tables' size
 * on disk against the size of the pages' text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Mirror } from '../../src/main/core/mirror';
import { mulberry32 } from '../helpers/random';

const PAGES = 20_000;
const COMMENTS = 5_000;
const SPACES = 4;
const BYTES_PER_PAGE = 3000;
const VOCABULARY = 20_000;
const QUERY_RUNS = 15;
const HISTORY_PAGES = 2000;
const HISTORY_VERSIONS = 10;

/** Pronounceable made-up words, rank 0 the most frequent; Zipf sampling over them. */
function vocabulary(random: () => number) {
  const syllables = ['ka', 'lo', 'mi', 'ter', 'san', 'vel', 'dor', 'pri', 'nu', 'gas', 'ble', 'rox', 'fen', 'tu', 'wim', 'zar', 'cho', 'ly', 'quen', 'bar'];
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < VOCABULARY) {
    const n = 1 + Math.floor(random() * 3) + (words.length > 200 ? 1 : 0);
    let w = '';
    for (let i = 0; i < n; i++) w += syllables[Math.floor(random() * syllables.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let r = 1; r <= VOCABULARY; r++) {
    total += 1 / r;
    cumulative.push(total);
  }
  const draw = (): string => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  return { words, draw };
}

function sentence(draw: () => string, random: () => number): string {
  const n = 6 + Math.floor(random() * 12);
  const ws = Array.from({ length: n }, draw);
  ws[0] = ws[0]!.charAt(0).toUpperCase() + ws[0]!.slice(1);
  return `${ws.join(' ')}.`;
}

function paragraphs(draw: () => string, random: () => number, bytes: number): string[] {
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const p = Array.from({ length: 2 + Math.floor(random() * 3) }, () => sentence(draw, random)).join(' ');
    out.push(p);
    size += p.length + 2;
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => Number(x.toFixed(2));

export async function benchFind(): Promise<Record<string, string | number>> {
  const random = mulberry32(13);
  const { words, draw } = vocabulary(random);
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-find-'));
  const mirror = Mirror.open(dir);
  const figures: Record<string, string | number> = {};
  try {
    // ---- keeping the index current -------------------------------------------------------
    const bodies: string[] = [];
    let textBytes = 0;
    let started = performance.now();
    for (let batch = 0; batch < PAGES; batch += 250) {
      mirror.transaction(() => {
        for (let i = batch; i < Math.min(PAGES, batch + 250); i++) {
          const body = paragraphs(draw, random, BYTES_PER_PAGE).join('\n\n');
          bodies.push(body);
          textBytes += body.length;
          mirror.search.indexPage({
            spaceId: `space-${i % SPACES}`,
            key: `page-${i}`,
            path: `section-${i % 97}/page-${i}.md`,
            title: `${draw()} ${draw()} ${i}`,
            description: '',
            body,
          });
        }
      });
    }
    const firstIndexUs = ((performance.now() - started) * 1000) / PAGES;
    // A pull that changed 2,000 pages: each gets a new paragraph.
    started = performance.now();
    mirror.transaction(() => {
      for (let i = 0; i < 2000; i++) {
        const n = (i * 10) % PAGES;
        const body = `${bodies[n]}\n\n${sentence(draw, random)}`;
        mirror.search.indexPage({
          spaceId: `space-${n % SPACES}`,
          key: `page-${n}`,
          path: `section-${n % 97}/page-${n}.md`,
          title: `t ${n}`,
          description: '',
          body,
        });
      }
    });
    const changedUs = ((performance.now() - started) * 1000) / 2000;
    // A scan that touches 2,000 unchanged pages (same text, same path): no re-indexing.
    started = performance.now();
    mirror.transaction(() => {
      for (let i = 1; i < 4000; i += 2) {
        mirror.search.indexPage({
          spaceId: `space-${i % SPACES}`,
          key: `page-${i}`,
          path: `section-${i % 97}/page-${i}.md`,
          title: '',
          description: '',
          body: bodies[i]!,
        });
        mirror.search.indexPage({
          spaceId: `space-${i % SPACES}`,
          key: `page-${i}`,
          path: `section-${i % 97}/page-${i}.md`,
          title: '',
          description: '',
          body: bodies[i]!,
        });
      }
    });
    const unchangedUs = ((performance.now() - started) * 1000) / 4000;
    started = performance.now();
    mirror.transaction(() => {
      for (let i = 0; i < COMMENTS; i++) {
        const spaceId = `space-${i % SPACES}`;
        mirror.search.indexComment({
          id: `comment-${i}`,
          spaceId,
          author: `Reviewer ${i % 40}`,
          body: sentence(draw, random) + (i % 3 ? ` ${sentence(draw, random)}` : ''),
        });
      }
    });
    const commentUs = ((performance.now() - started) * 1000) / COMMENTS;
    figures['index: first index of a page (3 KB)'] = `${ms(firstIndexUs / 1000)} ms`;
    figures['index: a changed page (pull/scan)'] = `${ms(changedUs / 1000)} ms`;
    figures['index: an unchanged page (no-op)'] = `${ms(unchangedUs / 1000)} ms`;
    figures['index: a comment'] = `${ms(commentUs / 1000)} ms`;
    figures['index: pages / comments / text'] = `${PAGES} / ${COMMENTS} / ${(textBytes / 1e6).toFixed(0)} MB`;

    // ---- queries ---------------------------------------------------------------------------
    const band = (from: number, to: number) => words.slice(from, to);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const queries: { kind: string; make: () => [string, { spaceId?: string; kinds?: ('page' | 'comment' | 'reply')[] }?] }[] = [
      { kind: 'common word (rank 20-100)', make: () => [pick(band(20, 100))] },
      { kind: 'mid word (rank 500-2000)', make: () => [pick(band(500, 2000))] },
      { kind: 'rare word (rank 5000-20000)', make: () => [pick(band(5000, 20000))] },
      { kind: 'prefix (3 letters*)', make: () => [`${pick(band(200, 5000)).slice(0, 3)}*`] },
      { kind: 'two mid words', make: () => [`${pick(band(300, 3000))} ${pick(band(300, 3000))}`] },
      {
        kind: 'phrase (two words from a page)',
        make: () => {
          const ws = bodies[Math.floor(random() * PAGES)]!.split(/\W+/).filter(Boolean);
          const at = Math.floor(random() * (ws.length - 2));
          return [`"${ws[at]} ${ws[at + 1]}"`];
        },
      },
      { kind: 'mid word, one space', make: () => [pick(band(500, 2000)), { spaceId: 'space-1' }] },
      { kind: 'mid word, comments only', make: () => [pick(band(500, 2000)), { kinds: ['comment', 'reply'] }] },
    ];
    const all: number[] = [];
    for (const q of queries) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) mirror.search.search(...q.make()); // warm the statement cache
      for (let i = 0; i < QUERY_RUNS; i++) {
        const [text, options] = q.make();
        const t = performance.now();
        mirror.search.search(text, { limit: 20, ...options });
        times.push(performance.now() - t);
      }
      all.push(...times);
      figures[`search: ${q.kind}`] = `${ms(median(times))} ms median, ${ms(Math.max(...times))} ms max`;
    }
    figures['search: all queries (target < 30 ms median)'] = `${ms(median(all))} ms median over ${all.length}`;
  } finally {
    mirror.close();
    const db = new Database(join(dir, '.quire', 'mirror.db'), { readonly: true });
    const size = db.prepare(`SELECT SUM(pgsize) AS n FROM dbstat WHERE name LIKE 'search%'`).get() as { n: number };
    db.close();
    figures['search: index + text on disk'] = `${(size.n / 1e6).toFixed(0)} MB`;
    rmSync(dir, { recursive: true, force: true });
  }
  return { ...figures, ...(await benchHistory()) };
}

async function benchHistory(): Promise<Record<string, string | number>> {
  const random = mulberry32(29);
  const { draw } = vocabulary(random);
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-history-'));
  const mirror = Mirror.open(dir);
  try {
    const pages = Array.from({ length: HISTORY_PAGES }, () => paragraphs(draw, random, BYTES_PER_PAGE));
    const render = (i: number) => `# Page ${i}\n\n${pages[i]!.join('\n\n')}\n`;
    let at = Date.now() - 30 * 86_400_000;
    let recorded = 0;
    let recordMs = 0;
    for (let v = 0; v < HISTORY_VERSIONS; v++) {
      if (v > 0) {
        for (const ps of pages) {
          const roll = random();
          const k = Math.floor(random() * ps.length);
          if (roll < 0.4) ps[k] = paragraphs(draw, random, 200).join(' ');
          else if (roll < 0.7) ps.push(sentence(draw, random));
          else ps[k] = ps[k]!.replace(/\b\w+\b/, draw()).replace(/ \w+\./, ` ${draw()}.`);
        }
      }
      const started = performance.now();
      mirror.transaction(() => {
        for (let i = 0; i < HISTORY_PAGES; i++) {
          at += 1000;
          const version = mirror.history.record({
            spaceId: 's1',
            pageId: `page-${i}`,
            path: `page-${i}.md`,
            title: `Page ${i}`,
            text: render(i),
            reason: v % 3 === 1 ? 'pushed' : 'pulled',
            at: new Date(at).toISOString(),
          });
          if (version) recorded++;
        }
      });
      recordMs += performance.now() - started;
    }
    const textBytes = pages.reduce((n, _, i) => n + Buffer.byteLength(render(i)), 0);
    const stats = mirror.history.stats();
    mirror.close();
    const db = new Database(join(dir, '.quire', 'mirror.db'), { readonly: true });
    const onDisk = (
      db.prepare(`SELECT SUM(pgsize) AS n FROM dbstat WHERE name LIKE 'history%' OR name LIKE 'sqlite_autoindex_history%'`).get() as { n: number }
    ).n;
    db.close();
    return {
      'history: pages x versions': `${HISTORY_PAGES} x ${HISTORY_VERSIONS} (${recorded} recorded)`,
      'history: record one version': `${ms(recordMs / recorded)} ms`,
      "history: the pages' text (latest versions)": `${(textBytes / 1e6).toFixed(2)} MB`,
      'history: all versions, uncompressed': `${(stats.textBytes / 1e6).toFixed(2)} MB`,
      'history: stored (compressed texts)': `${(stats.storedBytes / 1e6).toFixed(2)} MB`,
      'history: tables and indexes on disk': `${(onDisk / 1e6).toFixed(2)} MB`,
      "history: on disk / pages' text (target < 3x)": `${(onDisk / textBytes).toFixed(2)}x`,
    };
  } finally {
    if (mirror) mirror.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
