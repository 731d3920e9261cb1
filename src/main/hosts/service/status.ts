import type { SyncStatusVM } from '../../../shared/contract';
import { redactOptional } from '../../core/secrets';

const PROGRESS_EMIT_MS = 50;

/** Holds the sync status, emitting state changes at once and progress at most every 50 ms. */
export class StatusHolder {
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
