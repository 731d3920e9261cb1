/**
 * The token is never echoed (issue 9, item 4), through the app's service: a server that puts
 * the Authorization header in its status text and error body gets nothing of it into the
 * status bar, the sync log, a request's error, or the host's log lines.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import type { PushedEvent } from '../../../src/shared/contract';
import { startFakeApi, type FakeApi } from '../../fake';
import { rewritingProxy, type RewritingProxy } from '../../helpers/rewriting-proxy';
import { openService } from '../../helpers/service';

let fake: FakeApi;
let proxy: RewritingProxy;
let dir: string;
let service: QuireService;
const events: PushedEvent[] = [];
const hostLog: string[] = [];
let hostile: RegExp = /^$/;

beforeEach(async () => {
  fake = await startFakeApi({ token: 'gb_api_app_secret_0123456789' });
  const org = fake.store.addOrg({ title: 'Acme' });
  fake.store.addSpace(org.id, { title: 'Handbook', pages: [{ title: 'Intro', markdown: 'Hi.\n' }] });
  proxy = await rewritingProxy(fake.url, (x) => {
    if (!hostile.test(x.path)) return undefined;
    const echoed = String(x.requestHeaders.authorization);
    return {
      status: 500,
      statusText: `Echo ${echoed}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 500, message: `You sent ${echoed}` } }),
    };
  });
  dir = await mkdtemp(join(tmpdir(), 'quire-service-redact-'));
  events.length = 0;
  hostLog.length = 0;
  service = await openService({
    apiUrl: proxy.url,
    folder: dir,
    api: { maxAttempts: 1, timeoutMs: 5000 },
    log: (line) => hostLog.push(line),
  });
  service.subscribe((e) => events.push(e));
  await service.request('session.signIn', { apiUrl: proxy.url, token: fake.token });
});
afterEach(async () => {
  await service.close();
  await proxy.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

it('keeps the token out of the status message, the sync log, request errors and host log lines', async () => {
  const catalog = await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds: catalog.spaces.map((s) => s.id), selected: true });
  await service.syncOnce();
  hostile = /^\/v1\/orgs/;
  const refused = await service.request('catalog.refresh', {}).catch((e: unknown) => e as Error);
  expect(refused).toBeInstanceOf(Error);

  const status = await service.syncOnce();
  expect(status.state).toBe('needs-you');
  expect(status.reasons[0]).toMatchObject({ kind: 'sync-failed', message: expect.stringContaining('[redacted]') });
  const log = await service.request('log.list', {});

  const everything = JSON.stringify({ refused: (refused as Error).message, status, log, events, hostLog });
  expect(proxy.rewritten).toBeGreaterThan(0);
  expect(everything).not.toContain(fake.token);
});
