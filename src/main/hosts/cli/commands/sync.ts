import { all, flag, has, requireFlag, UsageError, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { API_URL_META, type CliContext } from '../context';
import { SyncEngine, type CycleReport } from '../../../core/sync/engine';
import { progressPrinter } from '../progress-printer';
import type { Mirror } from '../../../core/mirror';
import { ReviewService } from '../../../core/review';
import type { ApiClient } from '../../../core/api/client';

const DEFAULT_INTERVAL_S = 30;
/** Continuous mode refreshes change requests and comments this often (content syncs every cycle). */
const REVIEW_REFRESH_MS = 5 * 60_000;

/**
 * `quire sync --api URL --dir DIR [--space ID]... [--once] [--interval S]`.
 * --once: one cycle, exit 0 in sync, 3 when conflicts need the user.
 * Otherwise cycles until SIGINT/SIGTERM, then stops cleanly.
 */
export async function sync(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = requireFlag(args, 'dir');
  const spaceIds = all(args, 'space');
  const intervalS = Number(flag(args, 'interval') ?? DEFAULT_INTERVAL_S);
  if (!Number.isFinite(intervalS) || intervalS <= 0) throw new UsageError('--interval takes a number of seconds');

  const mirror = ctx.openMirror(dir);
  try {
    const apiUrl = ctx.apiUrlFor(mirror, flag(args, 'api'));
    const api = await ctx.apiFor(mirror, apiUrl);
    mirror.catalog.setMeta(API_URL_META, apiUrl);
    const engine = new SyncEngine({
      api,
      mirror,
      root: dir,
      spaces: spaceIds.length > 0 ? { ids: spaceIds } : 'all',
      onProgress: progressPrinter(io.stderr),
      signal: io.signal,
    });

    const review = new ReviewService(mirror);

    if (has(args, 'once')) {
      const report = await engine.runCycle();
      io.stdout(describe(report));
      await replayQueuedActions(review, api, io);
      return report.conflicts > 0 ? EXIT.conflicts : EXIT.ok;
    }

    io.stderr(`Syncing ${dir} every ${intervalS}s; press Ctrl-C to stop.`);
    let reviewRefreshedAt = 0;
    while (!io.signal.aborted) {
      try {
        const report = await engine.runCycle();
        if (report.spaces.some((s) => s.pull) || report.conflicts > 0) io.stdout(describe(report));
        await replayQueuedActions(review, api, io);
        if (Date.now() - reviewRefreshedAt >= REVIEW_REFRESH_MS) {
          await review.refresh(api, { signal: io.signal });
          reviewRefreshedAt = Date.now();
        }
      } catch (err) {
        if (io.signal.aborted) break;
        if (isFatal(err)) throw err;
        // Offline or a passing server fault: say so, keep the edits, try again next cycle.
        io.stderr(`Sync paused: ${(err as Error).message}`);
        logError(mirror, err);
      }
      await waitOrAbort(intervalS * 1000, io.signal);
    }
    io.stderr('Stopped.');
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

/** Sends review actions queued while offline (replies, resolutions, ...), in order. */
async function replayQueuedActions(review: ReviewService, api: ApiClient, io: CliIo): Promise<void> {
  const replay = await review.replay(api, io.signal);
  if (replay.sent.length > 0) io.stdout(`Sent ${replay.sent.length} queued review action(s).`);
  for (const a of replay.refused) io.stderr(`The server refused a queued ${a.kind} on comment ${a.commentId ?? '-'}: ${a.message ?? 'no reason given'}`);
}

function isFatal(err: unknown): boolean {
  return (err as Error)?.name === 'TokenRejectedError';
}

function logError(mirror: Mirror, err: unknown) {
  mirror.log.add('error', (err as Error).message);
}

function waitOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

export function describe(report: CycleReport): string {
  const pulled = report.spaces.filter((s) => s.pull);
  const fetched = pulled.reduce((n, s) => n + (s.pull?.fetchedPages ?? 0), 0);
  const parts = [
    `${report.spaces.length} space(s) in sync`,
    pulled.length ? `${pulled.length} pulled (${fetched} page(s) fetched)` : 'nothing new',
    `${report.requests} request(s)`,
  ];
  const line = parts.join(', ');
  if (report.conflicts === 0) return line;
  return `${line}; ${report.conflicts} conflict(s) need you: see \`quire status --dir <folder>\``;
}
