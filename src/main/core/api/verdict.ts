/**
 * What one request learns about the server holds for the rest of the cycle. Three things make a
 * server unusable for a cycle:
 *
 * - It does not answer. Each request stops once it has gone `deadlineMs` without an answer,
 *   whatever attempts it has left (counted from the attempt that got none, backoffs included; any
 *   answer, even a 429 or 503, starts the count again) — on top of the per-attempt timeout and
 *   the retry policy. When nothing at all came from the server in that time, it does not answer:
 *   a slowloris server would otherwise cost each request its 6 × 30 s, one after another.
 * - It sends an API answer larger than the client reads: a bomb is seldom alone, and each one
 *   read costs the limit in memory.
 * - It asks (`Retry-After`) to be left alone for longer than a request waits: every other
 *   request of the cycle would be told the same.
 *
 * Then requests in flight stop and the rest are not sent, each failing at once with the first
 * one's words, until the next cycle (`beginCycle`) or, outside cycles, one deadline later.
 */
import { type AnswerTooLargeError, NoAnswerError, type RequestDescription, type RetryLaterError, SkippedRequestError } from './errors';

interface Verdict {
  /** The error that found the server unusable. */
  because: Error;
  at: number;
}

export class ServerVerdict {
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private verdict: Verdict | undefined;
  private controller = new AbortController();

  constructor(
    readonly deadlineMs: number,
    private readonly now: () => number,
  ) {}

  /** Aborts when the server is found unusable: attempts in flight stop with it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A new cycle tries the server again, whatever the last one found. */
  beginCycle(): void {
    this.verdict = undefined;
    if (this.controller.signal.aborted) this.controller = new AbortController();
  }

  /** The server answered (any status). */
  answered(): void {
    this.lastAnswerAt = this.now();
  }

  /** Before an attempt goes out: throws when the server was found unusable, so it is not sent. */
  check(where: RequestDescription): void {
    const verdict = this.current();
    if (verdict) throw new SkippedRequestError(where, { sent: false, because: verdict.because });
  }

  /** An attempt in flight was stopped because another request found the server unusable. */
  stopped(where: RequestDescription, mayHaveBeenApplied: boolean): SkippedRequestError {
    const because = this.current()?.because ?? new Error('the server was found unusable');
    return new SkippedRequestError(where, { sent: true, because, mayHaveBeenApplied });
  }

  /**
   * A request went `deadlineMs` without an answer since `waitingSince`. If nothing else was
   * answered meanwhile, the server does not answer: the rest of the cycle is not sent.
   */
  noAnswer(where: RequestDescription, init: { attempts: number; reason: string; waitingSince: number }): NoAnswerError {
    const error = new NoAnswerError(where, { deadlineMs: this.deadlineMs, attempts: init.attempts, reason: init.reason });
    if (this.lastAnswerAt < init.waitingSince) this.condemn(error);
    return error;
  }

  /** An API answer went past the size limit. */
  tooLarge(error: AnswerTooLargeError): AnswerTooLargeError {
    this.condemn(error);
    return error;
  }

  /** The API asked to be left alone for longer than a request waits: the rest of the cycle would be told the same. */
  toldToWait(error: RetryLaterError): RetryLaterError {
    this.condemn(error);
    return error;
  }

  private condemn(because: Error): void {
    if (this.current()) return;
    this.verdict = { because, at: this.now() };
    this.controller.abort();
  }

  private current(): Verdict | undefined {
    if (this.verdict && this.now() - this.verdict.at > this.deadlineMs) this.beginCycle();
    return this.verdict;
  }
}
