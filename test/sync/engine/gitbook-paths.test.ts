/**
 * Issue 20, item 1: pages pulled at the paths GitBook's Git Sync writes — the first page's
 * children under its own slug (`readme` in a group, as BeefreeSDK/beefree-sdk-docs has it), a
 * slug ending in dots, unicode and Windows-reserved slugs on a Linux volume — and a folder laid
 * out by an older Quire moving there by local renames, once, with no write request.
 */
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/core/mirror';
import { writeSummaryFile } from '../../../src/main/core/sync/summary-file';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { read, status, syncOnce } from '../../helpers/sync';

const IDS = {
  intro: 'IntroPageId000000001',
  create: 'CreateAppPageId00002',
  install: 'InstallPageId0000003',
  config: 'ConfigPageId00000004',
  faq: 'FaqPageId00000000005',
  con: 'ConPageId00000000006',
  nihon: 'NihonPageId000000007',
  overview: 'OverviewPageId000008',
};

let fake: FakeApi;
let space: SpaceRec;
let root: string;

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Beefree' });
  space = fake.store.addSpace(org.id, {
    title: 'SDK',
    pages: [
      {
        title: 'Getting Started',
        type: 'group',
        slug: 'getting-started',
        pages: [
          {
            id: IDS.intro,
            title: 'Introduction',
            slug: 'readme',
            markdown: `Start with [Create an Application](/pages/${IDS.create}) and [Installation](/pages/${IDS.install}).\n`,
            pages: [
              { id: IDS.create, title: 'Create an Application', slug: 'create-an-application', markdown: 'Sign up.\n' },
              {
                id: IDS.install,
                title: 'Installation',
                slug: 'installation',
                markdown: `See [Configuration](/pages/${IDS.config}).\n`,
                pages: [{ id: IDS.config, title: 'Configuration', slug: 'configuration', markdown: 'Set it up.\n' }],
              },
            ],
          },
        ],
      },
      { id: IDS.faq, title: 'F.A.Q.', slug: 'f.a.q.', markdown: 'Questions.\n' },
      { id: IDS.con, title: 'CON', slug: 'con', markdown: 'A console.\n' },
      { id: IDS.nihon, title: '日本語', slug: '日本語', markdown: 'こんにちは。\n' },
      {
        id: IDS.overview,
        title: 'Overview',
        slug: 'overview',
        markdown: `[App](/pages/${IDS.create}), [FAQ](/pages/${IDS.faq}), [CON](/pages/${IDS.con}), [日本語](/pages/${IDS.nihon}), [Config](/pages/${IDS.config}).\n`,
      },
    ],
  });
  root = tempDir();
});
afterEach(async () => {
  await fake.close();
});

const dir = () => join(root, 'sdk');
const writes = () => fake.requests.filter((r) => r.method !== 'GET');

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

const GITBOOK_FILES = [
  'README.md',
  'SUMMARY.md',
  'con.md',
  'f.a.q..md',
  'getting-started/readme/create-an-application.md',
  'getting-started/readme/installation/README.md',
  'getting-started/readme/installation/configuration.md',
  'overview.md',
  '日本語.md',
];

describe("GitBook's own paths", () => {
  it('pulls every page at the path Git Sync gives it, and links to those paths', async () => {
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(files(dir())).toEqual(GITBOOK_FILES);
    expect(read(dir(), 'SUMMARY.md')).toContain('## Getting Started\n\n* [Introduction](README.md)\n');
    expect(read(dir(), 'SUMMARY.md')).toContain('  * [Create an Application](getting-started/readme/create-an-application.md)\n');
    expect(read(dir(), 'SUMMARY.md')).toContain('* [F.A.Q.](f.a.q..md)\n');
    expect(read(dir(), 'README.md')).toContain('[Create an Application](getting-started/readme/create-an-application.md)');
    expect(read(dir(), 'overview.md')).toContain('[FAQ](f.a.q..md), [CON](con.md), [日本語](日本語.md)');
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(writes()).toEqual([]);
  });

  it('moves a folder laid out by an older Quire to those paths by local renames, once, with no write request', async () => {
    expect((await syncOnce(fake, root)).code).toBe(0);
    await layOutAsBefore(root);
    const before = files(dir());
    expect(before).toContain('getting-started/readme-intropag/create-an-application.md');
    expect(before).toContain('f.a.q.md');
    expect(before).toContain('con_.md');

    fake.resetLog();
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(writes()).toEqual([]);
    expect(files(dir())).toEqual(GITBOOK_FILES);
    expect(read(dir(), 'README.md')).toContain('[Create an Application](getting-started/readme/create-an-application.md)');
    expect(read(dir(), 'overview.md')).toContain(
      '[FAQ](f.a.q..md), [CON](con.md), [日本語](日本語.md), [Config](getting-started/readme/installation/configuration.md)',
    );
    expect(read(dir(), 'SUMMARY.md')).toContain('(getting-started/readme/create-an-application.md)');
    // The log says why they moved: not a pull (issue 28, item 1).
    const log = (await quire(['log', '--dir', root])).stdout;
    expect(log).toMatch(/Moved 5 pages to GitBook's paths: the folder is laid out anew/);
    expect(log.match(/Pulled/g)).toHaveLength(1);
    // Nothing of the server changed: every page as it was.
    expect(fake.store.pages(space.id).find((p) => p.id === IDS.overview)?.markdown).toContain(`[FAQ](/pages/${IDS.faq})`);

    // Once: the next cycle has nothing to do.
    fake.resetLog();
    const mtimes = files(dir()).map((f) => statSync(join(dir(), f)).mtimeMs);
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(writes()).toEqual([]);
    expect(files(dir()).map((f) => statSync(join(dir(), f)).mtimeMs)).toEqual(mtimes);
  });

  it('keeps the pages of a folder that also holds files of the writer’s where they are, and moves the rest (issue 27, item 15)', async () => {
    expect((await syncOnce(fake, root)).code).toBe(0);
    await layOutAsBefore(root);
    const old = 'getting-started/readme-intropag';
    writeFileSync(join(dir(), old, 'notes.txt'), 'My notes.\n');
    writeFileSync(join(dir(), old, 'diagram.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    mkdirSync(join(dir(), old, '.git'));
    writeFileSync(join(dir(), old, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const before = files(dir()).filter((f) => f.startsWith(`${old}/`));

    fake.resetLog();
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(writes()).toEqual([]);
    expect(files(dir()).filter((f) => f.startsWith(`${old}/`))).toEqual(before);
    expect(files(dir()).some((f) => f.startsWith('getting-started/readme/'))).toBe(false);
    // The rest is at GitBook's paths.
    expect(files(dir())).toEqual(expect.arrayContaining(['con.md', 'f.a.q..md']));
    expect(read(dir(), 'overview.md')).toContain(`[Config](${old}/installation/configuration.md)`);
    const shown = JSON.parse((await status(root)).stdout) as { spaces: { deviations: { path: string; gitbookPath: string; reason: string }[] }[] };
    expect(shown.spaces[0]!.deviations).toEqual([expect.objectContaining({ path: `${old}/`, gitbookPath: 'getting-started/readme/', reason: 'kept' })]);

    // Once: the next cycle has nothing to do.
    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(writes()).toEqual([]);
    expect(files(dir()).filter((f) => f.startsWith(`${old}/`))).toEqual(before);
  });
});

/**
 * Puts the folder back as Quire laid it out before it wrote GitBook's own names (`readme` was
 * reserved in every folder, trailing dots were cut, Windows device names got `_` everywhere):
 * the files, the links in them, SUMMARY.md, and the mirror's record of the folder.
 */
async function layOutAsBefore(syncRoot: string): Promise<void> {
  const spaceDir = dir();
  const moves: [string, string][] = [
    ['getting-started/readme', 'getting-started/readme-intropag'],
    ['f.a.q..md', 'f.a.q.md'],
    ['con.md', 'con_.md'],
  ];
  const relinks: Record<string, [string, string][]> = {
    'README.md': [['getting-started/readme/', 'getting-started/readme-intropag/']],
    'overview.md': [
      ['getting-started/readme/', 'getting-started/readme-intropag/'],
      ['(f.a.q..md)', '(f.a.q.md)'],
      ['(con.md)', '(con_.md)'],
    ],
  };
  for (const [from, to] of moves) renameSync(join(spaceDir, from), join(spaceDir, to));
  for (const [file, swaps] of Object.entries(relinks)) {
    let text = read(spaceDir, file);
    for (const [a, b] of swaps) text = text.split(a).join(b);
    writeFileSync(join(spaceDir, file), text);
  }
  const mirror = Mirror.open(syncRoot);
  try {
    const moved = (path: string | null) => {
      if (path === null) return null;
      for (const [from, to] of moves) if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
      return path;
    };
    mirror.transaction(() => {
      for (const key of mirror.folder.keys(space.id)) {
        const node = mirror.folder.node(space.id, key)!;
        const name = key === IDS.intro ? 'readme-intropag' : key === IDS.faq ? 'f.a.q' : key === IDS.con ? 'con_' : node.name;
        let linkMap = node.linkMap;
        if (linkMap) {
          const swaps = relinks[node.path ?? ''] ?? [];
          linkMap = Object.fromEntries(
            Object.entries(linkMap).map(([href, stable]) => {
              let local = `(${href})`;
              for (const [a, b] of swaps) local = local.split(a).join(b);
              return [local.slice(1, -1), stable];
            }),
          );
        }
        mirror.folder.upsert(space.id, {
          ...node,
          name,
          path: moved(node.path),
          folder: moved(node.folder),
          linkMap,
          size: null,
          mtimeMs: null,
          ino: null,
          fileHash: null,
        });
      }
      mirror.catalog.setMeta('layout', '');
    });
    await writeSummaryFile(mirror, space.id, spaceDir);
  } finally {
    mirror.close();
  }
}
