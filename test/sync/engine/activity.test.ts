/**
 * The sync log names what each cycle carried, page by page: a pull's pages and files with their
 * titles and paths, and who made main's change where the API says so (a merge revision names the
 * change request it merged, its author and who merged it); a push's pages and the change request
 * they went to. Read through `quire log`, as a user would; revision ids only in the details.
 */
import { describe, expect, it } from 'vitest';
import type { LogJson } from '../../../src/main/hosts/cli/commands/log';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { read, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

async function logJson(...extra: string[]): Promise<LogJson['entries']> {
  const run = await quire(['log', '--dir', root, '--json', ...extra], { env: {} });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as LogJson).entries;
}
async function logText(...extra: string[]): Promise<string> {
  const run = await quire(['log', '--dir', root, ...extra], { env: {} });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}
const idOf = (title: string) => fake.store.pageByTitle(space.id, title).id;

describe('the sync log, page by page', () => {
  it('a pull names each page with its title and file, and the change request main merged, who wrote it and who merged it', async () => {
    const sam = fake.store.addUser({ displayName: 'Sam Okafor' });
    const alex = fake.store.addUser({ displayName: 'Alex Rivera' });
    const cr = fake.store.addChangeRequest(space.id, { subject: 'Polish the welcome page', createdBy: sam.id });
    fake.store.editPage(space.id, idOf('Welcome'), { markdown: 'Hello, dear reader.\n' }, { changeRequest: cr.id });
    fake.store.addPage(space.id, { title: 'Release notes', markdown: 'First release.\n' }, { changeRequest: cr.id });
    const merged = fake.store.mergeChangeRequest(space.id, cr.id, alex.id);
    expect((await syncOnce(fake, root)).code).toBe(0);

    const [entry] = await logJson();
    expect(entry).toMatchObject({ kind: 'pulled', spaceTitle: 'Guide', folder: 'guide' });
    expect(entry!.activity!.pages).toEqual(
      expect.arrayContaining([
        { pageId: idOf('Welcome'), title: 'Welcome', path: 'README.md', change: 'changed' },
        { pageId: idOf('Release notes'), title: 'Release notes', path: 'release-notes.md', change: 'added' },
      ]),
    );
    expect(entry!.activity!.pages).toHaveLength(2);
    expect(entry!.activity!.revision).toEqual({
      id: merged.id,
      only: true,
      mergedFrom: expect.objectContaining({
        id: cr.id,
        number: cr.number,
        subject: 'Polish the welcome page',
        createdBy: { id: sam.id, name: 'Sam Okafor' },
        mergedBy: { id: alex.id, name: 'Alex Rivera' },
      }),
    });
    expect(entry!.message).toBe(`Pulled 2 pages from main — change request #${cr.number} “Polish the welcome page” by Sam Okafor, merged by Alex Rivera`);

    const text = await logText();
    expect(text).toContain(`Guide  Pulled 2 pages from main — change request #${cr.number} “Polish the welcome page” by Sam Okafor, merged by Alex Rivera`);
    expect(text).toContain('    changed   guide/README.md — Welcome');
    expect(text).toContain('    added     guide/release-notes.md — Release notes');
    expect(text).not.toContain(merged.id); // revision ids only in the details (--json)
  });

  it('direct edits on main name no one, and when several revisions came in only the latest is attributed', async () => {
    fake.store.editPage(space.id, idOf('FAQ'), { markdown: 'More questions.\n' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    let [entry] = await logJson();
    expect(entry!.message).toBe('Pulled 1 page from main');
    expect(entry!.activity!.revision).toEqual({ id: expect.any(String), only: true });

    const sam = fake.store.addUser({ displayName: 'Sam Okafor' });
    fake.store.editPage(space.id, idOf('Changelog'), { markdown: 'Something now.\n' });
    const cr = fake.store.addChangeRequest(space.id, { subject: 'Tidy', createdBy: sam.id });
    fake.store.editPage(space.id, idOf('FAQ'), { markdown: 'Fewer questions.\n' }, { changeRequest: cr.id });
    fake.store.mergeChangeRequest(space.id, cr.id, sam.id);
    expect((await syncOnce(fake, root)).code).toBe(0);
    [entry] = await logJson();
    expect(entry!.activity!.revision!.only).toBe(false);
    expect(entry!.message).toBe(`Pulled 2 pages from main — the latest change: change request #${cr.number} “Tidy” by Sam Okafor, merged by Sam Okafor`);
  });

  it('pages moved, merged with edits here, and deleted on the server are named as such', async () => {
    fake.store.movePage(space.id, idOf('FAQ'), { parent: idOf('Getting Started') });
    fake.store.editPage(space.id, idOf('Install'), { markdown: 'Line one, changed there.\n\nLine two.\n\nLine three.\n\nLine four.\n\nLine five.\n' });
    write(dir, 'getting-started/install.md', read(dir, 'getting-started/install.md').replace('Line five.', 'Line five, changed here.'));
    fake.store.deletePage(space.id, idOf('Changelog'));
    expect((await syncOnce(fake, root)).code).toBe(0);

    const pulled = (await logJson()).find((e) => e.kind === 'pulled')!;
    expect(pulled.activity!.pages).toEqual(
      expect.arrayContaining([
        { pageId: idOf('FAQ'), title: 'FAQ', path: 'getting-started/faq.md', change: 'moved', from: 'faq.md' },
        { pageId: idOf('Install'), title: 'Install', path: 'getting-started/install.md', change: 'merged' },
        { pageId: expect.any(String), title: 'Changelog', path: null, change: 'deleted', from: 'changelog.md' },
      ]),
    );
    const text = await logText();
    expect(text).toContain('    moved     guide/getting-started/faq.md — FAQ (was guide/faq.md)');
    expect(text).toContain('    deleted   guide/changelog.md — Changelog');
  });

  it('a page edited on both sides that clashes is named as a conflict, not as pulled', async () => {
    fake.store.editPage(space.id, idOf('FAQ'), { markdown: 'Questions, there.\n' });
    write(dir, 'faq.md', read(dir, 'faq.md').replace('Questions.', 'Questions, here.'));
    expect((await syncOnce(fake, root)).code).toBe(3);
    const pulled = (await logJson()).find((e) => e.kind === 'pulled')!;
    expect(pulled.message).toBe("1 conflict with main (the server's version is beside the file)");
    expect(pulled.activity!.pages).toEqual([{ pageId: idOf('FAQ'), title: 'FAQ', path: 'faq.md', change: 'conflict' }]);
  });

  it('a push names each page with its title and file, and the change request it went to', async () => {
    write(dir, 'getting-started/install.md', read(dir, 'getting-started/install.md').replace('Line two.', 'Line two, edited.'));
    write(dir, 'new-page.md', '# My new page\n\nFresh.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);

    const entry = (await logJson()).find((e) => e.kind === 'pushed' && e.activity)!;
    const [cr] = [...fake.store.changeRequests.values()].filter((c) => c.spaceId === space.id);
    expect(entry.activity!.changeRequest).toEqual({ id: cr!.id, number: cr!.number, subject: cr!.subject });
    expect(entry.activity!.pages).toEqual(
      expect.arrayContaining([
        { pageId: idOf('Install'), title: 'Install', path: 'getting-started/install.md', change: 'edited' },
        { pageId: fake.store.pageByTitle(space.id, 'My new page', { changeRequest: cr!.id }).id, title: 'My new page', path: 'new-page.md', change: 'added' },
      ]),
    );
    expect(entry.message).toBe(`Pushed 2 pages to change request #${cr!.number} “${cr!.subject}”`);
    const text = await logText('--space', space.id, '--limit', '5');
    expect(text).toContain('    added     guide/new-page.md — My new page');
    expect(text).toContain('    edited    guide/getting-started/install.md — Install');
  });
});
