import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { MemoryTokenStore } from '../../../src/main/core/secrets';

let fake: FakeApi;
beforeEach(async () => {
  fake = await startFakeApi();
});
afterEach(async () => {
  await fake.close();
});

it('login checks the token, stores it in the keychain, and sync then uses it; logout removes it', async () => {
  const tokens = new MemoryTokenStore();
  const login = await quire(['login', '--api', `${fake.url}/v1/`], { stdin: `${fake.token}\n`, tokens });
  expect(login.code).toBe(0);
  expect(login.stdout).toMatch(/Signed in .* as Casey Quire/);
  expect(login.stdout).not.toContain(fake.token);
  expect(await tokens.get(fake.url)).toBe(fake.token);

  const org = fake.store.addOrg({ title: 'Acme' });
  fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  const dir = tempDir();
  const sync = await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { tokens, env: {} });
  expect(sync.code).toBe(0);

  const logout = await quire(['logout', '--api', fake.url], { tokens });
  expect(logout.code).toBe(0);
  expect(await tokens.get(fake.url)).toBeNull();
  const again = await quire(['sync', '--dir', dir, '--once'], { tokens, env: {} });
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/quire login/);
});

it('login refuses a token the API rejects and stores nothing', async () => {
  const tokens = new MemoryTokenStore();
  const login = await quire(['login', '--api', fake.url], { stdin: 'not-the-token', tokens });
  expect(login.code).toBe(1);
  expect(login.stderr).toMatch(/token rejected/i);
  expect(await tokens.get(fake.url)).toBeNull();
});

it('login with nothing on stdin explains what to do', async () => {
  const login = await quire(['login', '--api', fake.url], { stdin: '' });
  expect(login.code).toBe(2);
  expect(login.stderr).toMatch(/Paste your API token/);
});

it('sync with a token the API rejects says, in the command line’s terms, how to sign in again', async () => {
  const sync = await quire(['sync', '--api', fake.url, '--dir', tempDir(), '--once'], { env: { QUIRE_TOKEN: 'not-the-token' } });
  expect(sync.code).toBe(1);
  expect(sync.stderr).toMatch(/token rejected by the API.*Run `quire login`.*QUIRE_TOKEN/);
});
