/**
 * The review refresh `quire sync` ends with does not fetch the diff of the change request its own
 * push just moved (a head's page list is the whole tree: 15 MB over 20,000 pages, for a one-page
 * edit); `quire cr diff` fetches it when asked. A change request moved by someone else (an edit in
 * GitBook's editor) still has its diff fetched by the refresh, for review offline.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;

beforeAll(() => buildCli(), 120_000);
beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const quire = async (...args: string[]) => {
  fake.resetLog();
  const { code, stdout, stderr } = await startQuire([...args, '--dir', dir], { QUIRE_TOKEN: fake.token }).exited;
  expect(code, stderr).toBe(0);
  return stdout;
};
/** The revisions whose page list the last command fetched. */
const pageListsFetched = () => fake.requests.filter((r) => /^\/v1\/spaces\/[^/]+\/revisions\/[^/]+\/pages$/.test(r.path)).map((r) => r.path.split('/')[5]);

describe('the diff of the change request quire sync writes into', () => {
  it('is not fetched after a push of its own, is fetched when asked, and is fetched after someone else moves it', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const space = fake.store.addSpace(org.id, {
      title: 'Guide',
      pages: [
        { title: 'Welcome', markdown: 'Hi.\n' },
        { title: 'Setup', markdown: 'Install the tool.\n' },
      ],
    });
    await quire('sync', '--api', fake.url, '--once');

    appendFileSync(join(dir, 'guide', 'setup.md'), '\nThen configure it.\n');
    expect(await quire('sync', '--api', fake.url, '--once')).toContain('1 page pushed to change request #1');
    expect(pageListsFetched()).toEqual([]);
    const cr = fake.store.changeRequest(space.id, 1);

    const diff = await quire('cr', 'diff', '1');
    expect(diff).toContain('+Then configure it.');
    expect(pageListsFetched().sort()).toEqual([cr.revisionId, cr.revisionInitial].sort());

    // Someone edits the change request in GitBook's editor: its new head is not this folder's push.
    fake.store.editPage(space.id, fake.store.pageByTitle(space.id, 'Welcome').id, { markdown: 'Hello.\n' }, { changeRequest: cr.id });
    await quire('sync', '--api', fake.url, '--once');
    expect(pageListsFetched()).toEqual([fake.store.changeRequest(space.id, 1).revisionId]);
  });
});
