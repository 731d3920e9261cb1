/**
 * The adapter between the contract (src/shared/contract.ts) and the core: every
 * request a host receives is answered here by calling core services, and
 * everything a view shows is read from the mirror. Hosts (Electron IPC, the web
 * host's WebSocket) only validate, carry and display. The token stays in here
 * and in the token store; it is never part of a result, an event or a log line.
 *
 * This file wires the parts; each request area has its own module.
 */
import { QuireError, type Params, type RequestName, type Result } from '../../../shared/contract';
import { explainStorageError } from '../../core/mirror';
import { redactSecrets } from '../../core/secrets';
import type { Mirror } from '../../core/mirror';
import { readSyncFacts } from '../../core/status';
import { logHandlers } from './activity-log';
import { appHandlers } from './app-actions';
import { createCatalog } from './catalog';
import { conflictHandlers, conflictIds } from './conflicts';
import { describeError, withoutSecrets } from './errors';
import { EventHub } from './events';
import { pageHandlers } from './pages';
import { findHandlers } from './find';
import { reviewHandlers } from './review-handlers';
import { reviewDeskHandlers } from './review-desk';
import { reviewLifecycleHandlers } from './review-lifecycle';
import { reviewLineHandlers } from './review-lines';
import { createSession, loadStoredToken } from './session';
import { settingsHandlers } from './settings';
import { StatusHolder } from './status';
import { connectCore, needApi, openState } from './state';
import { translationHandlers } from './translations';
import { createSyncRunner } from './sync-runner';
import type { Handler, Handlers, QuireService, QuireServiceOptions } from './types';

export type { AttentionSnapshot, HostCapabilities, QuireService } from './types';

export { emojiText } from './view-models';
export { normaliseApiUrl } from './session';
export { defaultRendererDir, projectRoot, readStatic, rendererBuilt } from './renderer-files';

export async function createQuireService(options: QuireServiceOptions): Promise<QuireService> {
  const hostLog = options.log ?? (() => undefined);
  const log = (line: string) => hostLog(redactSecrets(line));
  const events = new EventHub(log);
  const status = new StatusHolder((vm) => events.emit('sync.status', vm));
  const state = openState(options, log, events, status);
  await loadStoredToken(state);
  connectCore(state);

  const runner = createSyncRunner(state);
  // The state is read from whichever folder is open, while signed in: its files are looked at once
  // (edits made while Quire was closed); after that the watcher and the cycles keep the mirror told.
  let scanned: Mirror | null = null;
  status.setSource(async () => {
    if (!state.token) return null;
    const mirror = state.mirror;
    const edits = scanned === mirror ? 'recorded' : 'scan';
    scanned = mirror;
    return readSyncFacts(mirror, state.folder, { edits });
  });
  await status.refresh();
  if (state.mirror.notices.length > 0) runner.announce(state.mirror.notices.join(' '));

  const catalog = createCatalog(state, runner);
  const session = createSession(state, runner, catalog.refresh);
  const handlers: Handlers = {
    ...session.handlers,
    ...settingsHandlers(state, runner, session),
    ...catalog.handlers,
    ...runner.handlers,
    ...conflictHandlers(state, runner),
    ...reviewHandlers(state),
    ...reviewLifecycleHandlers(state, runner),
    ...reviewDeskHandlers(state),
    ...reviewLineHandlers(state, runner),
    ...logHandlers(state),
    ...findHandlers(state, runner),
    ...appHandlers(state),
    ...pageHandlers(state),
    ...translationHandlers(state),
  };

  /**
   * Started with a token (keychain, QUIRE_TOKEN, the demo): learn who the user
   * is and what spaces exist if the mirror does not know yet, then start
   * continuous sync (when automatic syncs are on, its first cycle runs at once).
   */
  async function warmUp(): Promise<void> {
    const client = state.api;
    if (!client) return;
    try {
      if (!session.user()) await session.learnUser(client);
      if (state.mirror.catalog.spaces().length === 0) await catalog.refresh();
    } catch (e) {
      log(`start-up: ${describeError(explainStorageError(e, state.folder))}`);
    }
    if (!state.stopping) await runner.schedule();
  }

  const warming = state.token ? warmUp() : Promise.resolve();

  return {
    async request<N extends RequestName>(name: N, params: Params<N>): Promise<Result<N>> {
      if (state.stopping) throw new QuireError('busy', 'Quire is stopping.');
      const handler = handlers[name] as Handler<N>;
      try {
        // Search or history damaged: made again (the status bar says so), and the request runs again.
        return await state.mirror.withRepair(
          () => handler(params),
          (line) => {
            log(line);
            runner.announce(line);
          },
        );
      } catch (e) {
        // SQLite's words (disk full, read-only, another writer) are said plainly.
        throw withoutSecrets(explainStorageError(e, state.folder));
      }
    },
    subscribe: (listener) => events.subscribe(listener),
    async syncOnce() {
      needApi(state);
      await runner.request();
      return status.get();
    },
    status: () => status.get(),
    userId: () => session.user()?.id ?? null,
    attentionSnapshot() {
      const base = { conflicts: conflictIds(state) };
      return state.review ? { ...base, ...state.review.attentionIds() } : null;
    },
    async close() {
      if (state.stopping) return;
      state.stopping = true;
      // Stop scheduling; give a running cycle a moment to finish on its own, then cancel its network waits.
      // Each step of the core commits in one synchronous transaction, so nothing is left half-written.
      const running = Promise.all([warming, runner.halt()]).catch(() => undefined);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((r) => (grace = setTimeout(r, options.stopGraceMs ?? 5000)))]);
      clearTimeout(grace);
      state.abort.abort();
      await running;
      status.dispose();
      events.clear();
      state.mirror.close();
    },
  };
}
