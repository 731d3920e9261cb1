/**
 * Sending the queue. Actions go in the order they were taken, each claimed first (claims.ts):
 * in one immediate transaction the next action nobody else holds is taken and marked
 * `sending`, so two processes replaying at once each send different actions and none twice.
 * An action that may already have reached the server (`sending` after a crash, a lost answer
 * or a failing server, or a claim whose process is gone) is looked for there before it is sent
 * again. A refusal (4xx) is kept with the server's message and the queue moves on; an action
 * the server fails on (5xx) waits a while (backed off) and the rest are sent, except later
 * actions on the same comment, reply or change request, which keep their order behind it. An
 * unreachable server stops the replay with everything left queued.
 */
import type { ApiClient } from '../api';
import { ApiError, isUnreachable, NetworkError, TokenRejectedError } from '../api';
import { sleep } from '../api';
import type { ActionClaim, ActionRecord, Mirror, RemoteUser } from '../mirror';
import { actionIdOfLocal, isLocalId } from './actions';
import { CLAIM_WAIT_MS, claimBy, describeClaimant, heldElsewhere, retryDelayMs } from './claims';
import { recordOutcome } from './record';
import { reconcile, send } from './send';

export interface ReplayReport {
  /** Actions the server accepted during this replay. */
  sent: ActionRecord[];
  /** Actions the server refused during this replay (each with its message). */
  refused: ActionRecord[];
  /** Actions the server failed on during this replay: each waits until its `retryAt`, the rest went on. */
  delayed: ActionRecord[];
  /** Actions still waiting. */
  remaining: number;
  /** Why replay stopped early (server unreachable, token rejected, ...); null when the queue drained. */
  stoppedBy: string | null;
  /** It stopped because the API could not be reached (offline). */
  unreachable?: boolean;
}

/** How often a replay looks whether actions another process is sending are done. */
const POLL_MS = 100;

const CHANGE_REQUEST_KINDS = new Set(['editChangeRequest', 'updateFromMain', 'merge', 'requestReviewer', 'removeReviewer', 'submitReview']);

/** What an action acts on: a later action on the same thing waits behind it (a review's verdict behind its comments). */
function targetsOf(a: ActionRecord): string[] {
  const review = a.payload.review ? [`review:${a.payload.review}`] : [];
  if (CHANGE_REQUEST_KINDS.has(a.kind)) return [`cr:${a.changeRequestId}`, ...review];
  return [`comment:${a.commentId}`, ...(a.replyId ? [`reply:${a.replyId}`] : []), ...review];
}

/** A status that means the server looked at the request and will not take it. */
function isRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && !(err instanceof TokenRejectedError) && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
}

/** The server's own words and the status: "Body too long (422)". */
function refusalMessage(err: ApiError): string {
  return err.apiMessage ? `${err.apiMessage} (${err.status})` : err.message;
}

type Step =
  | { type: 'claimed'; action: ActionRecord; lookFirst: boolean }
  | { type: 'refused'; action: ActionRecord }
  | { type: 'none'; elsewhere: ActionClaim | null };

export class Replay {
  private readonly report: ReplayReport = { sent: [], refused: [], delayed: [], remaining: 0, stoppedBy: null };

  constructor(
    private readonly mirror: Pick<Mirror, 'reviewActions' | 'reviewRecords' | 'reviewers' | 'transaction'>,
    /** This queue's claims' id. */
    private readonly run: string,
  ) {}

  async drain(api: ApiClient, signal?: AbortSignal): Promise<ReplayReport> {
    const { report, mirror } = this;
    const waiting = () => mirror.reviewActions.actions(['queued', 'sending']);
    if (waiting().length > 0 && !(await this.learnMe(api, signal))) {
      report.remaining = waiting().length;
      return report;
    }
    let waitingSince: number | null = null;
    let failuresInARow = 0;
    for (;;) {
      signal?.throwIfAborted();
      const step = mirror.transaction(() => this.takeNext(Date.now()));
      if (step.type === 'refused') {
        report.refused.push(step.action);
        continue;
      }
      if (step.type === 'none') {
        if (step.elsewhere === null) break;
        // Another process sends some: what it sends may let later actions through, so wait for it, a while.
        waitingSince ??= Date.now();
        if (Date.now() - waitingSince >= CLAIM_WAIT_MS) {
          report.stoppedBy = `Another Quire process (${describeClaimant(step.elsewhere)}) is sending queued review actions; each is sent once, by it.`;
          break;
        }
        await sleep(POLL_MS, signal ?? new AbortController().signal);
        continue;
      }
      waitingSince = null;
      const outcome = await this.sendOne(api, step.action, step.lookFirst);
      if (outcome === 'stop') break;
      failuresInARow = outcome === 'server-failed' ? failuresInARow + 1 : 0;
      // One action the server fails on waits and the rest go on; a second in a row is the server failing.
      if (failuresInARow >= 2) {
        report.stoppedBy = report.delayed.at(-1)!.message;
        break;
      }
    }
    report.remaining = waiting().length;
    return report;
  }

  /** Who "me" is decides what a reconciliation may claim as ours: learnt before anything is sent. */
  private async learnMe(api: ApiClient, signal?: AbortSignal): Promise<boolean> {
    const { mirror } = this;
    if (mirror.reviewRecords.knowsMe()) return true;
    try {
      const me = await api.call<RemoteUser>((c, params) => c.user.getAuthenticatedUser(params), { signal });
      mirror.transaction(() => {
        mirror.reviewRecords.setMe(me);
        for (const a of mirror.reviewActions.actions(['queued', 'sending'])) mirror.reviewRecords.materializeTargetsOf(a);
      });
      return true;
    } catch (err) {
      this.report.stoppedBy = err instanceof Error ? err.message : String(err);
      this.report.unreachable = isUnreachable(err);
      return false;
    }
  }

  /**
   * The first action nobody else is sending, not waiting after a failure, and not behind an
   * earlier one on the same thing that is: claimed (inside the caller's transaction).
   */
  private takeNext(now: number): Step {
    const { reviewActions: actions } = this.mirror;
    const behind = new Set<string>();
    let elsewhere: ActionClaim | null = null;
    for (const a of actions.actions(['queued', 'sending'])) {
      const targets = targetsOf(a);
      const theirs = heldElsewhere(a.claim, this.run, now);
      if (theirs) elsewhere ??= a.claim;
      if (theirs || (a.retryAt !== null && Date.parse(a.retryAt) > now) || targets.some((t) => behind.has(t))) {
        for (const t of targets) behind.add(t);
        continue;
      }
      const broken = this.brokenDependency(a);
      if (broken) return { type: 'refused', action: this.refuse(a, broken) };
      // `sending` (by a replay that failed, or a process that is gone): it may be on the server already.
      const lookFirst = a.state === 'sending';
      actions.claim(a.id, claimBy(this.run, new Date(now)), !lookFirst);
      return { type: 'claimed', action: actions.action(a.id)!, lookFirst };
    }
    return { type: 'none', elsewhere };
  }

  /** Sends one claimed action (looking for it on the server first when it may be there), and records what happened. */
  private async sendOne(api: ApiClient, next: ActionRecord, lookFirst: boolean): Promise<'done' | 'server-failed' | 'stop'> {
    const { mirror, report } = this;
    let sending = !lookFirst;
    try {
      let outcome = lookFirst
        ? await reconcile(api, next, mirror.reviewRecords.me(), mirror.reviewActions.claimedIds(), mirror.reviewRecords.mirroredIds())
        : null;
      if (!outcome) {
        if (lookFirst) mirror.transaction(() => mirror.reviewActions.sendingAgain(next.id, new Date().toISOString()));
        sending = true;
        outcome = await send(api, next);
      }
      report.sent.push(mirror.transaction(() => recordOutcome(mirror, next, outcome)));
      return 'done';
    } catch (err) {
      if (isRefusal(err)) {
        report.refused.push(this.refuse(next, refusalMessage(err)));
        return 'done';
      }
      if (err instanceof ApiError && err.status >= 500) {
        // It stays `sending` (the server may have applied it): the next try looks for it first.
        const attempts = mirror.reviewActions.action(next.id)?.attempts ?? 1;
        const retryAt = new Date(Date.now() + retryDelayMs(attempts)).toISOString();
        report.delayed.push(
          mirror.transaction(() => {
            mirror.reviewActions.noteFailure(next.id, refusalMessage(err), false, retryAt);
            return mirror.reviewActions.action(next.id)!;
          }),
        );
        return 'server-failed';
      }
      const message = err instanceof Error ? err.message : String(err);
      // If this attempt's request certainly never reached the server, the action is plainly queued
      // again; otherwise it stays `sending` and the next replay looks for it on the server first.
      const untouched =
        sending && ((err instanceof NetworkError && !err.mayHaveBeenApplied) || (err instanceof ApiError && (err.status === 401 || err.status === 429)));
      mirror.transaction(() => mirror.reviewActions.noteFailure(next.id, message, untouched));
      report.stoppedBy = message;
      report.unreachable = isUnreachable(err);
      return 'stop';
    }
  }

  /**
   * Why an action can never be sent: it acts on something whose creation was refused or
   * cancelled, or it is the verdict of a review one of whose comments was never posted.
   */
  private brokenDependency(a: ActionRecord): string | null {
    if (a.kind === 'submitReview' && a.payload.review) {
      const lost = this.mirror.reviewActions
        .ofReview(a.payload.review)
        .find((c) => c.kind === 'postComment' && (c.state === 'refused' || c.state === 'dismissed'));
      if (lost) return `A comment of this review was never posted${lost.message ? ` (${lost.message})` : ''}: the verdict was held back; give it again`;
    }
    for (const target of [a.commentId, a.replyId]) {
      if (!isLocalId(target) || (a.kind === 'reply' && target === a.replyId) || (a.kind === 'postComment' && target === a.commentId)) continue;
      const creator = this.mirror.reviewActions.action(actionIdOfLocal(target));
      if (!creator || creator.state === 'refused' || creator.state === 'dismissed') {
        const why = creator?.message ? `: ${creator.message}` : '';
        return `It depends on a ${creator?.kind === 'reply' ? 'reply' : 'comment'} that was never posted${why}`;
      }
    }
    return null;
  }

  private refuse(a: ActionRecord, message: string): ActionRecord {
    const { mirror } = this;
    return mirror.transaction(() => {
      mirror.reviewActions.setActionState(a.id, 'refused', { message });
      mirror.reviewRecords.materializeTargetsOf(a);
      return mirror.reviewActions.action(a.id)!;
    });
  }
}
