/**
 * What `quire status` offers leads somewhere (issue 28, items 4, 5 and 7): every reason names
 * files and titles, and every command it prints runs as printed — in each state these tests
 * reach: a new folder, edits waiting, a mass-delete stop (restored, or let through by name), a
 * delete the server refused, sync paused, a review action refused. Deleting on purpose works
 * from the command line: `--allow-delete <file>` by name, `quire restore --deleted [--since]`,
 * and `quire history` shows deleted pages as deleted. Pending edits are counted once each.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { type CliRun, quire, tempDir } from '../../helpers/cli';
import { seedGuide } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
let tokens: MemoryTokenStore;
const env = () => ({ QUIRE_TOKEN: fake.token });
const sync = (...extra: string[]) => quire(['sync', '--api', fake.url, '--dir', root, '--once', ...extra], { env: env() });
const statusText = async () => {
  const run = await quire(['status', '--dir', root], { tokens });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
};
const statusJson = async () => JSON.parse((await quire(['status', '--dir', root, '--json'], { tokens })).stdout);

/** The words of a command as a shell reads them: single quotes (as shellWord writes them) keep spaces. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

/** Every `quire …` command the text prints (in backquotes). */
const commandsIn = (text: string) => [...text.matchAll(/`(quire [^`]+)`/g)].map((m) => m[1]!);

/** Runs a printed command as printed (the user's token from the environment, or the keychain `quire login` filled). */
async function runAsPrinted(command: string, useEnv = true): Promise<CliRun> {
  const [quireWord, ...argv] = shellWords(command);
  expect(quireWord).toBe('quire');
  return quire(argv, { tokens, ...(useEnv ? { env: env() } : {}) });
}

/** Runs every command status prints now, each as printed; each must succeed. */
async function runEveryTodo(useEnv = true): Promise<string[]> {
  const commands = commandsIn(await statusText());
  for (const c of commands) {
    const run = await runAsPrinted(c, useEnv);
    expect(run.code, `${c}\n${run.stdout}\n${run.stderr}`).toBe(0);
  }
  return commands;
}

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  root = tempDir();
  dir = join(root, 'guide');
  tokens = new MemoryTokenStore();
});
afterEach(async () => {
  await fake.close();
});

describe('a new folder', () => {
  it('status names a sync that runs as printed (the address signed in to); sync without --api writes nothing', async () => {
    const bare = await quire(['sync', '--dir', root, '--once'], { env: env() });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/missing --api <base_url>: .* has not synced with any API yet.*Nothing was written\./);
    expect(existsSync(join(root, '.quire'))).toBe(false);

    expect((await quire(['login', '--api', fake.url], { stdin: fake.token, tokens })).code).toBe(0);
    const text = await statusText();
    expect(text).not.toMatch(/<spaceId>/);
    const [todo] = commandsIn(text);
    expect(todo).toBe(`quire sync --dir ${root} --once --api ${fake.url}`);
    expect(await runEveryTodo(false)).toHaveLength(1);
    expect((await statusJson()).state).toBe('in-sync');
  });
});

describe('pending edits, each once, by file', () => {
  it('a rename is one move, a new image is one edit; the count is one everywhere, and the push is counted in pages and files', async () => {
    expect((await sync()).code).toBe(0);
    renameSync(join(dir, 'faq.md'), join(dir, 'questions.md'));
    mkdirSync(join(dir, '.gitbook', 'assets'), { recursive: true });
    writeFileSync(join(dir, '.gitbook', 'assets', 'diagram.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const text = await statusText();
    expect(text).toMatch(/pending local edits: 2\n {4}moved {4}questions\.md \(was faq\.md\)\n {4}added {4}\.gitbook\/assets\/diagram\.png\n/);
    expect(text).not.toMatch(/modified questions\.md/);
    expect(text).toMatch(/“Guide”: 2 local edits are not on the server yet; the next sync pushes them\./);
    const dry = await quire(['sync', '--dir', root, '--dry-run'], { env: env() });
    expect(dry.stdout).toMatch(/push move +questions\.md/);
    expect(commandsIn(await statusText())).toEqual([`quire sync --dir ${root} --once`]);
    const pushed = await runAsPrinted(`quire sync --dir ${root} --once`);
    // Counted as the log counts: pages and files, never API changes or bodies fetched.
    expect(pushed.stdout).toBe(`1 space in sync, nothing new on main, 1 page and 1 file pushed to change request #1 in Guide, 4 requests`);
    expect(await statusText()).toMatch(/pending local edits: 0/);
  });
});

describe('a mass-delete stop', () => {
  const gone = ['changelog.md', 'faq.md', 'getting-started/configure.md', 'getting-started/install.md'];

  async function stop(): Promise<void> {
    expect((await sync()).code).toBe(0);
    for (const f of gone) rmSync(join(dir, f));
    writeFileSync(join(dir, 'README.md'), '# Welcome\n\nHello, reader, edited.\n');
    expect((await sync()).code).toBe(3);
  }

  it('names the pages it holds by file and title, counts the other edit once, and does not promise a push it will not make', async () => {
    await stop();
    const text = await statusText();
    expect(text).toMatch(/this sync would delete 4 of its 6 pages on the server .* let these 4 deletes through\. 1 other local edit waits until then\./);
    expect(text).toMatch(/ {6}changelog\.md \(“Changelog”\) — deleted here\n {6}faq\.md \(“FAQ”\) — deleted here\n/);
    expect(text).not.toMatch(/the next sync pushes/);
    expect(text).toMatch(/pending local edits: 5\n/);
    const s = await statusJson();
    expect(s.spaces[0].hold.deletes.map((d: { path: string; title: string }) => `${d.path} ${d.title}`)).toEqual([
      'changelog.md Changelog',
      'faq.md FAQ',
      'getting-started/configure.md Configure',
      'getting-started/install.md Install',
    ]);
  });

  it('restore: the printed command brings every deleted file back, and the next sync settles the stop', async () => {
    await stop();
    const [restore] = commandsIn(await statusText());
    expect(restore).toBe(`quire restore --deleted ${gone.map((f) => `guide/${f}`).join(' ')} --dir ${root}`);
    const run = await runAsPrinted(restore!);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Restored 4 deleted pages:\n {2}guide\/changelog\.md \(“Changelog”\) — deleted here since the last sync, not synced yet/);
    for (const f of gone) expect(readFileSync(join(dir, f), 'utf8').length).toBeGreaterThan(0);
    expect((await sync()).code).toBe(0);
    expect((await statusJson()).state).toBe('in-sync');
  });

  it('let through by name: the printed command deletes exactly those pages; naming some is not enough, naming another page is refused', async () => {
    await stop();
    const refused = await sync('--allow-delete', 'guide/README.md');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--allow-delete guide\/README\.md: no mass-delete stop holds that page; .*Nothing was sent\./);
    const some = await sync('--allow-delete', 'guide/faq.md', '--allow-delete', join(dir, 'changelog.md'));
    expect(some.code).toBe(3);
    const allow = commandsIn(await statusText())[1]!;
    expect(allow).toBe(`quire sync --dir ${root} --once ${gone.map((f) => `--allow-delete guide/${f}`).join(' ')}`);
    const run = await runAsPrinted(allow);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/5 pages pushed to change request #1 in Guide/);
    const cr = fake.store.changeRequestsOf(space.id)[0]!;
    const left = [...fake.store.revisionOf(space.id, { changeRequest: cr.id }).pages.values()].map((p) => p.title).sort();
    expect(left).toEqual(['Getting Started', 'Welcome']);
    expect((await statusJson()).state).toBe('in-sync');
  });
});

describe('quire history and quire restore --deleted', () => {
  it('history shows deleted pages as deleted (here, not synced yet; here, in the change request; on the server), and restore --deleted --since brings them back', async () => {
    expect((await sync()).code).toBe(0);
    rmSync(join(dir, 'faq.md'));
    fake.store.deletePage(space.id, fake.store.pageByTitle(space.id, 'Changelog').id);
    let listed = (await quire(['history', '--dir', root])).stdout;
    expect(listed).toMatch(/guide\/faq\.md — FAQ: DELETED here since the last sync, not synced yet; 1 version kept/);
    expect(listed).not.toMatch(/faq\.md — FAQ: .*last pulled/);

    expect((await sync()).code).toBe(0);
    listed = (await quire(['history', '--dir', root])).stdout;
    expect(listed).toMatch(/guide\/faq\.md — FAQ: DELETED here just now \(change request #1\); 2 versions kept/);
    expect(listed).toMatch(/guide\/changelog\.md — Changelog: DELETED on the server just now; 2 versions kept/);
    const [again] = commandsIn(listed);
    expect(again).toMatch(/^quire restore --deleted --since '\d{4}-\d\d-\d\d \d\d:\d\d' --dir /);
    expect((await quire(['restore', '--deleted', '--dir', root])).stdout).toMatch(/^No page was deleted since the last sync; add --since/);
    const run = await runAsPrinted(again!);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Restored 2 deleted pages:/);
    expect(run.stdout).toMatch(/guide\/changelog\.md \(“Changelog”\) — deleted on the server just now/);
    expect(readFileSync(join(dir, 'faq.md'), 'utf8')).toMatch(/Questions\./);
    expect(readFileSync(join(dir, 'changelog.md'), 'utf8')).toMatch(/Nothing yet\./);
    const bad = await quire(['restore', '--deleted', '--since', 'yesterday', '--dir', root]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since takes a span back from now \(30m, 2h, 3d, 1w\)/);
  });
});

describe('a delete the server refused', () => {
  it('names the file and title, offers to restore it (not to open a file that is gone), and the printed command brings it back', async () => {
    expect((await sync()).code).toBe(0);
    rmSync(join(dir, 'faq.md'));
    fake.faults.fail(1, 422, { match: (r) => r.method === 'POST' && r.path.endsWith('/content') });
    expect((await sync()).code).toBe(0);
    const s = await statusJson();
    expect(s.reasons[0]).toMatchObject({ kind: 'refused', path: 'faq.md', action: 'restore-file' });
    const text = await statusText();
    expect(text).toMatch(/faq\.md \(“FAQ”\): you deleted it here, and the server refused to delete the page \(.*\)\. The page stays on the server/);
    expect(text).not.toMatch(/open .*faq\.md and fix it/);
    expect(commandsIn(text)).toEqual([`quire restore guide/faq.md --dir ${root}`]);
    await runEveryTodo();
    expect(readFileSync(join(dir, 'faq.md'), 'utf8')).toMatch(/Questions\./);
    expect((await statusJson()).spaces[0].pendingEdits).toEqual({ modified: ['faq.md'], moved: [], added: [], deleted: [] });
    expect((await sync()).code).toBe(0);
    const after = await statusJson();
    expect(after.state, JSON.stringify(after.reasons)).toBe('in-sync');
    expect(after.state, JSON.stringify(after.reasons)).toBe('in-sync');
  });
});

describe('a page no file holds any more', () => {
  it('is named by the path it had, never by its id (a page created here, then deleted, its delete refused)', async () => {
    expect((await sync()).code).toBe(0);
    writeFileSync(join(dir, 'notes.md'), '# Notes\n\nNew here.\n');
    expect((await sync()).code).toBe(0);
    rmSync(join(dir, 'notes.md'));
    fake.faults.fail(1, 422, { match: (r) => r.method === 'POST' && r.path.endsWith('/content') });
    await sync();
    const text = await statusText();
    expect(text).toMatch(/pending local edits: 1\n {4}deleted {2}notes\.md\n/);
    expect(text).not.toMatch(/page_\w+/);
    expect(text).toMatch(/notes\.md \(“Notes”\): you deleted it here, and the server refused to delete the page/);
  });
});

describe('every command status prints runs as printed', () => {
  it('paused, a review action refused, a page kept off GitBook’s path', async () => {
    expect((await sync()).code).toBe(0);
    // Paused (as the app pauses it): resumed by the printed command.
    const { Mirror } = await import('../../../src/main/core/mirror');
    const { setPaused } = await import('../../../src/main/core/status');
    const m = Mirror.open(root);
    setPaused(m, true);
    m.close();
    writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nQuestions, while paused.\n');
    expect((await statusJson()).state).toBe('paused');
    expect(await runEveryTodo()).toEqual([`quire sync --dir ${root} --once`]);
    expect((await statusJson()).state).toBe('in-sync');

    // A comment the server refuses: dismissed by the printed command.
    const cr = fake.store.changeRequestsOf(space.id)[0]!;
    fake.faults.fail(1, 422, { match: (r) => r.method === 'POST' && r.path.endsWith('/comments') });
    await quire(['comment', 'new', '--change-request', String(cr.number), '--body', 'Ship it', '--dir', root], { env: env() });
    const refused = await statusText();
    expect(refused).toMatch(/`quire review --dismiss \d+ --dir /);
    await runEveryTodo();
    expect((await statusJson()).reasons).toEqual([]);

    // A new page in a folder of the writer's: kept where it is, moved by the printed command.
    mkdirSync(join(dir, 'guides'));
    writeFileSync(join(dir, 'guides', 'deploying.md'), '# Deploying\n\nShip it.\n');
    expect((await sync()).code).toBe(0);
    const commands = await runEveryTodo();
    expect(commands.some((c) => c.includes('--gitbook-path'))).toBe(true);
  });
});
