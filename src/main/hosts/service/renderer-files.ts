/**
 * The built renderer (index.html and its assets), as both app hosts serve it: Electron on
 * app://quire, the web host over HTTP. Where it is, whether it is there, and reading one file
 * for a URL path without ever leaving its folder. Building it is not a run-time job: `npm run
 * build` (or the `quire ui` launcher, bin/quire.cjs, and the `predemo` script) does it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/**
 * Reads a file of the built renderer for a URL path, or null when there is none.
 * The path is resolved inside `root` and anything escaping it is refused.
 */
export async function readStatic(root: string, pathname: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    return { body: await readFile(full), type: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}

/** The project root: the nearest folder above this file that holds package.json. */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(from);
    dir = up;
  }
}

/** Where `npm run build` (electron-vite) puts the renderer. */
export function defaultRendererDir(): string {
  return join(projectRoot(), 'out', 'renderer');
}

/** Whether a built renderer is in `dir`. */
export function rendererBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}
