/**
 * One sync state (issue 18, item 1) through the command line: every state `quire status` can
 * report, reached as a writer reaches it (syncing, editing, deleting, the server changing, the
 * token revoked, the API down, a reply queued offline), each with its reasons and what to do.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { seedGuide } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
const env = () => ({ QUIRE_TOKEN: fake.token });
const sync = (...extra: string[]) => quire(['sync', '--api', fake.url, '--dir', root, '--once', ...extra], { env: env() });

interface StatusJson {
  state: string;
  reasons: { kind: string; spaceId: string | null; path?: string; message: string; action: string }[];
  lastReachedServerAt: string | null;
  offlineSince: string | null;
  apiUrl: string | null;
  selection: { mode: string; spaceIds: string[] };
  spaces: { spaceId: string; state: string; reasons: { kind: string }[]; lastReachedServerAt: string | null }[];
}

async function status(): Promise<StatusJson> {
  const run = await quire(['status', '--dir', root, '--json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as StatusJson;
}

async function statusText(): Promise<string> {
  const run = await quire(['status', '--dir', root]);
  expect(run.code).toBe(0);
  return run.stdout;
}

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  root = tempDir();
});
afterEach(async () => {
  await fake.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

describe('quire status: the sync state', () => {
  it('never synced: not set up, and says to choose spaces', async () => {
    const s = await status();
    expect(s).toMatchObject({ state: 'not-set-up', lastReachedServerAt: null, spaces: [] });
    expect(s.reasons).toEqual([expect.objectContaining({ kind: 'no-space-chosen', spaceId: null, action: 'choose-spaces' })]);
    const text = await statusText();
    expect(text.split('\n')[0]).toBe('State: Not set up');
    expect(text).toMatch(/to do: run `quire sync --dir .* --once --space <spaceId>`/);
  });

  it('a folder that does not exist yet: not set up, and status creates nothing (it only reads)', async () => {
    const missing = join(root, 'not-yet');
    const run = await quire(['status', '--dir', missing, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ state: 'not-set-up', spaces: [] });
    expect(existsSync(missing)).toBe(false);
    const inRoot = await quire(['status', '--dir', root]);
    expect(inRoot.stdout.split('\n')[0]).toBe('State: Not set up');
    expect(existsSync(join(root, '.quire'))).toBe(false);
  });

  it('in sync after a sync that reached the server; last sync is that cycle', async () => {
    const before = new Date().toISOString();
    expect((await sync()).code).toBe(0);
    const s = await status();
    expect(s.state).toBe('in-sync');
    expect(s.reasons).toEqual([]);
    expect(s.lastReachedServerAt).toMatch(ISO);
    expect(s.lastReachedServerAt! >= before).toBe(true);
    expect(s.spaces).toEqual([expect.objectContaining({ spaceId: space.id, state: 'in-sync', reasons: [], lastReachedServerAt: s.lastReachedServerAt })]);
    expect((await statusText()).split('\n')[0]).toMatch(/^State: In sync — last sync \d{4}-/);
  });

  it('syncing while a cycle holds the folder (another process, the app)', async () => {
    expect((await sync()).code).toBe(0);
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\nQuestions, and answers.\n');
    fake.faults.latencyMs = 150;
    const running = sync();
    await expect.poll(async () => (await status()).state, { timeout: 10_000, interval: 20 }).toBe('syncing');
    const during = await status();
    expect(during.reasons).toContainEqual(expect.objectContaining({ kind: 'syncing', message: expect.stringMatching(/quire sync --once/) }));
    expect((await running).code).toBe(0);
    fake.faults.latencyMs = 0;
    expect((await status()).state).toBe('in-sync');
  });

  it('an edit not pushed yet: syncing (it waits for the next sync), then in sync', async () => {
    expect((await sync()).code).toBe(0);
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\nQuestions, and answers.\n');
    const s = await status();
    expect(s.state).toBe('syncing');
    expect(s.reasons).toEqual([expect.objectContaining({ kind: 'edits-waiting', spaceId: space.id, action: 'sync-now' })]);
    expect((await sync()).code).toBe(0);
    expect((await status()).state).toBe('in-sync');
  });

  it('a page held by the push guard needs you, with the file to fix', async () => {
    expect((await sync()).code).toBe(0);
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\n{% hint style="info" %}\nNever closed.\n');
    expect((await sync()).code).toBe(3);
    const s = await status();
    expect(s.state).toBe('needs-you');
    expect(s.reasons[0]).toMatchObject({
      kind: 'held-page',
      spaceId: space.id,
      path: 'faq.md',
      action: 'show-file',
      message: expect.stringMatching(/faq\.md is not pushed/),
    });
    const text = await statusText();
    expect(text.split('\n')[0]).toMatch(/^State: Needs you( —|$)/);
    expect(text).toMatch(/faq\.md is not pushed.*\n {4}to do: open .*guide\/faq\.md and fix it/);

    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\n{% hint style="info" %}\nClosed.\n{% endhint %}\n');
    expect((await sync()).code).toBe(0);
    expect((await status()).state).toBe('in-sync');
  });

  it('a mass-delete stop needs you, and offers to restore the files', async () => {
    expect((await sync()).code).toBe(0);
    for (const f of ['faq.md', 'changelog.md', 'getting-started/install.md', 'getting-started/configure.md']) rmSync(join(root, 'guide', f));
    expect((await sync()).code).toBe(3);
    const s = await status();
    expect(s.state).toBe('needs-you');
    expect(s.reasons[0]).toMatchObject({
      kind: 'mass-delete',
      spaceId: space.id,
      action: 'restore-deleted',
      message: expect.stringMatching(/Stopped before deleting most of “Guide”/),
    });
    expect(await statusText()).toMatch(/to do: `quire history --dir .*` lists the deleted pages/);
  });

  it('a conflict needs you, and names both files', async () => {
    expect((await sync()).code).toBe(0);
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\nMine.\n');
    const faq = fake.store.pageByTitle(space.id, 'FAQ');
    fake.store.editPage(space.id, faq.id, { markdown: 'Theirs.\n' });
    expect((await sync()).code).toBe(3);
    const s = await status();
    expect(s.state).toBe('needs-you');
    expect(s.reasons[0]).toMatchObject({ kind: 'conflict', path: 'faq.md', action: 'resolve-conflict', message: expect.stringMatching(/faq\.remote\.md/) });
  });

  it('a rejected token needs you: sign in again', async () => {
    expect((await sync()).code).toBe(0);
    const run = await quire(['sync', '--api', fake.url, '--dir', root, '--once'], { env: { QUIRE_TOKEN: 'revoked-token' } });
    expect(run.code).toBe(1);
    const s = await status();
    expect(s.state).toBe('needs-you');
    expect(s.reasons).toEqual([expect.objectContaining({ kind: 'token-rejected', spaceId: null, action: 'sign-in' })]);
    expect(await statusText()).toMatch(/to do: run `quire login --api http:\/\/127\.0\.0\.1:\d+`/);
    expect((await sync()).code).toBe(0);
    expect((await status()).state).toBe('in-sync');
  });

  it('the API down: offline since the first failed attempt, last sync still the one that reached it', async () => {
    expect((await sync()).code).toBe(0);
    const reached = (await status()).lastReachedServerAt;
    fake.faults.offline = true;
    expect((await quire(['sync', '--dir', root, '--once'], { env: env(), api: { maxAttempts: 1 } })).code).toBe(1);
    const first = await status();
    expect(first).toMatchObject({ state: 'offline', lastReachedServerAt: reached, offlineSince: expect.stringMatching(ISO) });
    expect(first.reasons).toEqual([expect.objectContaining({ kind: 'offline', spaceId: null, action: 'sync-now' })]);
    expect((await quire(['sync', '--dir', root, '--once'], { env: env(), api: { maxAttempts: 1 } })).code).toBe(1);
    expect((await status()).offlineSince).toBe(first.offlineSince);
    expect((await statusText()).split('\n')[0]).toBe(`State: Offline — since ${first.offlineSince}, last sync ${reached}`);

    fake.faults.offline = false;
    expect((await sync()).code).toBe(0);
    expect(await status()).toMatchObject({ state: 'in-sync', offlineSince: null });
  });

  it('a review action queued offline waits (syncing), is sent by the next sync (in sync)', async () => {
    const home = fake.store.pageByTitle(space.id, 'Welcome');
    const comment = fake.store.addComment(space.id, { body: 'Is this current?', page: home.id });
    expect((await sync()).code).toBe(0);
    expect((await quire(['review', '--dir', root, '--json'], { env: env() })).code).toBe(0);
    fake.faults.offline = true;
    expect((await quire(['comment', 'reply', comment.id, '--dir', root, '--body', 'Yes.'], { env: env() })).stdout).toMatch(/queued/);
    fake.faults.offline = false;
    const s = await status();
    expect(s.state).toBe('syncing');
    expect(s.reasons).toEqual([expect.objectContaining({ kind: 'actions-waiting', spaceId: null, message: expect.stringMatching(/^1 review action /) })]);
    expect((await sync()).code).toBe(0);
    expect((await status()).state).toBe('in-sync');
  });

  it('a space folder that vanished needs you', async () => {
    expect((await sync()).code).toBe(0);
    rmSync(join(root, 'guide'), { recursive: true });
    const s = await status();
    expect(s.state).toBe('needs-you');
    expect(s.reasons).toEqual([expect.objectContaining({ kind: 'missing-folder', spaceId: space.id, action: 'choose-spaces' })]);
  });

  it('an unsupported SUMMARY.md edit needs you, and stays said after the sync that found it', async () => {
    expect((await sync()).code).toBe(0);
    const summary = join(root, 'guide', 'SUMMARY.md');
    const { readFileSync } = await import('node:fs');
    writeFileSync(summary, `${readFileSync(summary, 'utf8')}\n## Tutorials\n`);
    expect((await sync()).code).toBe(3);
    const s = await status();
    expect(s.state).toBe('needs-you');
    expect(s.reasons[0]).toMatchObject({ kind: 'summary-edit', path: 'SUMMARY.md', action: 'show-file', message: expect.stringMatching(/new group/) });
  });
});

describe('quire status: the change request holding your edits', () => {
  it('lists it with its pages, counted among the open change requests', async () => {
    expect((await sync()).code).toBe(0);
    writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\nQuestions, and answers.\n');
    writeFileSync(join(root, 'guide', 'new-page.md'), '# My new page\n\nHello.\n');
    expect((await sync()).code).toBe(0);
    const run = await quire(['status', '--dir', root, '--json']);
    const [guide] = (JSON.parse(run.stdout) as { spaces: { openChangeRequests: number; changeRequest: { number: number; pages: { path: string }[] } }[] })
      .spaces;
    expect(guide!.changeRequest.pages.map((p) => p.path)).toEqual(['faq.md', 'new-page.md']);
    expect(guide!.openChangeRequests).toBe(1);
    const n = guide!.changeRequest.number;
    const text = await statusText();
    expect(text).toContain(`  open change requests: 1 (#${n} holds your edits)`);
    expect(text).toMatch(new RegExp(`your edits go into change request #${n} “[^\\n]+” \\(2 pages so far\\)`));
    expect(text).toMatch(new RegExp(`your edits in change request #${n} \\(2 pages\\):\\n {4}faq\\.md\\n {4}new-page\\.md`));
  });
});

describe('quire sync --space: remembered by the folder', () => {
  it('keeps to the spaces given until --all-spaces or other --space values; status shows the choice', async () => {
    const other = fake.store.addSpace(space.orgId, { title: 'API', pages: [{ title: 'Intro', markdown: 'Hi.\n' }] });
    expect((await sync('--space', space.id)).code).toBe(0);
    expect((await status()).selection).toEqual({ mode: 'listed', spaceIds: [space.id] });

    fake.resetLog();
    expect((await quire(['sync', '--dir', root, '--once'], { env: env() })).code).toBe(0);
    expect(fake.requests.some((r) => r.path.includes(other.id))).toBe(false);
    expect((await status()).selection).toEqual({ mode: 'listed', spaceIds: [space.id] });
    expect(await statusText()).toMatch(/Spaces: Guide \(\S+\) — remembered from --space/);

    expect((await sync('--space', other.id)).code).toBe(0);
    expect((await status()).selection).toEqual({ mode: 'listed', spaceIds: [other.id] });

    expect((await sync('--all-spaces')).code).toBe(0);
    const all = await status();
    expect(all.selection.mode).toBe('all');
    expect(all.selection.spaceIds.sort()).toEqual([space.id, other.id].sort());

    const both = await quire(['sync', '--dir', root, '--once', '--all-spaces', '--space', space.id], { env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--all-spaces and --space cannot go together/);
  });
});
