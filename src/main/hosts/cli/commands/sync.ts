import { relative, resolve, sep } from 'node:path';
import { all, dirFlag, flag, has, intervalFlag, spaceFlags, switchFlag, UsageError, type ParsedArgs } from '../args';
import { followCheckoutsAfterSync, sayFollowed } from '../cr-checkout';
import { EXIT, type CliIo } from '../io';
import { normaliseApiUrl, type CliContext } from '../context';
import {
  heldDeletes,
  describeMissingFolder,
  describeNotPushed,
  describeUnreadable,
  explainMirrorError,
  needsYou,
  SyncEngine,
  type CycleReport,
  type CycleRequest,
  BACK_ONLINE,
  describeOffline,
  type SpaceChoice,
} from '../../../core/sync';
import { pushGuard } from '../../../core/check';
import { continuousSync } from '../../../core/continuous';
import { describeDryRun, dryRunJson } from '../dry-run-text';
import { errorMessage, heldMessage, shellWord } from '../messages';
import { withFolderTurn } from '../folder-turn';
import { progressPrinter } from '../progress-printer';
import { describeHolder, hasMirror, isCorruptionError, Mirror } from '../../../core/mirror';
import { findPage, PageNotFoundError } from '../../../core/history';
import { API_URL_META, type ApiClient, behindOtherWork } from '../../../core/api';
import { type CadenceReport, ReviewService } from '../../../core/review';
import { plural } from '../../../../shared/plural';
import { safeField } from '../terminal-text';
import { retryTime } from '../../../../shared/when';
import { pausedSince, rememberSpaceSelection, setPaused, spaceSelection, when } from '../../../core/status';

const DEFAULT_INTERVAL_S = 30;

/**
 * `quire sync --api URL --dir DIR [--space ID]... | [--all-spaces] [--once] [--interval S] [--allow-deletes]`.
 * Without --space or --all-spaces the folder keeps to the spaces it was last told to sync (all by default).
 * --once: one cycle, exit 0 in sync, 3 when conflicts (or the mass-delete fail-safe) need the user.
 * Otherwise watches the folder and syncs on every settled edit and every S seconds (continuous sync
 * as core/continuous composes it for the app too), until SIGINT/SIGTERM, then stops cleanly.
 * Each cycle holds the folder's lock: one engine per folder, whichever process.
 */
export async function sync(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = dirFlag(args);
  const spaceIds = spaceFlags(args);
  const allSpaces = switchFlag(args, 'all-spaces');
  if (allSpaces && spaceIds.length > 0)
    throw new UsageError('--all-spaces and --space cannot go together: give either the spaces to sync, or --all-spaces for every one.', { usage: false });
  const intervalS = intervalFlag(args, DEFAULT_INTERVAL_S);
  const allowDeletes = switchFlag(args, 'allow-deletes');
  const allowNamed = all(args, 'allow-delete');
  if (allowDeletes && allowNamed.length > 0)
    throw new UsageError('--allow-deletes lets every delete through, --allow-delete only those it names: give one or the other.', { usage: false });
  const dryRun = switchFlag(args, 'dry-run');
  if (allowNamed.length > 0 && !has(args, 'once') && !dryRun)
    throw new UsageError('--allow-delete lets the deletes it names through in one cycle: give --once with it (or --dry-run to see them).', { usage: false });
  const explicitApi = flag(args, 'api') === undefined ? undefined : normaliseApiUrl(flag(args, 'api')!);
  // A folder that never synced has no address yet: said before anything is created in it.
  if (explicitApi === undefined && !hasMirror(dir))
    throw new UsageError(
      `missing --api <base_url>: ${dir} has not synced with any API yet (for GitBook: --api https://api.gitbook.com). Nothing was written.`,
      { usage: false },
    );
  const gitbookPaths = all(args, 'gitbook-path');
  if (gitbookPaths.length > 0 && !has(args, 'once') && !dryRun)
    throw new UsageError('--gitbook-path moves files in one cycle: give --once with it (or --dry-run to see the moves).', { usage: false });

  let mirror: Mirror;
  try {
    // A dry run writes nothing anywhere: not even a new folder or mirror (it plans against one in memory).
    mirror = dryRun ? Mirror.openToPlan(dir) : ctx.openMirror(dir, { ifCorrupt: 'set-aside' });
  } catch (err) {
    throw explainMirrorError(err, dir);
  }
  for (const notice of mirror.notices) io.stderr(notice);
  try {
    return await run(mirror);
  } catch (err) {
    // Damage found mid-cycle (a malformed page): set the file aside now, so the next run starts fresh.
    if (isCorruptionError(err)) throw new Error(`${Mirror.setAsideAfter(mirror, dir, err).notice} Run \`quire sync\` again.`);
    throw explainMirrorError(err, dir);
  } finally {
    mirror.close();
  }

  async function run(mirror: Mirror): Promise<number> {
    const remembered = ctx.rememberedApiUrl(mirror);
    const apiUrl = ctx.apiUrlFor(mirror, explicitApi);
    // Never a silent switch: the folder's spaces, and the token used, follow the API.
    if (remembered && remembered !== apiUrl && !dryRun)
      io.stderr(`This folder synced with ${remembered} until now; from now on it syncs with ${apiUrl} (given by --api).`);
    const api = await ctx.apiFor(mirror, apiUrl);
    // Without --space or --all-spaces, the folder keeps to the spaces it was last told to sync.
    const spaces = spaceIds.length > 0 ? { ids: spaceIds } : allSpaces || spaceSelection(mirror) === 'all' ? ('all' as const) : ('selected' as const);
    if (!dryRun) {
      mirror.transaction(() => {
        mirror.catalog.setMeta(API_URL_META, apiUrl);
        if (spaceIds.length > 0 || allSpaces) rememberSpaceSelection(mirror, allSpaces ? 'all' : 'listed');
      });
      // Given on the command line: QUIRE_TOKEN may go there for this folder from now on, --api left out.
      if (explicitApi !== undefined) ctx.giveApiUrl(dir, apiUrl);
      const paused = pausedSince(mirror);
      if (paused) {
        setPaused(mirror, false);
        io.stderr(`Sync of this folder was paused (since ${when(paused)}); \`quire sync\` resumes it.`);
      }
    }
    const toGitbook = keptPages(mirror, dir, gitbookPaths);
    if (dryRun || has(args, 'once')) return once(mirror, api, spaces, toGitbook, heldByName(mirror, dir, allowNamed));
    return continuously(mirror, api, spaces);
  }

  /** `--once` or `--dry-run`: one cycle, said per space; its exit code says whether something needs the writer. */
  async function once(
    mirror: Mirror,
    api: ApiClient,
    spaces: SpaceChoice,
    toGitbook: Map<string, Set<string>>,
    allowedDeletes: Map<string, Set<string>>,
  ): Promise<number> {
    const printProgress = progressPrinter(io.stderr);
    /** Told as a cycle pulls pages (it has main's trees by then). */
    let onPull: (() => void) | null = null;
    const engine = new SyncEngine({
      api,
      mirror,
      root: dir,
      spaces,
      onProgress: (p) => {
        printProgress(p);
        if (p.phase === 'pull') onPull?.();
      },
      signal: io.signal,
      allowMassDelete: allowDeletes,
      pushGuard,
      dryRun,
      ...(toGitbook.size > 0 ? { toGitbook } : {}),
    });

    // The deletes named by --allow-delete go through in this one cycle.
    const cycle: CycleRequest = allowedDeletes.size > 0 ? { changed: 'all', allowDeletes: allowedDeletes } : { changed: 'all' };
    if (dryRun) {
      // Reads only: no lock needed, nothing written; the plan is printed per space and page.
      const report = await engine.runCycle(cycle);
      io.stdout(has(args, 'json') ? JSON.stringify(dryRunJson(report), null, 2) : describeDryRun(report));
      return needsYou(report) ? EXIT.conflicts : EXIT.ok;
    }

    const review = new ReviewService(mirror);
    // Review (queued actions sent, then change requests and comments refreshed) runs beside the
    // cycle's pull, not after it: from the moment the cycle starts pulling pages (it holds the
    // folder, knows its spaces and has main's trees: review does not hold those up). A cycle
    // that pulls nothing is followed by it. The spaces the cycle pushed to are refreshed once
    // more after it (their change request may be new).
    const beside: Promise<void>[] = [];
    // What review says while the cycle runs is printed after the cycle's own lines.
    const later = heldLines(io);
    let report: CycleReport;
    onPull = () => {
      // One request in eight while the pull's wait: not a block of one a space before the pages.
      if (beside.length === 0) beside.push(behindOtherWork(() => reviewAfterCycle(review, mirror, api, later.io)));
    };
    try {
      // Another process syncing this folder: wait briefly for it, then say who it is (exit 1).
      report = await withFolderTurn(dir, 'quire sync --once', io, () => engine.runCycle(cycle));
    } catch (err) {
      onPull = null;
      await Promise.allSettled(beside);
      later.print();
      throw err;
    }
    onPull = null;
    await Promise.all(beside);
    for (const line of report.repaired ?? []) io.stderr(line);
    io.stdout(describe(report, dir));
    for (const s of report.spaces) if (s.held) io.stderr(heldMessage(s.held, s, dir, heldDeletes(mirror, s.spaceId)));
    sayWhatNeedsYou(report, io);
    later.print();
    const pushedTo = pushedSpaces(report);
    if (beside.length === 0) await reviewAfterCycle(review, mirror, api, io);
    else if (pushedTo.length > 0) await reviewAfterCycle(review, mirror, api, io, pushedTo);
    await followCheckoutsAfterSync(api, mirror, io);
    return needsYou(report) ? EXIT.conflicts : EXIT.ok;
  }

  /** Continuous sync as every host runs it (core/continuous), until SIGINT/SIGTERM; said on the terminal. */
  async function continuously(mirror: Mirror, api: ApiClient, spaces: SpaceChoice): Promise<number> {
    io.stderr(`Syncing ${dir}: on every saved edit and every ${intervalS}s; press Ctrl-C to stop.`);
    let fatal: unknown = null;
    const review = new ReviewService(mirror);
    const continuous = continuousSync({
      mirror,
      root: dir,
      connect: () => ({ api, review }),
      spaces,
      allowMassDelete: allowDeletes,
      command: 'quire sync',
      intervalMs: intervalS * 1000,
      signal: io.signal,
      words: {
        progress: progressPrinter(io.stderr),
        waiting: (holder) => io.stderr(`Waiting for ${describeHolder(holder)} to finish with this folder…`),
        lockNotice: io.stderr,
        reviewed: (report) => {
          if (report) printReplay(review, report, io);
        },
        followed: (report) => sayFollowed(report, mirror, io),
        report: (report, backOnline) => {
          if (backOnline) io.stderr(BACK_ONLINE);
          for (const line of report.repaired ?? []) io.stderr(line);
          if (report.spaces.some((s) => s.pull || s.push?.changes) || report.conflicts > 0 || report.held > 0) io.stdout(describe(report, dir));
          for (const s of report.spaces) if (s.held) io.stderr(heldMessage(s.held, s, dir, heldDeletes(mirror, s.spaceId)));
          sayWhatNeedsYou(report, io);
        },
        failed: (err, failure) => {
          switch (failure.kind) {
            case 'cancelled':
              return false;
            case 'repaired':
              for (const line of failure.lines) io.stderr(line);
              return false;
            case 'token-rejected':
            case 'corrupt':
              fatal = err; // a rejected token needs the user; a damaged mirror is set aside by the caller
              return true;
            case 'offline':
              // Said once; the next cycles are tried within seconds until the API answers.
              if (!failure.again) io.stderr(describeOffline(err));
              return false;
            case 'error':
              // A passing server fault: say so, keep the edits, try again next cycle.
              io.stderr(`Sync paused: ${errorMessage(err, dir)}`);
              logError(mirror, err);
              return false;
          }
        },
      },
    });
    await continuous.start();
    await continuous.done.catch(() => undefined);
    if (fatal) throw fatal;
    io.stderr('Stopped.');
    return EXIT.ok;
  }
}

/**
 * The pages `--gitbook-path` names, by space: each must be a page whose file is kept where the
 * writer put it (`quire status` lists them); anything else is one line, before anything is sent.
 */
function keptPages(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'search'>,
  root: string,
  targets: readonly string[],
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const target of targets) {
    let page: { spaceId: string; pageKey: string };
    try {
      page = findPage(mirror, root, target);
    } catch (err) {
      if (err instanceof PageNotFoundError) throw new UsageError(`--gitbook-path: ${err.message}`, { usage: false });
      throw err;
    }
    if (!mirror.folder.node(page.spaceId, page.pageKey)?.pathKept)
      throw new UsageError(
        `${safeField(target)} is not kept off GitBook's path: \`quire status --dir ${shellWord(root)}\` lists the pages that are, each with its command. Nothing was moved.`,
        { usage: false },
      );
    const keys = out.get(page.spaceId) ?? new Set<string>();
    keys.add(page.pageKey);
    out.set(page.spaceId, keys);
  }
  return out;
}

/**
 * The held deletes `--allow-delete` names, by space: each a file (relative to the sync folder or
 * to this directory, or absolute) or page id that a mass-delete stop holds (`quire status` lists
 * them); anything else is one line, before anything is sent.
 */
function heldByName(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox'>,
  root: string,
  names: readonly string[],
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (names.length === 0) return out;
  const held = mirror.catalog
    .selectedSpaces()
    .flatMap((s) =>
      heldDeletes(mirror, s.id).map((d) => ({ spaceId: s.id, pageId: d.pageId, file: d.path !== null && s.folder ? `${s.folder}/${d.path}` : null })),
    );
  const base = resolve(root);
  for (const name of names) {
    const spelt = [name, relative(base, resolve(name)), relative(base, resolve(base, name))].map((n) => n.split(sep).join('/').normalize('NFC'));
    const found = held.find((h) => h.pageId === name || (h.file !== null && spelt.includes(h.file.normalize('NFC'))));
    if (!found)
      throw new UsageError(
        `--allow-delete ${safeField(name)}: no mass-delete stop holds that page; \`quire status --dir ${shellWord(root)}\` lists the deletes a stop holds. Nothing was sent.`,
        { usage: false },
      );
    const ids = out.get(found.spaceId) ?? new Set<string>();
    ids.add(found.pageId);
    out.set(found.spaceId, ids);
  }
  return out;
}

/** One line per thing a cycle left for the writer: folders missing, paths left alone, changes not pushed. */
function sayWhatNeedsYou(report: CycleReport, io: CliIo): void {
  for (const s of report.spaces) {
    if (s.notice) io.stdout(`${safeField(s.title)}: ${safeField(s.notice)}`);
    if (s.missingFolder) io.stderr(safeField(describeMissingFolder(s)));
    for (const u of s.unreadable) io.stderr(`${safeField(s.title)}: ${safeField(describeUnreadable(u))}`);
    for (const h of s.notPushed) io.stderr(`${safeField(s.title)}: ${safeField(describeNotPushed(h))}`);
  }
}

/**
 * Review beside or after a one-off cycle: sends review actions queued while offline (replies,
 * resolutions, ...) in order, then refreshes change requests and comments (incrementally), so a
 * reviewer who syncs before going offline has them, and `quire search` finds the comments. With
 * `spaceIds` (those a cycle pushed to: their change request may be new), refreshes only theirs.
 * A failure here is said, and does not change the sync's exit code.
 */
async function reviewAfterCycle(
  review: ReviewService,
  mirror: Pick<Mirror, 'syncFolder' | 'withRepair'>,
  api: ApiClient,
  io: CliIo,
  spaceIds?: string[],
): Promise<void> {
  try {
    // Search damaged (comments are indexed as they are written): made again, said in one line, and the refresh runs again.
    if (spaceIds) {
      await mirror.withRepair(() => review.refresh(api, { signal: io.signal, spaceIds, sites: false }), io.stderr);
      return;
    }
    const { replay, refresh } = await mirror.withRepair(() => review.sync(api, { signal: io.signal }), io.stderr);
    printReplay(review, { replay }, io);
    if (!refresh) io.stderr(`Review data was not refreshed: ${safeField(replay.stoppedBy ?? 'the API is not reachable')}`);
  } catch (err) {
    if (io.signal.aborted) throw err;
    io.stderr(`Review data was not refreshed: ${errorMessage(err, mirror.syncFolder)}`);
  }
}

/** An io whose lines wait, in their order, until `print()`. */
function heldLines(io: CliIo): { io: CliIo; print: () => void } {
  const lines: [(text: string) => void, string][] = [];
  return {
    io: { ...io, stdout: (text) => lines.push([io.stdout, text]), stderr: (text) => lines.push([io.stderr, text]) },
    print: () => {
      for (const [write, text] of lines.splice(0)) write(text);
    },
  };
}

/** The spaces a cycle pushed into a change request (their review data is refreshed at once). */
function pushedSpaces(report: CycleReport): string[] {
  return report.spaces.filter((s) => s.push?.changeRequest).map((s) => s.spaceId);
}

function printReplay(review: ReviewService, { replay }: Pick<CadenceReport, 'replay'>, io: CliIo): void {
  if (replay.sent.length > 0) io.stdout(`Sent ${plural(replay.sent.length, 'queued review action')}.`);
  for (const a of replay.refused) io.stderr(`The server refused ${safeField(review.describeAction(a))}: ${safeField(a.message ?? 'no reason given')}`);
  for (const a of replay.delayed) {
    io.stderr(
      `Not sent yet, the server failed on ${safeField(review.describeAction(a))}: ${safeField(a.message ?? 'no reason given')}; tried again ${retryTime(a.retryAt)} (\`quire review --dismiss ${a.seq}\` gives up on it).`,
    );
  }
}

function logError(mirror: Pick<Mirror, 'log' | 'recordingFailure'>, err: unknown) {
  try {
    mirror.recordingFailure(err, () => mirror.log.add('error', (err as Error).message));
  } catch {
    // The mirror itself may be what failed (disk full): the message was printed already.
  }
}

/** One line for a cycle: what moved, then what needs the writer, with the command that shows it for this folder. */
export function describe(report: CycleReport, dir: string): string {
  // Counted as the log counts them: page files main changed here, pages (and files) pushed; never API changes or bodies fetched.
  const pulledPages = report.spaces.reduce((n, s) => n + (s.pull?.pages ?? 0), 0);
  const pushed = report.spaces.filter((s) => s.push && s.push.changes > 0);
  const status = `\`quire status --dir ${shellWord(dir)}\``;
  const parts = [
    report.inSync === report.spaces.length
      ? `${plural(report.spaces.length, 'space')} in sync`
      : `${report.inSync} of ${plural(report.spaces.length, 'space')} in sync`,
    pulledPages > 0 ? `${plural(pulledPages, 'page')} pulled from main` : 'nothing new on main',
  ];
  for (const s of pushed) {
    const pages = s.push!.applied.size;
    const files = s.push!.uploaded.length;
    const what =
      [pages > 0 ? plural(pages, 'page') : '', files > 0 ? plural(files, 'file') : ''].filter(Boolean).join(' and ') || plural(s.push!.changes, 'change');
    parts.push(`${what} pushed to change request #${s.push!.changeRequest?.number} in ${safeField(s.title)}`);
  }
  const refused = report.spaces.flatMap((s) => s.push?.refused ?? []);
  if (refused.length) parts.push(`${plural(refused.length, 'change')} refused by the server (see ${status})`);
  parts.push(plural(report.requests, 'request'));
  const line = parts.join(', ');
  const attention: string[] = [];
  if (report.conflicts > 0) attention.push(`${plural(report.conflicts, 'conflict')} ${report.conflicts === 1 ? 'needs' : 'need'} you`);
  if (report.held > 0) attention.push(`${plural(report.held, 'space')} stopped before a mass delete`);
  if (report.missing > 0) attention.push(`${plural(report.missing, 'space folder')} missing`);
  if (report.unreadable > 0) attention.push(`${plural(report.unreadable, 'path')} left alone`);
  if (report.notPushed > 0) attention.push(`${plural(report.notPushed, 'change')} not pushed`);
  if (attention.length === 0) return line;
  return `${line}; ${attention.join(', ')}: see ${status}`;
}
