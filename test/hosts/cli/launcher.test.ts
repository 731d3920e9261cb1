/**
 * The installed `quire` command's launcher (bin/quire.cjs, issue 21 item 1), run as a process in
 * a copy of the project's layout with stand-in build scripts that record being called: in a
 * development checkout it rebuilds the bundle only when a file it was built from changed, and
 * the app's web files only for `quire ui`; a copy without sources runs the bundle as it is. It
 * keeps a code cache per command, named by the bundle's build id, and never runs one made for
 * another bundle.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli';

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
