/**
 * Issue 17, item 5: a page Quire does not represent as a file — a link page, a group — is never
 * deleted, since no file stands for it: whatever main changes about it (its title, its place),
 * and whatever a content tree adds to it (a `slug`, a `path` the API's RevisionPageLink does not
 * have). A delete comes only from a file that stood for its page going away. And a slug no file
 * name can carry (`..`) keeps the names the pages have: the folder does not churn.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { rewritingProxy, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { contentBatches, exists, openChangeRequests, read, remove, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;
let proxy: RewritingProxy | undefined;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (fake, space) => {
    fake.store.addPage(space.id, { title: 'Reference', type: 'group', pages: [{ title: 'API', markdown: 'Calls.\n' }] });
    fake.store.addPage(space.id, { title: 'Status page', type: 'link', href: 'https://status.example.com' });
    const faq = fake.store.pageByTitle(space.id, 'FAQ').id;
    fake.store.addPage(space.id, { title: 'See the FAQ', type: 'link', target: { page: faq } });
  },
);

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

type Change = { operation: string; page?: string };
const sent = (): Change[] => contentBatches(fake).flatMap((r) => (r.body as { changes: Change[] }).changes);
const deletes = () => sent().filter((c) => c.operation === 'delete_page');
const idOf = (title: string) => fake.store.pageByTitle(space.id, title).id;

type TreePage = Record<string, unknown> & { type?: string; pages?: TreePage[] };
/** A proxy whose content trees (main's and the change request's) are changed by `edit`, page by page. */
async function treeProxy(edit: (page: TreePage) => void): Promise<RewritingProxy> {
  return rewritingProxy(fake.url, (x) => {
    if (x.method !== 'GET' || !/\/content$/.test(x.path) || x.status !== 200) return undefined;
    const json = JSON.parse(x.body.toString('utf8')) as { pages?: TreePage[] };
    const walk = (pages: TreePage[]) => {
      for (const p of pages) {
        edit(p);
        walk(p.pages ?? []);
      }
    };
    walk(json.pages ?? []);
    return { body: JSON.stringify(json) };
  });
}
const syncThrough = (url: string, ...extra: string[]) => quire(['sync', '--api', url, '--dir', root, '--once', ...extra], { env: { QUIRE_TOKEN: fake.token } });

describe('pages without a file', () => {
  it('main retitling and moving a link page and a group deletes nothing; SUMMARY.md follows', async () => {
    fake.store.editPage(space.id, idOf('Status page'), { title: 'Service status' });
    fake.store.editPage(space.id, idOf('Reference'), { title: 'API reference' });
    fake.store.movePage(space.id, idOf('See the FAQ'), { parent: idOf('Getting Started') });
    write(dir, 'changelog.md', '# Changelog\n\nVersion 2.\n'); // an edit, so a push happens

    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(deletes()).toEqual([]);
    expect(sent()).toEqual([expect.objectContaining({ operation: 'update_page', page: idOf('Changelog') })]);
    const [cr] = openChangeRequests(fake, space.id);
    const inRequest = fake.store.pages(space.id, { changeRequest: cr!.id }).map((p) => p.title);
    expect(inRequest).toEqual(expect.arrayContaining(['Service status', 'API reference', 'See the FAQ']));
    const summary = read(dir, 'SUMMARY.md');
    expect(summary).toContain('[Service status](https://status.example.com)');
    expect(summary).toContain('## API reference');

    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('a content tree giving link pages a slug and a path (which RevisionPageLink has not) deletes nothing', async () => {
    proxy = await treeProxy((p) => {
      if (p.type !== 'link') return;
      p.slug = String(p.title).toLowerCase().replace(/\W+/g, '-');
      p.path = p.slug;
    });
    fake.store.addPage(space.id, { title: 'Roadmap', markdown: 'Soon.\n' }); // main moves: the tree is read again
    write(dir, 'faq.md', '# FAQ\n\nQuestions, edited.\n');

    const run = await syncThrough(proxy.url);
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.rewritten).toBeGreaterThan(0);
    expect(deletes()).toEqual([]);
    expect(exists(dir, 'roadmap.md')).toBe(true);
    const [cr] = openChangeRequests(fake, space.id);
    expect(fake.store.pages(space.id, { changeRequest: cr!.id }).map((p) => p.title)).toEqual(expect.arrayContaining(['Status page', 'See the FAQ']));
    // Even when the tree changes again (the slugs go), nothing goes.
    await proxy.close();
    proxy = await treeProxy((p) => {
      if (p.type === 'link') p.slug = '..';
    });
    fake.store.addPage(space.id, { title: 'Glossary', markdown: 'Words.\n' });
    expect((await syncThrough(proxy.url)).code).toBe(0);
    expect(deletes()).toEqual([]);
  });

  it('a page file removed is still a delete_page (the one thing that deletes)', async () => {
    remove(dir, 'faq.md');
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(deletes()).toEqual([{ operation: 'delete_page', page: idOf('FAQ') }]);
  });
});

describe('a slug no file name can carry', () => {
  it('keeps the names the files have, cycle after cycle', async () => {
    const files = () =>
      (readdirSync(dir, { recursive: true }) as string[])
        .map((f) => f.split('\\').join('/'))
        .filter((f) => f.endsWith('.md'))
        .sort();
    // Pages whose slugs are not their titles' (a writer chose them).
    fake.store.editPage(space.id, idOf('FAQ'), { title: 'Frequently asked' });
    fake.store.editPage(space.id, idOf('Getting Started'), { title: 'First steps' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    const before = files();
    expect(before).toContain('faq.md');
    expect(before).toContain('getting-started/install.md');

    proxy = await treeProxy((p) => {
      if ('slug' in p) p.slug = '..';
      if ('path' in p) p.path = '..';
    });
    let last = before;
    for (let round = 1; round <= 3; round++) {
      fake.store.addPage(space.id, { title: `Note ${round}`, markdown: `Note ${round}.\n` });
      const run = await syncThrough(proxy.url);
      expect(run.code, run.stderr).toBe(0);
      // Every file keeps its name; only the new page's file is added (named as the layout names a page without a usable slug).
      const now = files();
      expect(now).toEqual(expect.arrayContaining(last));
      expect(now).toHaveLength(last.length + 1);
      last = now;
    }
    expect(sent()).toEqual([]);
  });
});
