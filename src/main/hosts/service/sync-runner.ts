/**
 * The app's sync: continuous sync as the core composes it for every host (core/continuous: the
 * scheduler `quire sync` runs too, each cycle holding the folder's lock, review on its cadence)
 * over the open folder and session — a save is pushed as soon as the watcher sees it settle, the
 * server is polled every interval, Sync now and Pause act on it. This module turns what happens
 * into the sync status the views show.
 */
import { QuireError, type SyncProgressVM } from '../../../shared/contract';
import { API_URL_META } from '../../core/api';
import { type Connection, continuousSync, type SyncFailure } from '../../core/continuous';
import { describeHolder, explainStorageError, Mirror, withFolderLock } from '../../core/mirror';
import { BACK_ONLINE, type ContinuousSync, type SyncProgress } from '../../core/sync';
import { pausedSince, setPaused } from '../../core/status';
import { describeError, toQuireError } from './errors';
import { connectCore, needApi, noteGivenAddress, spaceTitle, type ServiceState } from './state';
import type { HandlersFor } from './types';

/** Runs sync cycles one at a time, on request, on edits and on a timer, and keeps the sync status. */
export interface SyncRunner {
  /** Runs a cycle now, or right after the running one; resolves once it has run. */
  request(): Promise<void>;
  /** The running cycles, if any. */
  running(): Promise<void> | null;
  /** (Re)starts continuous sync for the current folder, session and pause state; resolves once it has started. */
  schedule(): Promise<void>;
  /** Stops continuous sync; resolves once a running cycle has finished. */
  halt(): Promise<void>;
  /**
   * Runs `fn` holding the folder's lock as the cycles do: after a running cycle (of this app or
   * of another Quire on the folder) has finished, and with none starting until `fn` is done.
   * For what writes into the folder outside a cycle (a history restore).
   */
  holdingFolder<T>(what: string, fn: () => Promise<T>): Promise<T>;
  /** Shows a line in the status bar through the next cycle (a damaged mirror set aside), instead of the next cycle clearing it. */
  announce(notice: string): void;
  /** Runs a cycle now for a space just chosen (its first sync starts at once, not at the next interval). */
  chosen(): void;
  handlers: HandlersFor<'sync.status' | 'sync.now' | 'sync.setPaused' | 'sync.allowDeletes'>;
}

export function createSyncRunner(state: ServiceState): SyncRunner {
  const { status, options } = state;
  const every = options.syncIntervalMs ?? 60_000;
  const command = options.host.kind === 'electron' ? 'the Quire app' : 'quire ui';
  let scheduler: ContinuousSync | null = null;
  /** Starts and stops happen one after another. */
  let changing: Promise<void> = Promise.resolve();
  /** The next cycle was asked for by the user: refresh review too, whatever the cadence says. */
  let userAsked = false;
  /** A line that stays in the status bar until a cycle has run with it shown. */
  let notice: string | null = null;
  /** Deletes the writer let through by name (the banner's "Let the deletes through"), for the next cycle only. */
  let allowDeletes: Map<string, Set<string>> | null = null;

  const refresh = () => void status.refresh();
  // The pause is the folder's: when another host resumed it (`quire sync`) or paused it, follow.
  status.onFacts((facts) => {
    if (!scheduler) return;
    if (facts.pausedSince === null && scheduler.paused) scheduler.resume();
    else if (facts.pausedSince !== null && !scheduler.paused) scheduler.pause();
  });

  const onProgress = (p: SyncProgress) => {
    const progress: SyncProgressVM = {
      phase: p.phase,
      spaceId: p.spaceId ?? null,
      spaceTitle: p.spaceTitle ?? spaceTitle(state, p.spaceId),
      done: p.done,
      total: p.total,
    };
    status.progress(progress);
  };

  /** A lock file Quire could not use was replaced: said in the log and the status bar. */
  const lockNotice = (line: string) => {
    state.log(line);
    announce(line);
  };

  /** The folder's lock as the cycles take it: waiting for its turn, however long, until the app stops. */
  function holdingFolder<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return withFolderLock(
      state.folder,
      {
        command: `${command}, ${what}`,
        waitMs: Number.POSITIVE_INFINITY,
        signal: state.abort.signal,
        onNotice: lockNotice,
        onWait: (holder) => state.log(`Waiting for ${describeHolder(holder)} to finish with this folder before ${what}.`),
      },
      fn,
    );
  }

  /** As each cycle starts: the session's client and review, and whether the user asked for it. */
  function connect(): Connection {
    const api = needApi(state);
    // One API address per folder: whichever host syncs it remembers it, for the CLI too (`quire status`, `quire comment`).
    if (state.mirror.catalog.getMeta(API_URL_META) !== state.apiUrl) state.mirror.catalog.setMeta(API_URL_META, state.apiUrl);
    // The token the host was started with goes only to the address it came with (openState): that address was given.
    if (state.options.token && state.token === state.options.token) noteGivenAddress(state);
    const refreshReview = userAsked;
    userAsked = false;
    // Signed in, the review adapter is there (connectCore builds both).
    const allowed = allowDeletes;
    allowDeletes = null;
    return { api, review: state.review!.core.review, refreshReview, ...(allowed ? { allowDeletes: allowed } : {}) };
  }

  function failed(e: unknown, failure: SyncFailure): boolean {
    status.setSyncing(false);
    // Still offline (cycles are tried every few seconds): nothing new to say but the state.
    if (failure.kind === 'offline' && failure.again) {
      status.setFailure({ kind: 'offline', message: describeError(e) });
      refresh();
      return false;
    }
    state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
    if (failure.kind === 'cancelled') {
      refresh();
      return false;
    }
    if (failure.kind === 'repaired') {
      announce(failure.lines.join(' '));
      refresh();
      return false;
    }
    if (failure.kind === 'corrupt') {
      void setAsideCorruptMirror(e);
      return false;
    }
    const err = toQuireError(e, 'sync', state.folder);
    const plain = describeError(explainStorageError(e, state.folder));
    if (failure.kind === 'offline') {
      status.setFailure({ kind: 'offline', message: plain });
      state.log(`sync: ${describeError(e)}`);
      refresh();
      return false;
    }
    const message = err.code === 'token-rejected' ? `The API rejected the token (${plain}).` : `Sync failed: ${plain}`;
    status.setFailure({ kind: err.code === 'token-rejected' ? 'token-rejected' : 'error', message: plain });
    state.mirror.recordingFailure(e, () => logLine('error', message));
    // The engine recorded the failed attempt in the mirror: the state (offline, a rejected token, a failed sync) comes
    // from there. A failure it may not have been able to record (the mirror itself failing) is also said beside it.
    if (err.code !== 'token-rejected') status.update({ message });
    refresh();
    state.log(`sync: ${describeError(e)}`);
    return false;
  }

  function logLine(kind: 'error' | 'info', line: string): void {
    try {
      state.mirror.log.add(kind, line);
    } catch {
      // The mirror itself may be what failed (a full disk, another writer): the line beside the state says so.
    }
  }

  /** The mirror turned out damaged mid-cycle: keep it aside, carry on with a fresh one. */
  async function setAsideCorruptMirror(e: unknown): Promise<void> {
    await halt();
    const moved = Mirror.setAsideAfter(state.mirror, state.folder, e);
    state.mirror = Mirror.open(state.folder, { ifCorrupt: 'set-aside' });
    connectCore(state);
    announce(moved.notice);
    await status.refresh();
    state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
    await schedule();
  }

  const build = (): ContinuousSync =>
    continuousSync({
      mirror: state.mirror,
      root: state.folder,
      connect,
      spaces: 'selected',
      command,
      // 0: no automatic cycles (tests drive them); otherwise the watcher and the interval.
      intervalMs: every,
      paused: pausedSince(state.mirror) !== null,
      signal: state.abort.signal,
      stopping: () => state.stopping,
      words: {
        progress: onProgress,
        cycleStart: () => {
          status.update({ progress: null, message: notice });
          status.setSyncing(true);
        },
        waiting: (holder) => status.update({ message: `Waiting for ${describeHolder(holder)} to finish with this folder…` }),
        lockNotice,
        cycled: (report) => {
          if (report.repaired) announce(report.repaired.join(' '));
        },
        reviewing: () => status.progress({ phase: 'review', spaceId: null, spaceTitle: null, done: 0, total: 1 }),
        reviewed: (report) => state.review?.reviewed(report),
        followed: (report) => state.review?.followed(report),
        report: (_report, backOnline) => {
          if (backOnline) logLine('info', BACK_ONLINE);
          status.setSyncing(false);
          status.update({ message: notice });
          notice = null;
          refresh();
          state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
        },
        recorded: refresh,
        failed,
      },
    });

  function announce(text: string): void {
    notice = text;
    status.update({ message: text });
  }

  function halt(): Promise<void> {
    changing = changing.then(async () => {
      const old = scheduler;
      scheduler = null;
      await old?.stop();
    });
    return changing;
  }

  function schedule(): Promise<void> {
    void halt();
    changing = changing.then(async () => {
      if (!state.token || state.stopping) return;
      scheduler = build();
      // Automatic: a first cycle now, then the watcher. Otherwise cycles run only when asked for.
      if (every > 0) await scheduler.start();
    });
    return changing;
  }

  async function request(): Promise<void> {
    await changing;
    if (!scheduler && state.token && !state.stopping) await schedule();
    await scheduler?.syncNow();
  }

  return {
    request,
    running: () => scheduler?.running() ?? null,
    holdingFolder,
    schedule,
    halt,
    announce,
    chosen: () => {
      if (!state.token || pausedSince(state.mirror) !== null) return;
      userAsked = true; // its change requests and comments too, not at the review cadence
      void request();
    },
    handlers: {
      'sync.status': () => status.get(),
      'sync.now': async () => {
        needApi(state);
        if (pausedSince(state.mirror) !== null) {
          setPaused(state.mirror, false);
          scheduler?.resume();
        }
        userAsked = true;
        void request();
        await status.refresh();
        return status.get();
      },
      'sync.allowDeletes': async ({ spaceId, pageIds }) => {
        needApi(state);
        const hold = state.mirror.outbox.hold(spaceId);
        const held = new Set([...(hold?.deletes.server ?? []), ...(hold?.deletes.here ?? [])]);
        const named = pageIds.filter((id) => held.has(id));
        if (named.length === 0) throw new QuireError('not-found', 'No mass-delete stop holds those pages any more: the state shows what is held now.');
        allowDeletes = new Map([[spaceId, new Set(named)]]);
        userAsked = true;
        await request();
        await status.refresh();
        return status.get();
      },
      'sync.setPaused': async ({ paused }) => {
        // The folder records it: every host opening the folder (and \`quire status\`) sees it paused.
        setPaused(state.mirror, paused);
        if (paused) scheduler?.pause();
        else scheduler?.resume();
        await status.refresh();
        state.events.changed('catalog');
        return status.get();
      },
    },
  };
}
