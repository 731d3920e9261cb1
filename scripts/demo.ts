/**
 * `npm run demo`: Quire on a sample organization, no account needed (`predemo` builds the
 * app first, see scripts/build-app.mjs). Starts the sample API on loopback
 * (scripts/sample-api.ts), at the address the folder remembers when it is free; on the first run,
 * when the folder has no space chosen yet, syncs every sample space into it (as ticking them all
 * would); then opens the desktop app on it. Where
 * Electron cannot start (no binary, no display) it says so and serves the same app through the
 * web host instead, printing the address.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { MemoryTokenStore } from '../src/main/core/secrets';
import { defaultRendererDir, projectRoot, rendererBuilt } from '../src/main/hosts/service';
import type { CliIo } from '../src/main/hosts/cli/io';
import { startWebHost } from '../src/main/hosts/web';
import { readyForApp, sampleApiFor } from './sample-api';

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The Electron binary, or why there is none. */
function electronBinary(): { path: string } | { why: string } {
  if (process.env.QUIRE_DEMO_WEB === '1') return { why: 'QUIRE_DEMO_WEB=1 asks for the web host' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { why: 'there is no display (DISPLAY is unset)' };
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { why: 'the Electron binary is not installed' };
  } catch (e) {
    return { why: `the Electron binary is not installed (${e instanceof Error ? e.message.split('\n')[0] : String(e)})` };
  }
}

/** Runs Electron until it exits; false when it fails within a few seconds (it could not start). */
function runElectron(binary: string, env: NodeJS.ProcessEnv, stop: AbortSignal): Promise<boolean> {
  return new Promise((done) => {
    const startedAt = Date.now();
    const child = spawn(binary, [join(projectRoot(), 'out', 'main', 'index.js')], { env, stdio: 'inherit' });
    stop.addEventListener('abort', () => child.kill('SIGTERM'), { once: true });
    child.once('error', () => done(false));
    child.once('exit', (code) => done(code === 0 || Date.now() - startedAt > 5000));
  });
}

const dir = resolve(process.argv[2] ?? '.quire-demo');
await mkdir(dir, { recursive: true });
const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop.abort());
const io: CliIo = { stdout: say, stderr: say, env: {}, readStdin: async () => '', signal: stop.signal };
const fake = await sampleApiFor(dir, io);
say(`Sample API on ${fake.url} (organization “Quire Demo Co”); sync folder ${dir}`);
await readyForApp(dir, fake, io);

const rendererDir = defaultRendererDir();
if (!rendererBuilt(rendererDir))
  throw new Error(`The app is not built (${rendererDir} is empty). Run \`npm run build\`, or start the demo with \`npm run demo\`.`);
const electron = electronBinary();
let ranElectron = false;
if ('path' in electron) {
  say('Opening the desktop app…');
  ranElectron = await runElectron(electron.path, { ...process.env, QUIRE_API_URL: fake.url, QUIRE_TOKEN: fake.token, QUIRE_DIR: dir }, stop.signal);
  if (!ranElectron) say('Electron could not start here.');
} else {
  say(`Electron cannot start here: ${electron.why}.`);
}

if (!ranElectron) {
  say('Serving the same app in your browser instead (the web host):');
  const host = await startWebHost({ apiUrl: fake.url, dir, rendererDir, tokens: new MemoryTokenStore(), token: fake.token, log: say });
  process.stdout.write(`${host.url}\n`);
  say('Open that address; you are signed in to the sample organization. Ctrl+C stops.');
  await new Promise<void>((done) => stop.signal.addEventListener('abort', () => done(), { once: true }));
  await host.close();
}
await fake.close();
