/**
 * Which process sends a queued review action. Several processes may replay one folder's queue
 * at once (two `quire review`, `quire sync` beside the app): each takes an action — its claim,
 * written in the same immediate transaction that checked nobody holds it — before sending it,
 * so only one of them sends it. A claim whose process is gone (killed, crashed) or that is
 * older than any send lasts is let go: the action is then looked for on the server before it
 * is sent again, as after a lost answer.
 */
import { hostname } from 'node:os';
import type { ActionClaim } from '../mirror';

/** Longer than one action's send can take (every attempt and backoff of the API client included). */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** How long a replay waits for actions another process is sending before it says so and stops. */
export const CLAIM_WAIT_MS = 30_000;

/** A fresh claim for a replaying queue (`run` tells two queues of one process apart). */
export function claimBy(run: string, at: Date): ActionClaim {
  return { host: hostname(), pid: process.pid, run, at: at.toISOString() };
}

/** Whether a claim is held by another replay that is still running. */
export function heldElsewhere(claim: ActionClaim | null, run: string, now: number): boolean {
  if (!claim || claim.run === run) return false;
  if (!(now - Date.parse(claim.at) < CLAIM_LEASE_MS)) return false;
  // A process on another machine sharing the folder cannot be asked: its lease decides.
  if (claim.host !== hostname() || claim.pid === process.pid) return true;
  try {
    process.kill(claim.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** "pid 4242" or "pid 4242 on laptop". */
export function describeClaimant(claim: ActionClaim): string {
  return `pid ${claim.pid}${claim.host === hostname() ? '' : ` on ${claim.host}`}`;
}

/** How long an action the server failed on waits before it is tried again: 1 min, doubling, at most 1 h. */
export function retryDelayMs(failures: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, failures - 1));
}
