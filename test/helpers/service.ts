import { expect } from 'vitest';
import { MemoryTokenStore } from '../../src/main/core/secrets';
import { createQuireService, type QuireService } from '../../src/main/hosts/service';
import type { QuireServiceOptions } from '../../src/main/hosts/service/types';
import type { FakeApi } from '../fake';

/**
 * The app's service as the tests open it: a keychain in memory, a web host that opens nothing,
 * no automatic sync (each test decides when a cycle runs). `options` add to these or replace them.
 */
export function openService(options: Pick<QuireServiceOptions, 'apiUrl' | 'folder'> & Partial<QuireServiceOptions>): Promise<QuireService> {
  return createQuireService({
    tokens: new MemoryTokenStore(),
    host: { kind: 'web', openExternal: async () => undefined, openPath: async () => undefined },
    syncIntervalMs: 0,
    ...options,
  });
}

/** Signs the service in to the fake API, selects the spaces and syncs them once, as a user starting the app would: in sync. */
export async function signInAndSync(service: QuireService, fake: FakeApi, spaceIds: string[]): Promise<void> {
  await service.request('session.signIn', { apiUrl: fake.url, token: fake.token });
  await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds, selected: true });
  expect((await service.syncOnce()).state).toBe('in-sync');
}
