/**
 * Issue 29, item 3: `quire check` and `quire preview`, run as users run them (the bundled
 * `quire`, its own process), on a Git Sync repository whose `.gitbook.yaml` puts the space in
 * `./docs/` with its own first page and table of contents (`intro.md`, `toc.md`), as GitBook's
 * docs ("Content configuration") describe: the space is found from the repository's top and from
 * `docs/` itself, its redirects are checked (each leads to a page, none is a page's own address),
 * and the preview opens on the first page the file names. The pages are Lawnchair's community
 * space (test/fixtures/git-sync/lawnchair-community). In a sync folder, which Quire lays out as
 * Git Sync does by default, a space's `.gitbook.yaml` is the writer's file: never pushed nor
 * touched, its redirects checked, its root and structure said to be unused.
 */
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli, killStarted, startQuire } from '../../helpers/cli-process';
import { contentBatches, seedGuide } from '../../helpers/sync';

const PAGES = fileURLToPath(new URL('../../fixtures/git-sync/lawnchair-community/', import.meta.url));

const CONFIG = `root: ./docs/

structure:
  readme: intro.md
  summary: toc.md

redirects:
  history: about/project-history.md
  get-involved/translate: get-involved/translate-lawnchair.md
`;

beforeAll(() => buildCli(), 120_000);

let repo: string;
beforeEach(() => {
  repo = tempDir('quire-gitbook-yaml-');
  cpSync(PAGES, join(repo, 'docs'), { recursive: true });
  rmSync(join(repo, 'docs', 'LICENSE'));
  renameSync(join(repo, 'docs', 'README.md'), join(repo, 'docs', 'intro.md'));
  const toc = readFileSync(join(repo, 'docs', 'SUMMARY.md'), 'utf8').replace('(README.md)', '(intro.md)');
  rmSync(join(repo, 'docs', 'SUMMARY.md'));
  writeFileSync(join(repo, 'docs', 'toc.md'), toc);
  writeFileSync(join(repo, '.gitbook.yaml'), CONFIG);
  writeFileSync(join(repo, 'package.json'), '{ "name": "not-docs" }\n');
});
afterEach(() => killStarted());

const check = (...args: string[]) => startQuire(['check', ...args]).exited;

describe('quire check on a Git Sync repository with a .gitbook.yaml', () => {
  it('checks the space .gitbook.yaml lays out, from the repository’s top and from its root folder', async () => {
    for (const dir of [repo, join(repo, 'docs')]) {
      const run = await check('--dir', dir);
      expect(run.stderr, dir).not.toMatch(/error|nothing to check/i);
      expect(run.stdout, dir).toBe('Checked 1 space: 0 errors, 0 warnings, 0 info — no problems found.\n');
      expect(run.code, dir).toBe(0);
    }
  });

  it('reports a redirect to no page and one a page shadows, each at its line; a first page or table of contents that is not there', async () => {
    writeFileSync(
      join(repo, '.gitbook.yaml'),
      `${CONFIG}  old/branding: meta/brand.md\n  meta/license: about/project-history.md\n  to-anchor: meta/license.md#apache\n`,
    );
    const run = await check('--dir', repo);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('  Redirects that lead to no page: 2 errors');
    expect(run.stdout).toContain('    .gitbook.yaml:10: error: The redirect from `old/branding` leads to meta/brand.md, which does not exist in docs/.');
    expect(run.stdout).toContain('    .gitbook.yaml:12: error: The redirect from `to-anchor` leads to `meta/license.md#apache`');
    expect(run.stdout).toContain('  Redirects that never apply: 1 warning');
    expect(run.stdout).toContain(
      "    .gitbook.yaml:11: warning: The redirect from `meta/license` never applies: that address is the page meta/license.md's own, and GitBook shows the page.",
    );
    // From docs/, the same findings, the file named from there.
    expect((await check('--dir', join(repo, 'docs'))).stdout).toContain('    ../.gitbook.yaml:10: error: The redirect from `old/branding`');

    renameSync(join(repo, 'docs', 'toc.md'), join(repo, 'docs', 'contents.md'));
    const missing = await check('--dir', repo);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toContain(
      "    .gitbook.yaml: error: structure.summary names toc.md, which is not in docs/: GitBook cannot find the space's table of contents.",
    );
    expect(missing.stdout).not.toContain('quire sync');
  });

  it('says what in .gitbook.yaml it cannot read, with the line', async () => {
    writeFileSync(join(repo, '.gitbook.yaml'), `${CONFIG}  history: about/other.md\n`);
    const run = await check('--dir', repo);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/ {4}\.gitbook\.yaml:10: error: \.gitbook\.yaml is not valid YAML \(Map keys must be unique\), so GitBook cannot read it\./);
  });
});

describe('quire preview on a Git Sync repository with a .gitbook.yaml', () => {
  it('opens on the first page .gitbook.yaml names, lists toc.md’s pages, and leaves the repository’s other files out', async () => {
    writeFileSync(join(repo, 'README.md'), '# The repository\n\nHow to build the docs.\n');
    const preview = startQuire(['preview', '--dir', repo]);
    let stdout = '';
    preview.child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    expect(await preview.stderrLine(/^Previewing /)).toContain('(1 space, 11 pages)');
    const base = stdout.split('\n')[0]!;
    const home = await get(base);
    expect(home.status).toBe(302);
    expect(home.location).toBe(`${new URL(base).pathname}docs/intro.md`);
    const first = await get(`${base}docs/intro.md`);
    expect(first.status).toBe(200);
    expect(first.body).toContain('<h1 class="gb-title">Roadmap and future features</h1>');
    expect(first.body).toContain('<h2>About Lawnchair</h2>');
    expect(first.body).toContain('>Branding</a>');
    expect(first.body).toContain('<p class="pv-ok">No problems on this page.</p>');
    expect((await get(`${base}README.md`)).status).toBe(404);
    preview.child.kill('SIGINT');
    expect((await preview.exited).code).toBe(0);
  });
});

describe('a .gitbook.yaml in a synced space folder', () => {
  it('is kept and never pushed; check reads its redirects against the space and says its root and structure are not used', async () => {
    const fake = await startFakeApi();
    try {
      seedGuide(fake);
      const root = tempDir('quire-gitbook-yaml-sync-');
      const sync = () => startQuire(['sync', '--api', fake.url, '--dir', root, '--once'], { QUIRE_TOKEN: fake.token }).exited;
      expect((await sync()).code).toBe(0);
      const config = 'root: ./docs/\nstructure:\n  readme: intro.md\nredirects:\n  setup: getting-started/install.md\n  faq: nowhere.md\n';
      writeFileSync(join(root, 'guide', '.gitbook.yaml'), config);
      fake.resetLog();
      const again = await sync();
      expect(again.code, again.stderr).toBe(0);
      expect(contentBatches(fake)).toEqual([]);
      expect(readFileSync(join(root, 'guide', '.gitbook.yaml'), 'utf8')).toBe(config);
      const run = await check('--dir', root);
      expect(run.code).toBe(3);
      expect(run.stdout).toContain(
        "    guide/.gitbook.yaml: warning: Quire lays a synced space out as GitBook's Git Sync does by default (README.md and SUMMARY.md in guide/), so the root and structure of this .gitbook.yaml are not used here.",
      );
      expect(run.stdout).toContain('    guide/.gitbook.yaml:6: error: The redirect from `faq` leads to nowhere.md, which does not exist in guide/.');
      expect(run.stdout).toContain("    guide/.gitbook.yaml:6: warning: The redirect from `faq` never applies: that address is the page faq.md's own");
      expect(run.stdout).not.toContain('`setup`');
    } finally {
      await fake.close();
    }
  });
});

function get(url: string): Promise<{ status: number; body: string; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
    })
      .on('error', reject)
      .end();
  });
}
