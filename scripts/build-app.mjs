// Builds the desktop app (main, preload and the renderer both app hosts serve) with
// electron-vite when its sources are newer than the built renderer, so `npm run demo` and
// `npm run quire -- ui` find it built. A build step, never a run-time one: the web host
// only checks that out/renderer is there and says to run `npm run build` when it is not.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'electron-vite';

const BUILT = 'out/renderer/index.html';
const SOURCES = ['src', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), st.mtimeMs);
}

let builtAt = 0;
try {
  builtAt = statSync(BUILT).mtimeMs;
} catch {
  // not built yet
}
if (process.argv.includes('--force') || SOURCES.some((s) => newestMtime(s) > builtAt)) {
  process.stderr.write(builtAt ? 'Sources changed: rebuilding the app…\n' : 'Building the app (first run)…\n');
  await build({ configFile: 'electron.vite.config.ts', logLevel: 'warn' });
}
