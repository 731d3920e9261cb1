/**
 * The command line is read strictly against each command's declaration (issue 17, items 3 and
 * 8; issue 18, item 8): an unknown flag, a stray word, a value given to a switch, a flag given
 * twice, a number that is not plain decimal digits or out of range — each is one line, exit 2,
 * before any folder is touched or request sent. `--help` is each command's own; `--version`
 * is package.json's.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/main/hosts/cli/commands';
import { usageLines } from '../../../src/main/hosts/cli/help';
import type { CommandSpec, FlagSpec } from '../../../src/main/hosts/cli/spec';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';

let fake: FakeApi;
let space: SpaceRec;
let dir: string;
const env = () => ({ QUIRE_TOKEN: fake.token });

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  space = fake.store.addSpace(org.id, {
    title: 'Guide',
    pages: ['Welcome', 'Install', 'Configure', 'FAQ'].map((title) => ({ title, markdown: `${title}.\n` })),
  });
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

/** Exit 2, exactly this one line on stderr, nothing on stdout, not a request, no mirror. */
async function expectRefused(argv: string[], line: string | RegExp, folder = dir) {
  fake.resetLog();
  const had = existsSync(join(folder, '.quire'));
  const run = await quire(argv, { env: env() });
  expect(run.stderr.split('\n')).toHaveLength(1);
  if (typeof line === 'string') expect(run.stderr).toBe(line);
  else expect(run.stderr).toMatch(line);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(fake.requests).toEqual([]);
  expect(existsSync(join(folder, '.quire'))).toBe(had);
}

/** A command line each command accepts: its verb, positionals and required flags filled in. */
function minimal(name: string, spec: CommandSpec): string[] {
  const verb = spec.verbs ? Object.keys(spec.verbs)[0]! : null;
  const args = verb ? spec.verbs![verb]! : spec;
  const argv = [name, ...(verb ? [verb] : []), ...(args.positionals ?? []).filter((p) => !p.optional).map(() => 'x')];
  for (const [flag, f] of Object.entries({ ...spec.flags, ...args.flags })) {
    if (f.required) argv.push(`--${flag}`, flag === 'dir' ? dir : flag === 'api' ? fake.url : '1');
  }
  return argv;
}

describe('a word the command does not take', () => {
  it('`--allow-deletes no` is refused, not read as --allow-deletes with a stray "no": nothing is deleted', async () => {
    expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: env() })).code).toBe(0);
    for (const file of ['install.md', 'configure.md', 'faq.md']) rmSync(join(dir, 'guide', file));
    await expectRefused(
      ['sync', '--api', fake.url, '--dir', dir, '--once', '--allow-deletes', 'no'],
      'quire sync: --allow-deletes takes no value, so "no" is not one: write --allow-deletes to turn it on, or leave it out.',
    );
    expect(fake.store.pages(space.id).map((p) => p.title)).toEqual(expect.arrayContaining(['Install', 'Configure', 'FAQ']));
    // The same words with `=` keep their meaning: off.
    expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--allow-deletes=no'], { env: env() })).code).toBe(3);
    expect(fake.store.pages(space.id).map((p) => p.title)).toEqual(expect.arrayContaining(['Install', 'Configure', 'FAQ']));
  });

  it('a stray word is refused by every command; so is an unknown flag, with the one it resembles', async () => {
    await expectRefused(
      ['sync', '--once', '--api', fake.url, '--dir', dir, 'foo'],
      'quire sync: unexpected argument "foo": quire sync takes no arguments besides its flags (see `quire sync --help`).',
    );
    await expectRefused(
      ['sync', '--api', fake.url, '--dir', dir, '--once', 'foo'],
      'quire sync: --once takes no value, so "foo" is not one: write --once to turn it on, or leave it out.',
    );
    await expectRefused(['history', 'a.md', 'b.md', '--dir', dir], /^quire history: unexpected argument "b\.md": quire history takes one argument \(see/);
    await expectRefused(
      ['sync', '--api', fake.url, '--dir', dir, '--once', '--alow-deletes'],
      /^quire sync: --alow-deletes is not a flag of quire sync \(did you mean --allow-deletes\?\)/,
    );
    for (const [name, spec] of Object.entries(COMMANDS) as [string, CommandSpec][]) {
      const argv = minimal(name, spec);
      const takesMore = (spec.verbs ? spec.verbs[argv[1]!]! : spec).positionals?.some((p) => p.optional || p.rest);
      if (!takesMore)
        await expectRefused(
          [...argv, 'stray'],
          new RegExp(`^quire ${name}: unexpected argument "stray": quire ${argv.slice(0, spec.verbs ? 2 : 1).join(' ')} takes`),
        );
      await expectRefused([...argv, '--frobnicate'], new RegExp(`^quire ${name}: --frobnicate is not a flag of quire ${name}`));
      await expectRefused([...argv, '-x'], new RegExp(`^quire ${name}: -x is not an option of quire ${name}`));
    }
  });

  it('a flag given twice, a switch given a value that is not yes or no, a missing value or argument, an unknown command or verb', async () => {
    await expectRefused(['search', 'x', '--dir', dir, '--limit', '5', '--limit', '6'], 'quire search: --limit is given twice; give it once.');
    await expectRefused(['sync', '--dir', dir, '--once=maybe'], /^quire sync: --once=maybe is neither yes nor no/);
    await expectRefused(['status', '--dir'], 'quire status: --dir needs a value: --dir <folder>.');
    await expectRefused(['status', '--dir', '--json'], 'quire status: --dir needs a value: --dir <folder>.');
    await expectRefused(['status'], 'quire status: missing --dir <folder>: the sync folder (see `quire status --help`).');
    await expectRefused(
      ['restore', '--dir', dir, '--version', '1'],
      'quire restore: missing <file or page id>: the page, by its file or its page id (`quire history` lists them), or --deleted for the deleted ones (see `quire restore --help`).',
    );
    await expectRefused(['comment', 'resolve', '--dir', dir], /^quire comment: missing <commentId>: the comment’s id/);
    await expectRefused(
      ['comment', 'like', 'c1', '--dir', dir],
      /^quire comment: expected one of new, edit, delete, reply, resolve, reopen, react, apply; got "like" \(see `quire comment --help`\)\.$/,
    );
    await expectRefused(['comment', 'resolve', 'c1', '--dir', dir, '--body', 'hi'], /^quire comment: --body is not a flag of quire comment resolve/);
    await expectRefused(['synk', '--dir', dir], /^quire: unknown command "synk" \(did you mean `quire sync`\?\); the commands are sync, status, /);
    await expectRefused(['--dir', dir, 'status'], /^quire: the command comes first/);
    // What follows `--` is an argument, whatever it looks like.
    const run = await quire(['search', '--dir', dir, '--', '--json'], { env: env() });
    expect(run.stderr).not.toMatch(/not a flag/);
  });
});

describe('numbers are plain decimal digits, within bounds', () => {
  it.each([
    [
      ['ui', '--api', 'http://127.0.0.1:1', '--dir', '{dir}', '--port', '0x50'],
      /^quire ui: --port takes a whole number in plain digits, from 0 to 65535 \(such as --port 8080\); got "0x50"\.$/,
    ],
    [['preview', '--dir', '{dir}', '--port', '8e1'], /^quire preview: --port takes a whole number in plain digits/],
    [['preview', '--dir', '{dir}', '--port', '70000'], 'quire preview: --port 70000 is out of range: it takes from 0 to 65535.'],
    [['restore', 'a.md', '--dir', '{dir}', '--version', '1e3'], /^quire restore: --version takes a version number .*; got "1e3"\.$/],
    [['restore', 'a.md', '--dir', '{dir}', '--version', '0x3'], /got "0x3"/],
    [['search', 'x', '--dir', '{dir}', '--limit', '1e1'], /^quire search: --limit takes a whole number in plain digits, from 1 to 200/],
    [['search', 'x', '--dir', '{dir}', '--limit', ' 5'], /got " 5"/],
    [['history', '--dir', '{dir}', '--keep-days', '1e3'], /^quire history: --keep-days takes a whole number of days in plain digits, from 0 to 36500/],
    [['history', '--dir', '{dir}', '--keep-versions', '0x10'], /^quire history: --keep-versions takes a whole number of versions/],
    [['history', '--dir', '{dir}', '--keep-days', '99999999999999999999'], /--keep-days takes a whole number/],
    [['sync', '--api', '{api}', '--dir', '{dir}', '--interval', '2147484'], 'quire sync: --interval 2147484 is too long: the most is 86400 seconds (a day).'],
    [
      ['sync', '--api', '{api}', '--dir', '{dir}', '--interval', '1e12'],
      /^quire sync: --interval takes a number of seconds in plain digits, such as --interval 30; got "1e12"\.$/,
    ],
    [['sync', '--api', '{api}', '--dir', '{dir}', '--interval', '86401'], /is too long: the most is 86400 seconds/],
    [['sync', '--api', '{api}', '--dir', '{dir}', '--interval', '4'], /--interval 4 is too short: the least is 5 seconds/],
  ] as [string[], string | RegExp][])('%j', async (argv, line) => {
    await expectRefused(
      argv.map((a) => (a === '{dir}' ? dir : a === '{api}' ? fake.url : a)),
      line,
    );
  });
});

describe('help and version', () => {
  it('`quire <command> --help` is that command’s help: every flag it takes, with what it does', async () => {
    for (const [name, spec] of Object.entries(COMMANDS) as [string, CommandSpec][]) {
      for (const argv of [
        [name, '--help'],
        ['help', name],
        [name, '-h', '--no-such-flag'],
      ]) {
        const run = await quire(argv);
        expect(run.code).toBe(0);
        expect(run.stdout.split('\n')[0]).toBe(`quire ${name}: ${spec.summary}`);
        for (const line of usageLines(name, spec)) expect(run.stdout).toContain(`  ${line}\n`);
        const flags: Record<string, FlagSpec> = Object.assign({}, spec.flags, ...Object.values(spec.verbs ?? {}).map((v) => v.flags ?? {}));
        for (const [flag, f] of Object.entries(flags))
          expect(run.stdout).toMatch(new RegExp(`\\n  --${flag}${f.value ? ` ${literally(f.value)}` : ''} +${literally(f.help)}`));
      }
    }
    const sync = await quire(['sync', '--help']);
    expect(sync.stdout).not.toContain('quire status');
    expect(sync.stdout).toMatch(/--interval <seconds> +without --once: also sync every this many seconds, from 5 to 86400 \(default 30\)/);
  });

  it('`quire --help` lists every command; `quire` alone prints it too, as a usage error', async () => {
    const help = await quire(['--help']);
    expect(help.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(help.stdout).toContain(`\n  quire ${name} `);
    const bare = await quire([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(help.stdout);
  });

  it('`quire --version` prints package.json’s version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await quire(['--version'])).toEqual({ code: 0, stdout: `quire ${version}`, stderr: '' });
    expect((await quire(['status', '--version'])).stderr).toBe(
      "quire status: --version is not a flag of quire status; `quire --version` prints Quire's version.",
    );
  });

  it('the command reference’s usage block (docs/cli.md) is what the help prints', () => {
    const reference = readFileSync('docs/cli.md', 'utf8');
    const block = /## Every command[\s\S]*?```text\n([\s\S]*?)```/.exec(reference)?.[1];
    const lines = (Object.entries(COMMANDS) as [string, CommandSpec][]).flatMap(([name, spec]) => usageLines(name, spec));
    expect(block?.trimEnd().split('\n')).toEqual(lines);
  });
});

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
