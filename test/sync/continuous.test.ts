import { afterEach, beforeEach, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, type FakeApi } from '../fake';
import { tempDir } from '../helpers/cli';

let fake: FakeApi;
beforeEach(async () => {
  fake = await startFakeApi();
});
afterEach(async () => {
  await fake.close();
});

/** Resolves with the output so far once `pattern` appears in it; rejects after `ms`. */
function waitForOutput(stream: NodeJS.ReadableStream, pattern: RegExp, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; saw: ${seen}`)), ms);
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
  });
}

it('keeps syncing until SIGTERM, then stops cleanly with exit 0', async () => {
  const org = fake.store.addOrg({ title: 'Acme' });
  fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  const dir = tempDir();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/hosts/cli/main.ts', 'sync', '--api', fake.url, '--dir', dir, '--interval', '0.2'], {
    env: { ...process.env, QUIRE_TOKEN: fake.token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitForOutput(child.stdout, /1 pulled/, 20_000);
  expect(existsSync(join(dir, 'guide/README.md'))).toBe(true);

  // A later remote change arrives on a following cycle without restarting.
  const space = [...fake.store.spaces.values()][0]!;
  fake.store.addPage(space.id, { title: 'News', markdown: 'fresh\n' });
  const stderr = waitForOutput(child.stderr, /Stopped\./, 20_000);
  await waitForOutput(child.stdout, /1 pulled/, 20_000);
  expect(existsSync(join(dir, 'guide/news.md'))).toBe(true);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await stderr;
}, 40_000);
