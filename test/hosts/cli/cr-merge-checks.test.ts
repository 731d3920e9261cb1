/**
 * Issue 30, item 7 through the command line against the fake: `cr merge` is held back, with the
 * reason, while a page of the change request has an open conflict in the folder or `quire check`
 * finds errors in it; `--force` goes past these local checks (never past the server's rules).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
const merges = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/merge'));

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  alex = fake.store.addUser({ displayName: 'Alex Rivera' });
  const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'FAQ', markdown: 'Questions.\n' },
      { title: 'Changelog', markdown: 'Nothing yet.\n' },
    ],
  });
  cr = fake.store.addChangeRequest(space.id, { subject: 'Answers', createdBy: alex.id });
  fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'FAQ').id, { markdown: 'Questions, and answers.\n' }, { changeRequest: cr.id });
  fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hi there.\n' }, { changeRequest: cr.id });
  expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

/** The writer and main both change FAQ: the folder holds a conflict on it. */
async function conflictOnFaq(): Promise<void> {
  writeFileSync(join(dir, 'guide', 'faq.md'), '# FAQ\n\nMine.\n');
  fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'FAQ').id, { markdown: 'Theirs.\n' });
  expect((await run('sync', '--once')).code).toBe(3);
}

describe('merging deliberately', () => {
  it('is held back while a page of the change request has an open conflict in the folder; --force merges', async () => {
    await conflictOnFaq();
    fake.resetLog();
    const held = await run('cr', 'merge', '1');
    expect(held.code).toBe(1);
    expect(held.stdout).toBe(
      'Merging #1: held back — “FAQ” (faq.md) has an open conflict in your folder: resolve it first (`quire status` shows it). `quire cr merge 1 --force` merges anyway (the server’s merge rules still apply).',
    );
    expect(merges()).toEqual([]);
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('open');
    const shown = JSON.parse((await run('cr', 'show', '1', '--json')).stdout);
    expect(shown.blockers.mergeLocally).toEqual([expect.objectContaining({ code: 'conflict', message: expect.stringContaining('“FAQ” (faq.md)') })]);

    const forced = await run('cr', 'merge', '1', '--force');
    expect(forced.stdout, forced.stderr).toMatch(/^Merging #1: merged into main/);
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('merged');
  });

  it('is held back while `quire check` finds errors in a page of it; a problem elsewhere does not hold it', async () => {
    writeFileSync(join(dir, 'guide', 'README.md'), '# Welcome\n\n{% hint style="info" %}\nNever closed.\n');
    writeFileSync(join(dir, 'guide', 'changelog.md'), '# Changelog\n\n{% hint style="info" %}\nNot in the change request.\n');
    const held = await run('cr', 'merge', '1');
    expect(held.code).toBe(1);
    expect(held.stdout).toMatch(
      /^Merging #1: held back — `quire check` finds 1 error in “Welcome” \(README\.md, line 3: .+\)\. `quire cr merge 1 --force` merges anyway/,
    );
    expect(held.stdout).not.toMatch(/Changelog/);
    expect(merges()).toEqual([]);

    writeFileSync(join(dir, 'guide', 'README.md'), '# Welcome\n\nHi there.\n');
    const merged = await run('cr', 'merge', '1');
    expect(merged.stdout).toMatch(/^Merging #1: merged into main/);
  });

  it('--force never goes past the server’s rules', async () => {
    fake.store.review.setMergeRules({ space: space.id }, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
    await conflictOnFaq();
    const forced = await run('cr', 'merge', '1', '--force');
    expect(forced.code).toBe(1);
    expect(forced.stdout).toMatch(/^Merging #1: refused by the server — .*at least one approved review is required/);
    expect(fake.store.changeRequest(space.id, cr.id).status).toBe('open');
  });
});
