/**
 * The app's sync: the core's ContinuousSync (the scheduler `quire sync` runs too) over the open
 * folder and session — a save is pushed as soon as the watcher sees it settle, the server is
 * polled every interval, Sync now and Pause act on it. Each cycle holds the folder's lock
 * (waiting for its turn when the CLI is syncing the same folder); review is refreshed on the
 * same cadence as the CLI's. This module turns what happens into the sync status the views show.
 */
import { pushGuard } from '../../core/check';
import type { SyncProgressVM, SyncStatusVM } from '../../../shared/contract';
import { CancelledError } from '../../core/api';
import { describeHolder, explainStorageError, isCorruptionError, Mirror, withFolderLock } from '../../core/mirror';
import {
  ContinuousSync,
  OwnWrites,
  type CycleReport,
  type CycleRequest,
  describeMassDelete,
  describeMissingFolder,
  describeNotPushed,
  describeUnreadable,
  SyncEngine,
  type SyncProgress,
} from '../../core/sync';
import { describeError, toQuireError } from './errors';
import { connectCore, needApi, spaceTitle, type ServiceState } from './state';
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
  /** The status fields for "not syncing right now". */
  idleState(): Partial<SyncStatusVM>;
  /** `idleState` when signed in, the signed-out status otherwise. */
  settled(): Partial<SyncStatusVM>;
  handlers: HandlersFor<'sync.status' | 'sync.now' | 'sync.setPaused'>;
}

/**
 * The mass-delete fail-safe stopped spaces: what it would have deleted, and what the app offers.
 * The app has no switch to let such a sync through on purpose; the command line has one.
 */
function heldMessage(report: CycleReport): string | null {
  const held = report.spaces.flatMap((s) => (s.held ? [describeMassDelete(s.held, s)] : []));
  if (held.length > 0) {
    return `${held.join(' ')} Restore the files (Open folder, under Spaces), then choose Sync now. To delete that much on purpose, run \`quire sync --once --allow-deletes\` in a terminal.`;
  }
  // What else the cycle left for the writer, said as the CLI says it (first few, then a count).
  const lines = report.spaces.flatMap((s) => [
    ...(s.missingFolder ? [describeMissingFolder(s)] : []),
    ...s.unreadable.map((u) => `${s.title}: ${describeUnreadable(u)}`),
    ...s.notPushed.map((h) => `${s.title}: ${describeNotPushed(h)}`),
  ]);
  if (lines.length === 0) return null;
  return lines.length <= 3 ? lines.join(' ') : `${lines.slice(0, 3).join(' ')} And ${lines.length - 3} more like these.`;
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
  /** What the cycles wrote, so the watcher does not take it for saves (shared by the engine and ContinuousSync). */
  const ownWrites = new OwnWrites();
  /** A line that stays in the status bar until a cycle has run with it shown. */
  let notice: string | null = null;

  const idleState = (): Partial<SyncStatusVM> => {
    const conflicts = state.mirror.content.conflicts().length;
    return {
      state: status.get().paused ? 'paused' : conflicts > 0 ? 'conflicts' : 'idle',
      conflicts,
      pendingActions: state.review?.pendingCount() ?? 0,
      progress: null,
    };
  };

  const settled = (): Partial<SyncStatusVM> =>
    state.token ? { ...idleState() } : { state: 'signed-out' as const, progress: null, conflicts: 0, pendingActions: 0 };

  const onProgress = (p: SyncProgress) => {
    const progress: SyncProgressVM = {
      phase: p.phase,
      spaceId: p.spaceId ?? null,
      spaceTitle: p.spaceTitle ?? spaceTitle(state, p.spaceId),
      done: p.done,
      total: p.total,
    };
    status.update({ progress });
  };

  /** The folder's lock as this app takes it: waiting for its turn, however long, until the app stops. */
  const folderLock = (what: string) => ({
    command: what,
    waitMs: Number.POSITIVE_INFINITY,
    signal: state.abort.signal,
    // A lock file Quire could not use was replaced: said in the log and the status bar.
    onNotice: (line: string) => {
      state.log(line);
      announce(line);
    },
  });

  function holdingFolder<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return withFolderLock(
      state.folder,
      {
        ...folderLock(`${command}, ${what}`),
        onWait: (holder) => state.log(`Waiting for ${describeHolder(holder)} to finish with this folder before ${what}.`),
      },
      fn,
    );
  }

  async function runCycle(request: CycleRequest): Promise<CycleReport> {
    const client = needApi(state);
    const force = userAsked;
    userAsked = false;
    const engine = new SyncEngine({
      api: client,
      mirror: state.mirror,
      root: state.folder,
      spaces: 'selected',
      onProgress,
      signal: state.abort.signal,
      pushGuard,
      ownWrites,
    });
    const report = await withFolderLock(
      state.folder,
      {
        ...folderLock(command),
        onWait: (holder) => status.update({ message: `Waiting for ${describeHolder(holder)} to finish with this folder…` }),
      },
      () => engine.runCycle(request),
    );
    if (report.repaired) announce(report.repaired.join(' '));
    if (state.review) {
      status.update({ progress: { phase: 'review', spaceId: null, spaceTitle: null, done: 0, total: 1 } });
      // The spaces this cycle pushed into: their change requests are listed at once (the writer's own included).
      const pushedTo = report.spaces.filter((s) => s.push?.changeRequest).map((s) => s.spaceId);
      await state.review.afterCycle(state.abort.signal, force, pushedTo);
    }
    return report;
  }

  function onError(e: unknown): boolean {
    state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
    if (e instanceof CancelledError || (e as Error)?.name === 'AbortError' || state.stopping) {
      status.update({ ...idleState() });
      return false;
    }
    // Search or history damaged outside a cycle (a review refresh): made again, and the next cycle runs as usual.
    const repaired = state.mirror.repairAfter(e);
    if (repaired) {
      announce(repaired.join(' '));
      status.update({ ...idleState(), message: notice });
      return false;
    }
    if (isCorruptionError(e)) {
      void setAsideCorruptMirror(e);
      return false;
    }
    const err = toQuireError(e, 'sync', state.folder);
    const failed = err.code === 'token-rejected' ? 'token-rejected' : err.code === 'offline' ? 'offline' : 'error';
    const message =
      failed === 'offline'
        ? 'Offline: the API cannot be reached. Your edits and review actions are kept and sent when it is back.'
        : failed === 'token-rejected'
          ? 'The API rejected your token. Sign out and sign in with a new token.'
          : `Sync failed: ${describeError(explainStorageError(e, state.folder))}`;
    try {
      state.mirror.log.add(failed === 'offline' ? 'retry' : 'error', message);
    } catch {
      // The mirror itself may be what failed (a full disk, another writer): the status bar says so.
    }
    status.update({ ...idleState(), state: failed, message });
    state.log(`sync: ${describeError(e)}`);
    return false;
  }

  /** The mirror turned out damaged mid-cycle: keep it aside, carry on with a fresh one. */
  async function setAsideCorruptMirror(e: unknown): Promise<void> {
    await halt();
    const moved = Mirror.setAsideAfter(state.mirror, state.folder, e);
    state.mirror = Mirror.open(state.folder, { ifCorrupt: 'set-aside' });
    connectCore(state);
    status.update(settled());
    announce(moved.notice);
    state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
    await schedule();
  }

  const build = (): ContinuousSync =>
    new ContinuousSync({
      mirror: state.mirror,
      root: state.folder,
      runCycle,
      ownWrites,
      // 0: no automatic cycles (tests drive them); otherwise the watcher and the interval.
      intervalMs: every,
      paused: status.get().paused,
      signal: state.abort.signal,
      onCycleStart: () => status.update({ state: 'syncing', progress: null, message: notice }),
      onReport: (report) => {
        status.update({ ...idleState(), lastCycleAt: new Date().toISOString(), message: heldMessage(report) ?? notice });
        notice = null;
        state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
      },
      onError,
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
    idleState,
    settled,
    handlers: {
      'sync.status': () => status.get(),
      'sync.now': () => {
        needApi(state);
        if (status.get().paused) {
          status.update({ paused: false });
          scheduler?.resume();
        }
        userAsked = true;
        void request();
        return status.get();
      },
      'sync.setPaused': ({ paused }) => {
        status.update({ paused, ...(paused && status.get().state !== 'syncing' ? { state: 'paused' as const } : {}) });
        if (paused) scheduler?.pause();
        else scheduler?.resume();
        if (!paused) status.update(state.token ? idleState() : settled());
        return status.get();
      },
    },
  };
}
