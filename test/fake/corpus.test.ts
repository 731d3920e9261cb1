/**
 * The GitBook corpus (test/fixtures/gitbook) as the fake serves it: what it covers, that every
 * stable reference in it points somewhere (except the ones that must not), that every route
 * serves it within the spec, and that GitBook's read-then-write round trip is lossless.
 *
 * The round trip runs over random moves of pages in a change request. Fixed seed per run
 * (printed); replay a failure with QUIRE_CORPUS_SEED=<seed>.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedGitBookCorpus, type CorpusSpace, type GitBookCorpus } from './corpus';
import { GITBOOK_MARKDOWN, parseStableRef, startFakeApi, type FakeApi, type PageRec } from './index';
import { findReferences } from './ref-scanner';
import { testClient } from './test-client';

const SEED = Number(process.env.QUIRE_CORPUS_SEED ?? 20261123);
const RUNS = Number(process.env.QUIRE_CORPUS_RUNS ?? 25);

let fake: FakeApi;
let corpus: GitBookCorpus;
let client: ReturnType<typeof testClient>;

beforeEach(async () => {
  fake = await startFakeApi({ markdown: GITBOOK_MARKDOWN });
  corpus = seedGitBookCorpus(fake.store, fake.store.addOrg({ title: 'Lumen' }).id);
  client = testClient(fake);
});

afterEach(async () => {
  await fake.close();
});

const pagesOf = (space: CorpusSpace, changeRequest?: string): PageRec[] =>
  fake.store.pages(space.spaceId, changeRequest !== undefined ? { changeRequest } : {});
const documentsOf = (space: CorpusSpace, changeRequest?: string) => pagesOf(space, changeRequest).filter((p) => p.type === 'document');

describe('the corpus', () => {
  it('covers groups, link pages (URL and page targets), deep nesting, hostile titles, metadata, files and reusable content', () => {
    const docs = pagesOf(corpus.docs);
    expect(docs.filter((p) => p.type === 'group').map((p) => p.title)).toEqual(['Getting started', 'Guides', 'Reference']);
    expect(docs.filter((p) => p.type === 'link').map((p) => p.href ?? p.pageTarget)).toEqual([
      'https://status.lumen.example.com',
      { page: corpus.docs.pages.quickstart },
    ]);
    expect(fake.store.pagePath(corpus.docs.spaceId, corpus.docs.pages.autoscaling ?? '').split('/')).toHaveLength(5);
    const titles = docs.map((p) => p.title);
    expect(titles).toEqual(expect.arrayContaining(['../..', 'CON', 'Tab\there and a bell\u0007', 'C# SDK']));
    expect(titles.filter((t) => t === 'Release notes')).toHaveLength(2);
    expect(titles.some((t) => t.length === 300)).toBe(true);
    expect(docs.find((p) => p.hidden)).toMatchObject({ noIndex: true, description: expect.any(String) });
    expect(docs.filter((p) => p.icon !== undefined).length).toBeGreaterThan(3);
    const files = [...fake.store.currentRevision(corpus.docs.spaceId).files.values()];
    expect(files.map((f) => f.contentType).sort()).toEqual(['application/pdf', 'image/png', 'image/png', 'image/svg+xml']);
    expect(fake.store.currentRevision(corpus.docs.spaceId).reusableContents.size).toBe(1);
    expect(pagesOf(corpus.api).find((p) => p.type === 'link')?.pageTarget).toEqual({ page: corpus.docs.pages.configuration, space: corpus.docs.spaceId });
  });

  it('holds every block of GitBook markdown', () => {
    const all = documentsOf(corpus.docs)
      .map((p) => p.markdown)
      .join('\n');
    for (const style of ['info', 'success', 'warning', 'danger']) expect(all).toContain(`{% hint style="${style}" %}`);
    for (const block of [
      '{% tabs %}',
      '{% tab title=',
      '{% code title=',
      '{% content-ref url=',
      '{% embed url=',
      '{% file src=',
      '{% include ',
      '{% stepper %}',
    ]) {
      expect(all).toContain(block);
    }
    for (const html of ['<figure><img src=', '<figcaption>', '<table data-view="cards">', '<table><thead>', '<details>', '<kbd>', '<p align="center">']) {
      expect(all).toContain(html);
    }
    expect(all).toMatch(/^\$\$\n[\s\S]+?\n\$\$$/m); // math block
    expect(all).toMatch(/\[\^1\]: /); // footnote
    expect(all).toMatch(/^\* .+\n {2}\* /m); // nested lists: unordered in unordered,
    expect(all).toMatch(/^\* .+\n {2}1\. /m); // ordered in unordered,
    expect(all).toMatch(/^2\. .+\n {3}\* .+\n {3}\* .+\n {5}\* /m); // and unordered two levels deep in ordered
    expect(all).toMatch(/^\| .+ \|\n\| -+ \|/m); // markdown table
  });

  it('every stable reference points at an existing page, file or reusable content, except the deliberately missing ones', () => {
    const spaces = [corpus.docs, corpus.api];
    const exists = (spaceId: string, kind: string, id: string): boolean => {
      if (!fake.store.spaces.has(spaceId)) return false;
      const revision = fake.store.currentRevision(spaceId);
      return kind === 'page' ? revision.pages.has(id) : kind === 'file' ? revision.files.has(id) : revision.reusableContents.has(id);
    };
    const dangling: string[] = [];
    let checked = 0;
    for (const space of spaces) {
      const bodies = [
        ...documentsOf(space).map((p) => p.markdown),
        ...[...fake.store.currentRevision(space.spaceId).reusableContents.values()].map((r) => r.markdown),
      ];
      for (const site of bodies.flatMap((body) => findReferences(body))) {
        const ref = parseStableRef(site.target);
        if (!ref) continue;
        checked++;
        const id = ref.kind === 'page' ? ref.page : ref.kind === 'file' ? ref.file : ref.reusableContent;
        if (!exists(ref.space ?? space.spaceId, ref.kind, id)) dangling.push(site.target);
      }
    }
    expect(checked).toBeGreaterThan(70);
    expect(dangling.sort()).toEqual([`/pages/${corpus.missing.page}`, `/spaces/${corpus.missing.space}/pages/${corpus.missing.spacePage}`]);
  });

  it('is served within the spec by every read route, in both refs modes', async () => {
    for (const space of [corpus.docs, corpus.api]) {
      const revision = (await client.get(`/spaces/${space.spaceId}/content`)).body;
      expect(revision.reusableContents).toHaveLength(space === corpus.docs ? 1 : 0);
      for (const page of pagesOf(space)) {
        for (const refs of ['relative', 'stable']) {
          expect((await client.get(`/spaces/${space.spaceId}/content/page/${page.id}?format=markdown&format.markdown.refs=${refs}`)).status).toBe(200);
        }
        expect((await client.get(`/spaces/${space.spaceId}/content/page/${page.id}`)).status).toBe(200);
      }
      for (const [, fileId] of Object.entries(space.files)) {
        const file = (await client.get(`/spaces/${space.spaceId}/content/files/${fileId}`)).body;
        expect((await fetch(file.downloadURL)).status).toBe(200);
      }
    }
    const rc = corpus.docs.reusableContents.platforms;
    expect((await client.get(`/spaces/${corpus.docs.spaceId}/content/reusable-contents/${rc}`)).body).toMatchObject({ id: rc, title: 'Supported platforms' });
    const revisionId = fake.store.space(corpus.docs.spaceId).revisionId;
    expect((await client.get(`/spaces/${corpus.docs.spaceId}/revisions/${revisionId}/reusable-contents/${rc}/document`)).body.object).toBe('document');
    expect(fake.violations).toEqual([]);
  });

  it('can be seeded once per store, with a clear error the second time', () => {
    expect(() => seedGitBookCorpus(fake.store, fake.store.addOrg({ title: 'Again' }).id)).toThrow(/already seeded in this store/);
  });
});

describe('GitBook round trip over the corpus', () => {
  /** Reads every document page as a client would (relative refs, frontmatter, title) and writes it back unchanged. */
  async function writeBackAsRead(space: CorpusSpace, changeRequest: string): Promise<void> {
    const changes = [];
    for (const page of documentsOf(space, changeRequest)) {
      changes.push({ operation: 'update_page', page: page.id, document: { markdown: await client.markdown(space.spaceId, page.id, { changeRequest }) } });
    }
    const answer = await client.batch(space.spaceId, changeRequest, changes);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }

  const snapshot = (space: CorpusSpace, changeRequest: string) =>
    documentsOf(space, changeRequest).map(({ id, title, description, icon, emoji, hidden, noIndex, markdown, documentId }) => ({
      id,
      title,
      description,
      icon,
      emoji,
      hidden,
      noIndex,
      markdown,
      documentId,
    }));

  it('writing back what was read changes nothing: bodies, documentIds and metadata', async () => {
    for (const space of [corpus.docs, corpus.api]) {
      const cr = fake.store.addChangeRequest(space.spaceId);
      const before = snapshot(space, cr.id);
      await writeBackAsRead(space, cr.id);
      expect(snapshot(space, cr.id)).toEqual(before);
    }
  });

  it(`stays lossless after random moves of pages (seed ${SEED})`, async () => {
    console.log(`corpus round trip: seed ${SEED}, ${RUNS} runs (replay with QUIRE_CORPUS_SEED=${SEED})`);
    const movable = Object.keys(corpus.docs.pages);
    const move = fc.record({ page: fc.constantFrom(...movable), parent: fc.option(fc.constantFrom(...movable), { nil: null }), at: fc.nat(8) });
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 6 }), async (moves) => {
        const space = corpus.docs;
        const cr = fake.store.addChangeRequest(space.spaceId);
        for (const m of moves) {
          try {
            fake.store.movePage(
              space.spaceId,
              space.pages[m.page] ?? '',
              { parent: m.parent === null ? null : (space.pages[m.parent] ?? null), at: m.at },
              { changeRequest: cr.id },
            );
          } catch {
            // a move the tree rules refuse (a group under a page, a cycle, a slug clash) is simply not made
          }
        }
        const before = snapshot(space, cr.id);
        await writeBackAsRead(space, cr.id);
        expect(snapshot(space, cr.id)).toEqual(before);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
