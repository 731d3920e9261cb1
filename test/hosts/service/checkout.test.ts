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
import type { QuireService } from '../../../src/main/hosts/service';
import { startFakeApi, type FakeApi } from '../../fake';
import { seedDemo, type DemoSeed } from '../../fake/seed';
import '../../fake/vitest-setup';
import { openService, signInAndSync } from '../../helpers/service';

let fake: FakeApi;
let dir: string;
let service: QuireService;
let demo: DemoSeed;

beforeEach(async () => {
  fake = await startFakeApi();
  demo = seedDemo(fake.store);
  dir = await mkdtemp(join(tmpdir(), 'quire-checkout-service-'));
  service = await openService({
    apiUrl: fake.url,
    folder: dir,
    api: { maxAttempts: 1, timeoutMs: 5000 },
  });
  await signInAndSync(service, fake, [demo.handbook.id]);
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
