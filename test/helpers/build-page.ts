import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds an HTML entry with its imports into a fresh folder: the app's renderer
 * by default, or a test harness page. Each test file builds its own copy so
 * parallel files never write over each other.
 */
export async function buildPage(entryDir = join(ROOT, 'src/renderer')): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'quire-renderer-'));
  await build({
    configFile: false,
    root: entryDir,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    // As electron.vite.config.ts: KaTeX's fonts stay files (the window's CSP refuses data: fonts).
    build: {
      outDir,
      emptyOutDir: true,
      reportCompressedSize: false,
      assetsInlineLimit: (file: string) => (/\.(?:woff2?|ttf|otf)$/i.test(file) ? false : undefined),
    },
  });
  return outDir;
}
