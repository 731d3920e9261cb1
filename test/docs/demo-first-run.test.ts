/**
 * `npm run demo` as the README says: its first run syncs (a folder with no space chosen gets
 * every sample space, synced before the app opens on it, not "Not set up" over an empty folder),
 * later runs keep what was ticked or unticked in the app, and each run's fresh sample API
 * answers at the address the folder remembers (or the folder moves to it, saying so).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeApi } from '../fake';
import { MemoryTokenStore } from '../../src/main/core/secrets';
import type { CliIo } from '../../src/main/hosts/cli/io';
import { createQuireService, type QuireService } from '../../src/main/hosts/service';
import { demoSync, readyForApp, sampleApiFor, startSampleApi } from '../../scripts/sample-api';
import { quire, tempDir } from '../helpers/cli';

let fake: FakeApi;
let earlier: FakeApi | null = null;
let dir: string;
let service: QuireService | null = null;
const said: string[] = [];
const io: CliIo = { stdout: (t) => said.push(t), stderr: (t) => said.push(t), env: {}, readStdin: async () => '', signal: new AbortController().signal };

/** The app's service on the folder, as the demo's web host opens it. */
async function openApp(): Promise<QuireService> {
  service = await createQuireService({
    apiUrl: fake.url,
    folder: dir,
    tokens: new MemoryTokenStore(),
    token: fake.token,
    host: { kind: 'web', openExternal: async () => {}, openPath: async () => {} },
    syncIntervalMs: 0,
  });
  return service;
}

const state = async (): Promise<string> => (JSON.parse((await quire(['status', '--dir', dir, '--json'])).stdout) as { state: string }).state;

beforeEach(async () => {
  fake = await startSampleApi();
  dir = join(tempDir('quire-demo-'), '.quire-demo');
  said.length = 0;
});
afterEach(async () => {
  await service?.close();
  service = null;
  await fake.close();
  await earlier?.close();
  earlier = null;
});

describe('npm run demo, first run', () => {
  it('chooses every sample space and syncs them, so the app opens on the sample’s pages', async () => {
    expect(await readyForApp(dir, fake, io)).toBe(true);
    expect(said.join('\n')).toMatch(/First run: syncing the sample spaces into .*\.quire-demo…\n[\s\S]*2 spaces in sync, \d+ pages pulled from main/);
    expect(existsSync(join(dir, 'handbook', 'getting-started', 'install.md'))).toBe(true);
    expect(await state()).toBe('in-sync');

    const app = await openApp();
    const { spaces } = await app.request('catalog.get', {});
    expect(spaces.map((s) => [s.title, s.selected])).toEqual([
      ['API Reference', true],
      ['Handbook', true],
    ]);
  });

  it('later runs keep what was unticked in the app, and sync nothing themselves', async () => {
    await readyForApp(dir, fake, io);
    const app = await openApp();
    const api = (await app.request('catalog.get', {})).spaces.find((s) => s.title === 'API Reference')!;
    await app.request('spaces.select', { spaceIds: [api.id], selected: false });
    await app.close();
    service = null;

    fake.resetLog();
    said.length = 0;
    expect(await readyForApp(dir, fake, io)).toBe(false);
    expect(said).toEqual([]);
    expect(fake.requests).toEqual([]);
    const spaces = (await (await openApp()).request('catalog.get', {})).spaces;
    expect(spaces.find((s) => s.id === api.id)?.selected).toBe(false);
  });

  it('a later run serves the sample at the address the folder remembers, so the app can use its token there', async () => {
    await readyForApp(dir, fake, io);
    const address = fake.url;
    await fake.close();

    fake = await sampleApiFor(dir, io);
    expect(fake.url).toBe(address);
    said.length = 0;
    expect(await readyForApp(dir, fake, io)).toBe(false);
    expect(said).toEqual([]);
    const app = await openApp();
    await app.syncOnce();
    expect(await state()).toBe('in-sync');
  });

  it('when that port is taken, the folder moves to the new sample API, saying so', async () => {
    await readyForApp(dir, fake, io);
    earlier = fake; // still up: its port is taken
    fake = await sampleApiFor(dir, io);
    expect(fake.url).not.toBe(earlier.url);

    said.length = 0;
    expect(await readyForApp(dir, fake, io)).toBe(true);
    expect(said.join('\n')).toContain(`synced with an earlier sample API, on a port taken now: it moves to this one.`);
    expect(said.join('\n')).toContain(`from now on it syncs with ${fake.url}`);
    const status = JSON.parse((await quire(['status', '--dir', dir, '--json'])).stdout) as { state: string; apiUrl: string };
    expect(status).toMatchObject({ state: 'in-sync', apiUrl: fake.url });
  });

  it('npm run demo:sync -- --dry-run writes nothing in a folder not made yet, not even the folder', async () => {
    const demo = join(tempDir('quire-demo-sync-'), 'quire-demo');
    expect(await demoSync(['--dry-run', demo], io)).toBe(0);
    expect(said.join('\n')).toContain('Dry run: nothing was written, nothing was sent');
    expect(existsSync(demo)).toBe(false);
  });
});
