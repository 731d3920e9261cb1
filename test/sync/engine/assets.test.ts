/**
 * Assets under `.gitbook/assets/` the writer changes or deletes. The API cannot replace or
 * delete a file: a changed asset goes up as a new file and the pages showing it are pointed at
 * it; a deleted one stays on GitBook, said in `quire status`, and a page still showing it is a
 * problem reported by the sync, never a silent broken image.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, type FakeApi, type FileRec, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { contentBatches, openChangeRequests, read, status, syncOnce, write } from '../../helpers/sync';

const PNG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
const PNG2 = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 9, 9, 9, 9, 9]);

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;
let logo: FileRec;
let other: FileRec;

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Welcome', markdown: 'Hello.\n' }] });
  logo = fake.store.addFile(space.id, { name: 'logo.png', contentType: 'image/png', bytes: PNG });
  other = fake.store.addFile(space.id, { name: 'unused.png', contentType: 'image/png', bytes: PNG });
  fake.store.addPage(space.id, { title: 'Brand', markdown: `Our logo:\n\n![Logo](/files/${logo.id})\n` });
  root = tempDir();
  dir = join(root, 'guide');
  expect((await syncOnce(fake, root)).code).toBe(0);
  expect(read(dir, 'brand.md')).toContain('![Logo](.gitbook/assets/logo.png)');
  fake.resetLog();
});
afterEach(async () => {
  await fake.close();
});

const crPage = (title: string) => {
  const [cr] = openChangeRequests(fake, space.id);
  return fake.store.pageByTitle(space.id, title, { changeRequest: cr!.id });
};
const crFiles = () => {
  const [cr] = openChangeRequests(fake, space.id);
  return [...fake.store.revisionOf(space.id, { changeRequest: cr!.id }).files.values()];
};

describe('assets changed or deleted here', () => {
  it('a changed asset is uploaded as a new file and the pages showing it point at it; the local files do not change', async () => {
    writeFileSync(join(dir, '.gitbook/assets/logo.png'), PNG2);
    expect((await syncOnce(fake, root)).code).toBe(0);

    const uploaded = crFiles().filter((f) => f.id !== logo.id && f.id !== other.id);
    expect(uploaded.map((f) => [f.name, f.size])).toEqual([['logo.png', PNG2.length]]);
    expect(crPage('Brand').markdown).toContain(`/files/${uploaded[0]!.id}`);
    expect(fake.store.pageByTitle(space.id, 'Brand').markdown).toContain(`/files/${logo.id}`); // main untouched
    expect(read(dir, 'brand.md')).toContain('![Logo](.gitbook/assets/logo.png)');

    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);

    // Merged: the new file takes the path over, its bytes are the writer's, and nothing more is sent.
    fake.store.mergeChangeRequest(space.id, openChangeRequests(fake, space.id)[0]!.id);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(readFileSync(join(dir, '.gitbook/assets/logo.png')).equals(PNG2)).toBe(true);
    expect(read(dir, 'brand.md')).toContain('![Logo](.gitbook/assets/logo.png)');
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });

  it('a deleted asset no page uses stays deleted here and on GitBook, and status says so', async () => {
    rmSync(join(dir, '.gitbook/assets/unused.png'));
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
    // Main moves on: the deleted file is not brought back.
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hello again.\n' });
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(() => readFileSync(join(dir, '.gitbook/assets/unused.png'))).toThrow();

    const s = await status(root);
    const [entry] = JSON.parse(s.stdout).spaces;
    expect(entry.deletedAssets).toEqual([{ path: '.gitbook/assets/unused.png', usedBy: [] }]);
  });

  it('a deleted asset a page still shows is reported as a problem', async () => {
    rmSync(join(dir, '.gitbook/assets/logo.png'));
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\.gitbook\/assets\/logo\.png was deleted here, but brand\.md still shows it/);
    const [entry] = JSON.parse((await status(root)).stdout).spaces;
    expect(entry.deletedAssets).toEqual([{ path: '.gitbook/assets/logo.png', usedBy: ['brand.md'] }]);
    // Putting it back ends the problem; nothing was sent meanwhile.
    write(dir, '.gitbook/assets/logo.png', PNG as unknown as string);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
  });
});

describe('an asset Quire will not use (issue 17, item 17)', () => {
  const outsideFile = () => {
    const outside = join(tempDir(), 'secret.png');
    writeFileSync(outside, PNG2);
    return outside;
  };
  const sentChanges = () => contentBatches(fake).flatMap((r) => (r.body as { changes: { operation: string }[] }).changes);

  it('a symbolic link in place of an asset is left alone and reported; the rest of the space syncs, also once main changes', async () => {
    const outside = outsideFile();
    rmSync(join(dir, '.gitbook/assets/logo.png'));
    symlinkSync(outside, join(dir, '.gitbook/assets/logo.png'));
    // Main changes: a page, and a file replaced by another of the same name (its path is the link's).
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hello again.\n' });
    fake.store.deleteFile(space.id, logo.id);
    fake.store.addFile(space.id, { name: 'logo.png', contentType: 'image/png', bytes: PNG });
    write(dir, 'brand.md', '# Brand\n\nOur logo, edited:\n\n![Logo](.gitbook/assets/logo.png)\n');

    for (let round = 0; round < 2; round++) {
      const run = await syncOnce(fake, root);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(/\.gitbook\/assets\/logo\.png is left alone .*symbolic link/);
      expect(run.stderr).not.toMatch(/Refusing|Nothing was read or written/);
      expect(lstatSync(join(dir, '.gitbook/assets/logo.png')).isSymbolicLink()).toBe(true);
      expect(readFileSync(outside).equals(PNG2)).toBe(true);
      expect(read(dir, 'README.md')).toContain('Hello again.'); // pulled
      expect(crPage('Brand').markdown).toContain('Our logo, edited:'); // pushed
      expect(sentChanges().filter((c) => c.operation === 'insert_files')).toEqual([]); // the outside file never goes up
    }
    expect((await status(root)).code).toBe(0);
  });

  it('the assets folder replaced by a symbolic link is never read through: nothing is uploaded, nothing taken for deleted', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'private.png'), PNG2);
    rmSync(join(dir, '.gitbook/assets'), { recursive: true });
    symlinkSync(outside, join(dir, '.gitbook/assets'));
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hello again.\n' });
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/\.gitbook\/assets is left alone .*symbolic link/);
    expect(run.stderr).not.toMatch(/still shows it/);
    expect(read(dir, 'README.md')).toContain('Hello again.');
    expect(sentChanges()).toEqual([]);
    expect(readdirSync(outside)).toEqual(['private.png']);
  });
});
