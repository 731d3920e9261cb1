/**
 * Command-line input is checked (issue 9, item 6): a value Quire cannot use is refused with
 * one clear line (exit 2) before any folder is touched or request sent; plain http:// only
 * to this machine; a folder's API address shown by `status` and never switched silently;
 * a keychain token used only for the API origin it was saved for.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
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

/** One line on stderr (no usage text after it), exit 2, and not a single request. */
function expectRefusedInOneLine(run: { code: number; stderr: string }, pattern: RegExp) {
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(pattern);
  expect(fake.requests).toEqual([]);
}

describe('--allow-deletes', () => {
  async function deleteMostPages(...flags: string[]) {
    expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: env() })).code).toBe(0);
    for (const file of ['install.md', 'configure.md', 'faq.md']) rmSync(join(dir, 'guide', file));
    return quire(['sync', '--api', fake.url, '--dir', dir, '--once', ...flags], { env: env() });
  }

  it.each(['--allow-deletes=no', '--allow-deletes=0', '--allow-deletes=false', '--allow-deletes=OFF'])('%s does not allow deletes', async (flag) => {
    const run = await deleteMostPages(flag);
    expect(run.code).toBe(3);
    expect(fake.store.pages(space.id).map((p) => p.title)).toEqual(expect.arrayContaining(['Install', 'Configure', 'FAQ']));
  });

  it('--allow-deletes=yes allows them; --allow-deletes=maybe is refused', async () => {
    fake.resetLog();
    expectRefusedInOneLine(await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--allow-deletes=maybe'], { env: env() }), /neither yes nor no/);
    const run = await deleteMostPages('--allow-deletes=yes');
    expect(run.code).toBe(0);
  });
});

describe('values refused before any request', () => {
  it('--interval below 5 seconds', async () => {
    expectRefusedInOneLine(
      await quire(['sync', '--api', fake.url, '--dir', dir, '--interval', '2'], { env: env() }),
      /--interval 2 is too short: the least is 5 seconds/,
    );
    expectRefusedInOneLine(await quire(['sync', '--api', fake.url, '--dir', dir, '--interval', 'soon'], { env: env() }), /takes a number of seconds/);
  });

  it('a --space value that is not a space id, with the id when it is a space’s address', async () => {
    expectRefusedInOneLine(
      await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--space', 'User Guide'], { env: env() }),
      /"User Guide" is not a space id/,
    );
    const url = 'https://app.gitbook.com/o/abc/s/Yx3kq9_Lm-2/';
    expectRefusedInOneLine(await quire(['sync', '--api', fake.url, '--dir', dir, '--once', '--space', url], { env: env() }), /write --space Yx3kq9_Lm-2/);
    // The offline commands that take --space check it the same way.
    expectRefusedInOneLine(await quire(['check', '--dir', dir, '--space', url]), /write --space Yx3kq9_Lm-2/);
    expectRefusedInOneLine(await quire(['search', 'install', '--dir', dir, '--space', 'User Guide']), /"User Guide" is not a space id/);
    expect(existsSync(join(dir, '.quire'))).toBe(false);
  });

  it('--dir pointing at a file', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a folder');
    const commands = [
      ['sync', '--api', fake.url, '--once'],
      ['status'],
      ['review'],
      ['check'],
      ['preview'],
      ['search', 'x'],
      ['history'],
      ['restore', 'a.md', '--version', '1'],
    ];
    for (const command of commands) {
      expectRefusedInOneLine(await quire([...command, '--dir', file], { env: env() }), /is a file, not a folder/);
    }
  });

  it('an empty --dir, which would sync into the current directory', async () => {
    const cwd = tempDir();
    // Run from an empty folder (tsx resolved from here): before the check, Quire synced into it.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = spawn(process.execPath, ['--import', tsx, resolve('src/main/hosts/cli/main.ts'), 'sync', '--api', fake.url, '--dir', '', '--once'], {
      cwd,
      env: { ...process.env, ...env() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('quire sync: --dir is empty: give the folder to sync, such as --dir ~/Docs.');
    expect(readdirSync(cwd)).toEqual([]);
    expect(fake.requests).toEqual([]);
  }, 30_000);

  it('a plain http:// API address other than this machine, and one with a user name or password', async () => {
    expectRefusedInOneLine(
      await quire(['sync', '--api', 'http://api.example.com', '--dir', dir, '--once'], { env: env() }),
      /plain http:\/\/, which would send your token in clear text: use https:\/\/api\.example\.com/,
    );
    expectRefusedInOneLine(await quire(['login', '--api', 'http://10.0.0.7:8080'], { stdin: fake.token }), /clear text/);
    const withPassword = fake.url.replace('http://', 'http://me:secret@');
    expectRefusedInOneLine(await quire(['sync', '--api', withPassword, '--dir', dir, '--once'], { env: env() }), /must not hold a user name or password/);
    expect(existsSync(join(dir, '.quire'))).toBe(false);
    // Loopback over http:// is fine (tests, demos): localhost names this machine too.
    const local = fake.url.replace('127.0.0.1', 'localhost');
    expect((await quire(['sync', '--api', local, '--dir', dir, '--once'], { env: env() })).code).toBe(0);
  });
});

describe('the folder’s API address', () => {
  it('is shown by status, and a different --api is never a silent switch', async () => {
    expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: env() })).code).toBe(0);
    const text = await quire(['status', '--dir', dir]);
    expect(text.stdout.split('\n')[0]).toMatch(/^State: In sync/);
    expect(text.stdout.split('\n')).toContain(`API: ${fake.url} (remembered by this folder; its token is looked up for this address)`);
    expect(JSON.parse((await quire(['status', '--dir', dir, '--json'])).stdout)).toMatchObject({ apiUrl: fake.url });

    const other = await startFakeApi();
    try {
      const switched = await quire(['sync', '--api', other.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: other.token } });
      expect(switched.stderr).toContain(`This folder synced with ${fake.url} until now; from now on it syncs with ${other.url} (given by --api).`);
      expect(JSON.parse((await quire(['status', '--dir', dir, '--json'])).stdout)).toMatchObject({ apiUrl: other.url });
    } finally {
      await other.close();
    }
  });

  it('takes a keychain token only for the API origin it was saved for', async () => {
    const tokens = new MemoryTokenStore();
    expect((await quire(['login', '--api', fake.url], { stdin: fake.token, tokens })).code).toBe(0);
    const other = await startFakeApi();
    try {
      const run = await quire(['sync', '--api', other.url, '--dir', dir, '--once'], { tokens, env: {} });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`No API token for ${other.url}`);
      expect(other.requests).toEqual([]);
      expect((await quire(['sync', '--api', fake.url, '--dir', tempDir(), '--once'], { tokens, env: {} })).code).toBe(0);
    } finally {
      await other.close();
    }
  });
});
