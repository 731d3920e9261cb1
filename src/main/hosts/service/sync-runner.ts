import type { SyncProgressVM, SyncStatusVM } from '../../../shared/contract';
import { CancelledError } from '../../core/api';
import { type CycleReport, describeMassDelete, SyncEngine, type SyncProgress } from '../../core/sync';
import { describeError, toQuireError } from './errors';
import { needApi, spaceTitle, type ServiceState } from './state';
import type { HandlersFor } from './types';

/** Runs sync cycles one at a time, on request and on a timer, and keeps the sync status. */
export interface SyncRunner {
  /** Starts a cycle, or asks for one more after the running one; resolves when none is left to run. */
  request(): Promise<void>;
  /** The running cycles, if any. */
  running(): Promise<void> | null;
  /** (Re)starts the automatic-sync timer for the current session and pause state. */
  schedule(): void;
  stopTimer(): void;
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
  if (held.length === 0) return null;
  return `${held.join(' ')} Restore the files (Open folder, under Spaces), then choose Sync now. To delete that much on purpose, run \`quire sync --once --allow-deletes\` in a terminal.`;
}

export function createSyncRunner(state: ServiceState): SyncRunner {
  const { status, options } = state;
  let cycle: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

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

  async function runCycle(): Promise<void> {
    const client = state.api;
    if (!client || state.stopping) return;
    status.update({ state: 'syncing', progress: null, message: null });
    try {
      const engine = new SyncEngine({ api: client, mirror: state.mirror, root: state.folder, spaces: 'selected', onProgress, signal: state.abort.signal });
      const report = await engine.runCycle();
      if (state.review) {
        status.update({ progress: { phase: 'review', spaceId: null, spaceTitle: null, done: 0, total: 1 } });
        await state.review.sync();
      }
      status.update({ ...idleState(), lastCycleAt: new Date().toISOString(), message: heldMessage(report) });
    } catch (e) {
      if (e instanceof CancelledError || state.stopping) {
        status.update({ ...idleState() });
        return;
      }
      const err = toQuireError(e, 'sync');
      const failed = err.code === 'token-rejected' ? 'token-rejected' : err.code === 'offline' ? 'offline' : 'error';
      const message =
        failed === 'offline'
          ? 'Offline: the API cannot be reached. Your edits and review actions are kept and sent when it is back.'
          : failed === 'token-rejected'
            ? 'The API rejected your token. Sign out and sign in with a new token.'
            : `Sync failed: ${describeError(e)}`;
      state.mirror.log.add(failed === 'offline' ? 'retry' : 'error', message);
      status.update({ ...idleState(), state: failed, message });
      state.log(`sync: ${describeError(e)}`);
    } finally {
      state.events.changed('catalog', 'conflicts', 'log', 'review', 'sites', 'history');
    }
  }

  function request(): Promise<void> {
    if (cycle) {
      again = true;
      return cycle;
    }
    cycle = (async () => {
      do {
        again = false;
        await runCycle();
      } while (again && !state.stopping && !status.get().paused);
    })().finally(() => {
      cycle = null;
    });
    return cycle;
  }

  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };

  const schedule = () => {
    stopTimer();
    const every = options.syncIntervalMs ?? 60_000;
    if (every > 0 && state.token && !status.get().paused) timer = setInterval(() => void request(), every);
  };

  return {
    request,
    running: () => cycle,
    schedule,
    stopTimer,
    idleState,
    settled,
    handlers: {
      'sync.status': () => status.get(),
      'sync.now': () => {
        needApi(state);
        if (status.get().paused) status.update({ paused: false });
        void request();
        return status.get();
      },
      'sync.setPaused': ({ paused }) => {
        status.update({ paused, ...(paused && status.get().state !== 'syncing' ? { state: 'paused' as const } : {}) });
        if (!paused) status.update(state.token ? idleState() : settled());
        schedule();
        return status.get();
      },
    },
  };
}
