import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApi, type FakeApi } from '../fake';
import { MemoryTokenStore } from '../../src/main/core/secrets';
import { createQuireService, type HostCapabilities, type QuireService } from '../../src/main/hosts/service';
import { startWebHost, type WebHost } from '../../src/main/hosts/web';

export interface Stack {
  fake: FakeApi;
  host: WebHost;
  service: QuireService;
  /** The sync folder. */
  dir: string;
  /** The links the host was asked to open, instead of launching a browser. */
  opened: string[];
  hostLog: string[];
  close(): Promise<void>;
}

/**
 * The fake API, a service over a temporary sync folder, and the web host
 * serving `rendererDir`: everything the browser tests drive. Automatic syncs
 * are off (unless `syncIntervalMs` says) so each test decides when a cycle runs;
 * one attempt per request so "offline" shows at once.
 */
export async function startStack(options: {
  rendererDir: string;
  seed?: (fake: FakeApi) => void;
  signedIn?: boolean;
  /** Continuous sync as the app runs it (the watcher, and a cycle every so often); default off. */
  syncIntervalMs?: number;
}): Promise<Stack> {
  const fake = await startFakeApi();
  options.seed?.(fake);
  const dir = await mkdtemp(join(tmpdir(), 'quire-sync-'));
  const opened: string[] = [];
  const hostLog: string[] = [];
  // As the real web host: links are handed to the system, paths are shown to copy (a browser cannot open local apps).
  const host: HostCapabilities = { kind: 'web', openExternal: async (url) => void opened.push(url) };
  const service = await createQuireService({
    apiUrl: fake.url,
    folder: dir,
    tokens: new MemoryTokenStore(),
    host,
    syncIntervalMs: options.syncIntervalMs ?? 0,
    api: { maxAttempts: 1, timeoutMs: 5000 },
    ...(options.signedIn ? { token: fake.token } : {}),
    log: (line) => hostLog.push(line),
  });
  const web = await startWebHost({ apiUrl: fake.url, dir, service, rendererDir: options.rendererDir, log: (line) => hostLog.push(line) });
  return {
    fake,
    host: web,
    service,
    dir,
    opened,
    hostLog,
    async close() {
      await web.close();
      await service.close();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
