/**
 * `electron-vite build` works without the Electron binary, and its output
 * keeps the security model: a CommonJS preload (an ESM preload cannot run
 * sandboxed) that exposes only the contract, a main that never bundles
 * Electron, and a renderer with a strict CSP and no inline script.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('electron-vite build', () => {
  let out: string;

  beforeAll(async () => {
    out = join(await mkdtemp(join(tmpdir(), 'quire-build-')), 'out');
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', out, '--logLevel', 'error'], {
      cwd: ROOT,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    });
  }, 120_000);

  afterAll(async () => {
    await rm(join(out, '..'), { recursive: true, force: true });
  });

  it('emits the preload as CommonJS exposing only window.quire', async () => {
    const preload = await readFile(join(out, 'preload', 'preload.cjs'), 'utf8');
    expect(preload).toMatch(/require\("electron"\)/);
    expect(preload).not.toMatch(/^\s*import\s/m);
    expect(preload).not.toMatch(/require\("(node:)?(fs|child_process|path)"\)/);
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain('exposeInMainWorld("quire"');
  });

  it('emits an ESM main that imports electron instead of bundling it', async () => {
    const main = await readFile(join(out, 'main', 'index.js'), 'utf8');
    expect(main).toMatch(/from "electron"/);
    expect(main).toContain('sandbox: true');
    expect(main).toContain('contextIsolation: true');
  });

  it('emits a renderer page with a strict CSP and only external scripts', async () => {
    const html = await readFile(join(out, 'renderer', 'index.html'), 'utf8');
    expect(html).toContain(`default-src 'none'`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect((await readdir(join(out, 'renderer', 'assets'))).some((f) => f.endsWith('.js'))).toBe(true);
  });
});
