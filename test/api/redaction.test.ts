/**
 * The token is never echoed (issue 9, item 4): a server or proxy that puts the Authorization
 * header in its status text, its error body or a header gets nothing of it back out of the
 * client — not in the error, not in its fields, not in the events hosts log.
 */
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../src/main/core/api';
import { transformedForms } from '../helpers/token-forms';
import { clientFor, startServer, TOKEN, type ScriptedServer } from './scripted-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every string an error carries: message, fields, cause chain. */
function everything(error: unknown): string {
  const parts: string[] = [];
  for (let e = error; e != null && parts.length < 20; e = (e as { cause?: unknown }).cause) {
    parts.push(String((e as Error).message), JSON.stringify(e));
  }
  return parts.join('\n');
}

const OTHER_BEARER = 'proxy_credential_0123456789';

it('redacts the token and any Bearer value from the status text, the error body, its code and the headers', async () => {
  server = await startServer((req, res, n) => {
    const echoed = req.headers.authorization ?? '';
    const headers = { 'content-type': 'application/json', 'x-echo': echoed, 'www-authenticate': `Bearer realm="api", error="${echoed}"` };
    // First a retryable 503 (its reason goes into a retry event), then the final 400.
    res.writeHead(n === 0 ? 503 : 400, `Rejected ${echoed}`, headers);
    res.end(JSON.stringify({ error: { code: `bad_${TOKEN}`, message: `You sent ${echoed.toUpperCase()} and bearer ${OTHER_BEARER}` } }));
  });
  const { client, events } = clientFor(server, { maxAttempts: 2 });

  const error = await client.call((api, p) => api.spaces.getSpaceById('abc', {}, p)).catch((e: unknown) => e);

  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  expect((error as Error).message).toMatch(/^GET \/spaces\/abc: 400 Rejected Bearer \[redacted\] — You sent Bearer \[redacted\] and Bearer \[redacted\]/);
  const all = everything(error) + JSON.stringify(events);
  expect(all).not.toContain(TOKEN);
  expect(all.toLowerCase()).not.toContain(TOKEN.toLowerCase());
  expect(all).not.toContain(OTHER_BEARER);
  expect(events.some((e) => e.type === 'retry')).toBe(true);
});

it('redacts the token from a plain-text error body and from a request path that carries it', async () => {
  server = await startServer((req, res) => {
    res.writeHead(404, 'Not Found', { 'content-type': 'text/plain' });
    res.end(`no such thing: ${req.path} (auth ${req.headers.authorization})`);
  });
  const { client } = clientFor(server, { maxAttempts: 1 });

  const error = await client.call((api, p) => api.spaces.getSpaceById(`x-${TOKEN}`, {}, p)).catch((e: unknown) => e);

  expect(error).toBeInstanceOf(ApiError);
  expect(everything(error)).not.toContain(TOKEN);
  expect((error as Error).message).toContain('[redacted]');
});

it('redacts the token in every form a proxy or framework turns it into, wherever the answer carries it (issue 17, item 16; issue 27, item 21)', async () => {
  const forms = Object.values(transformedForms(TOKEN));
  // A status text and a header carry Latin-1 only (not the fullwidth form): the body carries every form.
  const latin1 = forms.filter((f) => /^[\x20-\xff]*$/.test(f));
  server = await startServer((_req, res, n) => {
    res.writeHead(n === 0 ? 503 : 400, `Rejected ${latin1.join(' ')}`, { 'content-type': 'application/json', 'x-echo': latin1.join(' ') });
    res.end(JSON.stringify({ error: { code: forms.join(','), message: `You sent: ${forms.join(' | ')}` } }));
  });
  const { client, events } = clientFor(server, { maxAttempts: 2 });

  const error = await client.call((api, p) => api.spaces.getSpaceById('abc', {}, p)).catch((e: unknown) => e);

  expect(error).toBeInstanceOf(ApiError);
  const all = everything(error) + JSON.stringify(events);
  for (const [name, form] of Object.entries(transformedForms(TOKEN))) expect(all, name).not.toContain(form);
  expect(all).toContain('[redacted]');
});

it('leaves ordinary text alone', async () => {
  const text = 'GET /spaces/abc: 400 Bad Request — title “Café” (id 6162, base64 aGVsbG8gd29ybGQ=, s e c r e t)';
  server = await startServer((_req, res) => {
    res.writeHead(400, 'Bad Request', { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 400, message: text.slice(text.indexOf('title')) } }));
  });
  const { client } = clientFor(server, { maxAttempts: 1 });

  await expect(client.call((api, p) => api.spaces.getSpaceById('abc', {}, p))).rejects.toThrow(text);
});
