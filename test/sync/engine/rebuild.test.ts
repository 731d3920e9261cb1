/**
 * Issue 9, item 3: losing `.quire/` loses nothing and duplicates nothing. With the mirror gone,
 * the next sync rebuilds it from the server and the folder: files are matched to pages by their
 * path (and content where paths differ), a differing file is a local edit against the server's
 * text, and nothing byte-identical to a server file is uploaded again.
 *
 * Issue 17, item 13: groups and link pages (which have no file) are recognised too, so
 * SUMMARY.md's headings and links are not taken for new ones; a dry run before that first sync
 * plans as if the record were rebuilt (and writes nothing), so it lists nothing bogus.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { Mirror } from '../../../src/main/core/mirror';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { contentBatches, openChangeRequests, read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

const PNG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 7, 7, 7]);

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (fake, space) => {
    fake.store.addFile(space.id, { name: 'logo.png', contentType: 'image/png', bytes: PNG });
    fake.store.addPage(space.id, {
      title: 'Guides',
      type: 'group',
      pages: [
        { title: 'API', markdown: 'Calls.\n', pages: [{ title: 'Auth', markdown: 'Tokens.\n' }] },
        { title: 'CLI', markdown: 'Shell.\n' },
      ],
    });
    fake.store.addPage(space.id, { title: 'Status page', type: 'link', href: 'https://status.example.com' });
  },
);

type Change = { operation: string; page?: string; document?: { markdown: string } };
const sent = (): Change[] => contentBatches(fake).flatMap((r) => (r.body as { changes: Change[] }).changes);

describe('a lost mirror', () => {
  it('is rebuilt: an edit stays an edit, a moved file stays its page, nothing is inserted or uploaded twice', async () => {
    write(dir, 'faq.md', '# FAQ\n\nQuestions, edited while the mirror was gone.\n');
    renameSync(join(dir, 'changelog.md'), join(dir, 'history.md'));
    rmSync(join(root, '.quire'), { recursive: true, force: true });

    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    const changes = sent();
    expect(changes.filter((c) => c.operation === 'insert_page' || c.operation === 'insert_files' || c.operation === 'delete_page')).toEqual([]);
    const faq = fake.store.pageByTitle(space.id, 'FAQ').id;
    expect(changes).toEqual(expect.arrayContaining([expect.objectContaining({ operation: 'update_page', page: faq })]));
    const [cr] = openChangeRequests(fake, space.id);
    expect(fake.store.pageByTitle(space.id, 'FAQ', { changeRequest: cr!.id }).markdown).toBe('Questions, edited while the mirror was gone.\n');
    expect(fake.store.pages(space.id, { changeRequest: cr!.id })).toHaveLength(fake.store.pages(space.id).length);
    expect(read(dir, 'faq.md')).toContain('edited while the mirror was gone');

    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('with nothing edited, sends nothing at all', async () => {
    rmSync(join(root, '.quire'), { recursive: true, force: true });
    writeFileSync(join(dir, '.gitbook/assets/logo.png'), PNG);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('recognises the groups and link pages that exist: nothing is held, and a dry run before it lists nothing', async () => {
    rmSync(join(root, '.quire'), { recursive: true, force: true });
    const dry = await syncOnce(fake, root, '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const [planned] = (JSON.parse(dry.stdout) as { spaces: { pull: Record<string, unknown[]>; push: Record<string, unknown[]>; held: unknown[] }[] }).spaces;
    expect(Object.values(planned!.pull).flat()).toEqual([]);
    expect(Object.values(planned!.push).flat()).toEqual([]);
    expect(planned!.held).toEqual([]);
    const mirror = Mirror.open(root);
    expect(mirror.folder.count(space.id)).toBe(0); // the dry run planned over a record it did not keep
    mirror.close();

    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/new group|new link/);
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(read(dir, 'SUMMARY.md')).toMatch(/## Guides\n[\s\S]*\[Status page\]\(https:\/\/status\.example\.com\)/);
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });
});
