import { dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

/** Where `electron-vite build` puts the renderer. */
export function defaultRendererDir(): string {
  return join(projectRoot(), 'out', 'renderer');
}
