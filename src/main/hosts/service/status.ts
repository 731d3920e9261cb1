import type { StateReasonVM, SyncProgressVM, SyncStatusVM } from '../../../shared/contract';
import type { FailureKind } from '../../core/mirror';
import { type SyncFacts, syncState } from '../../core/status';
import { redactOptional } from '../../core/secrets';

const PROGRESS_EMIT_MS = 50;

/** Where the facts come from: the open folder's mirror, or null while signed out. */
export type FactsSource = () => Promise<SyncFacts | null>;

/**
 * Holds the sync status the app shows: the one sync state (core/status) computed from the
 * mirror's facts, read again whenever something may have changed them (`refresh`), and from
 * what only this process knows, a cycle running now (`setSyncing`). State changes are emitted
 * at once, progress at most every 50 ms.
 */
export class StatusHolder {
  private vm: SyncStatusVM = {
    state: 'signed-out',
    reasons: [],
    progress: null,
    paused: false,
    conflicts: 0,
    pendingActions: 0,
    editsWaiting: 0,
    lastReachedServerAt: null,
    offlineSince: null,
    message: null,
    seq: 0,
    changedAt: Date.now(),
  };
  private lastEmit = 0;
  private trailing: NodeJS.Timeout | null = null;
  private facts: SyncFacts | null = null;
  private syncing: { spaceId: string | null } | null = null;
  private source: FactsSource = async () => null;
  private listener: ((facts: SyncFacts) => void) | null = null;
  private cycleStartedAt = new Date().toISOString();
  private failure: { kind: FailureKind; message: string; since: string } | null = null;
  private pending: Promise<void> | null = null;
  private again = false;

  constructor(private readonly emit: (vm: SyncStatusVM) => void) {}

  get(): SyncStatusVM {
    return this.vm;
  }

  /** Reads the facts from here on (the service sets it once it has a folder). */
  setSource(source: FactsSource): void {
    this.source = source;
  }

  /** Told of the facts each time they are read (the sync runner follows the folder's pause). */
  onFacts(listener: (facts: SyncFacts) => void): void {
    this.listener = listener;
  }

  /** Reads the facts again and shows the state they give; resolves once shown (calls during a read run one more after it). */
  refresh(): Promise<void> {
    if (this.pending) {
      this.again = true;
      return this.pending;
    }
    this.pending = (async () => {
      do {
        this.again = false;
        let facts: SyncFacts | null;
        try {
          facts = await this.source();
        } catch {
          continue; // the mirror closed or changed meanwhile: the next refresh reads the new one
        }
        this.facts = facts;
        if (facts) this.listener?.(facts);
        this.show();
      } while (this.again);
    })().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** A cycle starts (on a space, when known) or is over: shown at once from the facts last read. */
  setSyncing(on: boolean): void {
    this.syncing = on ? { spaceId: null } : null;
    if (on) {
      this.cycleStartedAt = new Date().toISOString();
      this.failure = null;
    } else this.vm = { ...this.vm, progress: null };
    this.show();
  }

  /** The cycle that just ended failed (how, and in words): shown unless the mirror recorded it. */
  setFailure(failure: { kind: FailureKind; message: string } | null): void {
    this.failure = failure && { ...failure, since: this.cycleStartedAt };
  }

  /** Signed out: nothing to show but that. */
  signedOut(): void {
    this.facts = null;
    this.syncing = null;
    this.update({ state: 'signed-out', reasons: [], progress: null, conflicts: 0, pendingActions: 0, editsWaiting: 0, paused: false });
  }

  update(patch: Partial<Omit<SyncStatusVM, 'seq' | 'changedAt'>>): void {
    const next = { ...this.vm, ...patch };
    if (patch.message !== undefined) next.message = redactOptional(patch.message); // what the status bar shows never holds a token
    const onlyProgress = next.state === this.vm.state && Object.keys(patch).every((k) => k === 'progress');
    if (JSON.stringify(next) === JSON.stringify(this.vm)) return;
    this.vm = { ...next, seq: this.vm.seq + 1, changedAt: Date.now() };
    if (onlyProgress && Date.now() - this.lastEmit < PROGRESS_EMIT_MS) {
      this.trailing ??= setTimeout(() => this.flush(), PROGRESS_EMIT_MS);
      return;
    }
    this.flush();
  }

  /** Progress of the running cycle (which space it is on shows in that space's state). */
  progress(progress: SyncProgressVM | null): void {
    if (this.syncing && progress?.spaceId !== undefined && progress.spaceId !== this.syncing.spaceId) {
      this.syncing = { spaceId: progress.spaceId };
    }
    this.update({ progress });
  }

  private show(): void {
    const facts = this.facts;
    if (!facts) {
      if (this.vm.state !== 'signed-out') this.signedOut();
      return;
    }
    const s = syncState(facts, { syncing: this.syncing !== null, failure: this.failure });
    this.update({
      state: s.state,
      reasons: s.reasons as StateReasonVM[],
      paused: facts.pausedSince !== null,
      conflicts: facts.spaces.reduce((n, sp) => n + sp.conflicts.length, 0),
      pendingActions: s.actionsWaiting,
      editsWaiting: s.editsWaiting,
      lastReachedServerAt: s.lastReachedServerAt,
      offlineSince: s.offlineSince,
    });
  }

  /** The space the running cycle is on, if one runs. */
  syncingSpace(): { spaceId: string | null } | null {
    return this.syncing;
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
