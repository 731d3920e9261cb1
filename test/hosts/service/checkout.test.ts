/**
 * Issue 30, item 5 under the app: a change request checked out (`quire cr checkout`) follows its
 * latest revision when the app refreshes review data, as it does under `quire sync`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { checkOut } from '../../../src/main/core/review';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { createQuireService, type QuireService } from '../../../src/main/hosts/service';
import { startFakeApi, type FakeApi } from '../../fake';
import { seedDemo, type DemoSeed } from '../../fake/seed';
import '../../fake/vitest-setup';

let fake: FakeApi;
let dir: string;
let service: QuireService;
let demo: DemoSeed;

beforeEach(async () => {
  fake = await startFakeApi();
  demo = seedDemo(fake.store);
  dir = await mkdtemp(join(tmpdir(), 'quire-checkout-service-'));
  service = await createQuireService({
    apiUrl: fake.url,
    folder: dir,
    tokens: new MemoryTokenStore(),
    host: { kind: 'web', openExternal: async () => undefined, openPath: async () => undefined },
    syncIntervalMs: 0,
    api: { maxAttempts: 1, timeoutMs: 5000 },
  });
  await service.request('session.signIn', { apiUrl: fake.url, token: fake.token });
  await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds: [demo.handbook.id], selected: true });
  expect((await service.syncOnce()).state).toBe('in-sync');
});

afterEach(async () => {
  await service.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

it('a checkout follows a new revision of its change request when the app refreshes review data', async () => {
  const cr = fake.store.changeRequest(demo.handbook.id, 1);
  const co = join(await mkdtemp(join(tmpdir(), 'quire-checkout-')), 'review-1');
  const mirror = Mirror.open(dir);
  try {
    await checkOut(new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 1 }), mirror, cr.id, co);
  } finally {
    mirror.close();
  }
  const welcome = fake.store.pageByTitle(demo.handbook.id, 'Welcome', { changeRequest: cr.id });
  fake.store.editPage(demo.handbook.id, welcome.id, { markdown: 'Welcome, followed.\n' }, { changeRequest: cr.id });
  await service.request('review.refresh', {});
  expect(await readFile(join(co, 'README.md'), 'utf8')).toContain('Welcome, followed.');
});
