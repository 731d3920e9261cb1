/**
 * Issue 17, item 19: a rename seen in the middle of a cycle is a move, never a second page.
 * Continuous sync tells each cycle the paths its watcher saw; here the engine is driven with
 * those path lists directly, so each race lands exactly where it did under `quire sync
 * --interval 5` (the edit in one cycle, the rename half seen, or landing between the scan and
 * the apply, or split over two cycles):
 *
 * - a file that disappears and one that appears with the same (or nearly the same) text, within
 *   a cycle or across two, is the same page: same id, one page in the change request;
 * - a deleted file whose delete is not pushed yet (or only sits in the open change request) is
 *   still a move candidate in the next cycle; one whose folder's page was deleted since is added
 *   again (it cannot be restored where it was);
 * - an insert refused because its slug is taken is never sent again without the slug.
 */
import { appendFileSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { contentBatches, holdingProxy, openChangeRequests } from '../../helpers/sync';

const PART_3 = 'guides/alpha/part-3.md';
const MOVED = 'guides/alpha/part-3-moved.md';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
let mirror: Mirror;
let engine: SyncEngine;
let part3: string;

function engineThrough(url: string): SyncEngine {
  return new SyncEngine({ api: new ApiClient({ baseUrl: url, token: fake.token, maxAttempts: 2 }), mirror, root, spaces: { ids: [space.id] } });
}

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Docs',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      {
        title: 'Guides',
        markdown: 'Guides.\n',
        pages: [
          {
            title: 'Alpha',
            markdown: 'Alpha.\n',
            pages: [
              { title: 'Part 1', markdown: 'One.\n' },
              { title: 'Part 2', markdown: 'Two.\n' },
              { title: 'Part 3', markdown: 'Three.\n\nThe third part, in some detail.\n\nAnd a last paragraph.\n' },
            ],
          },
        ],
      },
    ],
  });
  part3 = fake.store.pageByTitle(space.id, 'Part 3').id;
  root = tempDir();
  dir = join(root, 'docs');
  mirror = Mirror.open(root);
  engine = engineThrough(fake.url);
  await engine.runCycle();
  fake.resetLog();
});
afterEach(async () => {
  mirror.close();
  await fake.close();
});

/** The watcher's paths (relative to the space folder) as a cycle request. */
const saw = (...paths: string[]) => ({ changed: paths.map((p) => `docs/${p}`) });
const appendLine = () => appendFileSync(join(dir, PART_3), 'Appended.\n');
/** The writer's rename: the file, and its SUMMARY.md line. */
function rename(from = PART_3) {
  renameSync(join(dir, from), join(dir, MOVED));
  writeFileSync(join(dir, 'SUMMARY.md'), readFileSync(join(dir, 'SUMMARY.md'), 'utf8').replace('part-3.md', 'part-3-moved.md'));
}
type Change = { operation: string; page?: string };
const sent = (): Change[] => contentBatches(fake).flatMap((r) => (r.status === 200 ? (r.body as { changes: Change[] }).changes : []));
/** The change request holds Part 3 once, under its own id, with the appended line, at its new name. */
function expectOnePart3(text = 'Appended.') {
  const [cr] = openChangeRequests(fake, space.id);
  const pages = fake.store.pages(space.id, { changeRequest: cr!.id }).filter((p) => p.title === 'Part 3');
  expect(pages.map((p) => p.id)).toEqual([part3]);
  expect(pages[0]!.slug).toBe('part-3-moved');
  expect(pages[0]!.markdown).toContain(text);
  expect(sent().filter((c) => c.operation === 'insert_page')).toEqual([]);
}

describe('a rename seen in the middle of a cycle', () => {
  it('the watcher saw only the edit when the cycle started; the file was renamed before the scan', async () => {
    appendLine();
    rename();
    await engine.runCycle(saw(PART_3)); // only the edit was reported so far
    await engine.runCycle(saw(PART_3, MOVED, 'SUMMARY.md'));
    expectOnePart3();
  });

  it('the watcher saw only the new name (the old one’s removal comes later)', async () => {
    appendLine();
    await engine.runCycle(saw(PART_3));
    rename();
    await engine.runCycle(saw(MOVED));
    await engine.runCycle(saw(PART_3, 'SUMMARY.md'));
    expectOnePart3();
  });

  it('the rename lands between the scan and the apply, while main changed the page', async () => {
    appendLine();
    fake.store.editPage(space.id, part3, { markdown: 'Three, edited on the server.\n\nThe third part, in some detail.\n\nAnd a last paragraph.\n' });
    // Main's tree is asked for beside the scan: held, the file is renamed after the scan read it.
    const proxy = await holdingProxy(fake.url, { match: (m, p) => m === 'GET' && /\/spaces\/[^/]+\/content$/.test(p), when: 'after' });
    try {
      const cycle = engineThrough(proxy.url).runCycle(saw(PART_3));
      await proxy.held;
      rename();
      proxy.release();
      await cycle;
    } finally {
      await proxy.close();
    }
    await engine.runCycle(saw(PART_3, MOVED, 'SUMMARY.md'));
    await engine.runCycle(saw(MOVED));
    expectOnePart3();
    expect(readFileSync(join(dir, MOVED), 'utf8')).toContain('Three, edited on the server.'); // merged, in the renamed file
  });
});

describe('a file gone in one cycle and back under another name in the next', () => {
  it('whose delete was pushed: the change request brings the page back, moved, rather than adding a second one', async () => {
    appendLine();
    const text = readFileSync(join(dir, PART_3), 'utf8');
    rmSync(join(dir, PART_3));
    await engine.runCycle(saw(PART_3));
    expect(sent()).toEqual([{ operation: 'delete_page', page: part3 }]);

    writeFileSync(join(dir, MOVED), text);
    writeFileSync(join(dir, 'SUMMARY.md'), readFileSync(join(dir, 'SUMMARY.md'), 'utf8').replace('part-3.md', 'part-3-moved.md'));
    await engine.runCycle(saw(MOVED, 'SUMMARY.md'));
    expectOnePart3();
  });

  it('whose delete was pushed, then its folder’s page’s: pasted at the root, it reaches the change request once', async () => {
    appendLine();
    const text = readFileSync(join(dir, PART_3), 'utf8');
    rmSync(join(dir, PART_3));
    await engine.runCycle(saw(PART_3));
    rmSync(join(dir, 'guides/alpha'), { recursive: true });
    const deleting = new SyncEngine({
      api: new ApiClient({ baseUrl: fake.url, token: fake.token }),
      mirror,
      root,
      spaces: { ids: [space.id] },
      allowMassDelete: true,
    });
    await deleting.runCycle(saw('guides/alpha/README.md', 'guides/alpha/part-1.md', 'guides/alpha/part-2.md'));
    const [cr] = openChangeRequests(fake, space.id);
    expect(fake.store.pages(space.id, { changeRequest: cr!.id }).map((p) => p.title)).toEqual(['Welcome', 'Guides']);

    // Its old parent is gone from the change request: it cannot be restored where it was.
    writeFileSync(join(dir, 'part-3.md'), text);
    const report = await engine.runCycle(saw('part-3.md'));
    expect(report.spaces[0]!.push?.refused ?? []).toEqual([]);
    const pages = fake.store.pages(space.id, { changeRequest: cr!.id }).filter((p) => p.title === 'Part 3');
    expect(pages.map((p) => [p.parentId, p.slug])).toEqual([[null, 'part-3']]);
    expect(pages[0]!.markdown).toContain('Appended.');
    // Nothing is left to send: the page is known.
    fake.resetLog();
    await engine.runCycle();
    expect(contentBatches(fake)).toHaveLength(0);
    // Merged, main holds it once, at the root; the folder keeps its one file.
    fake.store.mergeChangeRequest(space.id, cr!.id);
    await engine.runCycle();
    const inMain = fake.store.pages(space.id).filter((p) => p.title === 'Part 3');
    expect(inMain.map((p) => p.parentId)).toEqual([null]);
    expect(readdirSync(dir).filter((f) => f.startsWith('part-3'))).toEqual(['part-3.md']);
    expect(readFileSync(join(dir, 'part-3.md'), 'utf8')).toBe(text);
  });

  it('whose delete has not been pushed yet (the push failed): it is a move', async () => {
    const text = readFileSync(join(dir, PART_3), 'utf8');
    rmSync(join(dir, PART_3));
    fake.faults.fail(20, 503, { match: (r) => r.method === 'POST' && /\/content$/.test(r.path) });
    await expect(engine.runCycle(saw(PART_3))).rejects.toThrow(/503/);
    fake.faults.clear();
    // Nearly the same text: a line edited on the way.
    writeFileSync(join(dir, MOVED), `${text.replace('And a last paragraph.', 'And a last paragraph, edited.')}Appended.\n`);
    await engine.runCycle(saw(MOVED));
    expectOnePart3();
    expect(sent().filter((c) => c.operation === 'delete_page')).toEqual([]);
  });
});

describe('a page Quire created, whose file went away before the change request holding it was merged', () => {
  const failPushes = () => fake.faults.fail(20, 503, { match: (r) => r.method === 'POST' && /\/content$/.test(r.path) });

  async function createThenRemove(): Promise<string> {
    writeFileSync(join(dir, 'notes.md'), '# Notes\n\nA page made here.\n\nWith a second paragraph.\n');
    await engine.runCycle(saw('notes.md'));
    const [cr] = openChangeRequests(fake, space.id);
    const id = fake.store.pageByTitle(space.id, 'Notes', { changeRequest: cr!.id }).id;
    rmSync(join(dir, 'notes.md'));
    failPushes();
    await expect(engine.runCycle(saw('notes.md'))).rejects.toThrow(/503/);
    fake.faults.clear();
    fake.store.mergeChangeRequest(space.id, cr!.id); // a reviewer merges it meanwhile
    return id;
  }

  it('is deleted from main too, not brought back into the folder', async () => {
    const id = await createThenRemove();
    fake.resetLog();
    await engine.runCycle();
    expect(readdirSync(dir)).not.toContain('notes.md');
    expect(sent()).toEqual([{ operation: 'delete_page', page: id }]);
  });

  it('pasted back under another name, it is the same page: no second page', async () => {
    const id = await createThenRemove();
    writeFileSync(join(dir, 'notes-pasted.md'), '# Notes\n\nA page made here.\n\nWith a second paragraph.\n');
    fake.resetLog();
    await engine.runCycle(saw('notes-pasted.md'));
    expect(sent().filter((c) => c.operation === 'insert_page' || c.operation === 'delete_page')).toEqual([]);
    const [cr] = openChangeRequests(fake, space.id);
    const pages = fake.store.pages(space.id, { changeRequest: cr!.id }).filter((p) => p.title === 'Notes');
    expect(pages.map((p) => [p.id, p.slug])).toEqual([[id, 'notes-pasted']]);
  });
});

describe('an insert refused because its slug is taken', () => {
  it('is reported, never sent again without its slug (which would make a second page)', async () => {
    // Someone added a page to the change request that the folder does not show yet.
    writeFileSync(join(dir, 'welcome-note.md'), '# Welcome note\n\nFirst.\n');
    await engine.runCycle(saw('welcome-note.md'));
    const [cr] = openChangeRequests(fake, space.id);
    fake.store.addPage(space.id, { title: 'Notes', markdown: 'Shared notes.\n' }, { changeRequest: cr!.id });
    fake.resetLog();

    writeFileSync(join(dir, 'notes.md'), '# Notes\n\nShared notes.\n');
    const report = await engine.runCycle(saw('notes.md'));
    expect(report.spaces[0]!.push?.refused).toEqual([expect.objectContaining({ path: 'notes.md', message: expect.stringMatching(/slug "notes"/) })]);
    const inserts = contentBatches(fake).flatMap((r) => (r.body as { changes: Change[] }).changes.filter((c) => c.operation === 'insert_page'));
    expect(inserts.map((c) => (c as { slug?: string }).slug)).toEqual(inserts.map(() => 'notes'));
    expect(fake.store.pages(space.id, { changeRequest: cr!.id }).filter((p) => p.title === 'Notes')).toHaveLength(1);

    // Not sent again while the file is as it was.
    fake.resetLog();
    await engine.runCycle();
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('is sent again, with its slug, once a delete in the same push freed it', async () => {
    // The change request holds an edit of Part 2; main deletes the page; the writer edits it
    // again (a conflict), then keeps the file: a new page, while the old one leaves the request.
    const part2 = fake.store.pageByTitle(space.id, 'Part 2').id;
    appendFileSync(join(dir, 'guides/alpha/part-2.md'), 'Edited here.\n');
    await engine.runCycle(saw('guides/alpha/part-2.md'));
    fake.store.deletePage(space.id, part2);
    appendFileSync(join(dir, 'guides/alpha/part-2.md'), 'Edited here again.\n');
    await engine.runCycle();
    rmSync(join(dir, 'guides/alpha/part-2.remote.md'));
    fake.resetLog();
    await engine.runCycle();

    const [cr] = openChangeRequests(fake, space.id);
    const pages = fake.store.pages(space.id, { changeRequest: cr!.id }).filter((p) => p.title === 'Part 2');
    expect(pages).toHaveLength(1);
    expect(pages[0]!.id).not.toBe(part2);
    expect(pages[0]!.slug).toBe('part-2');
    expect(pages[0]!.markdown).toContain('Edited here again.');
    const inserts = contentBatches(fake).flatMap((r) =>
      (r.body as { changes: (Change & { slug?: string })[] }).changes.filter((c) => c.operation === 'insert_page'),
    );
    expect(inserts.every((c) => c.slug === 'part-2')).toBe(true);
  });
});
