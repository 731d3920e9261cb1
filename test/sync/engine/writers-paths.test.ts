/**
 * Issue 28, item 1 and issue 27, item 15: the writer's files stay where the writer put them.
 * A page file created or placed here — in a folder no page owns, or nested under another page
 * in SUMMARY.md — is never moved by Quire: it is a path deviation `quire status` lists, with
 * GitBook's path and the command that moves it there. Only a change from the server moves a
 * file, and the log says which; a server page never takes the path of a file of the writer's.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { contentBatches, openChangeRequests, pageByTitle, read, status, syncedGuideEachTest, syncOnce, write } from '../../helpers/sync';

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

function files(base: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(base, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(base, path)).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk('');
  return out.sort();
}

type Deviation = { pageId: string; title: string; gitbookPath: string; path: string; reason: string };
async function deviations(): Promise<Deviation[]> {
  const run = await status(root);
  return (JSON.parse(run.stdout) as { spaces: { deviations: Deviation[] }[] }).spaces[0]!.deviations;
}
const log = async () => (await quire(['log', '--dir', root])).stdout;
/** The log says nothing was pulled nor moved since the first sync (which pulled the guide). */
async function noPullSinceFirstSync(): Promise<void> {
  const entries = await log();
  expect(entries.match(/Pulled/g)).toHaveLength(1);
  expect(entries).not.toMatch(/\(was /);
}
const mergeOpen = () => fake.store.mergeChangeRequest(space.id, openChangeRequests(fake, space.id)[0]!.id);

describe('a new page file in a folder of its own', () => {
  it('stays where the writer put it, before and after its change request is merged; status says where GitBook puts it and how to move it', async () => {
    write(dir, 'guides/deploying.md', '# Deploying\n');
    let run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(files(dir)).toContain('guides/deploying.md');
    expect(existsSync(join(dir, 'deploying.md'))).toBe(false);
    expect(pageByTitle(fake, space.id, 'Deploying', openChangeRequests(fake, space.id)[0]!.id).markdown).toBe('');
    expect(read(dir, 'SUMMARY.md')).toContain('[Deploying](guides/deploying.md)');
    await noPullSinceFirstSync();

    expect(await deviations()).toEqual([
      expect.objectContaining({ title: 'Deploying', path: 'guides/deploying.md', gitbookPath: 'deploying.md', reason: 'kept' }),
    ]);
    const text = (await quire(['status', '--dir', root])).stdout;
    expect(text).toContain('guides/deploying.md — GitBook: deploying.md');
    expect(text).toContain(`quire sync --dir ${root} --once --gitbook-path guide/guides/deploying.md`);

    mergeOpen();
    run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(files(dir)).toContain('guides/deploying.md');
    expect(existsSync(join(dir, 'deploying.md'))).toBe(false);
    expect(await deviations()).toEqual([expect.objectContaining({ path: 'guides/deploying.md', gitbookPath: 'deploying.md' })]);
  });

  it('stays too under continuous sync, whose cycle sees only the saved path', async () => {
    write(dir, 'guides/deploying.md', '# Deploying\n');
    const mirror = Mirror.open(root);
    try {
      const api = new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 2 });
      await new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] } }).runCycle({ changed: ['guide/guides', 'guide/guides/deploying.md'] });
    } finally {
      mirror.close();
    }
    expect(files(dir)).toContain('guides/deploying.md');
    expect(existsSync(join(dir, 'deploying.md'))).toBe(false);
    expect(contentBatches(fake)).toHaveLength(1);
  });

  it('moves to GitBook’s path when the writer asks, by a local rename: nothing is sent, and the log says the writer asked', async () => {
    write(dir, 'guides/deploying.md', '# Deploying\n\nShip it.\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    fake.resetLog();
    const run = await syncOnce(fake, root, '--gitbook-path', 'guide/guides/deploying.md');
    expect(run.code, run.stderr).toBe(0);
    expect(files(dir)).toContain('deploying.md');
    expect(existsSync(join(dir, 'guides/deploying.md'))).toBe(false);
    expect(read(dir, 'deploying.md')).toBe('# Deploying\n\nShip it.\n');
    expect(contentBatches(fake)).toEqual([]);
    expect(await deviations()).toEqual([]);
    const entries = await log();
    expect(entries).toMatch(/Moved 1 page to GitBook's path, as you asked/);
    expect(entries.match(/Pulled/g)).toHaveLength(1);
  });

  it('a file that is not one the writer placed is refused by --gitbook-path in one line', async () => {
    const run = await syncOnce(fake, root, '--gitbook-path', 'guide/faq.md');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/guide\/faq\.md is not kept off GitBook's path: `quire status --dir .*` lists the pages that are/);
    const continuous = await quire(['sync', '--api', fake.url, '--dir', root, '--gitbook-path', 'guide/faq.md'], { env: { QUIRE_TOKEN: fake.token } });
    expect(continuous.code).toBe(2);
    expect(continuous.stderr).toMatch(/--gitbook-path moves files in one cycle: give --once with it/);
    expect(contentBatches(fake)).toEqual([]);
  });

  it('moves when main moves or renames its page, and the log says main did', async () => {
    write(dir, 'guides/deploying.md', '# Deploying\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    mergeOpen();
    expect((await syncOnce(fake, root)).code).toBe(0);
    const page = pageByTitle(fake, space.id, 'Deploying');
    fake.store.editPage(space.id, page.id, { slug: 'shipping' });
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(files(dir)).toContain('shipping.md');
    expect(existsSync(join(dir, 'guides/deploying.md'))).toBe(false);
    expect(await log()).toMatch(/Pulled 1 page from main[^\n]*\n\s+moved\s+guide\/shipping\.md — Deploying \(was guide\/guides\/deploying\.md\)/);
    expect(await deviations()).toEqual([]);
  });
});

describe('a page nested under another in SUMMARY.md', () => {
  it('moves the page on the server; neither file moves here, and status lists both with GitBook’s paths', async () => {
    const summary = read(dir, 'SUMMARY.md');
    const nested = summary.replace('* [FAQ](faq.md)\n* [Changelog](changelog.md)\n', '* [FAQ](faq.md)\n  * [Changelog](changelog.md)\n');
    expect(nested).not.toBe(summary);
    writeFileSync(join(dir, 'SUMMARY.md'), nested);
    const before = files(dir);
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(files(dir)).toEqual(before);
    const [cr] = openChangeRequests(fake, space.id);
    const faq = pageByTitle(fake, space.id, 'FAQ', cr!.id);
    expect(pageByTitle(fake, space.id, 'Changelog', cr!.id).parentId).toBe(faq.id);
    expect(read(dir, 'SUMMARY.md')).toContain('* [FAQ](faq.md)\n  * [Changelog](changelog.md)\n');
    await noPullSinceFirstSync();
    expect((await deviations()).map((d) => [d.path, d.gitbookPath])).toEqual([
      ['faq.md', 'faq/README.md'],
      ['changelog.md', 'faq/changelog.md'],
    ]);

    // The next sync leaves them too.
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(files(dir)).toEqual(before);
  });
});

describe('a server page renamed to the path of a file of the writer’s (issue 27, item 15)', () => {
  it('takes a free name; the writer’s file keeps its name and text, and status says why', async () => {
    write(dir, 'newname.md', '# My notes\n\nMine.\n');
    const faq = pageByTitle(fake, space.id, 'FAQ');
    fake.store.editPage(space.id, faq.id, { slug: 'newname' });
    const run = await syncOnce(fake, root);
    expect(run.code).not.toBe(1);
    expect(readFileSync(join(dir, 'newname.md'), 'utf8')).toBe('# My notes\n\nMine.\n');
    const moved = files(dir).filter((f) => f.startsWith('newname-'));
    expect(moved).toHaveLength(1);
    expect(read(dir, moved[0]!)).toContain('Questions.');
    expect(existsSync(join(dir, 'faq.md'))).toBe(false);
    expect(await deviations()).toEqual([expect.objectContaining({ title: 'FAQ', path: moved[0], gitbookPath: 'newname.md' })]);
    expect((await quire(['status', '--dir', root])).stdout).toMatch(/GitBook: newname\.md \(“FAQ”\): another page there has that name/);
  });
});
