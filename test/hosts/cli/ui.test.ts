import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { parseArgs } from '../../../src/main/hosts/cli/args';
import type { CliIo } from '../../../src/main/hosts/cli/io';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { ui } from '../../../src/main/hosts/cli/commands/ui';
import { quire } from '../../helpers/cli';

describe('quire ui', () => {
  let fake: FakeApi;
  let dir: string;
  let renderer: string;

  beforeEach(async () => {
    fake = await startFakeApi();
    dir = await mkdtemp(join(tmpdir(), 'quire-ui-'));
    renderer = await mkdtemp(join(tmpdir(), 'quire-ui-renderer-'));
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>Quire</title>');
  });

  afterEach(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
    await rm(renderer, { recursive: true, force: true });
  });

  function io(env: NodeJS.ProcessEnv = {}) {
    const controller = new AbortController();
    const stdout: string[] = [];
    const stderr: string[] = [];
    let firstLine: (line: string) => void = () => undefined;
    const urlPrinted = new Promise<string>((resolve) => (firstLine = resolve));
    const cliIo: CliIo = {
      stdout: (t) => {
        stdout.push(t);
        if (stdout.length === 1) firstLine(t);
      },
      stderr: (t) => stderr.push(t),
      env,
      readStdin: async () => '',
      signal: controller.signal,
    };
    return { cliIo, stdout, stderr, urlPrinted, stop: () => controller.abort() };
  }

  it('prints the URL with its secret as the first stdout line, serves it, and stops on the signal', async () => {
    const { cliIo, stdout, stderr, urlPrinted, stop } = io({ QUIRE_TOKEN: fake.token });
    const args = parseArgs(['ui', '--api', fake.url, '--dir', dir, '--port', '0']);
    const running = ui(args, cliIo, { tokens: new MemoryTokenStore(), rendererDir: renderer });
    const url = await urlPrinted;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{40,}\/$/);
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(new URL('/', url))).status).toBe(403);
    stop();
    expect(await running).toBe(0);
    expect(stdout).toEqual([url]);
    expect(stderr.join('\n')).toContain('Ctrl+C stops');
    expect(stderr.join('\n')).not.toContain(fake.token);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('uses the API the folder remembers when --api is left out, and asks for --api where there is none', async () => {
    const none = io({ QUIRE_TOKEN: fake.token });
    await expect(ui(parseArgs(['ui', '--dir', dir]), none.cliIo, { tokens: new MemoryTokenStore(), rendererDir: renderer })).rejects.toThrow(
      /missing --api <base_url> \(this folder has not synced with any API yet\)/,
    );
    expect(existsSync(join(dir, '.quire'))).toBe(false);

    const synced = await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } });
    expect(synced.code).toBe(0);
    const { cliIo, stderr, urlPrinted, stop } = io({ QUIRE_TOKEN: fake.token });
    const running = ui(parseArgs(['ui', '--dir', dir]), cliIo, { tokens: new MemoryTokenStore(), rendererDir: renderer });
    await urlPrinted;
    expect(stderr.join('\n')).toContain(`for ${fake.url}`);
    stop();
    expect(await running).toBe(0);
  });

  it('says to build the app when its web files are missing, and serves nothing', async () => {
    const { cliIo, stdout } = io({ QUIRE_TOKEN: fake.token });
    const empty = await mkdtemp(join(tmpdir(), 'quire-ui-unbuilt-'));
    await expect(ui(parseArgs(['ui', '--api', fake.url, '--dir', dir]), cliIo, { rendererDir: empty })).rejects.toThrow(
      /web files are not built .*index\.html is missing.*Run `npm run build`/,
    );
    expect(stdout).toEqual([]);
    await rm(empty, { recursive: true, force: true });
  });

  it('a port already in use is one line, and nothing is left running: no mirror opened, no sync started', async () => {
    const busy = createServer();
    await new Promise<void>((listening) => busy.listen(0, '127.0.0.1', listening));
    const { port } = busy.address() as AddressInfo;
    try {
      const { cliIo, stdout } = io({ QUIRE_TOKEN: fake.token });
      const args = parseArgs(['ui', '--api', fake.url, '--dir', dir, '--port', String(port)]);
      await expect(ui(args, cliIo, { tokens: new MemoryTokenStore(), rendererDir: renderer })).rejects.toThrow(
        new Error(`Port ${port} is in use. Choose another with --port, or leave --port out to take a free one.`),
      );
      expect(stdout).toEqual([]);
      // Before, the service opened the folder and ran a full sync with no UI, and the process never ended.
      expect(existsSync(join(dir, '.quire'))).toBe(false);
      expect(fake.requests).toEqual([]);
    } finally {
      await new Promise((closed) => busy.close(closed));
    }
  });

  it('refuses a port that is not plain digits from 0 to 65535 with a usage error', async () => {
    for (const port of ['x', '0x50', '8e1', '65536', '-1']) {
      const run = await quire(['ui', '--api', fake.url, '--dir', dir, '--port', port]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^quire ui: --port (takes a whole number in plain digits, from 0 to 65535|65536 is out of range)/);
    }
  });
});
