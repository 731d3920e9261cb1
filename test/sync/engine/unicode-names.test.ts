/**
 * Issue 27, item 14: a name spelt in decomposed Unicode (NFD, as macOS and git often write it)
 * is the same name as its composed spelling (NFC). A page file spelt NFD on disk is read,
 * pushed and written where it is, under the spelling it has; a slug main spells either way
 * names the same file. Linux keeps both spellings apart, so each test here spells the file on
 * disk itself.
 */
import { readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { contentBatches, openChangeRequests, status, syncOnce } from '../../helpers/sync';

const NFC = 'über'.normalize('NFC');
const NFD = 'über'.normalize('NFD');
const UBER = 'UberPageId0000000001';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
const dir = () => join(root, 'docs');

function seed(slug: string): void {
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Docs',
    pages: [
      { title: 'Welcome', slug: 'welcome', markdown: 'Hello.\n' },
      { id: UBER, title: 'Über', slug, markdown: 'About us.\n\nA second paragraph.\n' },
    ],
  });
}

beforeEach(async () => {
  fake = await startFakeApi();
  root = tempDir();
});
afterEach(async () => {
  await fake.close();
});

type Change = { operation: string; page?: string; slug?: string };
const sent = (): Change[] => contentBatches(fake).flatMap((r) => (r.body as { changes: Change[] }).changes);
/** The space folder's names, each as spelt on disk. */
const names = () => readdirSync(dir()).sort();
const inRequest = () => {
  const [cr] = openChangeRequests(fake, space.id);
  return cr ? fake.store.page(space.id, UBER, { changeRequest: cr.id }) : null;
};

describe('a page file spelt NFD on disk, its slug NFC on main', () => {
  beforeEach(async () => {
    seed(NFC);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(names()).toContain(`${NFC}.md`);
    // A git checkout made on macOS spells the same file NFD.
    renameSync(join(dir(), `${NFC}.md`), join(dir(), `${NFD}.md`));
    fake.resetLog();
  });

  it('is the same page, read where it is: no delete, no new page, nothing left alone', async () => {
    utimesSync(join(dir(), `${NFD}.md`), new Date(), new Date(Date.now() + 5_000)); // a checkout touches it: it is read again
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/left alone|not a regular file/);
    expect(sent()).toEqual([]);
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${NFD}.md`]);
  });

  it('an edit is pushed, and the file keeps its spelling', async () => {
    writeFileSync(join(dir(), `${NFD}.md`), '# Über\n\nAbout us, edited.\n\nA second paragraph.\n');
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/not a regular file/);
    expect(sent().map((c) => [c.operation, c.page])).toEqual([['update_page', UBER]]);
    expect(inRequest()?.markdown).toBe('About us, edited.\n\nA second paragraph.\n');
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${NFD}.md`]);
  });

  it('an edit the folder watcher reports under the NFD spelling is pushed', async () => {
    writeFileSync(join(dir(), `${NFD}.md`), '# Über\n\nAbout us, edited.\n\nA second paragraph.\n');
    const mirror = Mirror.open(root);
    try {
      const api = new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 2 });
      const engine = new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] } });
      await engine.runCycle({ changed: [`docs/${NFD}.md`] });
    } finally {
      mirror.close();
    }
    expect(sent().map((c) => [c.operation, c.page])).toEqual([['update_page', UBER]]);
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${NFD}.md`]);
  });

  it('beside the same name spelt NFC, both are left alone with one line, and nothing is deleted', async () => {
    writeFileSync(join(dir(), `${NFC}.md`), '# Über\n\nA copy.\n');
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/über\.md is left alone .*same name in another Unicode form/);
    expect(sent()).toEqual([]);
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${NFC}.md`, `${NFD}.md`].sort());
  });

  it("main's edit is written into it, not beside it; a server page is never moved aside for it", async () => {
    fake.store.editPage(space.id, UBER, { markdown: 'About us, from main.\n\nA second paragraph.\n' });
    fake.store.addPage(space.id, { title: 'Team', slug: 'team', markdown: 'Who we are.\n' });
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(names()).toEqual(['README.md', 'SUMMARY.md', 'team.md', `${NFD}.md`]);
    expect(readFileSync(join(dir(), `${NFD}.md`), 'utf8')).toContain('About us, from main.');
    expect(readFileSync(join(dir(), 'SUMMARY.md'), 'utf8')).toContain(`(${NFC}.md)`);
    expect(sent()).toEqual([]);
  });
});

describe('a new page file spelt NFD', () => {
  it('is pushed as one new page, and stays where it is, spelt as it is', async () => {
    seed('uber');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const cafeNFD = 'café'.normalize('NFD');
    writeFileSync(join(dir(), `${cafeNFD}.md`), '# Café\n\nCoffee.\n');
    fake.resetLog();
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(sent().map((c) => [c.operation, c.slug])).toEqual([['insert_page', 'cafe']]); // (slugs are ASCII)
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${cafeNFD}.md`, 'uber.md']);

    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${cafeNFD}.md`, 'uber.md']);
  });
});

describe('a page file spelt NFC, its slug NFD on main (the reverse)', () => {
  it('is pulled spelt NFC, at GitBook’s path (no deviation), and an edit pushes no rename', async () => {
    seed(NFD);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(names()).toEqual(['README.md', 'SUMMARY.md', `${NFC}.md`]);
    const shown = JSON.parse((await status(root)).stdout) as { spaces: { deviations: unknown[] }[] };
    expect(shown.spaces[0]!.deviations).toEqual([]);

    writeFileSync(join(dir(), `${NFC}.md`), '# Über\n\nAbout us, edited.\n\nA second paragraph.\n');
    fake.resetLog();
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(sent().map((c) => [c.operation, c.page, c.slug])).toEqual([['update_page', UBER, undefined]]);
    expect(inRequest()?.slug).toBe(NFD);
  });
});
