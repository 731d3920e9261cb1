/**
 * The adapter between the contract (src/shared/contract.ts) and the core: every
 * request a host receives is answered here by calling core services, and
 * everything a view shows is read from the mirror. Hosts (Electron IPC, the web
 * host's WebSocket) only validate, carry and display. The token stays in here
 * and in the token store; it is never part of a result, an event or a log line.
 */
import { mkdirSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve as resolvePath } from 'node:path';
import type { User } from '@gitbook/api';
import {
  QuireError,
  type CatalogVM,
  type ConflictVM,
  type ContractService,
  type DataArea,
  type EventMap,
  type EventName,
  type HostKind,
  type LogEntryVM,
  type Params,
  type PushedEvent,
  type RequestName,
  type Result,
  type SessionVM,
  type SettingsVM,
  type SpaceVM,
  type SyncProgressVM,
  type SyncStatusVM,
  type UserVM,
  type ChangeRequestVM,
  type ChangeRequestDetailVM,
  type CommentVM,
  type ThreadVM,
  type ReplyVM,
  type SiteVM,
  type AttentionReason,
} from '../../shared/contract';
import { checkExternalUrl } from '../../shared/external-url';
import { ApiClient, CancelledError, NetworkError, TokenRejectedError, ApiError } from '../core/api';
import { Mirror, type SpaceRow } from '../core/mirror';
import { KeychainUnavailableError, type TokenStore } from '../core/secrets';
import { refreshCatalog } from '../core/sync/catalog';
import { SyncEngine } from '../core/sync/engine';
import { detectLocalChanges } from '../core/sync/local-changes';
import { resolveInside, writeFileAtomic } from '../core/sync/safe-fs';
import { sha256 } from '../core/sync/hash';
import type { SyncProgress } from '../core/sync/progress';
import { ReviewService, type ActionInput, type ActionRecord, type CommentView, type ReplyView, type SiteTree } from '../core/review';

/** What only the host can do: talk to the desktop. */
export interface HostCapabilities {
  kind: HostKind;
  openExternal(url: string): Promise<void>;
  openPath(path: string): Promise<void>;
  /** A native folder picker; absent where there is none (the web host). */
  chooseFolder?(): Promise<string | null>;
}

export interface QuireServiceOptions {
  /** API origin offered when the folder has not talked to one yet. */
  apiUrl: string;
  /** The sync folder. */
  folder: string;
  tokens: TokenStore;
  host: HostCapabilities;
  /** A token handed over by the environment (QUIRE_TOKEN, the demo): used, never stored. */
  token?: string;
  notifications?: boolean;
  /** Called when the user changes settings, so a host can persist them. */
  onSettingsChange?(settings: { folder: string; notifications: boolean }): void;
  /** Time between automatic sync cycles; 0 turns them off. Default 60 s. */
  syncIntervalMs?: number;
  /** How long `close` lets a running cycle finish before cancelling its requests. Default 5 s. */
  stopGraceMs?: number;
  /** Options for the API client (tests shorten retries). */
  api?: { maxAttempts?: number; timeoutMs?: number };
  log?: (line: string) => void;
}

export interface QuireService extends ContractService {
  /** Stops automatic syncs, waits for a running cycle to finish its transaction, closes the mirror. */
  close(): Promise<void>;
  /** Runs one sync cycle now and resolves when it is over (tests, the tray's "Sync now"). */
  syncOnce(): Promise<SyncStatusVM>;
  status(): SyncStatusVM;
  /** The signed-in user's id, for hosts deciding what to notify about. */
  userId(): string | null;
  /** Review state for notifications; null when review state is not available. */
  attentionSnapshot(): AttentionSnapshot | null;
}

/** Ids the notifications are derived from (see hosts/electron/notices.ts). */
export interface AttentionSnapshot {
  conflicts: string[];
  commentsOnMyChangeRequests: string[];
  repliesToMyComments: string[];
}

const USER_META = 'session.user';
const API_URL_META = 'api.baseUrl';
const PROGRESS_EMIT_MS = 50;

function toUserVM(u: { id: string; displayName?: string; email?: string; photoURL?: string }): UserVM {
  return { id: u.id, displayName: u.displayName || u.email || u.id, ...(u.email ? { email: u.email } : {}) };
}

/** The API gives emoji as code points in hex (`1f4d8`, `1f468-200d-1f4bb`); the window wants the characters. */
export function emojiText(raw: string | null): string | null {
  if (!raw) return null;
  if (!/^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(raw)) return raw;
  try {
    return String.fromCodePoint(...raw.split('-').map((h) => parseInt(h, 16)));
  } catch {
    return null;
  }
}

function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Maps core failures to contract errors that say what happened and what to do. */
export function toQuireError(e: unknown, doing: string): QuireError {
  if (e instanceof QuireError) return e;
  if (e instanceof TokenRejectedError) {
    return new QuireError('token-rejected', `The API rejected the token while trying to ${doing}. Sign out and sign in again with a valid token.`);
  }
  if (e instanceof NetworkError) {
    return new QuireError('offline', `Could not reach the API to ${doing}. Check your connection; Quire keeps your work and retries later.`);
  }
  if (e instanceof ApiError) {
    if (e.status === 403) return new QuireError('forbidden', `The API refused to ${doing}: you lack the permission${e.apiMessage ? ` (${e.apiMessage})` : ''}.`);
    if (e.status === 404) return new QuireError('not-found', `Could not ${doing}: it no longer exists on the server${e.apiMessage ? ` (${e.apiMessage})` : ''}.`);
    return new QuireError('internal', `The API failed to ${doing}: ${e.message}. Try again later.`);
  }
  if (e instanceof KeychainUnavailableError) return new QuireError('keychain-unavailable', e.message);
  return new QuireError('internal', `Could not ${doing}: ${describeError(e)}.`);
}

/** Holds the sync status, emitting state changes at once and progress at most every 50 ms. */
class StatusHolder {
  private vm: SyncStatusVM = {
    state: 'signed-out',
    progress: null,
    paused: false,
    conflicts: 0,
    pendingActions: 0,
    lastCycleAt: null,
    message: null,
    seq: 0,
    changedAt: Date.now(),
  };
  private lastEmit = 0;
  private trailing: NodeJS.Timeout | null = null;

  constructor(private readonly emit: (vm: SyncStatusVM) => void) {}

  get(): SyncStatusVM {
    return this.vm;
  }

  update(patch: Partial<Omit<SyncStatusVM, 'seq' | 'changedAt'>>): void {
    const next = { ...this.vm, ...patch };
    const onlyProgress = next.state === this.vm.state && Object.keys(patch).every((k) => k === 'progress');
    if (JSON.stringify(next) === JSON.stringify(this.vm)) return;
    this.vm = { ...next, seq: this.vm.seq + 1, changedAt: Date.now() };
    if (onlyProgress && Date.now() - this.lastEmit < PROGRESS_EMIT_MS) {
      this.trailing ??= setTimeout(() => this.flush(), PROGRESS_EMIT_MS);
      return;
    }
    this.flush();
  }

  private flush(): void {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
    this.lastEmit = Date.now();
    this.emit(this.vm);
  }

  dispose(): void {
    if (this.trailing) clearTimeout(this.trailing);
  }
}

type Handler<N extends RequestName> = (params: Params<N>) => Promise<Result<N>> | Result<N>;
type Handlers = { [N in RequestName]: Handler<N> };

export async function createQuireService(options: QuireServiceOptions): Promise<QuireService> {
  const log = options.log ?? (() => undefined);
  const listeners = new Set<(e: PushedEvent) => void>();
  const emit = <E extends EventName>(name: E, payload: EventMap[E]) => {
    const event = { name, payload } as PushedEvent;
    for (const l of listeners) {
      try {
        l(event);
      } catch (e) {
        log(`event listener failed: ${describeError(e)}`);
      }
    }
  };
  const changed = (...areas: DataArea[]) => emit('data.changed', { areas });
  const status = new StatusHolder((vm) => emit('sync.status', vm));

  let folder = resolvePath(options.folder);
  mkdirSync(folder, { recursive: true });
  let mirror = Mirror.open(folder);
  let notifications = options.notifications ?? true;
  let apiUrl = mirror.catalog.getMeta(API_URL_META) ?? options.apiUrl;
  let keychain: SessionVM['keychain'] = 'ok';
  let token: string | null = options.token ?? null;
  let signedOutReason: string | undefined;
  let api: ApiClient | null = null;
  let review: ReviewAdapter | null = null;
  let stopping = false;
  /** Cancels network waits (never a transaction: those are synchronous) on sign-out and stop. */
  let abort = new AbortController();

  if (!token) {
    try {
      token = await options.tokens.get(apiUrl);
    } catch (e) {
      keychain = 'unavailable';
      log(describeError(e));
    }
  }

  const user = (): UserVM | null => {
    const raw = mirror.catalog.getMeta(USER_META);
    return raw ? (JSON.parse(raw) as UserVM) : null;
  };
  const session = (): SessionVM => ({
    signedIn: token !== null,
    apiUrl,
    user: token ? user() : null,
    keychain,
    ...(signedOutReason ? { reason: signedOutReason } : {}),
  });

  const makeApi = (t: string) =>
    new ApiClient({
      baseUrl: apiUrl,
      token: t,
      signal: abort.signal,
      maxAttempts: options.api?.maxAttempts,
      timeoutMs: options.api?.timeoutMs,
      onEvent: (e) => {
        if (e.type === 'retry') log(`retrying ${e.method} ${e.path} (attempt ${e.attempt}): ${e.reason}`);
      },
    });

  const openCore = () => {
    api = token ? makeApi(token) : null;
    const reviewChanged = () => {
      status.update({ pendingActions: review?.pendingCount() ?? 0 });
      changed('review');
    };
    review = api ? createReviewAdapter(api, mirror, () => status.get().state !== 'offline', reviewChanged, log) : null;
  };
  openCore();

  const needApi = (): ApiClient => {
    if (!api) throw new QuireError('signed-out', 'You are signed out. Sign in with an API token first.');
    return api;
  };
  const needReview = (): ReviewAdapter => {
    needApi();
    if (!review) throw new QuireError('unsupported', 'Review is not available in this build of Quire.');
    return review;
  };

  // ------------------------------------------------------------ sync cycles

  let cycle: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  const spaceTitle = (id: string | null | undefined) => (id ? (mirror.catalog.space(id)?.title ?? null) : null);

  const idleState = (): Partial<SyncStatusVM> => {
    const conflicts = mirror.content.conflicts().length;
    return {
      state: status.get().paused ? 'paused' : conflicts > 0 ? 'conflicts' : 'idle',
      conflicts,
      pendingActions: review?.pendingCount() ?? 0,
      progress: null,
    };
  };

  const onProgress = (p: SyncProgress) => {
    const progress: SyncProgressVM = {
      phase: p.phase,
      spaceId: p.spaceId ?? null,
      spaceTitle: p.spaceTitle ?? spaceTitle(p.spaceId),
      done: p.done,
      total: p.total,
    };
    status.update({ progress });
  };

  async function runCycle(): Promise<void> {
    const client = api;
    if (!client || stopping) return;
    status.update({ state: 'syncing', progress: null, message: null });
    try {
      const engine = new SyncEngine({ api: client, mirror, root: folder, spaces: 'selected', onProgress, signal: abort.signal });
      await engine.runCycle();
      if (review) {
        status.update({ progress: { phase: 'review', spaceId: null, spaceTitle: null, done: 0, total: 1 } });
        await review.sync();
      }
      status.update({ ...idleState(), lastCycleAt: new Date().toISOString(), message: null });
    } catch (e) {
      if (e instanceof CancelledError || stopping) {
        status.update({ ...idleState() });
        return;
      }
      const err = toQuireError(e, 'sync');
      const state = err.code === 'token-rejected' ? 'token-rejected' : err.code === 'offline' ? 'offline' : 'error';
      const message =
        state === 'offline'
          ? 'Offline: the API cannot be reached. Your edits and review actions are kept and sent when it is back.'
          : state === 'token-rejected'
            ? 'The API rejected your token. Sign out and sign in with a new token.'
            : `Sync failed: ${describeError(e)}`;
      mirror.log.add(state === 'offline' ? 'retry' : 'error', message);
      status.update({ ...idleState(), state, message });
      log(`sync: ${describeError(e)}`);
    } finally {
      changed('catalog', 'conflicts', 'log', 'review', 'sites');
    }
  }

  /** Starts a cycle, or asks for one more after the running one. */
  function requestCycle(): Promise<void> {
    if (cycle) {
      again = true;
      return cycle;
    }
    cycle = (async () => {
      do {
        again = false;
        await runCycle();
      } while (again && !stopping && !status.get().paused);
    })().finally(() => {
      cycle = null;
    });
    return cycle;
  }

  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = null;
    const every = options.syncIntervalMs ?? 60_000;
    if (every > 0 && token && !status.get().paused) timer = setInterval(() => void requestCycle(), every);
  };

  const settled = () => (token ? { ...idleState() } : { state: 'signed-out' as const, progress: null, conflicts: 0, pendingActions: 0 });
  status.update(settled());
  schedule();

  // ------------------------------------------------------------- view models

  async function spaceVM(row: SpaceRow, conflictsBySpace: Map<string, number>): Promise<SpaceVM> {
    let pendingEdits = 0;
    if (row.selected && row.folder && row.syncedRevision) {
      try {
        const c = await detectLocalChanges(join(folder, row.folder), mirror.content.pages(row.id));
        pendingEdits = c.modified.length + c.added.length + c.deleted.length;
      } catch {
        pendingEdits = 0;
      }
    }
    const conflicts = conflictsBySpace.get(row.id) ?? 0;
    const state: SpaceVM['state'] = !row.selected || !row.syncedRevision
      ? 'not-synced'
      : row.lastError
        ? 'error'
        : conflicts > 0
          ? 'conflicts'
          : pendingEdits > 0
            ? 'pending'
            : 'synced';
    return {
      id: row.id,
      organizationId: row.organizationId,
      collectionId: row.collectionId,
      title: row.title,
      emoji: emojiText(row.emoji),
      visibility: row.visibility,
      selected: row.selected,
      folder: row.folder,
      lastSyncAt: row.lastSyncAt,
      pendingEdits,
      conflicts,
      lastError: row.lastError,
      state,
    };
  }

  async function catalogVM(): Promise<CatalogVM> {
    const conflictsBySpace = new Map<string, number>();
    for (const c of mirror.content.conflicts()) conflictsBySpace.set(c.spaceId, (conflictsBySpace.get(c.spaceId) ?? 0) + 1);
    const spaces = await Promise.all(mirror.catalog.spaces().map((s) => spaceVM(s, conflictsBySpace)));
    return {
      organizations: mirror.catalog.organizations(),
      collections: mirror.catalog.collections(),
      spaces,
      refreshedAt: mirror.catalog.getMeta('catalog.refreshedAt') ?? null,
    };
  }

  const settingsVM = (): SettingsVM => ({ folder, notifications, host: options.host.kind, canChooseFolder: !!options.host.chooseFolder });

  const spaceDir = (spaceId: string): string => {
    const space = mirror.catalog.space(spaceId);
    if (!space) throw new QuireError('not-found', 'That space is not in the mirror any more. Refresh the list of spaces.');
    if (!space.folder) throw new QuireError('not-found', `“${space.title}” has no folder yet: choose it for sync and run a sync first.`);
    return join(folder, space.folder);
  };

  const readText = async (dir: string, rel: string | null): Promise<string | null> => {
    if (!rel) return null;
    try {
      return await readFile(resolveInside(dir, rel), 'utf8');
    } catch {
      return null;
    }
  };

  async function conflictsVM(): Promise<ConflictVM[]> {
    return Promise.all(
      mirror.content.conflicts().map(async (c) => {
        const dir = spaceDir(c.spaceId);
        const page = c.pageId ? mirror.content.page(c.spaceId, c.pageId) : undefined;
        return {
          spaceId: c.spaceId,
          spaceTitle: spaceTitle(c.spaceId) ?? c.spaceId,
          path: c.path,
          pageId: c.pageId,
          kind: c.kind,
          detectedAt: c.detectedAt,
          local: await readText(dir, c.path),
          remote: await readText(dir, c.remotePath),
          base: page?.baseContent ?? null,
        };
      }),
    );
  }

  /**
   * FOR THE LEAD: a stand-in until the sync core exposes conflict resolution.
   * Both choices make the remote text the new merge base, so the next cycle sees
   * at most a local edit: "mine" keeps the local file (and pushes it), "theirs"
   * writes the remote text over it. The `.remote.md` copy and the conflict row go.
   */
  async function resolveConflict(spaceId: string, path: string, choice: 'mine' | 'theirs'): Promise<void> {
    const row = mirror.content.conflicts(spaceId).find((c) => c.path === path);
    if (!row) throw new QuireError('not-found', `There is no conflict on ${path} any more; it may have been resolved already.`);
    const dir = spaceDir(spaceId);
    const remote = await readText(dir, row.remotePath);
    const page = row.pageId ? mirror.content.page(spaceId, row.pageId) : undefined;
    if (choice === 'theirs') {
      if (remote === null) await rm(resolveInside(dir, path), { force: true });
      else await writeFileAtomic(dir, path, remote);
    }
    const st = await stat(resolveInside(dir, path)).catch(() => null);
    mirror.transaction(() => {
      if (page && remote !== null) {
        const theirs = choice === 'theirs';
        mirror.content.upsertPage({
          ...page,
          baseContent: remote,
          remoteHash: sha256(remote),
          localSize: theirs && st ? st.size : page.localSize,
          localMtimeMs: theirs && st ? st.mtimeMs : page.localMtimeMs,
        });
      }
      mirror.content.removeConflict(spaceId, path);
      mirror.log.add('info', `${path}: conflict resolved, ${choice === 'mine' ? 'kept the local version' : 'took the server version'}`, spaceId);
    });
    if (row.remotePath) await rm(resolveInside(dir, row.remotePath), { force: true });
  }

  function logVM(params: Params<'log.list'>): LogEntryVM[] {
    const text = params.text?.trim().toLowerCase();
    const limit = params.limit ?? 500;
    const rows = mirror.log.recent(params.spaceId || text ? 5000 : limit, params.kind);
    return rows
      .filter((r) => (!params.spaceId || r.spaceId === params.spaceId) && (!text || r.message.toLowerCase().includes(text)))
      .slice(0, limit)
      .map((r) => ({ ...r, spaceTitle: spaceTitle(r.spaceId) }));
  }

  async function switchFolder(next: string): Promise<void> {
    if (!isAbsolute(next)) throw new QuireError('invalid-request', `The sync folder must be an absolute path, like /home/you/Docs; got “${next}”.`);
    const target = resolvePath(next);
    if (target === folder) return;
    if (cycle) throw new QuireError('busy', 'A sync is running. Wait for it to finish, then change the folder.');
    try {
      mkdirSync(target, { recursive: true });
    } catch (e) {
      throw new QuireError('invalid-request', `Cannot use ${target} as the sync folder: ${describeError(e)}. Pick a folder you can write to.`);
    }
    const opened = Mirror.open(target);
    mirror.close();
    mirror = opened;
    folder = target;
    if (token) mirror.catalog.setMeta(API_URL_META, apiUrl);
    openCore();
    status.update(settled());
  }

  const persistSettings = () => options.onSettingsChange?.({ folder, notifications });

  // ---------------------------------------------------------------- handlers

  const handlers: Handlers = {
    'session.get': () => session(),
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
        keychain = 'ok';
      } catch (e) {
        keychain = 'unavailable';
        log(`token kept for this session only: ${describeError(e)}`);
      }
      apiUrl = url;
      token = candidate;
      signedOutReason = undefined;
      mirror.transaction(() => {
        mirror.catalog.setMeta(API_URL_META, url);
        mirror.catalog.setMeta(USER_META, JSON.stringify(toUserVM(me)));
      });
      openCore();
      status.update(settled());
      schedule();
      emit('session.changed', session());
      void refreshCatalogNow().catch((e: unknown) => log(`catalog refresh after sign-in: ${describeError(e)}`));
      return session();
    },
    'session.signOut': async () => {
      abort.abort();
      await cycle?.catch(() => undefined);
      abort = new AbortController();
      try {
        await options.tokens.delete(apiUrl);
      } catch (e) {
        log(`could not remove the token from the keychain: ${describeError(e)}`);
      }
      token = null;
      openCore();
      schedule();
      status.update(settled());
      emit('session.changed', session());
      return session();
    },

    'settings.get': () => settingsVM(),
    'settings.update': async ({ folder: nextFolder, notifications: nextNotify }) => {
      if (nextFolder !== undefined) await switchFolder(nextFolder);
      if (nextNotify !== undefined) notifications = nextNotify;
      persistSettings();
      changed('settings', 'catalog', 'conflicts', 'log', 'review', 'sites');
      return settingsVM();
    },
    'settings.chooseFolder': async () => {
      if (!options.host.chooseFolder) throw new QuireError('unsupported', 'This window cannot show a folder picker. Type the folder path instead.');
      const picked = await options.host.chooseFolder();
      if (picked) {
        await switchFolder(picked);
        persistSettings();
        changed('settings', 'catalog', 'conflicts', 'log', 'review', 'sites');
      }
      return settingsVM();
    },

    'catalog.get': () => catalogVM(),
    'catalog.refresh': async () => {
      await refreshCatalogNow();
      return catalogVM();
    },
    'spaces.select': async ({ spaceIds, selected }) => {
      const known = new Set(mirror.catalog.spaces().map((s) => s.id));
      const unknown = spaceIds.filter((id) => !known.has(id));
      if (unknown.length > 0) throw new QuireError('not-found', `Unknown space ${unknown[0]}. Refresh the list of spaces and try again.`);
      mirror.transaction(() => mirror.catalog.setSelected(spaceIds, selected));
      changed('catalog');
      return catalogVM();
    },

    'sync.status': () => status.get(),
    'sync.now': () => {
      needApi();
      if (status.get().paused) status.update({ paused: false });
      void requestCycle();
      return status.get();
    },
    'sync.setPaused': ({ paused }) => {
      status.update({ paused, ...(paused && status.get().state !== 'syncing' ? { state: 'paused' as const } : {}) });
      if (!paused) status.update(token ? idleState() : settled());
      schedule();
      return status.get();
    },

    'conflicts.list': () => conflictsVM(),
    'conflicts.resolve': async ({ spaceId, path, choice }) => {
      if (cycle) await cycle;
      await resolveConflict(spaceId, path, choice);
      status.update(idleState());
      changed('conflicts', 'catalog', 'log');
      if (choice === 'mine' && token) void requestCycle();
      return conflictsVM();
    },
    'conflicts.openInEditor': async ({ spaceId, path }) => {
      const full = resolveInside(spaceDir(spaceId), path);
      await options.host.openPath(full);
    },

    'review.attention': () => needReview().attention(),
    'review.comments': (p) => needReview().comments(p),
    'review.changeRequest': (p) => needReview().changeRequest(p.spaceId, p.changeRequestId),
    'review.thread': (p) => needReview().thread(p.spaceId, p.commentId),
    'review.reply': (p) => reviewAct(() => needReview().act({ kind: 'reply', commentId: p.commentId, body: p.markdown })),
    'review.react': (p) =>
      reviewAct(() =>
        needReview().act({ kind: p.remove ? 'removeReaction' : 'addReaction', commentId: p.commentId, replyId: p.replyId ?? null, emoji: p.emoji }),
      ),
    'review.resolve': (p) => reviewAct(() => needReview().act({ kind: 'resolve', commentId: p.commentId })),
    'review.reopen': (p) => reviewAct(() => needReview().act({ kind: 'reopen', commentId: p.commentId })),
    'review.setSubject': (p) =>
      reviewAct(() => needReview().act({ kind: 'editChangeRequest', spaceId: p.spaceId, changeRequestId: p.changeRequestId, subject: p.subject })),
    'review.setStatus': (p) =>
      reviewAct(() => needReview().act({ kind: 'editChangeRequest', spaceId: p.spaceId, changeRequestId: p.changeRequestId, status: p.status })),
    'review.updateFromMain': (p) => reviewAct(() => needReview().act({ kind: 'updateFromMain', spaceId: p.spaceId, changeRequestId: p.changeRequestId })),
    'review.merge': (p) => reviewAct(() => needReview().act({ kind: 'merge', spaceId: p.spaceId, changeRequestId: p.changeRequestId })),

    'log.list': (p) => logVM(p),
    'sites.list': () => (review ? review.sites() : []),

    'app.openExternal': async ({ url }) => {
      await options.host.openExternal(checkExternalUrl(url));
    },
    'app.openFolder': async ({ spaceId }) => {
      await options.host.openPath(spaceId ? spaceDir(spaceId) : folder);
    },
  };

  /**
   * Started with a token (keychain, QUIRE_TOKEN, the demo): learn who the user
   * is and what spaces exist if the mirror does not know yet, then, when
   * automatic syncs are on, run the first cycle without waiting an interval.
   */
  async function warmUp(): Promise<void> {
    const client = api;
    if (!client) return;
    try {
      if (!user()) {
        const me = await client.call<User>((c, p) => c.user.getAuthenticatedUser(p));
        mirror.catalog.setMeta(USER_META, JSON.stringify(toUserVM(me)));
        emit('session.changed', session());
      }
      if (mirror.catalog.spaces().length === 0) await refreshCatalogNow();
    } catch (e) {
      log(`start-up: ${describeError(e)}`);
    }
    if (!stopping && (options.syncIntervalMs ?? 60_000) > 0) await requestCycle();
  }

  async function refreshCatalogNow(): Promise<void> {
    const client = needApi();
    try {
      await refreshCatalog(client, mirror);
      mirror.catalog.setMeta('catalog.refreshedAt', new Date().toISOString());
    } catch (e) {
      throw toQuireError(e, 'list your organizations and spaces');
    } finally {
      changed('catalog');
    }
  }

  /** Runs a review action (queued offline by the core), then tells the views and updates the pending count. */
  async function reviewAct(run: () => void): Promise<void> {
    try {
      run();
    } catch (e) {
      throw toQuireError(e, 'do that');
    } finally {
      status.update({ pendingActions: review?.pendingCount() ?? 0 });
      changed('review');
    }
  }

  const warming = token ? warmUp() : Promise.resolve();

  return {
    async request<N extends RequestName>(name: N, params: Params<N>): Promise<Result<N>> {
      if (stopping) throw new QuireError('busy', 'Quire is stopping.');
      const handler = handlers[name] as Handler<N>;
      return handler(params);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async syncOnce() {
      needApi();
      await requestCycle();
      return status.get();
    },
    status: () => status.get(),
    userId: () => user()?.id ?? null,
    attentionSnapshot() {
      const base = { conflicts: mirror.content.conflicts().map((c) => `${c.spaceId}/${c.path}`) };
      return review ? { ...base, ...review.attentionIds() } : null;
    },
    async close() {
      if (stopping) return;
      stopping = true;
      if (timer) clearInterval(timer);
      // Give a running cycle a moment to finish on its own, then cancel its network waits.
      // Each step of the core commits in one synchronous transaction, so nothing is left half-written.
      const running = Promise.all([warming, cycle]).catch(() => undefined);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((r) => (grace = setTimeout(r, options.stopGraceMs ?? 5000)))]);
      clearTimeout(grace);
      abort.abort();
      await running;
      status.dispose();
      listeners.clear();
      mirror.close();
    },
  };
}

/** Accepts an API origin with or without a trailing /v1 (the client adds it). */
export function normaliseApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new QuireError('invalid-request', `“${raw}” is not a web address. Use the API origin, such as https://api.gitbook.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new QuireError('invalid-request', `The API address must start with https:// (or http:// for a local server); got “${raw}”.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`;
}

// ------------------------------------------------------------------- review

/** The review core seen through the contract's view models. */
interface ReviewAdapter {
  /** Replays queued actions, then refreshes review and site state. */
  sync(signal?: AbortSignal): Promise<void>;
  pendingCount(): number;
  attention(): ChangeRequestVM[];
  comments(filter: Params<'review.comments'>): CommentVM[];
  changeRequest(spaceId: string, changeRequestId: string): Promise<ChangeRequestDetailVM>;
  thread(spaceId: string, commentId: string): ThreadVM;
  /** Queues an action (its effect shows at once, flagged pending) and sends the queue in the background. */
  act(input: ActionInput): void;
  sites(): SiteVM[];
  attentionIds(): Omit<AttentionSnapshot, 'conflicts'>;
}

const person = (p: { id: string; displayName: string } | null): UserVM | null => (p ? { id: p.id, displayName: p.displayName } : null);

function createReviewAdapter(
  api: ApiClient,
  mirror: Mirror,
  online: () => boolean,
  onChange: () => void,
  log: (line: string) => void,
): ReviewAdapter {
  const review = new ReviewService(mirror);
  let replaying: Promise<void> | null = null;
  let replayAgain = false;

  const titles = () => new Map(mirror.catalog.spaces().map((s) => [s.id, s.title]));
  const failures = () => {
    const byTarget = new Map<string, string>();
    for (const a of review.refusedActions()) {
      const key = a.replyId ?? a.commentId ?? a.changeRequestId;
      if (key) byTarget.set(key, a.message ?? 'refused by the server');
    }
    return byTarget;
  };

  const replayInBackground = () => {
    if (replaying) {
      replayAgain = true;
      return;
    }
    replaying = (async () => {
      do {
        replayAgain = false;
        try {
          await review.replay(api);
        } catch (e) {
          log(`review replay: ${describeError(e)}`);
        }
        onChange();
      } while (replayAgain);
    })().finally(() => {
      replaying = null;
    });
  };

  function commentVM(c: CommentView, spaceTitles: Map<string, string>, crNumbers: Map<string, number>, fail: Map<string, string>, pageTitles: Map<string, string | null>): CommentVM {
    let pageTitle: string | null = null;
    if (c.pageId) {
      const key = `${c.spaceId}/${c.pageId}`;
      if (!pageTitles.has(key)) pageTitles.set(key, mirror.content.page(c.spaceId, c.pageId)?.title ?? null);
      pageTitle = pageTitles.get(key) ?? null;
    }
    const failure = fail.get(c.id);
    return {
      id: c.id,
      spaceId: c.spaceId,
      spaceTitle: spaceTitles.get(c.spaceId) ?? c.spaceId,
      changeRequestId: c.changeRequestId,
      changeRequestNumber: c.changeRequestId ? (crNumbers.get(c.changeRequestId) ?? null) : null,
      pageId: c.pageId,
      pageTitle,
      author: person(c.author),
      postedAt: c.postedAt,
      markdown: c.body,
      status: c.status,
      replyCount: c.replyCount,
      reactions: c.reactions.map((r) => ({ emoji: r.emoji, count: r.count, mine: r.mine })),
      pending: c.pending,
      ...(failure ? { failure } : {}),
    };
  }

  const replyVM = (r: ReplyView, fail: Map<string, string>): ReplyVM => {
    const failure = fail.get(r.id);
    return {
      id: r.id,
      author: person(r.author),
      postedAt: r.postedAt,
      markdown: r.body,
      reactions: r.reactions.map((x) => ({ emoji: x.emoji, count: x.count, mine: x.mine })),
      pending: r.pending,
      ...(failure ? { failure } : {}),
    };
  };

  const crNumbers = () => new Map(review.changeRequests().map((cr) => [cr.id, cr.number]));

  function changeRequestVM(cr: ReturnType<ReviewService['changeRequests']>[number], reasons: AttentionReason[], spaceTitles: Map<string, string>, fail: Map<string, string>): ChangeRequestVM {
    const failure = fail.get(cr.id);
    return {
      spaceId: cr.spaceId,
      spaceTitle: spaceTitles.get(cr.spaceId) ?? cr.spaceId,
      id: cr.id,
      number: cr.number,
      subject: cr.subject,
      status: cr.status,
      outdated: cr.outdated,
      comments: cr.comments,
      createdBy: person(cr.author),
      updatedAt: cr.updatedAt ?? cr.createdAt ?? '',
      reasons,
      pending: cr.pending,
      ...(failure ? { failure } : {}),
    };
  }

  const threads = (list: CommentView[]): ThreadVM[] => {
    const spaceTitles = titles();
    const numbers = crNumbers();
    const fail = failures();
    const pageTitles = new Map<string, string | null>();
    const replies = review.repliesFor(list.map((c) => c.id));
    return list.map((c) => ({
      ...commentVM(c, spaceTitles, numbers, fail, pageTitles),
      replies: (replies.get(c.id) ?? []).map((r) => replyVM(r, fail)),
    }));
  };

  function siteVM(s: SiteTree, orgTitles: Map<string, string>): SiteVM {
    return { ...s, organizationTitle: orgTitles.get(s.organizationId) ?? null };
  }

  return {
    async sync(signal) {
      await review.sync(api, { signal });
    },
    pendingCount: () => review.actions().length,
    attention() {
      const spaceTitles = titles();
      const fail = failures();
      const me = review.me()?.id;
      const needing = new Map(review.needingUser().map((cr) => [cr.id, cr.reasons as AttentionReason[]]));
      return review
        .changeRequests({ statuses: ['open', 'draft'] })
        .map((cr) => {
          const reasons = [...(needing.get(cr.id) ?? [])];
          if (cr.author?.id === me) reasons.push('mine');
          if (reasons.length === 0) reasons.push('open');
          return changeRequestVM(cr, reasons, spaceTitles, fail);
        })
        .sort((a, b) => Number(b.reasons[0] !== 'open') - Number(a.reasons[0] !== 'open'));
    },
    comments(filter) {
      const list = review.unresolvedComments({
        ...(filter.spaceId ? { spaceId: filter.spaceId } : {}),
        ...(filter.changeRequestId ? { changeRequestId: filter.changeRequestId } : {}),
        ...(filter.authorId ? { authorId: filter.authorId } : {}),
        ...(filter.pageId ? { pageId: filter.pageId } : {}),
      });
      const text = filter.text?.trim().toLowerCase();
      const spaceTitles = titles();
      const numbers = crNumbers();
      const fail = failures();
      const pageTitles = new Map<string, string | null>();
      return list.filter((c) => !text || c.body.toLowerCase().includes(text)).map((c) => commentVM(c, spaceTitles, numbers, fail, pageTitles));
    },
    async changeRequest(spaceId, changeRequestId) {
      const cr = review.changeRequest(changeRequestId);
      if (!cr || cr.spaceId !== spaceId) {
        throw new QuireError('not-found', 'That change request is not in the mirror. Run a sync to fetch review data, then try again.');
      }
      let diff = review.changeRequestDiff(changeRequestId);
      if (!diff && online()) {
        diff = await review.loadChangeRequestDiff(api, changeRequestId).catch((e: unknown) => {
          log(`change request diff: ${describeError(e)}`);
          return null;
        });
      }
      const spaceTitles = titles();
      const fail = failures();
      const reasons: AttentionReason[] = [];
      return {
        changeRequest: changeRequestVM(cr, reasons, spaceTitles, fail),
        description: null,
        canMerge: cr.status === 'open',
        diff: (diff?.pages ?? []).map((p) => ({
          pageId: p.pageId,
          title: p.title,
          path: p.path,
          previousPath: p.previousPath,
          change: p.kind,
          before: p.before,
          after: p.after,
          linesAdded: p.linesAdded,
          linesRemoved: p.linesRemoved,
        })),
        threads: threads(review.comments({ changeRequestId, status: 'all' })),
      };
    },
    thread(spaceId, commentId) {
      const c = review.comment(commentId);
      if (!c || c.spaceId !== spaceId) throw new QuireError('not-found', 'That comment is not in the mirror any more; it may have been deleted.');
      return threads([c])[0]!;
    },
    act(input) {
      try {
        review.enqueue(input);
      } catch (e) {
        throw new QuireError('invalid-request', describeError(e));
      }
      if (online()) replayInBackground();
    },
    sites() {
      const orgTitles = new Map(mirror.catalog.organizations().map((o) => [o.id, o.title]));
      return review.siteTrees().map((s) => siteVM(s, orgTitles));
    },
    attentionIds() {
      const me = review.me()?.id;
      if (!me) return { commentsOnMyChangeRequests: [], repliesToMyComments: [] };
      const mine = new Set(review.changeRequests().filter((cr) => cr.author?.id === me).map((cr) => cr.id));
      const all = review.comments({ status: 'all', includeClosedChangeRequests: true });
      const commentsOnMyChangeRequests = all.filter((c) => c.changeRequestId && mine.has(c.changeRequestId) && c.author?.id !== me).map((c) => c.id);
      const myComments = all.filter((c) => c.author?.id === me).map((c) => c.id);
      const repliesToMyComments = [...review.repliesFor(myComments).values()].flat().filter((r) => r.author?.id !== me).map((r) => r.id);
      return { commentsOnMyChangeRequests, repliesToMyComments };
    },
  };
}

export type { ActionRecord };
