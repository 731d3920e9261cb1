/**
 * `quire check` over a corpus of folders (test/fixtures/check): a clean space using every GitBook
 * block gets no problem at all, a broken one gets exactly the problems listed beside it, and the
 * cases a repository cannot hold (names differing only in case, bytes that are not UTF-8, files
 * over the limits) are made in a temporary folder.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFolder, checkPageForPush, MAX_ASSET_BYTES, MAX_PAGE_BYTES, type Problem } from '../../src/main/core/check';
import { quire, tempDir } from '../helpers/cli';

const CORPUS = fileURLToPath(new URL('../fixtures/check/', import.meta.url));
const shape = (p: Problem) => ({ file: p.file, line: p.line, severity: p.severity, code: p.code });
const problemsOf = (dir: string) => checkFolder(dir, null).spaces.flatMap((s) => s.problems);

function copyOf(name: string): string {
  const dir = tempDir('quire-check-');
  cpSync(join(CORPUS, name), dir, { recursive: true });
  return dir;
}

describe('the corpus', () => {
  it('finds nothing wrong in a clean space that uses every block, link form and asset kind', async () => {
    expect(problemsOf(join(CORPUS, 'clean'))).toEqual([]);
    const run = await quire(['check', '--dir', join(CORPUS, 'clean')]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('0 errors, 0 warnings, 0 info — no problems found.');
  });

  it('finds exactly the listed problems in a broken space, each saying what is wrong and how to fix it', () => {
    const expected = JSON.parse(readFileSync(join(CORPUS, 'broken.expected.json'), 'utf8'));
    const problems = problemsOf(join(CORPUS, 'broken'));
    expect(problems.map(shape)).toEqual(expected);
    for (const p of problems) {
      expect(p.message).toMatch(/\S.*\.$/);
      expect(p.fix).toMatch(/\S.*[.?]$/);
    }
  });

  it('suggests the path a broken link probably meant', () => {
    const wrongCase = problemsOf(join(CORPUS, 'broken')).find((p) => p.message.includes('Guide/Install.md'));
    expect(wrongCase?.fix).toContain('Did you mean `guide/install.md`?');
  });

  it('exits 3 with errors, printing file:line, severity, message and fix; --json gives the same problems', async () => {
    const dir = join(CORPUS, 'broken');
    const run = await quire(['check', '--dir', dir]);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('README.md:3: error: The link `guide/missing.md` leads to guide/missing.md, which does not exist.');
    expect(run.stdout).toContain('    fix: Fix the path, or create the page and list it in SUMMARY.md.');
    expect(run.stdout).toMatch(/13 errors, 4 warnings, 2 info — 13 errors to fix before pushing\.$/);
    const json = await quire(['check', '--dir', dir, '--json']);
    expect(json.code).toBe(3);
    const report = JSON.parse(json.stdout);
    expect(report.counts).toEqual({ error: 13, warning: 4, info: 2 });
    expect(report.spaces[0].problems.map(shape)).toEqual(JSON.parse(readFileSync(join(CORPUS, 'broken.expected.json'), 'utf8')));
  });

  it('exits 0 when only warnings remain, and prints them', async () => {
    const dir = copyOf('clean');
    writeFileSync(join(dir, 'extra.md'), '# Extra\n\nNot in SUMMARY.md, and [a missing anchor](README.md#nope).\n');
    const run = await quire(['check', '--dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('extra.md: warning: This page is not listed in SUMMARY.md');
    expect(run.stdout).toContain('extra.md:3: warning: The link `README.md#nope` points to #nope, which README.md does not have.');
  });
});

describe('what a repository cannot hold', () => {
  it('reports names that differ only in case, in files and folders', () => {
    const dir = copyOf('clean');
    writeFileSync(join(dir, 'Reference.md'), '# Reference again\n');
    mkdirSync(join(dir, 'Guide'));
    writeFileSync(join(dir, 'Guide', 'notes.md'), '# Notes\n');
    const clashes = problemsOf(dir).filter((p) => p.code === 'case-clash');
    expect(clashes.map((p) => p.file).sort()).toEqual(['guide', 'reference.md']);
    expect(clashes.every((p) => p.severity === 'error')).toBe(true);
  });

  it('reports a page that is not UTF-8 at the line of its first bad byte, without reading it as text', () => {
    const dir = copyOf('clean');
    writeFileSync(join(dir, 'latin1.md'), Buffer.concat([Buffer.from('# Caf\n\nline 3\nna'), Buffer.from([0xef, 0x76, 0x65]), Buffer.from('\n')]));
    const found = problemsOf(dir).filter((p) => p.file === 'latin1.md');
    expect(found.map(shape)).toEqual([
      { file: 'latin1.md', line: null, severity: 'warning', code: 'not-in-summary' },
      { file: 'latin1.md', line: 4, severity: 'error', code: 'not-utf8' },
    ]);
  });

  it('reports pages and assets over the push limits (one shared page limit, MAX_PAGE_BYTES)', () => {
    const dir = copyOf('clean');
    writeFileSync(join(dir, 'huge.md'), `# Huge\n\n${'x'.repeat(MAX_PAGE_BYTES)}\n`);
    writeFileSync(join(dir, 'at-limit.md'), `# At the limit\n\n${'y'.repeat(MAX_PAGE_BYTES - 20)}\n`);
    writeFileSync(join(dir, '.gitbook/assets/huge.bin'), Buffer.alloc(MAX_ASSET_BYTES + 1));
    const tooLarge = problemsOf(dir).filter((p) => p.code === 'too-large');
    expect(tooLarge.map((p) => p.file).sort()).toEqual(['.gitbook/assets/huge.bin', 'huge.md']);
    expect(tooLarge[0]!.message).toMatch(/MiB/);
  });

  it('warns when a space has pages but no SUMMARY.md', () => {
    const dir = tempDir('quire-check-');
    writeFileSync(join(dir, 'README.md'), '# Home\n');
    expect(problemsOf(dir).map(shape)).toEqual([{ file: 'SUMMARY.md', line: null, severity: 'warning', code: 'summary-missing' }]);
  });
});

describe('which folder is checked', () => {
  it('checks each subfolder holding a SUMMARY.md, and resolves links between them', () => {
    const root = tempDir('quire-check-');
    cpSync(join(CORPUS, 'clean'), join(root, 'lumen'), { recursive: true });
    mkdirSync(join(root, 'api'));
    writeFileSync(join(root, 'api', 'SUMMARY.md'), '# Table of contents\n\n* [API](README.md)\n');
    writeFileSync(join(root, 'api', 'README.md'), '# API\n\nInstall first: [install](../lumen/guide/install.md#requirements); [nope](../lumen/nope.md).\n');
    const report = checkFolder(root, null);
    expect(report.spaces.map((s) => [s.title, s.folder])).toEqual([
      ['api', 'api'],
      ['lumen', 'lumen'],
    ]);
    expect(report.spaces[0]!.problems.map(shape)).toEqual([{ file: 'api/README.md', line: 3, severity: 'error', code: 'broken-link' }]);
    expect(report.spaces[1]!.problems).toEqual([]);
  });

  it('exits 1 with a reason when there is nothing to check, or --space is given without a mirror', async () => {
    const empty = tempDir('quire-check-');
    const run = await quire(['check', '--dir', empty]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/holds no markdown pages .*nothing to check/);
    const withSpace = await quire(['check', '--dir', join(CORPUS, 'clean'), '--space', 'abc']);
    expect(withSpace.code).toBe(1);
    expect(withSpace.stderr).toContain('--space needs a Quire sync folder');
  });
});

describe('checkPageForPush: what would damage a page on the server', () => {
  it('holds unparseable frontmatter and broken block structure', () => {
    const page = (s: string) => checkPageForPush(s, 'p.md').map((p) => [p.code, p.line]);
    expect(page('---\ndescription: a: b\n---\n\n# T\n')).toEqual([['frontmatter', 2]]);
    expect(page('---\ndescription: fine\n\n# No closing line\n')).toEqual([['frontmatter', 1]]);
    expect(page('# T\n\n{% hint style="info" %}\nnever closed\n')).toEqual([['block-unclosed', 3]]);
    expect(page('# T\n\n{% tabs %}\n{% tab title="a" %}\nx\n{% endtabs %}\n')).toEqual([['block-mismatched-end', 6]]);
    expect(page('# T\n\n{% hint style="info %}\nx\n{% endhint %}\n')).toContainEqual(['block-malformed-tag', 3]);
  });

  it('lets through what only `quire check` reports: unknown blocks, stray end tags, broken links', () => {
    expect(checkPageForPush('# T\n\n{% warning %}\n{% endcode %}\n[x](nowhere.md)\n')).toEqual([]);
    expect(checkPageForPush(readFileSync(join(CORPUS, 'clean/guide/install.md'), 'utf8'))).toEqual([]);
  });
});

describe('anchors as GitBook resolves them', () => {
  it('accepts heading anchors in GitBook’s and GitHub’s spelling, explicit ids and numbered repeats; flags the rest', () => {
    const dir = tempDir('quire-check-anchors-');
    writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Target](target.md)\n* [Links](links.md)\n');
    writeFileSync(
      join(dir, 'target.md'),
      [
        '# Target',
        '',
        '## 1. Create an app',
        '## Math & TeX',
        '## Set syntax...',
        '## Größe der Datei',
        '## Setup',
        '## Setup',
        '### Code block options <a href="#options" id="options"></a>',
        '',
        'Text with <a id="loose-anchor"></a> an anchor.',
        '',
      ].join('\n'),
    );
    const good = [
      'id-1.-create-an-app',
      'math-and-tex',
      'math--tex',
      'set-syntax...',
      'größe-der-datei',
      'gr%C3%B6%C3%9Fe-der-datei',
      'setup',
      'setup-1',
      'options',
      'loose-anchor',
      'MATH-AND-TEX',
    ];
    const bad = ['setup-2', 'math', 'code-block-options'];
    writeFileSync(join(dir, 'links.md'), `# Links\n\n${[...good, ...bad].map((a) => `[to ${a}](target.md#${a})`).join('\n\n')}\n`);
    const broken = problemsOf(dir).filter((p) => p.code === 'broken-anchor');
    expect(broken.map((p) => p.message.match(/#(\S+), which/)?.[1])).toEqual(bad);
  });

  it('keeps underscores as GitBook does, and reaches an expandable block by its summary, as GitBook’s own links do', () => {
    const dir = tempDir('quire-check-anchors-');
    writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Target](target.md)\n* [Links](links.md)\n');
    writeFileSync(
      join(dir, 'target.md'),
      [
        '# Target',
        '',
        '## Use DAG_CBOR here',
        '#### **Accept both `DAG_CBOR (0x71)` and `CBOR (0x51)` in inputs**',
        '## Snake\\_case and _emphasis_ and __strong__',
        '',
        '<details>',
        '',
        '<summary>What does <strong>Match dock search bar actions</strong> do?</summary>',
        '',
        'It matches them.',
        '',
        '</details>',
        '',
        '<details>',
        '  <summary>',
        '      getQuote(args: GetQuoteArgs)',
        '  </summary>',
        '</details>',
        '',
        '```html',
        '<summary>In code</summary>',
        '```',
      ].join('\n'),
    );
    const good = [
      'use-dag_cbor-here',
      'accept-both-dag\\_cbor-0x71-and-cbor-0x51-in-inputs',
      'snake_case-and-emphasis-and-strong',
      'what-does-match-dock-search-bar-actions-do',
      'getquoteargs-getquoteargs',
    ];
    const bad = ['use-dagcbor-here', 'in-code'];
    writeFileSync(join(dir, 'links.md'), `# Links\n\n${[...good, ...bad].map((a) => `[to ${a}](target.md#${a})`).join('\n\n')}\n`);
    const broken = problemsOf(dir).filter((p) => p.code === 'broken-anchor');
    expect(broken.map((p) => p.message.match(/#(\S+), which/)?.[1])).toEqual(bad);
  });
});

describe('the output of quire check', () => {
  it('groups problems by kind with their count, lists at most 20 of a kind, and --errors-only leaves warnings out', async () => {
    const dir = copyOf('clean');
    const links = Array.from({ length: 25 }, (_, i) => `[anchor ${i}](README.md#nowhere-${i})`).join('\n\n');
    writeFileSync(join(dir, 'extra.md'), `# Extra\n\n${links}\n\n[gone](gone.md)\n`);
    writeFileSync(join(dir, 'SUMMARY.md'), `${readFileSync(join(dir, 'SUMMARY.md'), 'utf8')}* [Extra](extra.md)\n`);
    const run = await quire(['check', '--dir', dir]);
    expect(run.code).toBe(3);
    const lines = run.stdout.split('\n');
    const head = lines.indexOf('  Links to missing anchors: 25 warnings');
    expect(lines.indexOf('  Broken links: 1 error')).toBeGreaterThan(-1);
    expect(lines.indexOf('  Broken links: 1 error')).toBeLessThan(head); // errors first
    expect(lines.slice(head + 1).filter((l) => l.startsWith('    extra.md:')).length).toBe(20);
    expect(run.stdout).toContain('    … and 5 more of these (`quire check --json` lists every one)');
    expect(run.stdout).toMatch(/1 error, 25 warnings, 0 info — 1 error to fix before pushing\.$/);
    const json = JSON.parse((await quire(['check', '--dir', dir, '--json'])).stdout);
    expect(json.spaces[0].problems.filter((p: Problem) => p.code === 'broken-anchor')).toHaveLength(25);

    const errorsOnly = await quire(['check', '--dir', dir, '--errors-only']);
    expect(errorsOnly.code).toBe(3);
    expect(errorsOnly.stdout).toContain('  Broken links: 1 error');
    expect(errorsOnly.stdout).not.toContain(': warning:');
    expect(errorsOnly.stdout).toMatch(/1 error, 25 warnings, 0 info — 1 error to fix before pushing\. \(warnings and info not listed: --errors-only\)$/);
    const errorsJson = JSON.parse((await quire(['check', '--dir', dir, '--json', '--errors-only'])).stdout);
    expect(errorsJson.spaces[0].problems.map((p: Problem) => p.code)).toEqual(['broken-link']);
  });
});

describe('frontmatter too large to read (issue 17, item 9)', () => {
  it('is one problem saying how large the block is and what Quire reads, found without reading every key', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    const [problem, ...rest] = checkPageForPush(`---\n${keys}\n---\n\n# Big\n`, 'big.md');
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ file: 'big.md', line: 1, severity: 'error', code: 'frontmatter' });
    expect(problem!.message).toMatch(/^The frontmatter is \d+ KB and Quire reads at most 64 KB of it\.$/);
    expect(problem!.fix).toBe('Shorten it and sync again.');
  });
});
