/**
 * Continuous sync as every host runs it (`quire sync`, the desktop app, the web host): the
 * engine, told of what it writes so the watcher does not take it for saves; the scheduler
 * (core/sync's ContinuousSync); each cycle holding the folder's lock, waiting for its turn;
 * review after each cycle on its cadence, then the folder's checkouts brought up to date; the
 * mirror's derived data made again when it is damaged; and what a failure is (cancelled,
 * offline, offline again, a damaged mirror…). The host says it in its own words (`words`).
 */
import { type ApiClient, CancelledError } from '../api';
import { pushGuard } from '../check';
import { isCorruptionError, type LockHolder, type Mirror, withFolderLock } from '../mirror';
import { type CadenceReport, type FollowReport, followCheckouts, ReviewCadence, type ReviewService } from '../review';
import {
  ContinuousSync,
  type CycleReport,
  type CycleRequest,
  describeOffline,
  failureKind,
  OwnWrites,
  recordAttemptFailed,
  type SpaceChoice,
  SyncEngine,
  type SyncProgress,
} from '../sync';

/** What a failure of a cycle, of the review after it or of the watcher was, for the host to word. */
export type SyncFailure =
  /** Stopping (the signal aborted, or the host is stopping): nothing to say. */
  | { kind: 'cancelled' }
  /** Search or history was damaged and is made again (`lines` say so); the next cycle runs as usual. */
  | { kind: 'repaired'; lines: string[] }
  /** The mirror's own tables are damaged: the host sets it aside. */
  | { kind: 'corrupt' }
  /** The API cannot be reached; `again`: the failure before was this one too (said already). Cycles are tried every few seconds. */
  | { kind: 'offline'; again: boolean }
  | { kind: 'token-rejected' }
  | { kind: 'error' };

/** What continuous sync tells its host, to show or say in the host's words. */
export interface ContinuousWords {
  /** A cycle's progress. */
  progress?(p: SyncProgress): void;
  /** A cycle is about to run. */
  cycleStart?(): void;
  /** Another process holds the folder: the cycle waits for its turn. */
  waiting(holder: LockHolder | null): void;
  /** A line about the folder's lock (a lock file Quire could not use was replaced). */
  lockNotice(line: string): void;
  /** The cycle ran; review follows. */
  cycled?(report: CycleReport): void;
  /** Review after the cycle starts. */
  reviewing?(): void;
  /** What review after the cycle did; null: it failed (its error comes to `failed` next). The last call holds. */
  reviewed?(report: CadenceReport | null): void;
  /** The folder's checkouts of change requests were brought to their latest revision. */
  followed?(report: FollowReport): void;
  /** A cycle and the review after it are done; `backOnline`: the one before could not reach the API. */
  report(report: CycleReport, backOnline: boolean): void;
  /** A cycle, the review after it or the watcher failed; true stops continuous sync (`done` rejects with `err`). */
  failed(err: unknown, failure: SyncFailure): boolean;
  /** The watcher saw an edit and it was recorded in the mirror. */
  recorded?(): void;
}

/** The client, and the review, a cycle runs with. */
export interface Connection {
  api: ApiClient;
  review: ReviewService;
  /** The user asked for this cycle: review is refreshed whatever its cadence says. */
  refreshReview?: boolean;
  /** Held deletes the writer let through by name, by space, for this cycle only. */
  allowDeletes?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface ContinuousOptions {
  mirror: Mirror;
  /** The sync folder. */
  root: string;
  /** Asked as each cycle starts (a host's session may change between cycles); one engine per client, one cadence per review. */
  connect: () => Connection;
  spaces: SpaceChoice;
  allowMassDelete?: boolean;
  /** Who holds the folder's lock during a cycle, as others are told ('quire sync', 'the Quire app'). */
  command: string;
  /** Time between cycles when nothing happens locally. 0: no timer (cycles run when asked for). */
  intervalMs: number;
  /** Start paused (edits are recorded, no cycle runs until resumed or asked for). */
  paused?: boolean;
  signal: AbortSignal;
  /** The host is stopping: a failure now is taken as a cancel. */
  stopping?: () => boolean;
  words: ContinuousWords;
}

/** Continuous sync of one folder, composed; the host starts, pauses, resumes, asks for and stops it. */
export function continuousSync(options: ContinuousOptions): ContinuousSync {
  const { mirror, root, signal, words } = options;
  // What the cycles wrote, so the watcher does not take it for saves (shared by the engine and the scheduler).
  const ownWrites = new OwnWrites();
  const engineFor = keyed(
    (api: ApiClient) =>
      new SyncEngine({
        api,
        mirror,
        root,
        spaces: options.spaces,
        onProgress: words.progress,
        signal,
        pushGuard,
        ownWrites,
        allowMassDelete: options.allowMassDelete,
      }),
  );
  const cadenceFor = keyed((review: ReviewService) => new ReviewCadence(review));
  /** The last cycle could not reach the API: said once, not at each retry (they come every few seconds). */
  let offline = false;
  const cancelled = (err: unknown) => signal.aborted || err instanceof CancelledError || (err as Error)?.name === 'AbortError' || options.stopping?.() === true;

  async function runCycle(request: CycleRequest): Promise<CycleReport> {
    const { api, review, refreshReview, allowDeletes } = options.connect();
    const engine = engineFor(api);
    // Waits for its turn, however long, when another process is syncing the folder.
    const report = await withFolderLock(
      root,
      { command: options.command, waitMs: Number.POSITIVE_INFINITY, signal, onWait: words.waiting, onNotice: words.lockNotice },
      () => engine.runCycle(allowDeletes ? { ...request, allowDeletes } : request),
    );
    words.cycled?.(report);
    words.reviewing?.();
    try {
      // The spaces this cycle pushed into: their change requests are listed at once (the writer's own included).
      const pushedTo = report.spaces.filter((s) => s.push?.changeRequest).map((s) => s.spaceId);
      words.reviewed?.(await cadenceFor(review).afterCycle(api, { signal, force: refreshReview, pushedTo }));
      if (mirror.checkouts.list().length > 0) words.followed?.(await followCheckouts(api, mirror, signal));
    } catch (err) {
      words.reviewed?.(null);
      // The API went away (or rejected the token) after the cycle reached it: that is the last attempt now.
      if (!cancelled(err))
        recordAttemptFailed(
          mirror,
          mirror.catalog.selectedSpaces().map((s) => s.id),
          err,
        );
      throw err;
    }
    return report;
  }

  /** What `err` was; the mirror's derived data made again when that is what failed. */
  function failure(err: unknown): SyncFailure {
    if (cancelled(err)) return { kind: 'cancelled' };
    // Search or history damaged outside a cycle (a review refresh): made again, and the next cycle runs as usual.
    const repaired = mirror.repairAfter(err);
    if (repaired) return { kind: 'repaired', lines: repaired };
    if (isCorruptionError(err)) return { kind: 'corrupt' };
    const kind = failureKind(err);
    if (kind === 'offline') {
      const again = offline;
      offline = true;
      if (!again) logLine(mirror, describeOffline(err));
      return { kind, again };
    }
    offline = false;
    return { kind };
  }

  return new ContinuousSync({
    mirror,
    root,
    ownWrites,
    runCycle,
    intervalMs: options.intervalMs,
    paused: options.paused,
    signal,
    onCycleStart: () => words.cycleStart?.(),
    onReport: (report) => {
      const backOnline = offline;
      offline = false;
      words.report(report, backOnline);
    },
    onRecorded: () => words.recorded?.(),
    onError: (err) => words.failed(err, failure(err)),
  });
}

/** Going offline, in the folder's log (the mirror itself may be what failed: the host says it beside). */
function logLine(mirror: Pick<Mirror, 'log'>, line: string): void {
  try {
    mirror.log.add('retry', line);
  } catch {
    // The mirror itself may be what failed (a full disk, another writer): the host's words say so.
  }
}

/** `make(key)`, made again only when the key changes. */
function keyed<K, V>(make: (key: K) => V): (key: K) => V {
  let last: { key: K; value: V } | null = null;
  return (key) => {
    if (last === null || last.key !== key) last = { key, value: make(key) };
    return last.value;
  };
}
