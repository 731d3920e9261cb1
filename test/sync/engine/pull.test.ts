import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { listFiles, snapshotMtimes } from '../../helpers/tree';
import type { PageRec } from '../../fake/model';

let fake: FakeApi;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
  env = { QUIRE_TOKEN: fake.token };
});
afterEach(async () => {
  await fake.close();
});

const syncOnce = (...extra: string[]) => quire(['sync', '--api', fake.url, '--dir', dir, '--once', ...extra], { env });

function pageByTitle(spaceId: string, title: string): PageRec {
  const page = [...fake.store.currentRevision(spaceId).pages.values()].find((p) => p.title === title);
  if (!page) throw new Error(`no page titled ${title}`);
  return page;
}

function seedGuide() {
  const org = fake.store.addOrg({ title: 'Acme' });
  const space = fake.store.addSpace(org.id, {
    title: 'User Guide',
    pages: [
      { title: 'Welcome', markdown: 'Hello, reader.\n' },
      {
        title: 'Getting Started',
        markdown: 'Start here.\n',
        pages: [
          { title: 'Install', markdown: 'Run the installer.\n' },
          { title: 'Configure', markdown: 'Edit the settings.\n' },
        ],
      },
      { title: 'FAQ', markdown: 'Questions.\n', description: 'Common questions', hidden: true },
    ],
  });
  fake.store.addFile(space.id, { name: 'logo.png', contentType: 'image/png', bytes: Buffer.from([137, 80, 78, 71]) });
  return { org, space };
}

const pageFetches = () => fake.requests.filter((r) => /\/content\/page\//.test(r.path)).length;

/** The cycle's own requests: `sync --once` then refreshes review data (the user, change requests, comments, sites), counted apart. */
const REVIEW_PATH = /\/(user|comments|change-requests|sites)(\/|$)/;
const contentRequests = () => fake.requests.filter((r) => !REVIEW_PATH.test(r.path));

describe('pull: mirroring a space into the folder', () => {
  it('writes the Git Sync layout: README for the first page, folders for parents, SUMMARY, frontmatter, assets', async () => {
    seedGuide();
    const run = await syncOnce();
    expect(run.stderr).not.toMatch(/quire sync:/);
    expect(run.code).toBe(0);

    const space = join(dir, 'user-guide');
    expect(listFiles(space)).toEqual([
      '.gitbook/assets/logo.png',
      'README.md',
      'SUMMARY.md',
      'faq.md',
      'getting-started/README.md',
      'getting-started/configure.md',
      'getting-started/install.md',
    ]);
    expect(readFileSync(join(space, 'README.md'), 'utf8')).toMatch(/^# Welcome\n\nHello, reader\.\n$/);
    const faq = readFileSync(join(space, 'faq.md'), 'utf8');
    expect(faq).toMatch(/^---\ndescription: Common questions\nhidden: true\n---\n/);
    expect(faq).toContain('# FAQ');
    const summary = readFileSync(join(space, 'SUMMARY.md'), 'utf8');
    const order = ['README.md', 'getting-started/README.md', 'getting-started/install.md', 'getting-started/configure.md', 'faq.md'];
    const positions = order.map((p) => summary.indexOf(`(${p})`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect([...readFileSync(join(space, '.gitbook/assets/logo.png'))]).toEqual([137, 80, 78, 71]);
  });

  it('a second pull with nothing changed writes nothing and costs a constant handful of requests', async () => {
    seedGuide();
    await syncOnce();
    const before = snapshotMtimes(dir);
    fake.resetLog();
    const run = await syncOnce();
    expect(run.code).toBe(0);
    expect(contentRequests().length).toBeLessThanOrEqual(3);
    expect(snapshotMtimes(dir)).toEqual(before);
  });

  it('an incremental pull fetches only the page that changed', async () => {
    const { space } = seedGuide();
    await syncOnce();
    fake.store.editPage(space.id, pageByTitle(space.id, 'Install').id, { markdown: 'Use the new installer.\n' });
    const before = snapshotMtimes(dir);
    fake.resetLog();

    const run = await syncOnce();
    expect(run.code).toBe(0);
    expect(contentRequests().length).toBeLessThanOrEqual(5);
    expect(pageFetches()).toBe(1);
    const after = snapshotMtimes(dir);
    const changed = [...after.keys()].filter((f) => after.get(f) !== before.get(f));
    expect(changed).toEqual(['user-guide/getting-started/install.md']);
    expect(readFileSync(join(dir, 'user-guide/getting-started/install.md'), 'utf8')).toContain('Use the new installer.');
  });

  it('follows remote renames, moves and deletes, pruning emptied folders', async () => {
    const { space } = seedGuide();
    await syncOnce();
    const install = pageByTitle(space.id, 'Install');
    const configure = pageByTitle(space.id, 'Configure');
    fake.store.movePage(space.id, install.id, { parent: null });
    fake.store.editPage(space.id, install.id, { title: 'Installation', slug: 'installation' });
    fake.store.deletePage(space.id, configure.id);

    const run = await syncOnce();
    expect(run.code).toBe(0);
    const files = listFiles(join(dir, 'user-guide'));
    expect(files).toContain('installation.md');
    expect(files).not.toContain('getting-started/install.md');
    expect(files).not.toContain('getting-started/configure.md');
    // Getting Started lost its children: it is a plain page file again.
    expect(files).toContain('getting-started.md');
    expect(existsSync(join(dir, 'user-guide/getting-started'))).toBe(false);
    expect(readFileSync(join(dir, 'user-guide/installation.md'), 'utf8')).toContain('Run the installer.');
  });

  it('never overwrites a local edit: the remote version goes beside it and sync exits 3', async () => {
    const { space } = seedGuide();
    await syncOnce();
    const file = join(dir, 'user-guide/faq.md');
    const mine = readFileSync(file, 'utf8').replace('Questions.', 'My local answer.');
    writeFileSync(file, mine);
    fake.store.editPage(space.id, pageByTitle(space.id, 'FAQ').id, { markdown: 'Remote answer.\n' });

    const run = await syncOnce();
    expect(run.code).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(readFileSync(join(dir, 'user-guide/faq.remote.md'), 'utf8')).toContain('Remote answer.');

    const status = await quire(['status', '--dir', dir, '--json']);
    const parsed = JSON.parse(status.stdout) as { spaces: { conflicts: { path: string }[]; pendingEdits: { modified: string[] } }[] };
    expect(parsed.spaces[0]!.conflicts.map((c) => c.path)).toEqual(['faq.md']);
  });

  it('keeps every page of a hostile tree inside the sync folder, one file each', async () => {
    const org = fake.store.addOrg({ title: 'Hostile' });
    const titles = [
      '../..',
      '/',
      'CON',
      'con.md',
      'x'.repeat(300),
      'README',
      'Readme',
      'Ab',
      'aB',
      '\u0001bell',
      '.quire',
      '.gitbook',
      'SUMMARY',
      'a/b\\c',
      'e\u0301',
      '\u00e9',
    ];
    fake.store.addSpace(org.id, {
      title: '../../etc',
      pages: [
        { title: 'Root', markdown: 'root\n' },
        ...titles.map((t, i) => ({ title: t, markdown: `page ${i}\n`, slug: `s${i}` })),
        ...titles.map((t, i) => ({ title: t, markdown: `slugged ${i}\n` })),
      ],
    });
    const run = await syncOnce();
    expect(run.code).toBe(0);

    const root = realpathSync(dir);
    const files = listFiles(dir).filter((f) => f.endsWith('.md') && !f.endsWith('SUMMARY.md'));
    expect(files).toHaveLength(1 + titles.length * 2);
    for (const f of files) expect(realpathSync(join(dir, f)).startsWith(`${root}/`)).toBe(true);
    const folded = new Set(files.map((f) => f.normalize('NFC').toLowerCase()));
    expect(folded.size).toBe(files.length);
    const bodies = new Set(files.map((f) => readFileSync(join(dir, f), 'utf8')));
    expect(bodies.size).toBe(files.length);
    expect(listFiles(dir, []).some((f) => f.startsWith('.quire/'))).toBe(true);
    expect(existsSync(join(dir, '..', 'etc'))).toBe(false);
  });

  it('syncs only the spaces named with --space', async () => {
    const { org } = seedGuide();
    fake.store.addSpace(org.id, { title: 'Internal', pages: [{ title: 'Secret', markdown: 'x\n' }] });
    const internal = [...fake.store.spaces.values()].find((s) => s.title === 'Internal')!;
    const run = await syncOnce('--space', internal.id);
    expect(run.code).toBe(0);
    expect(listFiles(dir)).toEqual(['internal/README.md', 'internal/SUMMARY.md']);
  });

  it('shows progress on stderr for the pages of a pull', async () => {
    seedGuide();
    const run = await syncOnce();
    expect(run.stderr).toMatch(/Pulling User Guide: 5\/5 pages/);
  });
});

describe('sync --once exit codes', () => {
  it('exits 1 with one clear line when the token is rejected, without retrying', async () => {
    seedGuide();
    const run = await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: 'wrong' } });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/token rejected/i);
    expect(run.stderr).not.toContain('wrong');
    expect(fake.requests.filter((r) => r.status === 401)).toHaveLength(1);
  });

  it('exits 1 saying the API is unreachable when the network is gone, and keeps the folder', async () => {
    seedGuide();
    await syncOnce();
    const before = snapshotMtimes(dir);
    fake.faults.offline = true;
    const run = await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/connection|unreachable|reach/i);
    expect(snapshotMtimes(dir)).toEqual(before);
  }, 60_000);

  it('exits 1 asking for a token when none is configured', async () => {
    const run = await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/quire login/);
  });

  it('exits 2 on a usage error', async () => {
    const run = await quire(['sync', '--api', fake.url, '--once'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/missing --dir/);
  });
});
