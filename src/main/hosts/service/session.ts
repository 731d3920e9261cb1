import type { User } from '@gitbook/api';
import { QuireError, type SessionVM, type UserVM } from '../../../shared/contract';
import { ApiClient, NetworkError, TokenRejectedError, API_URL_META, normaliseApiUrl as parseApiUrl } from '../../core/api';
import { describeError, toQuireError } from './errors';
import { connectCore, noteGivenAddress, type ServiceState } from './state';
import type { SyncRunner } from './sync-runner';
import type { HandlersFor } from './types';
import { toUserVM } from './view-models';

const USER_META = 'session.user';

/** Accepts an API origin with or without a trailing /v1; a bad address is an `invalid-request` error. */
export function normaliseApiUrl(raw: string): string {
  try {
    return parseApiUrl(raw);
  } catch (e) {
    throw toQuireError(e, 'read the API address');
  }
}

/** Takes the token for the folder's API from the token store, unless the environment gave one. */
export async function loadStoredToken(state: ServiceState): Promise<void> {
  if (state.token) return;
  try {
    state.token = await state.options.tokens.get(state.apiUrl);
  } catch (e) {
    state.keychain = 'unavailable';
    state.log(describeError(e));
  }
}

export interface Session {
  /** The signed-in user as last seen, from the mirror. */
  user(): UserVM | null;
  vm(): SessionVM;
  /** Asks the API who the token belongs to and remembers it. */
  learnUser(client: ApiClient): Promise<void>;
  handlers: HandlersFor<'session.get' | 'session.signIn' | 'session.signOut'>;
}

export function createSession(state: ServiceState, runner: SyncRunner, refreshCatalog: () => Promise<void>): Session {
  const { options, status, events, log } = state;

  const user = (): UserVM | null => {
    const raw = state.mirror.catalog.getMeta(USER_META);
    return raw ? (JSON.parse(raw) as UserVM) : null;
  };
  const vm = (): SessionVM => ({
    signedIn: state.token !== null,
    apiUrl: state.apiUrl,
    user: state.token ? user() : null,
    keychain: state.keychain,
    ...(state.signedOutReason ? { reason: state.signedOutReason } : {}),
  });

  return {
    user,
    vm,
    async learnUser(client) {
      const me = await client.call<User>((c, p) => c.user.getAuthenticatedUser(p));
      state.mirror.catalog.setMeta(USER_META, JSON.stringify(toUserVM(me)));
      events.emit('session.changed', vm());
    },
    handlers: {
      'session.get': () => vm(),
      'session.signIn': async ({ apiUrl: rawUrl, token: candidate }) => {
        const url = normaliseApiUrl(rawUrl);
        const probe = new ApiClient({ baseUrl: url, token: candidate, maxAttempts: 2, timeoutMs: 15_000 });
        let me: User;
        try {
          me = await probe.call<User>((c, p) => c.user.getAuthenticatedUser(p));
        } catch (e) {
          if (e instanceof TokenRejectedError) {
            throw new QuireError('token-rejected', 'The API rejected this token. Check that you pasted all of it, or create a new token, then try again.');
          }
          if (e instanceof NetworkError) {
            throw new QuireError('offline', `Could not reach ${url}. Check the API address and your connection, then try again.`);
          }
          throw toQuireError(e, 'check the token');
        }
        try {
          await options.tokens.set(url, candidate);
          state.keychain = 'ok';
        } catch (e) {
          state.keychain = 'unavailable';
          log(`token kept for this session only: ${describeError(e)}`);
        }
        state.apiUrl = url;
        state.token = candidate;
        state.signedOutReason = undefined;
        state.mirror.transaction(() => {
          state.mirror.catalog.setMeta(API_URL_META, url);
          state.mirror.catalog.setMeta(USER_META, JSON.stringify(toUserVM(me)));
        });
        noteGivenAddress(state);
        connectCore(state);
        await status.refresh();
        events.emit('session.changed', vm());
        // The catalog first, so the first cycle knows the spaces; then continuous sync.
        void refreshCatalog()
          .catch((e: unknown) => log(`catalog refresh after sign-in: ${describeError(e)}`))
          .then(() => runner.schedule());
        return vm();
      },
      'session.signOut': async () => {
        state.abort.abort();
        await runner.halt();
        state.abort = new AbortController();
        try {
          await options.tokens.delete(state.apiUrl);
        } catch (e) {
          log(`could not remove the token from the keychain: ${describeError(e)}`);
        }
        state.token = null;
        connectCore(state);
        status.signedOut();
        events.emit('session.changed', vm());
        return vm();
      },
    },
  };
}
