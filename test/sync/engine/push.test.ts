import { describe, expect, it } from 'vitest';
import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeApi, SpaceRec } from '../../fake';
import {
  contentBatches,
  exists,
  holdingProxy,
  openChangeRequests,
  pageByTitle,
  read,
  remove,
  status,
  syncOnce,
  syncedGuideEachTest,
  write,
} from '../../helpers/sync';
import { quire } from '../../helpers/cli';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

const childrenOf = (revision: { children: ReadonlyMap<string, readonly string[]> }, parentId: string | null) => revision.children.get(parentId ?? '') ?? [];
const crRevision = (crId: string) => fake.store.revisionOf(space.id, { changeRequest: crId });

describe('local edits become one change request per space', () => {
  it('an edited file is an update_page (frontmatter included) in a change request with a meaningful subject', async () => {
    write(dir, 'faq.md', '---\ndescription: Answers\n---\n\n# FAQ\n\nQuestions and answers.\n');
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/1 page pushed to change request #1/);

    const [cr] = openChangeRequests(fake, space.id);
    expect(cr?.subject).toBe('Edit ‘FAQ’');
    const page = pageByTitle(fake, space.id, 'FAQ', cr!.id);
    expect(page.markdown).toBe('Questions and answers.\n');
    expect(page.description).toBe('Answers');
    expect(pageByTitle(fake, space.id, 'FAQ').markdown).toBe('Questions.\n'); // main untouched: sync never merges
    expect(contentBatches(fake)).toHaveLength(1);
    expect(read(dir, 'faq.md')).toBe('---\ndescription: Answers\n---\n\n# FAQ\n\nQuestions and answers.\n');
  });

  it('a new file is an insert_page under its folder’s page, at its place in SUMMARY.md', async () => {
    write(dir, 'getting-started/upgrade.md', '# Upgrade\n\nStop, swap, start.\n');
    const summary = read(dir, 'SUMMARY.md').replace(
      '  * [Configure](getting-started/configure.md)',
      '  * [Upgrade](getting-started/upgrade.md)\n  * [Configure](getting-started/configure.md)',
    );
    write(dir, 'SUMMARY.md', summary);
    expect((await syncOnce(fake, root)).code).toBe(0);

    const [cr] = openChangeRequests(fake, space.id);
    const revision = crRevision(cr!.id);
    const parent = pageByTitle(fake, space.id, 'Getting Started');
    const upgrade = pageByTitle(fake, space.id, 'Upgrade', cr!.id);
    expect(upgrade.parentId).toBe(parent.id);
    expect(upgrade.slug).toBe('upgrade');
    expect(upgrade.markdown).toBe('Stop, swap, start.\n');
    expect(childrenOf(revision, parent.id).map((id) => revision.pages.get(id)!.title)).toEqual(['Install', 'Upgrade', 'Configure']);
  });

  it('a file in a new folder goes under the new folder’s page, created first', async () => {
    write(dir, 'recipes/README.md', '# Recipes\n\nThings to cook.\n');
    write(dir, 'recipes/soup.md', '# Soup\n\nBoil water.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    const recipes = pageByTitle(fake, space.id, 'Recipes', cr!.id);
    expect(recipes.parentId).toBeNull();
    expect(pageByTitle(fake, space.id, 'Soup', cr!.id).parentId).toBe(recipes.id);
    // A second cycle sends nothing more: both pages are known now.
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('a deleted file is a delete_page', async () => {
    remove(dir, 'changelog.md');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect([...crRevision(cr!.id).pages.values()].map((p) => p.title)).not.toContain('Changelog');
    expect(pageByTitle(fake, space.id, 'Changelog')).toBeDefined();
  });

  it('a renamed or moved file is an update_page of the same page, never a delete plus an insert', async () => {
    const configure = pageByTitle(fake, space.id, 'Configure');
    const faq = pageByTitle(fake, space.id, 'FAQ');
    renameSync(join(dir, 'getting-started/configure.md'), join(dir, 'getting-started/settings.md'));
    renameSync(join(dir, 'faq.md'), join(dir, 'getting-started/faq.md'));
    expect((await syncOnce(fake, root)).code).toBe(0);

    const [cr] = openChangeRequests(fake, space.id);
    const revision = crRevision(cr!.id);
    expect(revision.pages.size).toBe(fake.store.currentRevision(space.id).pages.size);
    expect(revision.pages.get(configure.id)?.slug).toBe('settings');
    expect(revision.pages.get(faq.id)?.parentId).toBe(pageByTitle(fake, space.id, 'Getting Started').id);
    expect(revision.pages.get(faq.id)?.markdown).toBe('Questions.\n');
    // The files stay where the writer put them, and nothing more is sent.
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(exists(dir, 'getting-started/settings.md') && exists(dir, 'getting-started/faq.md')).toBe(true);
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('a new asset is an insert_files', async () => {
    const png = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
    write(dir, '.gitbook/assets/diagram.png', png as unknown as string);
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    const files = [...crRevision(cr!.id).files.values()];
    expect(files.map((f) => [f.name, f.size, f.contentType])).toEqual([['diagram.png', png.length, 'image/png']]);
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('later edits go into the same change request until it is merged, then a fresh one is used', async () => {
    write(dir, 'faq.md', '# FAQ\n\nFirst edit.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    write(dir, 'changelog.md', '# Changelog\n\nSecond edit.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const crs = fake.store.changeRequestsOf(space.id);
    expect(crs).toHaveLength(1);
    expect(pageByTitle(fake, space.id, 'FAQ', crs[0]!.id).markdown).toBe('First edit.\n');
    expect(pageByTitle(fake, space.id, 'Changelog', crs[0]!.id).markdown).toBe('Second edit.\n');

    fake.store.mergeChangeRequest(space.id, crs[0]!.id);
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0); // main now holds the edits: nothing to push
    expect(read(dir, 'faq.md')).toBe('# FAQ\n\nFirst edit.\n');
    expect((await status(root)).stdout).toMatch(/"changeRequest": null/);

    write(dir, 'faq.md', '# FAQ\n\nThird edit.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const after = fake.store.changeRequestsOf(space.id);
    expect(after.map((c) => c.status)).toEqual(['merged', 'open']);
    expect(pageByTitle(fake, space.id, 'FAQ', after[1]!.id).markdown).toBe('Third edit.\n');
  });

  it('pushing 100 edited pages costs one create and two content batches', async () => {
    const pages = Array.from({ length: 100 }, (_, i) => ({ title: `Page ${i}`, markdown: `Body ${i}.\n` }));
    const org = [...fake.store.orgs.values()][0]!;
    const big = fake.store.addSpace(org.id, { title: 'Big', pages });
    expect((await syncOnce(fake, root)).code).toBe(0);
    for (let i = 1; i < 100; i++) write(join(root, 'big'), `page-${i}.md`, `# Page ${i}\n\nEdited ${i}.\n`);
    write(join(root, 'big'), 'README.md', '# Page 0\n\nEdited 0.\n');
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/spaces/${big.id}/change-requests`))).toHaveLength(1);
    expect(contentBatches(fake)).toHaveLength(2);
    const [cr] = openChangeRequests(fake, big.id);
    expect(pageByTitle(fake, big.id, 'Page 57', cr!.id).markdown).toBe('Edited 57.\n');
  });
});

describe('three-way merges', () => {
  it('merges edits to different parts of a page silently, and pushes the merge', async () => {
    const install = pageByTitle(fake, space.id, 'Install');
    write(dir, 'getting-started/install.md', read(dir, 'getting-started/install.md').replace('Line one.', 'Line one, edited here.'));
    fake.store.editPage(space.id, install.id, { markdown: 'Line one.\n\nLine two.\n\nLine three.\n\nLine four.\n\nLine five, edited there.\n' });
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(0);
    const merged = read(dir, 'getting-started/install.md');
    expect(merged).toContain('Line one, edited here.');
    expect(merged).toContain('Line five, edited there.');
    expect(exists(dir, 'getting-started/install.remote.md')).toBe(false);
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'Install', cr!.id).markdown).toBe(
      'Line one, edited here.\n\nLine two.\n\nLine three.\n\nLine four.\n\nLine five, edited there.\n',
    );
  });

  it('a clash keeps the file, puts the server’s text beside it, shows in status, exits 3; deleting the copy resolves it', async () => {
    const install = pageByTitle(fake, space.id, 'Install');
    const mine = read(dir, 'getting-started/install.md').replace('Line three.', 'Line three, my way.');
    write(dir, 'getting-started/install.md', mine);
    fake.store.editPage(space.id, install.id, { markdown: 'Line one.\n\nLine two.\n\nLine three, their way.\n\nLine four.\n\nLine five.\n' });

    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/1 conflict needs you/);
    expect(run.stdout).toContain(`: see \`quire status --dir ${root}\``); // the folder itself, not a placeholder
    expect(read(dir, 'getting-started/install.md')).toBe(mine);
    expect(read(dir, 'getting-started/install.remote.md')).toContain('Line three, their way.');
    const st = JSON.parse((await status(root)).stdout) as { spaces: { conflicts: { path: string; kind: string; remotePath: string }[] }[] };
    expect(st.spaces[0]!.conflicts).toEqual([
      { path: 'getting-started/install.md', title: 'Install', kind: 'both-changed', remotePath: 'getting-started/install.remote.md' },
    ]);
    expect(openChangeRequests(fake, space.id)).toHaveLength(0); // a held page is not pushed
    expect((await syncOnce(fake, root)).code).toBe(3); // still there until the writer decides

    write(dir, 'getting-started/install.md', mine.replace('Line three, my way.', 'Line three, both ways.'));
    remove(dir, 'getting-started/install.remote.md');
    const resolved = await syncOnce(fake, root);
    expect(resolved.code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'Install', cr!.id).markdown).toContain('Line three, both ways.');
    expect(JSON.parse((await status(root)).stdout).spaces[0].conflicts).toEqual([]);
  });

  it('a page deleted on the server while edited here is a conflict, and keeping it makes it a new page', async () => {
    write(dir, 'faq.md', '# FAQ\n\nMy precious answers.\n');
    fake.store.deletePage(space.id, pageByTitle(fake, space.id, 'FAQ').id);
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(read(dir, 'faq.md')).toBe('# FAQ\n\nMy precious answers.\n');
    expect(read(dir, 'faq.remote.md')).toMatch(/deleted on the server/);
    remove(dir, 'faq.remote.md');
    expect((await syncOnce(fake, root)).code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('My precious answers.\n');
  });

  it('a file a killed pull wrote for main’s new page, edited since, is that page: a clash, never a second page', async () => {
    const notes = fake.store.addPage(space.id, { title: 'Notes', markdown: 'Shared notes.\n\nKept by the team.\n' });
    // The pull wrote notes.md and was killed before recording it; the writer then edited it.
    const mine = '# Notes\n\nShared notes.\n\nMy own line.\n\nKept by the team.\n';
    const notesFiles = () =>
      readdirSync(dir)
        .filter((f) => f.startsWith('notes'))
        .sort();
    write(dir, 'notes.md', mine);

    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(read(dir, 'notes.md')).toBe(mine);
    expect(read(dir, 'notes.remote.md')).toContain('Kept by the team.');
    expect(notesFiles()).toEqual(['notes.md', 'notes.remote.md']);
    remove(dir, 'notes.remote.md'); // the writer keeps their file
    const settled = await syncOnce(fake, root);
    expect(settled.code, settled.stdout).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    const inRequest = fake.store.pages(space.id, { changeRequest: cr!.id }).filter((p) => p.title === 'Notes');
    expect(inRequest.map((p) => [p.id, p.markdown])).toEqual([[notes.id, 'Shared notes.\n\nMy own line.\n\nKept by the team.\n']]);
    expect(JSON.parse((await status(root)).stdout).spaces[0].refused).toEqual([]);
    expect(notesFiles()).toEqual(['notes.md']);
  });

  it('a page deleted here while edited on the server is a conflict, not a silent loss', async () => {
    remove(dir, 'changelog.md');
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Changelog').id, { markdown: 'Version 2 is out.\n' });
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(exists(dir, 'changelog.md')).toBe(false);
    expect(read(dir, 'changelog.remote.md')).toContain('Version 2 is out.');
    expect(openChangeRequests(fake, space.id)).toHaveLength(0);
  });

  it('a page deleted here while edited on the server stays where main has it, and main changing it again stops no other push', async () => {
    remove(dir, 'getting-started/install.md');
    const install = pageByTitle(fake, space.id, 'Install').id;
    const parent = fake.store.currentRevision(space.id).pages.get(install)!.parentId;
    fake.store.editPage(space.id, install, { markdown: 'Install version 2.\n' });
    write(dir, 'faq.md', '# FAQ\n\nAnswers, first.\n');
    expect((await syncOnce(fake, root)).code).toBe(3);
    expect(read(dir, 'getting-started/install.remote.md')).toContain('Install version 2.');
    // The conflict holds the page: the change request neither moves nor deletes it.
    const [first] = openChangeRequests(fake, space.id);
    expect(crRevision(first!.id).pages.get(install)?.parentId).toBe(parent);
    fake.store.mergeChangeRequest(space.id, first!.id);
    // Main changes it again (its place), while no file here holds it; the writer edits another page.
    fake.store.editPage(space.id, install, { slug: 'installing' });
    write(dir, 'faq.md', '# FAQ\n\nAnswers, second.\n');
    expect((await syncOnce(fake, root)).code).toBe(3);
    const [second] = openChangeRequests(fake, space.id);
    expect(second && pageByTitle(fake, space.id, 'FAQ', second.id).markdown).toBe('Answers, second.\n');
    // The writer keeps their delete.
    remove(dir, 'getting-started/install.remote.md');
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(crRevision(second!.id).pages.has(install)).toBe(false);
  });
});

describe('fail-safes and durability', () => {
  it('stops before deleting more than half of a space, says so in status, exits 3; --allow-deletes goes ahead', async () => {
    for (const f of ['faq.md', 'changelog.md', 'getting-started/install.md', 'getting-started/configure.md']) remove(dir, f);
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/Stopped before deleting most of “Guide”: this sync would delete 4 of its 6 pages/);
    expect(openChangeRequests(fake, space.id)).toHaveLength(0);
    const held = JSON.parse((await status(root)).stdout).spaces[0];
    expect(held.held).toContain(`run \`quire sync --dir ${root} --once --allow-delete guide/changelog.md`); // this folder's command, naming the pages, ready to paste
    expect(held.hold).toMatchObject({ localDeletes: 4, remoteDeletes: 0, pages: 6 });

    const allowed = await syncOnce(fake, root, '--allow-deletes');
    expect(allowed.code).toBe(0);
    const [cr] = openChangeRequests(fake, space.id);
    expect(crRevision(cr!.id).pages.size).toBe(2);
    expect(JSON.parse((await status(root)).stdout).spaces[0]).toMatchObject({ held: null, hold: null });
  });

  it('a file changed while it is being pushed is pushed again, never overwritten', async () => {
    const proxy = await holdingProxy(fake.url, { match: (m, p) => m === 'POST' && /\/content$/.test(p), when: 'before' });
    try {
      write(dir, 'faq.md', '# FAQ\n\nVersion A.\n');
      const running = quire(['sync', '--api', proxy.url, '--dir', root, '--once'], { env: { QUIRE_TOKEN: fake.token } });
      await proxy.held;
      write(dir, 'faq.md', '# FAQ\n\nVersion B, saved mid-push.\n');
      proxy.release();
      expect((await running).code).toBe(0);
      expect(read(dir, 'faq.md')).toBe('# FAQ\n\nVersion B, saved mid-push.\n');
      const [cr] = openChangeRequests(fake, space.id);
      expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Version A.\n');
      expect((await syncOnce(fake, root)).code).toBe(0);
      expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('Version B, saved mid-push.\n');
    } finally {
      await proxy.close();
    }
  });

  it('a batch whose answer was lost is found in the change request, not sent twice', async () => {
    const proxy = await holdingProxy(fake.url, { match: (m, p) => m === 'POST' && /\/content$/.test(p), when: 'after' });
    try {
      write(dir, 'recipes/README.md', '# Recipes\n\nThings to cook.\n');
      const abort = new AbortController();
      const running = quire(['sync', '--api', proxy.url, '--dir', root, '--once'], { env: { QUIRE_TOKEN: fake.token }, signal: abort.signal });
      await proxy.held; // applied by the server, answer held back
      abort.abort();
      await running;
    } finally {
      await proxy.close();
    }
    expect((await syncOnce(fake, root)).code).toBe(0);
    const crs = fake.store.changeRequestsOf(space.id);
    expect(crs).toHaveLength(1);
    const titles = [...crRevision(crs[0]!.id).pages.values()].map((p) => p.title);
    expect(titles.filter((t) => t === 'Recipes')).toHaveLength(1);
  });
});
