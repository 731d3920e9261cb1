/**
 * The installed `quire` command's launcher (bin/quire.mjs, issue 21 item 1), run as a process in
 * a copy of the project's layout with stand-in build scripts that record being called: in a
 * development checkout it rebuilds the bundle only when a file it was built from changed, and
 * the app's web files only for `quire ui`; a copy without sources runs the bundle as it is.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli';

let root: string;
const calls = () => (existsSync(join(root, 'calls')) ? readFileSync(join(root, 'calls'), 'utf8').trim().split('\n') : []);

/** A stand-in build script: records its name; the CLI one writes a bundle that prints its arguments. */
function buildScript(name: string, writesBundle: boolean): string {
  const bundle = writesBundle
    ? `fs.mkdirSync('out/cli', { recursive: true }); fs.writeFileSync('out/cli/quire.mjs', "console.log('bundle ' + process.argv.slice(2).join(' '))\\n"); fs.writeFileSync('out/cli/inputs.json', JSON.stringify(['src/a.ts']));`
    : '';
  return `import fs from 'node:fs';\nfs.appendFileSync('calls', '${name}\\n');\n${bundle}\n`;
}

function launch(...args: string[]) {
  return spawnSync(process.execPath, [join(root, 'bin/quire.mjs'), ...args], { cwd: tempDir(), encoding: 'utf8' });
}

beforeEach(() => {
  root = tempDir('quire-launcher-');
  for (const dir of ['bin', 'scripts', 'src']) mkdirSync(join(root, dir));
  copyFileSync('bin/quire.mjs', join(root, 'bin/quire.mjs'));
  writeFileSync(join(root, 'scripts/build-cli.mjs'), buildScript('build-cli', true));
  writeFileSync(join(root, 'scripts/build-app.mjs'), buildScript('build-app', false));
  writeFileSync(join(root, 'src/a.ts'), 'export {};\n');
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
  expect(run.stderr).toMatch(/out\/cli\/quire\.mjs is missing: this copy of Quire was installed without its build\. Run `npm install` in the Quire folder\./);
});

it('stops with the build’s failure, and runs nothing', () => {
  writeFileSync(join(root, 'scripts/build-cli.mjs'), "process.stderr.write('esbuild: syntax error\\n'); process.exit(1);\n");
  const run = launch('status');
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('esbuild: syntax error\nquire: scripts/build-cli.mjs failed (see above); the command was not run.\n');
});
