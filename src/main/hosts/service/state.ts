import { mkdirSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { QuireError, type SessionVM } from '../../../shared/contract';
import { ApiClient, API_URL_META, normaliseApiUrl } from '../../core/api';
import { explainStorageError, Mirror, refuseSyncFolder } from '../../core/mirror';
import { FileGivenAddresses } from '../../core/secrets';
import type { EventHub } from './events';
import { createReviewAdapter, type ReviewAdapter } from './review-adapter';
import type { StatusHolder } from './status';
import type { QuireServiceOptions } from './types';

/**
 * What the parts of the service share and change: the open folder and mirror,
 * the session, and the core objects built from them. One object, so a sign-in
 * or a folder switch is seen by every part at once.
 */
export interface ServiceState {
  readonly options: QuireServiceOptions;
  readonly log: (line: string) => void;
  readonly events: EventHub;
  readonly status: StatusHolder;
  folder: string;
  mirror: Mirror;
  notifications: boolean;
  apiUrl: string;
  keychain: SessionVM['keychain'];
  token: string | null;
  signedOutReason: string | undefined;
  api: ApiClient | null;
  review: ReviewAdapter | null;
  stopping: boolean;
  /** Cancels network waits (never a transaction: those are synchronous) on sign-out and stop. */
  abort: AbortController;
}

/** Opens (creating if needed) the sync folder and its mirror; signed out until a token is found. */
export function openState(options: QuireServiceOptions, log: (line: string) => void, events: EventHub, status: StatusHolder): ServiceState {
  const folder = resolvePath(options.folder);
  const mirror = openFolder(folder);
  for (const notice of mirror.notices) log(notice);
  const apiUrl = mirror.catalog.getMeta(API_URL_META) ?? options.apiUrl;
  // A token handed over at start (QUIRE_TOKEN) is meant for the API it came with, never for another one this folder remembers.
  const token = options.token && sameApi(apiUrl, options.apiUrl) ? options.token : null;
  const signedOutReason =
    options.token && !token
      ? `This folder syncs with ${apiUrl}; the token Quire was started with is for ${options.apiUrl}, so it is not used here. Sign in to ${apiUrl}, or choose another folder.`
      : undefined;
  if (signedOutReason) log(signedOutReason);
  return {
    options,
    log,
    events,
    status,
    folder,
    mirror,
    notifications: options.notifications ?? true,
    apiUrl,
    keychain: 'ok',
    token,
    signedOutReason,
    api: null,
    review: null,
    stopping: false,
    abort: new AbortController(),
  };
}

/**
 * Notes, outside the folder, that its user gave the address the session uses (typed at sign-in,
 * or the one the host was started with beside QUIRE_TOKEN): the command line then sends
 * QUIRE_TOKEN there without --api. A note that cannot be written is logged, and costs a later --api.
 */
export function noteGivenAddress(state: ServiceState): void {
  const given = state.options.given ?? new FileGivenAddresses();
  try {
    if (given.get(state.folder) !== state.apiUrl) given.set(state.folder, state.apiUrl);
  } catch (e) {
    state.log(`could not note that ${state.folder} syncs with ${state.apiUrl}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Opens (creating if needed) a sync folder and its mirror, as the app does on start and when the
 * folder is changed: never the root of the file system or a home folder itself; a mirror that
 * cannot be opened is said in plain words; a damaged one is set aside (`Mirror.notices` say so).
 */
export function openFolder(folder: string): Mirror {
  refuseSyncFolder(folder);
  try {
    mkdirSync(folder, { recursive: true });
    return Mirror.open(folder, { ifCorrupt: 'set-aside' });
  } catch (err) {
    throw explainStorageError(err, folder);
  }
}

/** Two API addresses name the same API (a trailing /v1 or slash aside). */
export function sameApi(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      return normaliseApiUrl(u);
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}

/** Rebuilds the API client and the review adapter for the current token and mirror. */
export function connectCore(state: ServiceState): void {
  const { options, status } = state;
  state.api = state.token
    ? new ApiClient({
        baseUrl: state.apiUrl,
        token: state.token,
        signal: state.abort.signal,
        maxAttempts: options.api?.maxAttempts,
        timeoutMs: options.api?.timeoutMs,
        onEvent: (e) => {
          if (e.type === 'retry') state.log(`retrying ${e.method} ${e.path} (attempt ${e.attempt}): ${e.reason}`);
        },
      })
    : null;
  const reviewChanged = () => {
    void status.refresh();
    state.events.changed('review');
  };
  state.review = state.api ? createReviewAdapter(state.api, state.mirror, () => status.get().state !== 'offline', reviewChanged, state.log) : null;
}

export function needApi(state: ServiceState): ApiClient {
  if (!state.api) throw new QuireError('signed-out', 'You are signed out. Sign in with an API token first.');
  return state.api;
}

export function spaceTitle(state: ServiceState, id: string | null | undefined): string | null {
  return id ? (state.mirror.catalog.space(id)?.title ?? null) : null;
}

/** The folder a space syncs into, or a not-found error saying why there is none. */
export function spaceDir(state: ServiceState, spaceId: string): string {
  const space = state.mirror.catalog.space(spaceId);
  if (!space) throw new QuireError('not-found', 'That space is not in the mirror any more. Refresh the list of spaces.');
  if (!space.folder) throw new QuireError('not-found', `“${space.title}” has no folder yet: choose it for sync and run a sync first.`);
  return join(state.folder, space.folder);
}
