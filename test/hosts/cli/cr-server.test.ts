/**
 * What a change request command must not take from the mirror alone, through the whole command
 * line in process against the fake: `cr use` points pushes only at a change request the server
 * confirms is yours, and `cr show` online shows the change request and its merge rules as the
 * server has them now.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import type { SpaceRec, UserRec } from '../../fake/model';
import { quire, tempDir } from '../../helpers/cli';

let fake: FakeApi;
let dir: string;
let space: SpaceRec;
let dana: UserRec;
let sam: UserRec;

const run = (...argv: string[]) => quire([...argv, '--dir', dir], { env: { QUIRE_TOKEN: fake.token } });
const json = async (...argv: string[]) => {
  const r = await run(...argv, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

beforeEach(async () => {
  fake = await startFakeApi();
  dana = fake.store.addUser({ displayName: 'Dana Lee', email: 'dana@example.com' });
  sam = fake.store.addUser({ displayName: 'Sam Okafor', email: 'sam@example.com' });
  const org = fake.store.addOrg({ title: 'Acme', members: [dana.id, sam.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'Install', markdown: 'npm i\n' },
    ],
  });
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

describe('`cr use` points pushes only at a change request the server confirms is yours', () => {
  it('while Quire does not know who you are, offline, it points nowhere; online the server decides', async () => {
    const theirs = fake.store.addChangeRequest(space.id, { subject: 'Dana’s draft', createdBy: dana.id });
    const mine = fake.store.addChangeRequest(space.id, { subject: 'My topic' });
    expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
    // A mirror that does not know who you are yet (as one written before Quire learnt it).
    const db = new Database(join(dir, '.quire', 'mirror.db'));
    db.prepare(`DELETE FROM meta WHERE key = 'review.me'`).run();
    db.close();

    fake.faults.offline = true;
    for (const n of [theirs.number, mine.number]) {
      const offline = await run('cr', 'use', String(n));
      expect(offline.code).toBe(1);
      expect(offline.stdout).toMatch(
        new RegExp(
          `^Sending the edits of this space to #${n}: not possible — Quire cannot tell yet that it is yours \\(.+\\); run it again when the API is reachable\\.$`,
        ),
      );
    }
    fake.faults.offline = false;
    appendFileSync(join(dir, 'guide', 'install.md'), 'Mine.\n');
    expect((await run('sync', '--once')).code).toBe(0);
    expect(fake.store.pages(space.id, { changeRequest: theirs.number }).some((p) => p.markdown.includes('Mine.'))).toBe(false);

    expect((await run('cr', 'use', String(theirs.number))).stdout).toMatch(
      /not possible — it is Dana Lee's; Quire pushes only into your own change requests\.$/,
    );
    expect((await run('cr', 'use', String(mine.number))).stdout).toBe(`The edits of Guide now go into change request #${mine.number} “My topic”.`);
    // Offline, one this folder's pushes went into is known to be yours: going back to it needs no answer.
    fake.faults.offline = true;
    expect((await run('cr', 'use', '3')).stdout).toBe('The edits of Guide now go into change request #3 “Edit ‘Install’”.');
  });
});

describe('`cr show` online shows the change request as the server has it now', () => {
  it('archived, renamed or merged since the last refresh', async () => {
    const renamed = fake.store.addChangeRequest(space.id, { subject: 'Old subject', createdBy: dana.id });
    const merged = fake.store.addChangeRequest(space.id, { subject: 'To merge', createdBy: dana.id });
    expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
    fake.store.updateChangeRequestFields(space.id, renamed.id, { subject: 'New subject', status: 'archived' });
    fake.store.mergeChangeRequest(space.id, merged.id);

    expect(await json('cr', 'show', '1')).toMatchObject({ subject: 'New subject', status: 'archived' });
    expect((await run('cr', 'show', '1')).stdout).toMatch(/^#1 New subject\n {2}archived — in Guide, by Dana Lee/);
    expect(await json('cr', 'show', '2')).toMatchObject({ subject: 'To merge', status: 'merged' });
  });

  it('after a merge refused by a rule, names the reviewer whose approval it waits for', async () => {
    fake.store.addChangeRequest(space.id, { subject: 'Warmer welcome', createdBy: dana.id });
    expect((await run('sync', '--api', fake.url, '--once')).code).toBe(0);
    fake.store.review.setMergeRules({ space: space.id }, { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [sam.id] }] });

    const merge = await run('cr', 'merge', '1');
    expect(merge.stdout).toMatch(/^Merging #1: refused by the server — .*approval from Sam Okafor is required/);
    const shown = await json('cr', 'show', '1');
    expect(shown.blockers.merge).toEqual([{ code: 'rule', message: 'the merge rules ask for approval from Sam Okafor' }]);
    expect((await run('cr', 'show', '1')).stdout).toMatch(/merge: blocked — the merge rules ask for approval from Sam Okafor/);
  });
});
