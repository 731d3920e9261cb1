import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Main, preload and renderer of the desktop app, built into out/{main,preload,renderer}
 * (electron-vite's defaults, so `--outDir` moves all three). The preload is emitted as
 * CommonJS (`preload.cjs`): the package is ESM, and an ESM preload cannot run
 * in a sandboxed renderer.
 */
export default defineConfig({
  main: {
    build: {
      lib: { entry: resolve(root, 'src/main/hosts/electron/main.ts'), formats: ['es'] },
      rolldownOptions: { output: { entryFileNames: 'index.js' } },
    },
  },
  preload: {
    build: {
      lib: { entry: resolve(root, 'src/main/hosts/electron/preload.ts'), formats: ['cjs'] },
      rolldownOptions: { output: { format: 'cjs', entryFileNames: 'preload.cjs' } },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react()],
    build: {
      minify: true,
      // KaTeX's fonts stay files: the window's CSP allows fonts only from 'self', never data: URLs.
      assetsInlineLimit: (file: string) => (/\.(?:woff2?|ttf|otf)$/i.test(file) ? false : undefined),
      rolldownOptions: { input: resolve(root, 'src/renderer/index.html') },
    },
  },
});
