/**
 * What a cycle leaves recorded for the sync state (core/status) to read once it is over, by any
 * host: per space, when it last reached the server and completed, the attempts that failed since
 * and how, and what the last completed cycle did not push and left for the writer (pages the push
 * guard held, SUMMARY.md lines the API cannot carry, deleted assets a page still shows, paths
 * Quire cannot read). Conflicts, refused changes and the mass-delete hold are recorded where the
 * cycle keeps them already.
 */
import { ApiError, isUnreachable, NetworkError, TokenRejectedError } from '../api';
import type { FailureKind, Mirror } from '../mirror';
import type { SpaceReport } from './report';

/** A space's cycle reached the server and completed. */
export function recordReached(mirror: Pick<Mirror, 'catalog' | 'outbox' | 'transaction'>, report: SpaceReport, at: string): void {
  mirror.transaction(() => {
    mirror.catalog.markReached(report.spaceId, at);
    // A mass-delete stop or a missing folder ends the cycle before the pages were looked at: what was left before stands.
    if (report.held || report.missingFolder) return;
    const left = [...report.notPushed, ...report.unreadable.map((u) => ({ key: null, path: u.path, reason: u.reason }))];
    mirror.outbox.setAttention(
      report.spaceId,
      left.map((h) => ({
        reason: h.reason,
        path: h.path,
        key: h.key,
        ...('line' in h && h.line !== undefined ? { line: h.line } : {}),
        ...('title' in h && h.title !== undefined ? { title: h.title } : {}),
      })),
      at,
    );
  });
}

/** An attempt to sync these spaces failed with `err` (not recorded when the mirror itself cannot be written). */
export function recordFailed(
  mirror: Pick<Mirror, 'catalog' | 'transaction' | 'recordingFailure'>,
  spaceIds: readonly string[],
  err: unknown,
  at = new Date().toISOString(),
): void {
  const kind = failureKind(err);
  const message = err instanceof Error ? err.message : String(err);
  try {
    mirror.recordingFailure(err, () =>
      mirror.transaction(() => {
        for (const id of spaceIds) mirror.catalog.markFailed(id, kind, message, at);
      }),
    );
  } catch {
    // The mirror cannot be written (a full disk): the error that stopped the cycle says so already.
  }
}

/** Offline: no answer, or a gateway that could not reach the API; token-rejected: a 401; error: anything else. */
export function failureKind(err: unknown): FailureKind {
  if (err instanceof TokenRejectedError) return 'token-rejected';
  if (isUnreachable(err)) return 'offline';
  return 'error';
}

/**
 * Going offline, in the words every host says it once (not at each retry), e.g. "Offline: the API
 * cannot be reached (connection failed: connect ECONNREFUSED 127.0.0.1:8080). Your edits wait…".
 */
export function describeOffline(err: unknown): string {
  const why = err instanceof NetworkError ? err.reason : err instanceof ApiError ? `${err.status} from a gateway` : null;
  return `Offline: the API cannot be reached${why ? ` (${why})` : ''}. Your edits wait and are sent when it is back; trying again every few seconds.`;
}

/** Reaching the API again after being offline. */
export const BACK_ONLINE = 'Back online: the API answers again; what waited is being sent.';
