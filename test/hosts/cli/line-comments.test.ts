/**
 * Comments on a line and suggested changes (issue 30, items 2 and 8) as the real `quire`
 * process against the fake: `comment new --line` lands on the block holding the line (the
 * comment target's `node`), online and queued offline; `quire review` shows each thread at its
 * line and marks it outdated once its block changed or went away; a reviewer's ```suggestion
 * is shown to the writer, applied to their file by `comment apply`, pushed by the next sync,
 * and its thread resolved with a reply; a suggestion whose lines changed since is refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DocBlock } from '../../fake/document';
import { startFakeApi, type FakeApi } from '../../fake';
import type { SpaceRec, UserRec } from '../../fake/model';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { tempDir } from '../../helpers/cli';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let space: SpaceRec;
let alex: UserRec;

beforeAll(() => buildCli(), 120_000);
beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  alex = fake.store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
  const org = fake.store.addOrg({ title: 'Acme', members: [alex.id] });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hi.\n' },
      { title: 'Setup', markdown: 'Install the tool.\n\n1. Download it.\n2. Run the installer.\n\n```sh\nnpm i\n```\n' },
    ],
  });
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

const quire = async (...args: string[]) => {
  const { code, stdout, stderr } = await startQuire([...args, '--dir', dir], { QUIRE_TOKEN: fake.token }).exited;
  return { code, stdout: stdout.replace(/\n$/, ''), stderr };
};
const json = async (...args: string[]) => {
  const r = await quire(...args, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const setupId = () => fake.store.pageByTitle(space.id, 'Setup').id;
/** The blocks of Setup in a change request, as the fake keeps them (keys included). */
const blocksIn = (crId: string): DocBlock[] => fake.store.revisionOf(space.id, { changeRequest: crId }).pages.get(setupId())!.document!.nodes;
const childBlocks = (b: DocBlock): DocBlock[] => (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block');

/**
 * Setup in the change request, as `quire cr diff` numbers its file:
 * 1 `# Setup`, 3 `Install the tool, then check it.`, 5 `1. Download it.`, 6 `2. Run the installer.`, 8-10 the code block.
 */
async function reviewersChangeRequest() {
  expect((await quire('sync', '--api', fake.url, '--once')).code).toBe(0);
  const cr = fake.store.addChangeRequest(space.id, { subject: 'Better setup', createdBy: alex.id });
  fake.store.editPage(
    space.id,
    setupId(),
    { markdown: 'Install the tool, then check it.\n\n1. Download it.\n2. Run the installer.\n\n```sh\nnpm i\n```\n' },
    { changeRequest: cr.id },
  );
  return cr;
}

describe('comments on a line', () => {
  it('a comment on a line lands on the block holding it, and `quire review` shows it at that line', async () => {
    const cr = await reviewersChangeRequest();
    const onItem = await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '6', '--body', 'As admin?');
    expect(onItem.code, onItem.stderr).toBe(0);
    expect(onItem.stdout).toMatch(/^Comment on line 6 of “Setup” in change request #1: sent \(comment \S+\)\.$/);
    const onCode = await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '9', '--body', 'Which npm?');
    expect(onCode.code, onCode.stderr).toBe(0);

    const [paragraph, list, code] = blocksIn(cr.id);
    const head = fake.store.revisionOf(space.id, { changeRequest: cr.id }).id;
    const posted = fake.store.commentsOf(space.id, cr.id);
    expect(posted.map((c) => [c.markdown, c.pageId, c.nodeId, c.revisionId])).toEqual([
      ['As admin?', setupId(), childBlocks(list!)[1]!.key, head],
      ['Which npm?', setupId(), childBlocks(code!)[0]!.key, head],
    ]);
    expect(paragraph).toBeDefined();

    const listed = await json('review');
    const byBody = Object.fromEntries(listed.comments.map((c: { body: string }) => [c.body, c]));
    expect(byBody['As admin?']).toMatchObject({ line: 6, outdated: false });
    expect(byBody['Which npm?']).toMatchObject({ line: 9, outdated: false });
    const text = await quire('review');
    expect(text.stdout).toMatch(/— Casey Quire on change request #1, page “Setup”, line 6: As admin\?/);
  });

  it('refuses a line the page does not have, or its title; offline, the comment waits and goes to the same block', async () => {
    const cr = await reviewersChangeRequest();
    expect((await quire('review')).code).toBe(0); // the refresh reads the change request's pages and blocks
    const title = await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '1', '--body', 'Title?');
    expect(title.code).toBe(2);
    expect(title.stderr).toMatch(/^quire comment: --line 1: line 1 is the page's frontmatter or title, which comments on a line cannot name; leave out --line/);
    const past = await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '40', '--body', 'Here?');
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--line 40: line 40 is past the end of the page \(it has 10 lines in the change request\)/);
    expect(fake.store.commentsOf(space.id, cr.id)).toEqual([]);

    fake.faults.offline = true;
    const queued = await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '3', '--body', 'Check how?');
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stdout).toMatch(/^Comment on line 3 of “Setup” in change request #1: queued/);
    expect((await json('review')).comments.find((c: { body: string }) => c.body === 'Check how?')).toMatchObject({ pending: true, line: 3 });
    fake.faults.offline = false;
    expect((await quire('review')).code).toBe(0);
    expect(fake.store.commentsOf(space.id, cr.id).map((c) => [c.markdown, c.nodeId])).toEqual([['Check how?', blocksIn(cr.id)[0]!.key]]);
  });

  it('marks a thread outdated once its block changed in the change request, and one whose block went away', async () => {
    const cr = await reviewersChangeRequest();
    await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '6', '--body', 'As admin?');
    await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '3', '--body', 'Check how?');
    await quire('comment', 'new', '--change-request', '1', '--page', 'guide/setup.md', '--line', '5', '--body', 'From where?');
    let listed = await json('review');
    expect(listed.comments.map((c: { outdated: boolean }) => c.outdated)).toEqual([false, false, false]);

    // Alex edits the second item (it keeps its key), and drops the paragraph.
    fake.store.editPage(space.id, setupId(), { markdown: '1. Download it.\n2. Run the installer as admin.\n\n```sh\nnpm i\n```\n' }, { changeRequest: cr.id });
    listed = await json('review');
    const byBody = Object.fromEntries(listed.comments.map((c: { body: string }) => [c.body, c]));
    expect(byBody['As admin?']).toMatchObject({ line: 4, outdated: true });
    expect(byBody['Check how?']).toMatchObject({ line: null, outdated: true });
    expect(byBody['From where?']).toMatchObject({ line: 3, outdated: false });
    expect((await quire('review')).stdout).toMatch(/page “Setup”, line 4 \(outdated\): As admin\?/);
  });
});

describe('suggested changes', () => {
  /** The writer's own change request (pushed from the folder), and a reviewer's suggestion on its paragraph. */
  async function writersChangeRequestWithSuggestion() {
    expect((await quire('sync', '--api', fake.url, '--once')).code).toBe(0);
    const file = join(dir, 'guide', 'setup.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Install the tool.', 'Install the tool, then check it.'));
    expect((await quire('sync', '--once')).code).toBe(0);
    const [cr] = fake.store.changeRequestsOf(space.id);
    const [paragraph, list] = blocksIn(cr!.id);
    const suggestion = fake.store.addComment(space.id, {
      body: 'Clearer:\n\n```suggestion\nInstall the tool, then run `tool --check`.\n```',
      page: setupId(),
      node: paragraph!.key,
      changeRequest: cr!.id,
      by: alex.id,
    });
    const onItem = fake.store.addComment(space.id, {
      body: '```suggestion\n1. Download it from the releases page.\n```',
      page: setupId(),
      node: childBlocks(list!)[0]!.key,
      changeRequest: cr!.id,
      by: alex.id,
    });
    return { cr: cr!, file, suggestion, onItem };
  }

  it('shows the writer the suggestion; `comment apply` writes it into the file, the next sync pushes it, and the thread is resolved with a reply', async () => {
    const { cr, file, suggestion } = await writersChangeRequestWithSuggestion();
    const shown = await quire('review');
    expect(shown.stdout).toContain(
      [
        `  ${suggestion.id} — Alex Rivera on change request #${cr.number}, page “Setup”, line 3: Clearer:`,
        '      suggested change:',
        '        - Install the tool, then check it.',
        '        + Install the tool, then run `tool --check`.',
        `      \`quire comment apply ${suggestion.id}\` applies it to your file`,
      ].join('\n'),
    );

    const applied = await quire('comment', 'apply', suggestion.id);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.split('\n')).toEqual([
      `The suggestion of comment ${suggestion.id} went into guide/setup.md (line 3): the next sync pushes it.`,
      expect.stringMatching(/^Reply saying it was applied: sent\.$/),
      `Resolving comment ${suggestion.id}: sent.`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe(
      '# Setup\n\nInstall the tool, then run `tool --check`.\n\n1. Download it.\n2. Run the installer.\n\n```sh\nnpm i\n```\n',
    );
    const thread = fake.store.comment(space.id, suggestion.id, cr.id);
    expect(thread.status).toBe('resolved');
    expect(thread.replies.map((r) => r.markdown)).toEqual(['Applied this suggestion to `guide/setup.md`; it is pushed with the next sync.']);

    expect((await quire('sync', '--once')).code).toBe(0);
    expect(fake.store.pageMarkdown(space.id, setupId(), { changeRequest: cr.id })).toContain('Install the tool, then run `tool --check`.');
  });

  it('refuses, in one line and writing nothing, a suggestion whose lines changed since: in the file, or in the change request', async () => {
    const { cr, file, suggestion, onItem } = await writersChangeRequestWithSuggestion();
    expect((await quire('review')).code).toBe(0);
    // The writer rewords the first item before applying the reviewer's suggestion for it.
    const edited = readFileSync(file, 'utf8').replace('1. Download it.', '1. Download it now.');
    writeFileSync(file, edited);
    const stale = await quire('comment', 'apply', onItem.id);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe(
      `The suggestion of comment ${onItem.id}: refused — The lines it replaces changed since it was made (guide/setup.md, line 5); nothing was applied.`,
    );
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(fake.store.comment(space.id, onItem.id, cr.id).status).toBe('open');

    // The paragraph changes in the change request (from elsewhere): that suggestion is outdated too.
    fake.store.editPage(
      space.id,
      setupId(),
      { markdown: 'Install the tool and check it.\n\n1. Download it now.\n2. Run the installer.\n\n```sh\nnpm i\n```\n' },
      { changeRequest: cr.id },
    );
    const outdated = await quire('comment', 'apply', suggestion.id);
    expect(outdated.code).toBe(1);
    expect(outdated.stdout).toMatch(new RegExp(`^The suggestion of comment ${suggestion.id}: refused — The lines it replaces changed since it was made`));
    expect(fake.store.comment(space.id, suggestion.id, cr.id).replies).toEqual([]);
  });
});
