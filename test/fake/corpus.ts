/**
 * A corpus of realistic GitBook content, seeded into a fake store exactly as GitBook stores it
 * (stable references, blocks and HTML verbatim). The content lives in test/fixtures/gitbook:
 * `corpus.json` describes two spaces (a user guide and an API reference that link to each
 * other), their page trees, files and reusable content; the page bodies are markdown files
 * next to it. Ids are fixed, so the bodies can hold `/pages/<id>` references.
 *
 *   const corpus = seedGitBookCorpus(fake.store, org.id);
 *   corpus.docs.pages.installation; // the id of the "Installation" page
 *
 * A store holds the corpus once: seeding it twice fails on the fixed space ids.
 */
import { readFileSync } from 'node:fs';
import type { FakeStore, PageSeed } from './store';

const FIXTURES = new URL('../fixtures/gitbook/', import.meta.url);

interface ManifestPage {
  key: string;
  id: string;
  title: string;
  type?: 'document' | 'group' | 'link';
  /** Path of the stored body, relative to the fixtures folder. */
  body?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  href?: string;
  target?: { page: string; space?: string };
  pages?: ManifestPage[];
}

interface ManifestSpace {
  key: string;
  id: string;
  title: string;
  emoji: string;
  files: Array<{ key: string; id: string; name: string; path: string; contentType?: string }>;
  reusableContents: Array<{ key: string; id: string; title: string; body: string }>;
  pages: ManifestPage[];
}

interface Manifest {
  spaces: ManifestSpace[];
  missing: { page: string; space: string; spacePage: string };
}

export interface CorpusSpace {
  spaceId: string;
  title: string;
  /** Page ids by fixture key (`welcome`, `installation`, `docker`, …; groups and link pages too). */
  pages: Record<string, string>;
  /** File ids by fixture key. */
  files: Record<string, string>;
  /** Reusable content ids by fixture key. */
  reusableContents: Record<string, string>;
}

export interface GitBookCorpus {
  /** "Lumen Docs": groups, nested pages five levels deep, every block, hostile titles, link pages. */
  docs: CorpusSpace;
  /** "Lumen API Reference": links into the docs space, and a link page to one of its pages. */
  api: CorpusSpace;
  /** Ids the corpus links to on purpose that exist nowhere: a deleted page, an unsynced space and its page. */
  missing: Manifest['missing'];
}

export function seedGitBookCorpus(store: FakeStore, orgId: string): GitBookCorpus {
  const manifest = JSON.parse(readFixture('corpus.json')) as Manifest;
  const seeded = new Map(manifest.spaces.map((space) => [space.key, seedSpace(store, orgId, space)]));
  const docs = seeded.get('docs');
  const api = seeded.get('api');
  if (!docs || !api) throw new Error('test/fixtures/gitbook/corpus.json must describe the spaces "docs" and "api"');
  return { docs, api, missing: manifest.missing };
}

function seedSpace(store: FakeStore, orgId: string, space: ManifestSpace): CorpusSpace {
  if (store.spaces.has(space.id)) throw new Error(`the GitBook corpus is already seeded in this store (space "${space.id}" exists); use a new fake`);
  const pages: Record<string, string> = {};
  const toSeed = (page: ManifestPage): PageSeed => {
    pages[page.key] = page.id;
    const { key: _key, body, pages: children, ...fields } = page;
    return { ...fields, ...(body !== undefined ? { markdown: readFixture(body) } : {}), pages: (children ?? []).map(toSeed) };
  };
  store.addSpace(orgId, { id: space.id, title: space.title, emoji: space.emoji, pages: space.pages.map(toSeed) });
  const files: Record<string, string> = {};
  for (const file of space.files) {
    store.addFile(space.id, {
      id: file.id,
      name: file.name,
      bytes: readFileSync(new URL(encodeURI(file.path), FIXTURES)),
      ...(file.contentType ? { contentType: file.contentType } : {}),
    });
    files[file.key] = file.id;
  }
  const reusableContents: Record<string, string> = {};
  for (const content of space.reusableContents) {
    store.addReusableContent(space.id, { id: content.id, title: content.title, markdown: readFixture(content.body) });
    reusableContents[content.key] = content.id;
  }
  return { spaceId: space.id, title: space.title, pages, files, reusableContents };
}

function readFixture(path: string): string {
  return readFileSync(new URL(encodeURI(path), FIXTURES), 'utf8');
}
