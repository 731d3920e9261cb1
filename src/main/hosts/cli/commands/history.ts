import {
  fileInSyncFolder,
  findPage,
  type HistoryPage,
  type HistoryReason,
  type PageRef,
  recordSyncedBaselines,
  type Retention,
  type VersionInfo,
  versionListing,
} from '../../../core/history';
import type { Mirror } from '../../../core/mirror';
import { countFlag, dirFlag, has, UsageError, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { plural } from '../../../../shared/plural';
import { safeField } from '../terminal-text';

export interface HistoryJson {
  page: { spaceId: string; pageKey: string; pageId: string | null; path: string | null; file: string | null; title: string | null; deleted: boolean };
  versions: { number: number; at: string; reason: HistoryReason; detail: string | null; path: string | null; title: string | null; size: number }[];
}

/** What each reason means, for a person. */
export const REASON_WORDS: Record<HistoryReason, string> = {
  pulled: 'pulled from the server',
  pushed: 'pushed',
  merged: 'merged (edited on both sides)',
  'conflict-copy': 'the server’s side of a conflict',
  'deleted-locally': 'deleted here',
  'deleted-remotely': 'deleted on the server',
  restored: 'restored',
  local: 'your text before Quire changed the file',
};

/**
 * `quire history <file or page id> --dir <folder> [--json]`: every version of a page Quire
 * kept. Without a page: the pages with history, latest first (deleted ones too).
 * `--keep-days <n> --keep-versions <n>` set how long this folder keeps versions.
 */
export async function history(args: ParsedArgs, io: CliIo, ctx: Pick<CliContext, 'openMirror'>): Promise<number> {
  const dir = dirFlag(args);
  const target = args.positionals[0];
  const keep = {
    days: countFlag(args, 'keep-days', { min: 0, max: 36_500, unit: 'days', example: 90 }),
    minVersions: countFlag(args, 'keep-versions', { min: 1, max: 100_000, unit: 'versions', example: 20 }),
  };
  const mirror = ctx.openMirror(dir);
  try {
    if (keep.days !== undefined || keep.minVersions !== undefined) {
      const current = mirror.history.retention();
      const retention: Retention = { days: keep.days ?? current.days, minVersions: keep.minVersions ?? current.minVersions };
      mirror.history.setRetention(retention);
      io.stderr(
        `This folder now keeps every version from the last ${plural(retention.days, 'day')}, and at least the last ${plural(retention.minVersions, 'version')} of each page.`,
      );
      if (target === undefined) return EXIT.ok;
    }
    // History damaged (a table gone): made again, said on stderr, and read again.
    const text = await mirror.withRepair(() => {
      recordSyncedBaselines(mirror);
      if (target === undefined) {
        const pages = mirror.history.pages({ limit: 200 });
        return has(args, 'json') ? JSON.stringify({ pages: pages.map((p) => pageJson(mirror, p)) }, null, 2) : formatPages(mirror, pages);
      }
      const ref = findPage(mirror, dir, target);
      const versions = mirror.history.versions(ref.spaceId, ref.pageKey);
      const page = mirror.history.page(ref.spaceId, ref.pageKey);
      if (!has(args, 'json')) return formatVersions(mirror, ref, page, versions, target, dir);
      const json: HistoryJson = { page: refJson(mirror, ref, page), versions: versions.map(versionListing) };
      return JSON.stringify(json, null, 2);
    }, io.stderr);
    io.stdout(text);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(err.message);
    throw err;
  } finally {
    mirror.close();
  }
}

function refJson(mirror: Mirror, ref: PageRef, page: HistoryPage | undefined): HistoryJson['page'] {
  return {
    spaceId: ref.spaceId,
    pageKey: ref.pageKey,
    pageId: ref.pageKey.startsWith('new:') ? null : ref.pageKey,
    path: ref.path,
    file: fileInSyncFolder(mirror, ref.spaceId, ref.path),
    title: page?.title ?? null,
    deleted: page?.deleted ?? false,
  };
}

function pageJson(mirror: Mirror, p: HistoryPage) {
  return { ...refJson(mirror, { spaceId: p.spaceId, pageKey: p.pageKey, path: p.path }, p), versions: p.versions, lastAt: p.lastAt, lastReason: p.lastReason };
}

/** `2026-11-24 09:04` in UTC: stable, sortable, unambiguous. */
const when = (iso: string) => iso.replace('T', ' ').slice(0, 16);

function formatVersions(
  mirror: Pick<Mirror, 'catalog'>,
  ref: PageRef,
  page: HistoryPage | undefined,
  versions: VersionInfo[],
  target: string,
  dir: string,
): string {
  const file = fileInSyncFolder(mirror, ref.spaceId, ref.path) ?? ref.path ?? ref.pageKey;
  const space = mirror.catalog.space(ref.spaceId)?.title ?? ref.spaceId;
  const head = `${safeField(file)} — ${safeField(page?.title ?? '(untitled)')} (${ref.pageKey.startsWith('new:') ? 'a new page' : `page ${ref.pageKey}`} in ${safeField(space)})${page?.deleted ? ', deleted' : ''}`;
  if (versions.length === 0) return `${head}\n  No versions kept yet: Quire records one each time it pulls, pushes, merges or replaces this page.`;
  const lines = [
    head,
    ...versions.map(
      (v) => `  v${String(v.number).padEnd(4)} ${when(v.at)}  ${describe(v)}${v.path && v.path !== ref.path ? `  [at ${safeField(v.path)}]` : ''}`,
    ),
  ];
  lines.push(`Restore one with: quire restore ${safeField(target)} --version <n> --dir ${safeField(dir)}`);
  return lines.join('\n');
}

function describe(v: VersionInfo): string {
  return `${REASON_WORDS[v.reason]}${v.detail ? ` (${safeField(v.detail)})` : ''}`;
}

function formatPages(mirror: Mirror, pages: HistoryPage[]): string {
  if (pages.length === 0) return 'No page history in this folder yet: Quire records versions as it syncs.';
  const lines = ['Pages with history, latest change first:'];
  for (const p of pages) {
    const file = fileInSyncFolder(mirror, p.spaceId, p.path) ?? p.pageKey;
    lines.push(
      `  ${when(p.lastAt)}  ${safeField(file)} — ${safeField(p.title ?? '(untitled)')}: ${plural(p.versions, 'version')}, last ${REASON_WORDS[p.lastReason]}`,
    );
  }
  return lines.join('\n');
}
