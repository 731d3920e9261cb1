/**
 * The search store's query language and results: phrases, prefixes, diacritics, plain-word
 * fallback for anything FTS5 refuses, ranking, snippets, filters, and where a comment is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mirror, type SearchHit } from '../../src/main/core/mirror';
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS, plainWordsQuery, SearchQueryTooLargeError, snippetParts } from '../../src/main/core/mirror/search';
import { pageDocument, searchableMarkdown } from '../../src/main/core/search';

let dir: string;
let mirror: Mirror;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-'));
  mirror = Mirror.open(dir);
  const page = (key: string, path: string, title: string, body: string, description = '', spaceId = 's1') =>
    mirror.search.indexPage({ spaceId, key, path, title, description, body });
  page('p-install', 'getting-started/install.md', 'Installation', 'Download the installer, then run it. Configure the e-mail relay in settings.');
  page('p-cafe', 'cafe.md', 'Café menu', 'A naïve résumé of our coffee.', 'Everything about the café');
  page('new:drafts/notes.md', 'drafts/notes.md', 'Notes', 'Getting started quickly: install once, configure twice.');
  page('p-other', 'other.md', 'Elsewhere', 'Install guide for another space.', '', 's2');
});
afterEach(() => {
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

const keys = (hits: SearchHit[]) => hits.map((h) => (h.kind === 'page' ? h.key : h.id));
const marked = (h: SearchHit) => h.snippet.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('queries', () => {
  it('finds words with or without accents, in any case', () => {
    expect(keys(mirror.search.search('cafe'))).toEqual(['p-cafe']);
    expect(keys(mirror.search.search('CAFÉ'))).toEqual(['p-cafe']);
    expect(keys(mirror.search.search('naive resume'))).toEqual(['p-cafe']);
    expect(keys(mirror.search.search('naïve résumé'))).toEqual(['p-cafe']);
  });

  it('takes "a phrase" as words in that order', () => {
    expect(keys(mirror.search.search('"getting started"'))).toEqual(['new:drafts/notes.md']);
    expect(keys(mirror.search.search('"started getting"'))).toEqual([]);
  });

  it('takes word* as a prefix', () => {
    expect(new Set(keys(mirror.search.search('install*')))).toEqual(new Set(['p-install', 'new:drafts/notes.md', 'p-other']));
    expect(keys(mirror.search.search('install'))).not.toContain('p-install'); // "installer", "Installation": not the word
  });

  it('searches one space, or some kinds, when asked; the query cannot escape that', () => {
    expect(keys(mirror.search.search('install*', { spaceId: 's2' }))).toEqual(['p-other']);
    expect(keys(mirror.search.search('zzz) OR (install*', { spaceId: 's2' }))).toEqual([]);
    expect(keys(mirror.search.search('install*', { kinds: ['comment', 'reply'] }))).toEqual([]);
    // The words the filters use are not found by a person's query.
    expect(keys(mirror.search.search('kpage'))).toEqual([]);
  });

  it('understands FTS5 operators and column filters', () => {
    expect(keys(mirror.search.search('title:notes'))).toEqual(['new:drafts/notes.md']);
    expect(keys(mirror.search.search('coffee OR relay')).sort()).toEqual(['p-cafe', 'p-install']);
    expect(keys(mirror.search.search('install* NOT configure', { spaceId: 's1' }))).toEqual([]);
  });

  it('takes what FTS5 cannot parse as plain words, never as an error', () => {
    expect(keys(mirror.search.search('e-mail'))).toEqual(['p-install']);
    expect(keys(mirror.search.search('relay: e-mail'))).toEqual(['p-install']);
    for (const q of ['(', 'AND', '"unterminated', 'C++', '*', 'foo:bar', '-x', 'NEAR(', '""', '^', 'a"b']) {
      expect(() => mirror.search.search(q), q).not.toThrow();
    }
    expect(keys(mirror.search.search('"coffee'))).toEqual(['p-cafe']);
    expect(mirror.search.search('   ')).toEqual([]);
  });

  it('ranks a title match above a body match', () => {
    mirror.search.indexPage({ spaceId: 's1', key: 'p-x', path: 'x.md', title: 'Relay', description: '', body: 'Nothing else.' });
    expect(keys(mirror.search.search('relay'))).toEqual(['p-x', 'p-install']);
  });

  it('forgets a space’s pages when asked, and whether it was indexed whole', () => {
    mirror.search.markSpaceIndexed('s2');
    expect(mirror.search.spaceIndexed('s2')).toBe(true);
    mirror.search.forgetSpacePages('s2');
    expect(keys(mirror.search.search('install*'))).not.toContain('p-other');
    expect(mirror.search.spaceIndexed('s2')).toBe(false);
    expect(mirror.search.indexedPages('s1').size).toBe(3);
  });

  it('keeps to the limit', () => {
    expect(mirror.search.search('install*', { limit: 2 })).toHaveLength(2);
  });
});

describe('results', () => {
  it('give the path, the page id (none for a new file), the title and a highlighted snippet', () => {
    const [hit] = mirror.search.search('relay');
    expect(hit).toMatchObject({
      kind: 'page',
      spaceId: 's1',
      key: 'p-install',
      pageId: 'p-install',
      path: 'getting-started/install.md',
      title: 'Installation',
    });
    expect(marked(hit!)).toContain('[relay]');
    const [fresh] = mirror.search.search('quickly');
    expect(fresh).toMatchObject({ key: 'new:drafts/notes.md', pageId: null, path: 'drafts/notes.md' });
  });

  it('take the snippet from where the words are: body, else description, else title', () => {
    expect(marked(mirror.search.search('everything')[0]!)).toBe('[Everything] about the café');
    expect(marked(mirror.search.search('menu')[0]!)).toBe('Café [menu]');
  });

  it('follow a move without re-indexing, and a new page getting its id', () => {
    mirror.search.indexPage({
      spaceId: 's1',
      key: 'new:drafts/notes.md',
      path: 'notes.md',
      title: 'Notes',
      description: '',
      body: 'Getting started quickly: install once, configure twice.',
    });
    mirror.search.renamePage('s1', 'new:drafts/notes.md', 'p-notes');
    expect(mirror.search.search('quickly')[0]).toMatchObject({ key: 'p-notes', pageId: 'p-notes', path: 'notes.md' });
    mirror.search.removePage('s1', 'p-notes');
    expect(mirror.search.search('quickly')).toEqual([]);
  });

  it('say whose a comment or a reply is, and its thread', () => {
    mirror.search.indexComment({ id: 'c1', spaceId: 's1', author: 'Zoë Reviewer', body: 'Add a screenshot of the relay settings.' });
    mirror.search.indexReply({ id: 'r1', commentId: 'c1', spaceId: 's1', author: 'Bob', body: 'Screenshot added.' });
    const [comment] = mirror.search.search('zoe', { kinds: ['comment'] });
    expect(comment).toMatchObject({ kind: 'comment', id: 'c1', commentId: 'c1', author: 'Zoë Reviewer' });
    const [reply] = mirror.search.search('screenshot', { kinds: ['reply'] });
    expect(reply).toMatchObject({ kind: 'reply', id: 'r1', commentId: 'c1', author: 'Bob' });
    expect(marked(reply!)).toBe('[Screenshot] added.');
    mirror.search.removeComment('c1');
    expect(mirror.search.search('screenshot')).toEqual([]);
  });
});

describe('helpers', () => {
  it('plainWordsQuery quotes each word and keeps a trailing *', () => {
    expect(plainWordsQuery('e-mail  C++ inst* "x')).toBe('"e-mail" "C++" "inst"* "x"');
    expect(plainWordsQuery('" *')).toBe('"*"');
  });

  it('snippetParts splits at the markers and folds whitespace', () => {
    expect(snippetParts('a\n b\u0002c\u0003d')).toEqual([
      { text: 'a b', match: false },
      { text: 'c', match: true },
      { text: 'd', match: false },
    ]);
    expect(snippetParts(' \u0002x\u0003 y \n')).toEqual([
      { text: 'x', match: true },
      { text: ' y', match: false },
    ]);
  });

  it('pageDocument reads the title, the description and words of the body', () => {
    const doc = pageDocument(
      '---\ndescription: All about it\nicon: book\n---\n\n# Install\n\n{% hint style="info" %}\nSee [the guide](../guide.md "Guide") and ![logo](.gitbook/assets/logo.png).\n{% endhint %}\n',
    );
    expect(doc.title).toBe('Install');
    expect(doc.description).toBe('All about it');
    expect(doc.body).not.toMatch(/hint|style|guide\.md|assets/);
    expect(doc.body).toContain('See the guide and logo.');
    expect(pageDocument('no heading here', 'Server title').title).toBe('Server title');
    expect(pageDocument('---\n: bad: [yaml\n---\n# T\n', 'Fallback')).toEqual({ title: 'Fallback', description: '', body: expect.stringContaining('# T') });
    expect(searchableMarkdown('a <kbd>Ctrl</kbd> b')).toBe('a  Ctrl  b');
    expect(searchableMarkdown('Run:\n\n```sh\nnpm install\n```\n')).toBe('Run:\n\n\nnpm install\n\n');
  });
});

describe('a query too large to search', () => {
  it('is refused with what was too large, before SQLite sees it', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `install${i}`).join(' ');
    expect(() => mirror.search.search(words(MAX_QUERY_WORDS))).not.toThrow();
    expect(() => mirror.search.search(words(20_000))).toThrow(SearchQueryTooLargeError);
    expect(() => mirror.search.search(words(20_000))).toThrow(/is 2\d\d,\d\d\d characters long; at most 1,000 are searched/);
    // Words are what the index splits text into: one "word" of 33 hyphenated parts is 33 words.
    const hyphenated = Array.from({ length: MAX_QUERY_WORDS + 1 }, () => 'ab').join('-');
    expect(() => mirror.search.search(hyphenated)).toThrow(`The search has ${MAX_QUERY_WORDS + 1} words; at most ${MAX_QUERY_WORDS} are searched at a time.`);
    expect(() => mirror.search.search('x'.repeat(MAX_QUERY_CHARS + 1))).toThrow(SearchQueryTooLargeError);
  });
});
