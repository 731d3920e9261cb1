/**
 * Issue 30, item 4 through the command line against the fake: a reviewer marks pages of a change
 * request viewed (`cr viewed <n> <page> [--unset]`); `cr show` and `cr list` say how many of its
 * pages are viewed, and a mark clears itself when the page changes in a later revision of the
 * change request (the page is then said to have changed since).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { ChangeRequestRec, SpaceRec, UserRec } from '../../fake/model';
import { quire, tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let space: SpaceRec;
let cr: ChangeRequestRec;
let alex: UserRec;

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env: { QUIRE_TOKEN: fake.token } });
const shown = async () => JSON.parse((await run('cr', 'show', '1', '--json')).stdout);

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  alex = fake.store.addUser({ displayName: 'Alex Rivera' });
  const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'Install', markdown: 'npm i\n' },
      { title: 'Setup', markdown: 'Set it up.\n' },
    ],
  });
  cr = fake.store.addChangeRequest(space.id, { subject: 'Better setup', createdBy: alex.id });
  const onCr = { changeRequest: cr.id };
  fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Setup').id, { markdown: 'Set it up, well.\n' }, onCr);
  fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Install').id, { markdown: 'npm install quire\n' }, onCr);
  fake.store.addPage(space.id, { title: 'Upgrade', markdown: 'npm update\n' }, onCr);
  expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

describe('viewed pages', () => {
  it('are counted in `cr show` and `cr list`, and a mark clears itself when the page changes in a later revision', async () => {
    expect((await run('cr', 'show', '1')).stdout).toMatch(/ {2}pages changed \(3\), 0 of 3 viewed:/);

    const marked = await run('cr', 'viewed', '1', 'guide/setup.md');
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stdout).toBe('Marked “Setup” viewed in #1: 1 of 3 pages viewed.');
    // A page only the change request has is named by its path there.
    expect((await run('cr', 'viewed', '1', 'upgrade')).stdout).toBe('Marked “Upgrade” viewed in #1: 2 of 3 pages viewed.');
    expect((await run('cr', 'viewed', '1', 'guide/install.md')).stdout).toBe('Marked “Install” viewed in #1: 3 of 3 pages viewed.');
    expect((await run('cr', 'viewed', '1', 'guide/install.md', '--unset')).stdout).toBe('Marked “Install” not viewed in #1: 2 of 3 pages viewed.');

    const missing = await run('cr', 'viewed', '1', 'guide/welcome.md');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/guide\/welcome\.md is not a page #1 changes \(it changes: .*Setup.*\)/);

    expect((await run('cr', 'list')).stdout).toMatch(/^#1 Better setup — Alex Rivera in Guide \[open, 2 of 3 pages viewed\]$/m);
    expect((await run('cr', 'list', '--json')).stdout).toContain('"pagesViewed": {\n        "viewed": 2,\n        "total": 3\n      }');
    const before = await shown();
    expect(before.pagesViewed).toEqual({ viewed: 2, total: 3 });
    expect(before.pages.map((p: { title: string; viewed: boolean }) => [p.title, p.viewed])).toEqual([
      ['Install', false],
      ['Setup', true],
      ['Upgrade', true],
    ]);

    // Alex changes Setup again: the change request has a new revision, and the mark on Setup is stale.
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Setup').id, { markdown: 'Set it up, really well.\n' }, { changeRequest: cr.id });
    const text = (await run('cr', 'show', '1')).stdout;
    expect(text).toMatch(/ {2}pages changed \(3\), 1 of 3 viewed:/);
    expect(text).toMatch(/modified +Setup \(setup\.md\) — changed since you viewed it/);
    expect(text).toMatch(/added +Upgrade \(upgrade\) — viewed/);
    const after = await shown();
    expect(after.pages.find((p: { title: string }) => p.title === 'Setup')).toMatchObject({ viewed: false, changedSinceViewed: true });
    expect(after.pages.find((p: { title: string }) => p.title === 'Upgrade')).toMatchObject({ viewed: true, changedSinceViewed: false });

    // Offline, marks are kept against the pages as last fetched.
    fake.faults.offline = true;
    expect((await run('cr', 'viewed', '1', 'guide/setup.md')).stdout).toBe('Marked “Setup” viewed in #1: 2 of 3 pages viewed.');
    expect((await run('cr', 'list')).stdout).toMatch(/\[open, 2 of 3 pages viewed\]/);
  });
});
