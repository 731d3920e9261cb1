/**
 * What continuous sync does for review beside content, the same in every host: after each
 * cycle, send the review actions queued offline (cheap: nothing to send is no request), and
 * refresh change requests and comments every few minutes — they change less often than pages,
 * and a refresh costs requests per space (its comments, the sweep) and per organization (two
 * change request listings). The first cycle refreshes (a fresh folder has
 * review data at once), and so does a cycle that pushed: the spaces it pushed to are refreshed
 * right away, so the writer's change request is listed as soon as it exists.
 */
import type { ApiClient } from '../api';
import type { ReplayReport } from './queue';

/** Continuous sync refreshes change requests and comments this often. */
export const REVIEW_REFRESH_MS = 5 * 60_000;

/** The part of ReviewService a cadence drives. */
interface Reviewing {
  replay(api: ApiClient, signal?: AbortSignal): Promise<ReplayReport>;
  refresh(api: ApiClient, options?: { signal?: AbortSignal; spaceIds?: string[]; sites?: boolean }): Promise<unknown>;
}

export interface CadenceReport {
  replay: ReplayReport;
  /** True when this round refreshed review state too (all of it, or the spaces pushed to). */
  refreshed: boolean;
}

export class ReviewCadence {
  private refreshedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly review: Reviewing,
    private readonly everyMs = REVIEW_REFRESH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Replays the queue; refreshes when due, or when `force` (the user asked, e.g. Sync now);
   * otherwise refreshes the spaces in `pushedTo` (the cycle pushed into their change requests).
   */
  async afterCycle(api: ApiClient, options: { signal?: AbortSignal; force?: boolean; pushedTo?: readonly string[] } = {}): Promise<CadenceReport> {
    const replay = await this.review.replay(api, options.signal);
    if (replay.stoppedBy !== null) return { replay, refreshed: false };
    if (!options.force && this.now() - this.refreshedAt < this.everyMs) {
      if (!options.pushedTo?.length) return { replay, refreshed: false };
      await this.review.refresh(api, { signal: options.signal, spaceIds: [...options.pushedTo], sites: false });
      return { replay, refreshed: true };
    }
    await this.review.refresh(api, { signal: options.signal });
    this.refreshedAt = this.now();
    return { replay, refreshed: true };
  }
}
