/**
 * Ctrl-C and pipes (issue 9, item 7), as the real `quire` process: SIGINT mid-cycle stops with
 * exit 130 and "stopped"; a reader that goes away (`quire status | head`) ends it quietly;
 * `quire review` over many change requests prints no MaxListenersExceededWarning.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { holdingProxy } from '../../helpers/sync';

let fake: FakeApi;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

function quireProcess(args: string[], stdio: 'pipe' | 'ignore' = 'pipe') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/hosts/cli/main.ts', ...args], {
    env: { ...process.env, QUIRE_TOKEN: fake.token },
    stdio: ['ignore', stdio, 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return { child, exited };
}

function seedSpace(title = 'Guide') {
  const org = fake.store.addOrg({ title: 'Acme' });
  return fake.store.addSpace(org.id, {
    title,
    pages: [
      { title: 'Home', markdown: 'hi\n' },
      { title: 'FAQ', markdown: 'Questions.\n' },
    ],
  });
}

it('Ctrl-C during `sync --once` stops with exit 130 and says "stopped"', async () => {
  seedSpace();
  const proxy = await holdingProxy(fake.url, { match: (m, p) => m === 'GET' && /^\/v1\/spaces\/[^/]+\/content$/.test(p), when: 'before' });
  try {
    const { child, exited } = quireProcess(['sync', '--api', proxy.url, '--dir', dir, '--once'], 'ignore');
    await Promise.race([proxy.held, exited.then(({ stderr }) => Promise.reject(new Error(`exited before the request was held: ${stderr}`)))]);
    child.kill('SIGINT');
    const { code, stderr } = await exited;
    expect(stderr.trim()).toBe('quire sync: stopped.');
    expect(code).toBe(130);
  } finally {
    await proxy.close();
  }
}, 30_000);

it('`quire status | head` ends quietly when the reader goes away', async () => {
  seedSpace();
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  const { child, exited } = quireProcess(['status', '--dir', dir]);
  child.stdout!.destroy(); // the reader is gone before quire prints anything
  const { code, stderr } = await exited;
  expect(stderr).toBe('');
  expect(code).toBe(0);
}, 30_000);

it('`quire review` over many change requests prints no MaxListenersExceededWarning', async () => {
  const space = seedSpace();
  for (let i = 0; i < 25; i++) {
    const cr = fake.store.addChangeRequest(space.id, { subject: `Change ${i}` });
    fake.store.addComment(space.id, { body: `Comment ${i}`, changeRequest: cr.id });
  }
  expect((await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } })).code).toBe(0);
  const { exited } = quireProcess(['review', '--dir', dir], 'ignore');
  const { code, stderr } = await exited;
  expect(stderr).not.toMatch(/MaxListenersExceededWarning|Warning/);
  expect(code).toBe(0);
}, 30_000);
