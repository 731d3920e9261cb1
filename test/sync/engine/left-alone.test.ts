/**
 * Issue 9, items 2 and 5: nothing is mistaken for a delete, and text Quire cannot push
 * faithfully is not pushed. A path Quire cannot or will not read (a symlink, a device, a name
 * that is not UTF-8, text that is not UTF-8 or holds NUL bytes, a page over 1 MiB) is reported
 * and left alone, the rest of the space still syncs, and the cycle exits 3; a space folder that
 * vanished stops that space only, deletes nothing, and re-inserts nothing when it comes back.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { contentBatches, openChangeRequests, pageByTitle, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

type Change = { operation: string; page?: string };
const sent = (): Change[] => contentBatches(fake).flatMap((r) => (r.body as { changes: Change[] }).changes);
const deletes = () => sent().filter((c) => c.operation === 'delete_page');
/** Another edit in the same space, to see that the rest still syncs. */
const editElsewhere = () => write(dir, 'changelog.md', '# Changelog\n\nVersion 2.\n');
const changelogPushed = () => {
  const [cr] = openChangeRequests(fake, space.id);
  return cr !== undefined && fake.store.pageByTitle(space.id, 'Changelog', { changeRequest: cr.id }).markdown === 'Version 2.\n';
};

describe('paths Quire cannot or will not read', () => {
  it('a page file replaced by a symbolic link is left alone, never deleted nor followed', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.md'), '# Secret\n\nNot for the server.\n');
    rmSync(join(dir, 'faq.md'));
    symlinkSync(join(outside, 'secret.md'), join(dir, 'faq.md'));
    editElsewhere();

    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/faq\.md is left alone .*symbolic link/);
    expect(deletes()).toEqual([]);
    expect(JSON.stringify(sent())).not.toContain('Not for the server');
    expect(changelogPushed()).toBe(true);
  });

  it('a folder replaced by a symbolic link: none of the pages behind it is deleted', async () => {
    const outside = tempDir();
    renameSync(join(dir, 'getting-started'), join(outside, 'moved-away'));
    symlinkSync(join(outside, 'moved-away'), join(dir, 'getting-started'));

    const run = await syncOnce(fake, root, '--allow-deletes');
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/getting-started is left alone .*symbolic link/);
    expect(deletes()).toEqual([]);
  });

  it('a pipe where a page file was is left alone', async () => {
    rmSync(join(dir, 'faq.md'));
    execFileSync('mkfifo', [join(dir, 'faq.md')]);
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/faq\.md is left alone .*not a regular file/);
    expect(deletes()).toEqual([]);
  });

  it('a file whose name is not UTF-8 is left alone and the rest syncs', async () => {
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]), '# Bad name\n');
    editElsewhere();
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/is left alone .*not valid UTF-8; rename it/);
    expect(sent().filter((c) => c.operation === 'insert_page')).toEqual([]);
    expect(changelogPushed()).toBe(true);
  });

  it('a UTF-8 name holding the replacement character, beside one that is not UTF-8, is a page like any other', async () => {
    writeFileSync(join(dir, 'odd-\uFFFD.md'), '# Odd name\n\nStill a page.\n');
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]), '# Bad name\n');
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/bad-.*is left alone .*not valid UTF-8; rename it/);
    expect(run.stderr).not.toMatch(/odd-/);
    expect(sent().filter((c) => c.operation === 'insert_page')).toEqual([expect.objectContaining({ operation: 'insert_page' })]);
    const [cr] = openChangeRequests(fake, space.id);
    expect(fake.store.pageByTitle(space.id, 'Odd name', { changeRequest: cr!.id }).markdown).toBe('Still a page.\n');
  });
});

describe('text Quire cannot push faithfully', () => {
  for (const [what, bytes, words] of [
    ['Latin-1 text', Buffer.concat([Buffer.from('# FAQ\n\nQuestions, caf'), Buffer.from([0xe9]), Buffer.from('.\n')]), /not UTF-8.*save it as UTF-8/],
    ['a NUL byte', Buffer.from('# FAQ\n\nQuestions.\u0000\n'), /NUL bytes/],
    ['over 1 MiB', Buffer.from(`# FAQ\n\n${'Questions. '.repeat(100_000)}\n`), /over 1 MiB.*split it/],
  ] as const) {
    it(`${what}: held with the file name and what to do; nothing is pushed for it`, async () => {
      writeFileSync(join(dir, 'faq.md'), bytes);
      editElsewhere();
      const run = await syncOnce(fake, root);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(new RegExp(`faq\\.md is left alone .*${words.source}`));
      const faq = pageByTitle(fake, space.id, 'FAQ').id;
      expect(sent().filter((c) => c.page === faq)).toEqual([]);
      expect(changelogPushed()).toBe(true);
      // Saved as UTF-8 text again, it is pushed.
      writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nQuestions, café.\n');
      expect((await syncOnce(fake, root)).code).toBe(0);
      const [cr] = openChangeRequests(fake, space.id);
      expect(fake.store.pageByTitle(space.id, 'FAQ', { changeRequest: cr!.id }).markdown).toBe('Questions, café.\n');
    });
  }
});

describe('a space folder that vanished', () => {
  it('stops that space only, deletes nothing even with --allow-deletes, and re-inserts nothing when it is back', async () => {
    const other = fake.store.addSpace(fake.store.space(space.id).orgId, { title: 'Notes', pages: [{ title: 'Todo', markdown: 'Buy milk.\n' }] });
    expect((await syncOnce(fake, root)).code).toBe(0);
    const aside = join(tempDir(), 'guide-away');
    renameSync(dir, aside);
    write(join(root, 'notes'), 'README.md', '# Todo\n\nBuy milk and bread.\n');
    fake.resetLog();

    const run = await syncOnce(fake, root, '--allow-deletes');
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/The folder of “Guide” \(guide\) is missing, so it was not synced and nothing was deleted/);
    expect(deletes()).toEqual([]);
    const [notesCr] = openChangeRequests(fake, other.id);
    expect(fake.store.pageByTitle(other.id, 'Todo', { changeRequest: notesCr!.id }).markdown).toBe('Buy milk and bread.\n');

    mkdirSync(root, { recursive: true });
    renameSync(aside, dir);
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(0);
    expect(readFileSync(join(dir, 'faq.md'), 'utf8')).toContain('Questions.');
  });
});

describe('a SUMMARY.md Quire cannot read (issue 17, item 11)', () => {
  it('is reported and left alone, never written over, until saved as UTF-8; then its edit is taken', async () => {
    const utf8 = readFileSync(join(dir, 'SUMMARY.md'), 'utf8');
    // The writer reorders two entries and saves in Latin-1 (a title with an accent shows it).
    const edited = utf8
      .replace('* [FAQ](faq.md)\n* [Changelog](changelog.md)\n', '* [Changelog](changelog.md)\n* [FAQ](faq.md)\n')
      .replace('# Table of contents', '# Table des matières');
    expect(edited).not.toBe(utf8);
    const latin1 = Buffer.from(edited, 'latin1');
    writeFileSync(join(dir, 'SUMMARY.md'), latin1);
    // Main gains a page: the tree changes, so Quire would write SUMMARY.md again.
    fake.store.addPage(space.id, { title: 'Roadmap', markdown: 'Soon.\n' });

    for (let round = 0; round < 2; round++) {
      const run = await syncOnce(fake, root);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/SUMMARY\.md is left alone .*not UTF-8.*save it as UTF-8/);
      expect(readFileSync(join(dir, 'SUMMARY.md')).equals(latin1)).toBe(true);
      expect(readFileSync(join(dir, 'roadmap.md'), 'utf8')).toContain('Soon.'); // the rest syncs
      expect(sent().filter((c) => c.operation === 'update_page')).toEqual([]); // nothing guessed from it
    }

    writeFileSync(join(dir, 'SUMMARY.md'), edited);
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    const changelog = pageByTitle(fake, space.id, 'Changelog').id;
    const faq = pageByTitle(fake, space.id, 'FAQ').id;
    expect(
      sent()
        .filter((c) => c.operation === 'update_page')
        .map((c) => c.page),
    ).toEqual([expect.stringMatching(new RegExp(`^(${changelog}|${faq})$`))]);
    const summary = readFileSync(join(dir, 'SUMMARY.md'), 'utf8');
    expect(summary).toMatch(/\[Changelog\]\(changelog\.md\)\n\* \[FAQ\]\(faq\.md\)/);
    expect(summary).toContain('[Roadmap](roadmap.md)');
  });

  it('a SUMMARY.md replaced by a symbolic link is left alone, never followed nor written through', async () => {
    const outside = join(tempDir(), 'elsewhere.md');
    writeFileSync(outside, '# Not Quire’s\n');
    rmSync(join(dir, 'SUMMARY.md'));
    symlinkSync(outside, join(dir, 'SUMMARY.md'));
    fake.store.addPage(space.id, { title: 'Roadmap', markdown: 'Soon.\n' });
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/SUMMARY\.md is left alone .*symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('# Not Quire’s\n');
    expect(lstatSync(join(dir, 'SUMMARY.md')).isSymbolicLink()).toBe(true);
  });
});
