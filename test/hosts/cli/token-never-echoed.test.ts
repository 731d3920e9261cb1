/**
 * The token is never echoed (issue 9, item 4), through the command line: a server (or a
 * proxy) that puts the Authorization header in its status text and error body — as it is, or
 * transformed (issue 17, item 16) — gets nothing of it printed on stderr, stored as the space's
 * last error, or shown by `quire status`.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';
import { rewritingProxy, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { transformedForms } from '../../helpers/token-forms';

const PROXY_CREDENTIAL = 'proxy-credential-42424242';

let fake: FakeApi;
let proxy: RewritingProxy;
beforeEach(async () => {
  fake = await startFakeApi({ token: 'gb_api_cli_secret_0123456789' });
  const org = fake.store.addOrg({ title: 'Acme' });
  fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  // Listing works; reading a space's content fails with the credentials echoed everywhere.
  proxy = await rewritingProxy(fake.url, (x) => {
    if (!/^\/v1\/spaces\/[^/]+\/content$/.test(x.path)) return undefined;
    const echoed = String(x.requestHeaders.authorization);
    return {
      status: 500,
      statusText: `Upstream said ${echoed}`,
      headers: { 'content-type': 'application/json', 'x-debug-authorization': echoed },
      body: JSON.stringify({ error: { code: 500, message: `${echoed.toLowerCase()} rejected by BEARER ${PROXY_CREDENTIAL}` } }),
    };
  });
});
afterEach(async () => {
  await proxy.close();
  await fake.close();
});

it('prints no token on stderr and stores none as the last error', async () => {
  const dir = tempDir();
  const sync = await quire(['sync', '--api', proxy.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } });
  expect(sync.code).toBe(1);
  expect(proxy.rewritten).toBeGreaterThan(0);
  expect(sync.stderr).toMatch(/500 Upstream said Bearer \[redacted\]/);

  const status = await quire(['status', '--dir', dir, '--json']);
  const text = await quire(['status', '--dir', dir]);
  const lastError = (JSON.parse(status.stdout) as { spaces: { lastError: string | null }[] }).spaces[0]!.lastError;
  expect(lastError).toMatch(/Bearer \[redacted\]/);
  for (const out of [sync.stdout, sync.stderr, status.stdout, text.stdout]) {
    expect(out).not.toContain(fake.token);
    expect(out).not.toContain(PROXY_CREDENTIAL);
  }
});

it('prints and stores no transformed form of the token: upper-cased, base64, spaced out, hex (issue 17, item 16)', async () => {
  await proxy.close();
  const forms = transformedForms(fake.token);
  const echo = Object.values(forms);
  proxy = await rewritingProxy(fake.url, (x) => {
    if (!/^\/v1\/spaces\/[^/]+\/content$/.test(x.path)) return undefined;
    return {
      status: 500,
      statusText: `Upstream said ${echo.slice(0, 8).join(' ')}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 500, message: `Echo: ${echo.join(' | ')}` } }),
    };
  });
  const dir = tempDir();

  const sync = await quire(['sync', '--api', proxy.url, '--dir', dir, '--once'], { env: { QUIRE_TOKEN: fake.token } });
  const status = await quire(['status', '--dir', dir, '--json']);
  const text = await quire(['status', '--dir', dir]);

  expect(sync.code).toBe(1);
  expect(sync.stderr).toMatch(/500 Upstream said \[redacted\]/);
  for (const out of [sync.stdout, sync.stderr, status.stdout, text.stdout]) {
    for (const [name, form] of Object.entries(forms)) expect(out, name).not.toContain(form);
  }
});
