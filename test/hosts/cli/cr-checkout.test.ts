/**
 * Issue 30, item 5 against the fake API: `quire cr checkout <n> --to <folder>` writes the change
 * request as a read-only folder in GitBook's layout (assets included, links as relative paths),
 * with main at its base beside it; `quire check` passes on it, `quire preview` shows each page
 * before and after, and `quire sync` (or the command again) brings it to a new revision, keeping
 * a file changed in the checkout and saying so. The folder is refused inside the sync folder.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/core/mirror';
import { startPreview } from '../../../src/main/hosts/preview';
import { startFakeApi, type FakeApi } from '../../fake';
import type { ChangeRequestRec, SpaceRec } from '../../fake/model';
import { quire, tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

const PNG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);

let fake: FakeApi;
let dir: string;
let co: string;
let env: NodeJS.ProcessEnv;
let space: SpaceRec;
let cr: ChangeRequestRec;

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env });
const read = (...parts: string[]) => readFileSync(join(co, ...parts), 'utf8');
const mode = (...parts: string[]) => statSync(join(co, ...parts)).mode & 0o777;

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  co = join(tempDir(), 'review-1');
  env = { QUIRE_TOKEN: fake.token };
  const alex = fake.store.addUser({ displayName: 'Alex Rivera' });
  const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hello.\n' },
      { title: 'Install', markdown: 'Run the installer.\n' },
      { title: 'Setup', markdown: 'Set it up.\n' },
    ],
  });
  const logo = fake.store.addFile(space.id, { name: 'logo.png', contentType: 'image/png', bytes: PNG });
  const install = fake.store.pageByTitle(space.id, 'Install').id;
  const setup = fake.store.pageByTitle(space.id, 'Setup').id;
  cr = fake.store.addChangeRequest(space.id, { subject: 'Better install', createdBy: alex.id });
  fake.store.editPage(
    space.id,
    install,
    { markdown: `Run the installer, then [set it up](/pages/${setup}).\n\n![Logo](/files/${logo.id})\n` },
    { changeRequest: cr.id },
  );
  fake.store.addPage(space.id, { title: 'FAQ', markdown: 'Questions.\n' }, { changeRequest: cr.id });
  expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

describe('quire cr checkout', () => {
  it('writes the change request read-only in GitBook’s layout, main at its base beside it, and `quire check` passes on it', async () => {
    const r = await run('cr', 'checkout', '1', '--to', co);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Checked out #1 Better install into .*review-1: 4 pages and 1 file, read-only; main at its base is in \.quire-checkout\/before\./,
    );
    expect(read('install.md')).toBe('# Install\n\nRun the installer, then [set it up](setup.md).\n\n![Logo](.gitbook/assets/logo.png)\n');
    expect(read('faq.md')).toBe('# FAQ\n\nQuestions.\n');
    expect(read('SUMMARY.md')).toContain('* [FAQ](faq.md)');
    expect(readFileSync(join(co, '.gitbook/assets/logo.png'))).toEqual(PNG);
    for (const f of ['install.md', 'faq.md', 'README.md', 'SUMMARY.md', '.gitbook/assets/logo.png']) expect(mode(f), f).toBe(0o444);
    expect(read('.quire-checkout/before/install.md')).toBe('# Install\n\nRun the installer.\n');
    expect(existsSync(join(co, '.quire-checkout/before/faq.md'))).toBe(false);

    const check = await quire(['check', '--dir', co]);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toMatch(/Checked 1 space: 0 errors/);
  });

  it('previews any page before and after, each linking to the other side', async () => {
    await run('cr', 'checkout', '1', '--to', co);
    const server = await startPreview({ dir: co, log: () => undefined });
    try {
      const page = async (url: string) => {
        const res = await fetch(url);
        expect(res.status, url).toBe(200);
        return res.text();
      };
      const base = server.url.replace(/\/?$/, '/');
      const after = await page(`${base}install.md`);
      expect(after).toContain('Run the installer, then');
      expect(after).toMatch(/Change request #1 Better install.*edited by this change request/);
      const beforeHref = /<a class="pv-side" data-side="before" href="([^"]+)">Before<\/a>/.exec(after)?.[1];
      expect(beforeHref).toBeDefined();
      const before = await page(`${server.origin}${beforeHref!.replace(/&amp;/g, '&')}`);
      expect(before).toContain('Run the installer.');
      expect(before).not.toContain('then');
      expect(before).toMatch(/<a class="pv-side" data-side="after" href="[^"]+install\.md">After<\/a>/);
      const faq = await page(`${base}faq.md`);
      expect(faq).toMatch(/Before: not in main/);
      expect(faq).toContain('new in this change request');
    } finally {
      await server.close();
    }
  });

  it('follows a new revision with `quire sync`, keeping a file changed in the checkout and saying so; again by `cr checkout`', async () => {
    await run('cr', 'checkout', '1', '--to', co);
    chmodSync(join(co, 'faq.md'), 0o644);
    writeFileSync(join(co, 'faq.md'), 'My own notes.\n');
    const setup = fake.store.pageByTitle(space.id, 'Setup', { changeRequest: cr.id }).id;
    fake.store.editPage(space.id, setup, { markdown: 'Set it up, carefully.\n' }, { changeRequest: cr.id });
    fake.store.editPage(
      space.id,
      fake.store.pageByTitle(space.id, 'FAQ', { changeRequest: cr.id }).id,
      { markdown: 'More questions.\n' },
      { changeRequest: cr.id },
    );

    fake.resetLog();
    const sync = await run('sync', '--once');
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/The checkout of #1 Better install in .*review-1 is at its latest revision: 1 file written, 0 removed\./);
    expect(sync.stderr).toMatch(
      /1 file of the checkout in .*review-1 changed there and kept as it is, not the change request's: faq\.md\. Nothing in a checkout is pushed/,
    );
    expect(read('setup.md')).toBe('# Setup\n\nSet it up, carefully.\n');
    expect(mode('setup.md')).toBe(0o444);
    expect(read('faq.md')).toBe('My own notes.\n');
    // Only the pages whose document changed were read, each once: the checkout takes the text the
    // review refresh read for the change request's diff. Nothing of the checkout went to the server.
    const pageReads = fake.requests.filter((q) => /\/revisions\/[^/]+\/page\//.test(q.path) && q.query['format.markdown.refs'] === 'stable').map((q) => q.path);
    expect(new Set(pageReads).size).toBe(pageReads.length);
    expect(pageReads.length).toBeLessThanOrEqual(4); // Setup and FAQ after, and before where they differ
    expect(fake.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(fake.store.pageByTitle(space.id, 'FAQ', { changeRequest: cr.id }).markdown).toBe('More questions.\n');

    // A second sync has nothing to do for it.
    fake.resetLog();
    const quiet = await run('sync', '--once');
    expect(quiet.stdout).not.toMatch(/checkout/);
    expect(fake.requests.filter((q) => /\/revisions\//.test(q.path) && q.query['format.markdown.refs'] === 'stable')).toEqual([]);

    // Deleted, the changed file comes back as the change request has it.
    rmSync(join(co, 'faq.md'));
    const again = await run('cr', 'checkout', '1', '--to', co);
    expect(again.stdout).toMatch(/is at its latest revision: 1 file written/);
    expect(again.stderr).toBe('');
    expect(read('faq.md')).toBe('# FAQ\n\nMore questions.\n');
  });

  it('is refused inside the sync folder, in a folder holding other files, or in another change request’s checkout', async () => {
    const inside = await run('cr', 'checkout', '1', '--to', join(dir, 'review'));
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/--to .*review is inside the sync folder .*: its files would be taken for edits to push\. Choose a folder outside it/);
    const inSpace = await run('cr', 'checkout', '1', '--to', join(dir, 'guide'));
    expect(inSpace.code).toBe(2);
    // Nor through a link that leads into it.
    const link = join(tempDir(), 'into-sync');
    symlinkSync(dir, link);
    const linked = await run('cr', 'checkout', '1', '--to', join(link, 'review'));
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/is inside the sync folder/);
    expect(existsSync(join(dir, 'review'))).toBe(false);
    mkdirSync(co, { recursive: true });
    writeFileSync(join(co, 'notes.md'), 'mine\n');
    const busy = await run('cr', 'checkout', '1', '--to', co);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/already holds files that are not a checkout: choose an empty or new folder/);
    expect(read('notes.md')).toBe('mine\n');

    const other = join(tempDir(), 'review-2');
    fake.store.addChangeRequest(space.id, { subject: 'Another' });
    await run('sync', '--once');
    expect((await run('cr', 'checkout', '2', '--to', other)).code).toBe(0);
    const wrong = await run('cr', 'checkout', '1', '--to', other);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/holds the checkout of change request #2: choose another folder/);
  });

  it('offline, writes nothing and says it needs the server', async () => {
    fake.faults.offline = true;
    const r = await run('cr', 'checkout', '1', '--to', co);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Checking out #1 needs the server's content, and the API is not reachable now \(.*\)\. Run it again when online/);
    expect(existsSync(co)).toBe(false);
  });

  it('a folder that no longer holds the checkout is no longer followed', async () => {
    await run('cr', 'checkout', '1', '--to', co);
    rmSync(co, { recursive: true, force: true });
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'FAQ', { changeRequest: cr.id }).id, { markdown: 'Later.\n' }, { changeRequest: cr.id });
    const sync = await run('sync', '--once');
    expect(sync.stderr).toMatch(/review-1 no longer holds the checkout of #1: Quire stops keeping it current\./);
    expect(existsSync(co)).toBe(false);
    const mirror = Mirror.open(dir);
    try {
      expect(mirror.checkouts.list()).toEqual([]);
    } finally {
      mirror.close();
    }
  });
});
