/**
 * Issue 27, item 19: `sync --dry-run` promised pushes the real sync holds — duplicate YAML keys
 * and an unclosed `{% hint %}` were "push update", exit 0, then `sync --once` held them, exit 3;
 * a 1.1 MB page was "nothing to do", exit 3, with no reason. Over a set of held cases, the dry
 * run says exactly what the sync then does: the same exit code, every hold in the same words,
 * and the same pushes (a plain edit beside each case goes in both).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeApi, type SpaceRec, startFakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { contentBatches, seedGuide, syncOnce, write } from '../../helpers/sync';

const PNG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);

let fake: FakeApi;
let space: SpaceRec;
let root: string;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  const logo = fake.store.addFile(space.id, { name: 'logo.png', contentType: 'image/png', bytes: PNG });
  fake.store.addPage(space.id, { title: 'Brand', markdown: `Our logo:\n\n![Logo](/files/${logo.id})\n` });
  fake.store.addReusableContent(space.id, { title: 'Note', markdown: 'Shared text.\n' });
  fake.store.setVariables(space.id, { product: 'Lumen' });
  root = tempDir('quire-dry-holds-');
  dir = join(root, 'guide');
  expect((await syncOnce(fake, root)).code).toBe(0);
});
afterEach(async () => {
  await fake.close();
});

const CONTENT_POST = (r: { method: string; path: string }) => r.method === 'POST' && /\/content$/.test(r.path);

const readSummary = (): string => readFileSync(join(dir, 'SUMMARY.md'), 'utf8');

/** Each case makes the folder hold something back (`setUp` may sync first); `says`: what the line about it says, if there is one. */
const CASES: { name: string; setUp: () => Promise<void> | void; says?: RegExp }[] = [
  {
    name: 'duplicate YAML keys',
    setUp: () => write(dir, 'changelog.md', '---\ndescription: a\ndescription: b\n---\n\n# Changelog\n\nNothing yet.\n'),
    says: /Map keys must be unique/,
  },
  { name: 'an unclosed {% hint %}', setUp: () => write(dir, 'tips.md', '# Tips\n\n{% hint style="info" %}\nNever closed.\n'), says: /never closed/ },
  {
    name: 'a page over 1 MiB',
    setUp: () => write(dir, 'big.md', `# Big\n\n${'All work and no play. '.repeat(50_000)}\n`),
    says: /big\.md is left alone.*over 1 MiB/,
  },
  {
    name: 'frontmatter over 64 KB',
    setUp: () => write(dir, 'keys.md', `---\n${Array.from({ length: 8_000 }, (_, i) => `k${i}: ${i}`).join('\n')}\n---\n\n# Keys\n`),
    says: /Quire reads at most 64 KB/,
  },
  {
    name: 'frontmatter nested 200 deep',
    setUp: () => write(dir, 'deep.md', `---\nx: ${'['.repeat(200)}${']'.repeat(200)}\n---\n\n# Deep\n`),
    says: /more than 100 levels deep/,
  },
  {
    name: 'an image deleted that a page still shows',
    setUp: () => rmSync(join(dir, '.gitbook/assets/logo.png')),
    says: /logo\.png was deleted here, but brand\.md still shows it/,
  },
  {
    name: 'an edit to reusable content',
    setUp: () => write(dir, '.gitbook/includes/note.md', '---\ntitle: Note\n---\n\nMine.\n'),
    says: /note\.md: reusable content .*GitBook's editor/,
  },
  { name: 'an edit to the space’s variables', setUp: () => write(dir, '.gitbook/vars.yaml', 'product: Quire\n'), says: /vars\.yaml: the space's variables/ },
  {
    name: 'page variables set here',
    setUp: () => write(dir, 'changelog.md', '---\nvars:\n  v: 1\n---\n\n# Changelog\n\nNothing yet.\n'),
    says: /changelog\.md is not pushed: its page variables/,
  },
  { name: 'a new group in SUMMARY.md', setUp: () => write(dir, 'SUMMARY.md', `${readSummary()}\n## Tutorials\n`), says: /“Tutorials” is a new group/ },
  {
    name: 'an edit to a page that exists only in a change request set aside',
    setUp: async () => {
      write(dir, 'new-page.md', '# New page\n\nHello.\n');
      expect((await syncOnce(fake, root)).code).toBe(0);
      expect((await quire(['cr', 'new', '--subject', 'Something else', '--dir', root], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
      write(dir, 'new-page.md', '# New page\n\nHello again.\n');
    },
    says: /new-page\.md is not pushed: it exists only in change request #1, set aside/,
  },
  {
    name: 'an edit the server refused, unchanged since',
    setUp: async () => {
      write(dir, 'changelog.md', '# Changelog\n\nRefused by the server.\n');
      fake.faults.fail(1, 422, { match: CONTENT_POST });
      await syncOnce(fake, root);
      fake.faults.clear();
    },
  },
];

/** The lines a sync prints about what it holds back ("Guide: …"), without the space's name. */
const holdLines = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('Guide: '))
    .map((l) => l.slice('Guide: '.length))
    .sort();
const dryHoldLines = (stdout: string): string[] =>
  stdout
    .split('\n')
    .flatMap((l) => /^ {2}(?:held|left alone) +(.*)$/.exec(l)?.slice(1) ?? [])
    .sort();
const dryPushes = (stdout: string): string[] =>
  stdout
    .split('\n')
    .flatMap((l) => /^ {2}push (?:insert|update|delete|move|file) +(.*)$/.exec(l)?.slice(1) ?? [])
    .sort();

describe.each(CASES)('$name', ({ setUp, says }) => {
  it('the dry run says what the sync then does: same exit code, same holds in the same words, same pushes', async () => {
    await setUp();
    write(dir, 'faq.md', '# FAQ\n\nQuestions, edited beside it.\n');
    fake.resetLog();

    const dry = await syncOnce(fake, root, '--dry-run');
    const json = JSON.parse((await syncOnce(fake, root, '--dry-run', '--json')).stdout) as { spaces: { held: { says: string }[] }[] };
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    const real = await syncOnce(fake, root);

    expect(dry.code, dry.stdout).toBe(real.code);
    expect(dryHoldLines(dry.stdout)).toEqual(holdLines(real.stderr));
    if (says)
      expect(
        holdLines(real.stderr).some((l) => says.test(l)),
        real.stderr,
      ).toBe(true);
    expect(json.spaces[0]!.held.map((h) => h.says)).toEqual(holdLines(real.stderr).filter((l) => !/ is left alone /.test(l)));
    const sent = contentBatches(fake).flatMap((r) => (r.body as { changes: unknown[] }).changes);
    expect(dryPushes(dry.stdout)).toEqual(['faq.md']);
    expect(sent).toHaveLength(1);
  });
});

// A page the sync cannot read is said by the dry run too, in JSON.
it('the dry run lists a path it leaves alone in --json', async () => {
  writeFileSync(join(dir, 'big.md'), `# Big\n\n${'x'.repeat(1_100_000)}\n`);
  const json = JSON.parse((await syncOnce(fake, root, '--dry-run', '--json')).stdout) as { spaces: { unreadable: unknown[] }[] };
  expect(json.spaces[0]!.unreadable).toEqual([{ path: 'big.md', reason: 'too-large' }]);
});
