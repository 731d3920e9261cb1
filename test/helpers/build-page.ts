import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Builds kept for the test files of a run, and for the next run while nothing that goes in changed. */
const CACHE = join(ROOT, 'out/test-pages');
/** A build of another digest is removed once this old (a run still reading it has long loaded it). */
const STALE_MS = 10 * 60_000;

/**
 * Builds an HTML entry with its imports: the app's renderer by default, or a test harness page.
 * A build is kept under out/test-pages by a digest of everything that goes into it, so the test
 * files that load the same page share one build. It is built into a fresh folder and renamed into
 * place, so files building at once never write over each other and nothing reads half a build.
 * The folder returned is shared: read it, never change it.
 */
export async function buildPage(entryDir = join(ROOT, 'src/renderer')): Promise<string> {
  const name = relative(ROOT, entryDir).replaceAll('/', '-');
  const built = join(CACHE, `${name}-${await digest(entryDir)}`);
  if (await exists(join(built, 'index.html'))) return built;
  await mkdir(CACHE, { recursive: true });
  const outDir = await mkdtemp(join(CACHE, '.building-'));
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
      // One file read from disk, with React's development build in it (vitest sets NODE_ENV=test):
      // its size is no concern here, and vite's warning about it was noise in every `npm test`.
      chunkSizeWarningLimit: 8192,
      assetsInlineLimit: (file: string) => (/\.(?:woff2?|ttf|otf)$/i.test(file) ? false : undefined),
    },
  });
  try {
    await rename(outDir, built);
  } catch {
    await rm(outDir, { recursive: true, force: true }); // another file's build of the same digest got there first
  }
  await removeStale(name, built);
  return built;
}

/** What goes into a page: its entry folder, the renderer and the shared contract, the packages, and this build's settings. */
async function digest(entryDir: string): Promise<string> {
  const hash = createHash('sha256');
  const inputs = [entryDir, join(ROOT, 'src/renderer'), join(ROOT, 'src/shared')];
  const files = [...new Set((await Promise.all(inputs.map(filesUnder))).flat())].sort();
  for (const file of [...files, join(ROOT, 'package-lock.json'), fileURLToPath(import.meta.url)]) {
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function removeStale(name: string, keep: string): Promise<void> {
  for (const entry of await readdir(CACHE)) {
    const path = join(CACHE, entry);
    if (path === keep || !(entry.startsWith(`${name}-`) || entry.startsWith('.building-'))) continue;
    const st = await stat(path).catch(() => null);
    if (st && Date.now() - st.mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
  }
}
