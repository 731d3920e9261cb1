import { CancelledError } from './errors';
import type { RateLimitInfo } from './rate-limit-headers';

/** Wait this long past an announced reset so a request never lands in the window that is ending. */
const RESET_GRACE_MS = 25;
const DEFAULT_MAX_HOLD_MS = 60_000;
/** Seconds-from-now resets are whole seconds: answers from one window can disagree by up to this much. */
const RELATIVE_TOLERANCE_MS = 1000;

/** What we believe about the server's current rate-limit window. */
type Window =
  | { kind: 'known'; remaining: number; resetAt: number }
  /** The known window ended at `after`: send one probe and wait for its answer to learn the new budget. */
  | { kind: 'next'; after: number; probed: boolean };

export interface Permit {
  /** Call exactly once when the attempt is over, with the answer's rate-limit headers if any. */
  release(info?: RateLimitInfo): void;
}

export interface PacerOptions {
  concurrency: number;
  now: () => number;
  /**
   * The longest the queue is ever held (a request's deadline): a reset announced further off, or
   * a longer Retry-After, is not believed (past Node's timer limit a hold would fire at once, again
   * and again). Default 60 000.
   */
  maxHoldMs?: number;
  /** Called when the queue is held back for the rate limit, with the planned wait. */
  onHold?: (delayMs: number) => void;
}

interface Waiter {
  /** Counts against the API's rate limit (false for downloads from another host). */
  budgeted: boolean;
  /** For work run behind other work. */
  behind: boolean;
  grant(): void;
}

/**
 * While other work's requests wait, one in this many sent may be of work run behind it (one of
 * its requests at a time): review beside a pull takes an eighth of the requests, where it needs
 * them, and its few dependent ones do not wait for the pull's last page.
 */
const BEHIND_SHARE = 8;

/**
 * Admits requests in FIFO order (those of work run behind other work in their own queue, `later`,
 * one in BEHIND_SHARE while others wait): at most `concurrency` in flight, and, once the server has told us its
 * rate limit, never more than its remaining budget per window. While the budget is ample relative to
 * demand (in flight + queued) requests go out at once; when it gets short, the rest of the budget is
 * spread evenly until the reset, so we neither hit 429 nor burst and then stall. Before any header is
 * seen only the concurrency limit applies; after a reset, one probe learns the new window's budget.
 */
export class Pacer {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private readonly later: Waiter[] = [];
  private behindInFlight = 0;
  /** Requests sent for other work since the last one for work behind it. */
  private sinceBehind = 0;
  private window: Window | undefined;
  private blockedUntil = 0;
  private lastDispatchAt: number | undefined;
  private timer: { at: number; handle: ReturnType<typeof setTimeout> } | undefined;
  private heldSince: number | undefined;
  private heldTotal = 0;

  constructor(private readonly options: PacerOptions) {
    if (!(options.concurrency >= 1)) throw new RangeError('concurrency must be at least 1');
  }

  /** Wall-clock time the queue has spent held back by the rate limit. */
  get heldMs(): number {
    const current = this.heldSince === undefined ? 0 : this.options.now() - this.heldSince;
    return this.heldTotal + current;
  }

  /**
   * Resolves when the request may go out; rejects with CancelledError if `signal` aborts first.
   * `behind`: work run behind other work, which goes one in BEHIND_SHARE while the other's wait.
   */
  acquire(signal: AbortSignal, budgeted: boolean, behind = false): Promise<Permit> {
    if (signal.aborted) return Promise.reject(new CancelledError());
    const queue = behind ? this.later : this.queue;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(new CancelledError());
        this.pump();
      };
      const waiter: Waiter = {
        budgeted,
        behind,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.permit(behind));
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      this.pump();
    });
  }

  /** A 429 arrived: spend nothing more in this window and, given Retry-After, hold everything that long. */
  noteThrottled(retryAfterMs: number | undefined): void {
    if (this.window?.kind === 'known') this.window.remaining = 0;
    if (retryAfterMs !== undefined) {
      this.blockedUntil = Math.max(this.blockedUntil, this.options.now() + Math.min(retryAfterMs, this.maxHoldMs));
    }
  }

  private get maxHoldMs(): number {
    return this.options.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
  }

  private permit(behind: boolean): Permit {
    let released = false;
    return {
      release: (info) => {
        if (released) return;
        released = true;
        this.inFlight--;
        if (behind) this.behindInFlight--;
        if (info) this.observe(info);
        this.pump();
      },
    };
  }

  private pump(): void {
    while (this.waiting > 0 && this.inFlight < this.options.concurrency) {
      const from = this.nextQueue();
      const head = from[0]!;
      const now = this.options.now();
      const delay = head.budgeted ? this.budgetDelay(now) : 0;
      if (delay > 0) {
        this.hold(now, delay);
        return;
      }
      from.shift();
      this.dispatch(head, now);
    }
    if (this.waiting === 0) this.stopHolding(this.options.now());
  }

  private get waiting(): number {
    return this.queue.length + this.later.length;
  }

  /** Where the next request comes from: other work's queue, but for one in BEHIND_SHARE. */
  private nextQueue(): Waiter[] {
    if (this.later.length === 0) return this.queue;
    if (this.queue.length === 0) return this.later;
    return this.behindInFlight === 0 && this.sinceBehind >= BEHIND_SHARE ? this.later : this.queue;
  }

  private dispatch(waiter: Waiter, now: number): void {
    this.stopHolding(now);
    this.inFlight++;
    if (waiter.behind) {
      this.behindInFlight++;
      this.sinceBehind = 0;
    } else this.sinceBehind++;
    if (waiter.budgeted) {
      this.lastDispatchAt = now;
      if (this.window?.kind === 'known') this.window.remaining--;
      if (this.window?.kind === 'next') this.window.probed = true;
    }
    waiter.grant();
  }

  /** How long the next budgeted request must wait; Infinity means "until an in-flight answer tells us more". */
  private budgetDelay(now: number): number {
    if (this.blockedUntil > now) return this.blockedUntil - now;
    let w = this.window;
    if (w?.kind === 'known' && now >= w.resetAt + RESET_GRACE_MS) {
      w = this.window = { kind: 'next', after: w.resetAt, probed: false };
    }
    if (!w) return 0; // no rate-limit headers seen yet: a burst of `concurrency` is fine
    // One probe per new window rather than a burst; if its answer carried no headers, probe again.
    if (w.kind === 'next') return w.probed && this.inFlight > 0 ? Infinity : 0;
    if (w.remaining <= 0) return w.resetAt + RESET_GRACE_MS - now;
    const demand = this.inFlight + this.waiting;
    if (w.remaining >= 2 * demand || this.lastDispatchAt === undefined) return 0;
    const spacing = (w.resetAt - this.lastDispatchAt) / w.remaining;
    return Math.max(0, this.lastDispatchAt + spacing - now);
  }

  /** Windows are identified by their reset time, which we trust even if the server's clock differs from ours. */
  private observe(reported: RateLimitInfo): void {
    const info = { ...reported, resetAt: Math.min(reported.resetAt, this.options.now() + this.maxHoldMs) };
    const w = this.window;
    const tolerance = info.relative ? RELATIVE_TOLERANCE_MS : 1;
    const reference = w === undefined ? undefined : w.kind === 'known' ? w.resetAt : w.after;
    // Requests still in flight will be counted in this window too.
    const budget = info.remaining - this.inFlight;
    if (reference === undefined || info.resetAt >= reference + tolerance) {
      this.window = { kind: 'known', remaining: budget, resetAt: info.resetAt };
    } else if (w?.kind === 'known' && info.resetAt > reference - tolerance) {
      // Answers can arrive out of order: the lowest remaining is the one to believe.
      w.remaining = Math.min(w.remaining, budget);
      w.resetAt = Math.min(w.resetAt, info.resetAt);
    }
    // Otherwise the answer describes a window that has already ended.
  }

  private hold(now: number, delay: number): void {
    this.heldSince ??= now;
    if (!Number.isFinite(delay)) return; // release() will pump again
    const at = now + delay;
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    const handle = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.ceil(delay));
    this.timer = { at, handle };
    this.options.onHold?.(Math.ceil(delay));
  }

  private stopHolding(now: number): void {
    if (this.heldSince === undefined) return;
    this.heldTotal += now - this.heldSince;
    this.heldSince = undefined;
  }
}
