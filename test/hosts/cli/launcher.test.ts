/**
 * The installed `quire` command's launcher (bin/quire.cjs, issue 21 item 1), run as a process in
 * a copy of the project's layout with stand-in build scripts that record being called: in a
 * development checkout it rebuilds the bundle only when a file it was built from changed, and
 * the app's web files only for `quire ui`; a copy without sources runs the bundle as it is. It
 * keeps a code cache per command, named by the bundle's build id, and never runs one made for
 * another bundle, one whose bytes changed, nor one anyone but the user could have written (issue
 * 27, item 11): the cache folder is the user's alone (0700, 0600 files, whatever the umask), and
 * a folder of another owner, open to others, or a link is neither read nor written. With the
 * real bundle, a sync's cache is taken by the next sync: nothing changes V8's flags after the
 * bundle is compiled, so the cache made at exit matches the next start.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_NODE_FLAGS, cliEnv } from '../../bench/cli-process';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { buildCli } from '../../helpers/cli-process';

let root: string;
const calls = () => (existsSync(join(root, 'calls')) ? readFileSync(join(root, 'calls'), 'utf8').trim().split('\n') : []);

/** A stand-in build script: records its name; the CLI one writes a bundle that prints its arguments. */
function buildScript(name: string, writesBundle: boolean): string {
  const bundle = writesBundle
    ? `fs.mkdirSync('out/cli', { recursive: true }); fs.writeFileSync('out/cli/quire.cjs', "console.log('bundle ' + process.argv.slice(2).join(' '))\\n"); fs.writeFileSync('out/cli/inputs.json', JSON.stringify(['src/a.ts'])); fs.writeFileSync('out/cli/build-id', '0123abcd\\n');`
    : '';
  return `import fs from 'node:fs';\nfs.appendFileSync('calls', '${name}\\n');\n${bundle}\n`;
}

function launch(...args: string[]) {
  return spawnSync(process.execPath, [join(root, 'bin/quire.cjs'), ...args], { cwd: tempDir(), encoding: 'utf8' });
}

/** The launcher run as a shell with this umask runs it. */
function launchWithUmask(umask: string, ...args: string[]) {
  return spawnSync('sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, join(root, 'bin/quire.cjs'), ...args], {
    cwd: tempDir(),
    encoding: 'utf8',
  });
}

beforeEach(() => {
  root = tempDir('quire-launcher-');
  for (const dir of ['bin', 'scripts', 'src']) mkdirSync(join(root, dir));
  copyFileSync('bin/quire.cjs', join(root, 'bin/quire.cjs'));
  writeFileSync(join(root, 'scripts/build-cli.mjs'), buildScript('build-cli', true));
  writeFileSync(join(root, 'scripts/build-app.mjs'), buildScript('build-app', false));
  writeFileSync(join(root, 'src/a.ts'), 'export {};\n');
});

it('has a first line that kernels before Linux 5.1 read whole (127 bytes)', () => {
  // Older kernels cut the #! line at 127 bytes, silently: a flag or a variable cut in half.
  const first = readFileSync('bin/quire.cjs').subarray(0, 200).toString('latin1').split('\n', 1)[0]!;
  expect(Buffer.byteLength(first)).toBeLessThanOrEqual(127);
});

it('builds a missing bundle, then runs it as it is until a file it was built from changes', () => {
  let run = launch('status', '--dir', 'x');
  expect(run.stdout).toBe('bundle status --dir x\n');
  expect(calls()).toEqual(['build-cli']);

  run = launch('--version');
  expect(run.stdout).toBe('bundle --version\n');
  expect(calls()).toEqual(['build-cli']); // fresh: no build

  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'src/a.ts'), later, later);
  run = launch('--version');
  expect(run.stdout).toBe('bundle --version\n');
  expect(calls()).toEqual(['build-cli', 'build-cli']);
  // Nothing it prints reaches stdout but the command's own output.
  expect(run.stderr).toBe('');
});

it('runs a bundle holding text outside ASCII as written (the build escapes it; one built otherwise still runs)', () => {
  launch('--version');
  writeFileSync(join(root, 'out/cli/quire.cjs'), "console.log('bundle … ¹ café ' + /…/.test('a…b'))\n");
  for (let run = 0; run < 2; run++) expect(launch('status').stdout).toBe('bundle … ¹ café true\n'); // without its code cache, then with it
});

it('runs a command from its own bundle where the build made one, every other from the whole one', () => {
  launch('--version');
  writeFileSync(join(root, 'out/cli/quire-status.cjs'), "console.log('status bundle ' + process.argv.slice(2).join(' '))\n");
  for (let run = 0; run < 2; run++) expect(launch('status', '--dir', 'x').stdout).toBe('status bundle status --dir x\n'); // its cache made, then taken
  expect(launch('search', 'x').stdout).toBe('bundle search x\n');
  expect(launch('sync', '--once').stdout).toBe('bundle sync --once\n');
  expect(launch('../quire-status').stdout).toBe('bundle ../quire-status\n'); // a name, never a path
});

it('builds the app’s web files for `quire ui` only', () => {
  launch('status');
  launch('ui', '--api', 'https://api.example.com');
  expect(calls()).toEqual(['build-cli', 'build-app']);
});

it('a copy without its sources runs the bundle as it is, and says what to do when it is missing', () => {
  launch('--version');
  rmSync(join(root, 'scripts'), { recursive: true });
  rmSync(join(root, 'src'), { recursive: true });
  expect(launch('status').stdout).toBe('bundle status\n');
  rmSync(join(root, 'out'), { recursive: true });
  const run = launch('status');
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/out\/cli\/quire\.cjs is missing: this copy of Quire was installed without its build\. Run `npm install` in the Quire folder\./);
});

it('stops with the build’s failure, and runs nothing', () => {
  writeFileSync(join(root, 'scripts/build-cli.mjs'), "process.stderr.write('esbuild: syntax error\\n'); process.exit(1);\n");
  const run = launch('status');
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('esbuild: syntax error\nquire: scripts/build-cli.mjs failed (see above); the command was not run.\n');
});

describe('the code cache', () => {
  const caches = () => (existsSync(join(root, 'out/cli/code-cache')) ? readdirSync(join(root, 'out/cli/code-cache')).sort() : []);

  it('is written per command after a run that ended well, and read by the next', () => {
    expect(launch('status').stdout).toBe('bundle status\n');
    expect(launch('search', 'x').stdout).toBe('bundle search x\n');
    expect(caches()).toEqual(['0123abcd-search.bin', '0123abcd-status.bin']);
    const written = statSync(join(root, 'out/cli/code-cache/0123abcd-status.bin')).mtimeMs;
    expect(launch('status').stdout).toBe('bundle status\n');
    expect(statSync(join(root, 'out/cli/code-cache/0123abcd-status.bin')).mtimeMs).toBe(written); // taken, not made again
  });

  it('is not written after a run that failed', () => {
    writeFileSync(
      join(root, 'scripts/build-cli.mjs'),
      buildScript('build-cli', true).replace("console.log('bundle '", "process.exitCode = 2; console.log('bundle '"),
    );
    expect(launch('status').status).toBe(2);
    expect(caches()).toEqual([]);
  });

  it('made for another bundle of the same length, is never run', () => {
    launch('status');
    // Another build: the same length of code, which V8 would take the first one's cache for; its own build id.
    const other = "console.log('BUNDLE ' + process.argv.slice(2).join(' '))\n";
    writeFileSync(join(root, 'out/cli/quire.cjs'), other);
    writeFileSync(join(root, 'out/cli/build-id'), '4567cdef\n');
    expect(launch('status').stdout).toBe('BUNDLE status\n');
    expect(caches()).toEqual(['0123abcd-status.bin', '4567cdef-status.bin']);
  });

  /** A bundle large enough that V8, given its cache with bytes changed, crashes rather than refusing it. */
  const LARGE_BUNDLE = [
    ...Array.from({ length: 200 }, (_, i) => `function f${i}(a) { let s = 0; for (let j = 0; j < a; j++) s += j * ${i}; return s + ${i}; }`),
    `console.log('bundle ' + process.argv.slice(2).join(' ') + ' ' + [${Array.from({ length: 200 }, (_, i) => `f${i}(3)`).join(', ')}].length);`,
  ].join('\n');
  const cacheFile = () => join(root, 'out/cli/code-cache/0123abcd-status.bin');

  it('with bytes changed anywhere, is never run: the command runs as it is, and the cache is made again', () => {
    launch('--version');
    writeFileSync(join(root, 'out/cli/quire.cjs'), `${LARGE_BUNDLE}\n`);
    expect(launch('status').stdout).toBe('bundle status 200\n');
    const good = readFileSync(cacheFile());
    for (const at of [0.1, 0.5, 0.9]) {
      const bad = Buffer.from(good);
      const offset = Math.floor(bad.length * at);
      for (let i = offset; i < offset + 16; i++) bad[i]! ^= 0xff;
      writeFileSync(cacheFile(), bad);
      const run = launch('status');
      expect([run.status, run.stdout, run.stderr], `bytes changed at ${offset} of ${bad.length}`).toEqual([0, 'bundle status 200\n', '']);
      expect(readFileSync(cacheFile()).equals(bad)).toBe(false); // made again
      const written = statSync(cacheFile()).mtimeMs;
      expect(launch('status').stdout).toBe('bundle status 200\n');
      expect(statSync(cacheFile()).mtimeMs).toBe(written); // and taken by the next run
    }
  });

  it('is the user’s alone whatever the umask: a folder of 0700, files of 0600, no temporary file left', () => {
    const run = launchWithUmask('000', 'status');
    expect([run.status, run.stdout, run.stderr]).toEqual([0, 'bundle status\n', '']);
    expect(statSync(join(root, 'out/cli/code-cache')).mode & 0o777).toBe(0o700);
    expect(caches()).toEqual(['0123abcd-status.bin']);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    expect(launchWithUmask('000', 'status').stdout).toBe('bundle status\n');
  });

  /**
   * A cache V8 would take for the bundle now in place, which runs the one before it instead: the
   * bundle replaced by another of the same length and time, its build id kept. Only what holds
   * the cache can say whether it may be read.
   */
  function cacheOfAnotherBundle(): void {
    const then = new Date('2024-01-01T00:00:00Z');
    launch('--version');
    rmSync(join(root, 'scripts'), { recursive: true }); // an installed copy: the bundle is run as it is, never rebuilt
    utimesSync(join(root, 'out/cli/quire.cjs'), then, then);
    expect(launch('status').stdout).toBe('bundle status\n');
    writeFileSync(join(root, 'out/cli/quire.cjs'), "console.log('BUNDLE ' + process.argv.slice(2).join(' '))\n");
    utimesSync(join(root, 'out/cli/quire.cjs'), then, then);
  }

  it.skipIf(process.getuid?.() !== 0)('in a folder another user owns, is neither read nor written', () => {
    cacheOfAnotherBundle();
    const folder = join(root, 'out/cli/code-cache');
    chownSync(folder, 12345, 12345);
    chownSync(cacheFile(), 12345, 12345);
    const before = readFileSync(cacheFile());
    const listed = caches();
    const run = launch('status');
    expect([run.status, run.stdout, run.stderr]).toEqual([0, 'BUNDLE status\n', '']);
    expect(caches()).toEqual(listed);
    expect(readFileSync(cacheFile()).equals(before)).toBe(true);
  });

  it('in a folder others may write to, is not read; the folder is made the user’s alone and the cache made again', () => {
    cacheOfAnotherBundle();
    const folder = join(root, 'out/cli/code-cache');
    spawnSync('chmod', ['0777', folder]);
    expect(launch('status').stdout).toBe('BUNDLE status\n');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(launch('status').stdout).toBe('BUNDLE status\n');
  });

  it('through a link, in place of the folder or of a cache, is neither read nor written', () => {
    cacheOfAnotherBundle();
    // The folder: a link to a folder of the user's own holding that cache.
    const elsewhere = join(tempDir('quire-cache-elsewhere-'), 'code-cache');
    renameSync(join(root, 'out/cli/code-cache'), elsewhere);
    symlinkSync(elsewhere, join(root, 'out/cli/code-cache'));
    const listed = readdirSync(elsewhere).sort();
    expect(launch('status').stdout).toBe('BUNDLE status\n');
    expect(readdirSync(elsewhere).sort()).toEqual(listed);
    expect(lstatSync(join(root, 'out/cli/code-cache')).isSymbolicLink()).toBe(true);

    // A cache file: a link to that cache.
    rmSync(join(root, 'out/cli/code-cache'));
    mkdirSync(join(root, 'out/cli/code-cache'), { mode: 0o700 });
    symlinkSync(join(elsewhere, '0123abcd-status.bin'), cacheFile());
    const target = readFileSync(join(elsewhere, '0123abcd-status.bin'));
    expect(launch('status').stdout).toBe('BUNDLE status\n');
    expect(readFileSync(join(elsewhere, '0123abcd-status.bin')).equals(target)).toBe(true);
  });

  it('where it cannot be written, is left out, and the command runs as it is', () => {
    mkdirSync(join(root, 'out/cli'), { recursive: true });
    writeFileSync(join(root, 'out/cli/code-cache'), 'not a folder\n');
    launch('--version');
    const run = launch('status');
    expect(run.stdout).toBe('bundle status\n');
    expect(run.stderr).toBe('');
    expect(readFileSync(join(root, 'out/cli/code-cache'), 'utf8')).toBe('not a folder\n');
  });
});

describe('the code cache of the real bundle', () => {
  let fake: FakeApi;
  beforeAll(async () => {
    buildCli();
    fake = await startFakeApi();
  }, 120_000);
  afterAll(() => fake.close());

  /** A copy of the installed layout (the launcher, the build, the packages), so no other test's run writes its caches. */
  function installedCopy(): string {
    const copy = tempDir('quire-installed-');
    mkdirSync(join(copy, 'bin'));
    copyFileSync('bin/quire.cjs', join(copy, 'bin/quire.cjs'));
    copyFileSync('package.json', join(copy, 'package.json'));
    cpSync('out/cli', join(copy, 'out/cli'), { recursive: true, filter: (from) => !from.includes('code-cache') });
    symlinkSync(join(process.cwd(), 'node_modules'), join(copy, 'node_modules'));
    return copy;
  }

  it('made by a sync that talked to the API is taken by the next sync, not made again', async () => {
    const copy = installedCopy();
    const dir = tempDir();
    const sync = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [...CLI_NODE_FLAGS, join(copy, 'bin/quire.cjs'), 'sync', '--api', fake.url, '--dir', dir, '--once'], {
          env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }),
          stdio: 'ignore',
        });
        child.on('exit', resolve);
      });
    expect(await sync()).toBe(0);
    const [cache] = readdirSync(join(copy, 'out/cli/code-cache')).filter((f) => f.endsWith('-sync.bin'));
    const made = statSync(join(copy, 'out/cli/code-cache', cache!));
    expect(await sync()).toBe(0);
    const after = statSync(join(copy, 'out/cli/code-cache', cache!));
    expect([after.ino, after.mtimeMs]).toEqual([made.ino, made.mtimeMs]);
  });
});
