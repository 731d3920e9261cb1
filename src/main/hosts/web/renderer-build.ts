import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './renderer-dir';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure the built renderer exists and is not older than its sources
 * (src/renderer, src/shared); builds it with electron-vite when it is. In a
 * packaged app the sources are absent and the shipped build is used as is.
 */
export async function ensureRendererBuilt(rendererDir: string, say: (line: string) => void, root = projectRoot()): Promise<void> {
  const index = join(rendererDir, 'index.html');
  const sources = [join(root, 'src', 'renderer'), join(root, 'src', 'shared')].filter((d) => existsSync(d));
  if (sources.length === 0) {
    if (!existsSync(index)) throw new Error(`The app's web files are missing (${index}). Reinstall Quire or run \`npm run build\`.`);
    return;
  }
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (builtAt > 0 && Math.max(...sources.map(newestMtime)) <= builtAt) return;
  say(builtAt ? 'The renderer sources changed: rebuilding it…' : 'Building the renderer (first run)…');
  const { build } = await import('electron-vite');
  await build({ configFile: join(root, 'electron.vite.config.ts'), logLevel: 'warn' });
}
