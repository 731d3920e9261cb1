import {
  type DeletedPage,
  deletedPages,
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
import { type Mirror, reusableContentOfKey } from '../../../core/mirror';
import { countFlag, dirFlag, has, UsageError, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { plural } from '../../../../shared/plural';
import { safeField, shellWord } from '../terminal-text';
import { describeDeletion } from './restore';
import { localTime, when } from '../../../../shared/when';

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
    const text = await mirror.withRepair(async () => {
      recordSyncedBaselines(mirror);
      if (target === undefined) {
        const pages = mirror.history.pages({ limit: 200 });
        // Files deleted here since the last sync: deleted, though history's last version says otherwise yet.
        const pending = new Map((await deletedPages(mirror, dir)).map((d) => [`${d.spaceId}\u0000${d.pageKey}`, d]));
        const deletion = (p: HistoryPage) => deletionOf(mirror, p, pending.get(`${p.spaceId}\u0000${p.pageKey}`));
        return has(args, 'json')
          ? JSON.stringify({ pages: pages.map((p) => ({ ...pageJson(mirror, p), deletion: deletion(p) })) }, null, 2)
          : formatPages(mirror, pages, deletion, dir);
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

function refJson(mirror: Pick<Mirror, 'catalog'>, ref: PageRef, page: HistoryPage | undefined): HistoryJson['page'] {
  return {
    spaceId: ref.spaceId,
    pageKey: ref.pageKey,
    pageId: ref.pageKey.startsWith('new:') || reusableContentOfKey(ref.pageKey) !== null ? null : ref.pageKey,
    path: ref.path,
    file: fileInSyncFolder(mirror, ref.spaceId, ref.path),
    title: page?.title ?? null,
    deleted: page?.deleted ?? false,
  };
}

function pageJson(mirror: Pick<Mirror, 'catalog'>, p: HistoryPage) {
  return { ...refJson(mirror, { spaceId: p.spaceId, pageKey: p.pageKey, path: p.path }, p), versions: p.versions, lastAt: p.lastAt, lastReason: p.lastReason };
}

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
  const head = `${safeField(file)} — ${safeField(page?.title ?? '(untitled)')} (${keyWords(ref.pageKey)} in ${safeField(space)})${page?.deleted ? ', deleted' : ''}`;
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

/** What a history key is, in words: a page, a page not pushed yet, or reusable content. */
function keyWords(key: string): string {
  if (key.startsWith('new:')) return 'a new page';
  const reusable = reusableContentOfKey(key);
  return reusable === null ? `page ${key}` : `reusable content ${reusable}`;
}

function describe(v: VersionInfo): string {
  return `${REASON_WORDS[v.reason]}${v.detail ? ` (${safeField(v.detail)})` : ''}`;
}

/** How a page was deleted, for a script: here or on the server, when, and whether the delete is synced yet; null when it is not deleted. */
interface Deletion {
  by: 'here' | 'server';
  at: string | null;
  pending: boolean;
  /** Where it went: the change request that carries the delete, or main's revision. */
  detail: string | null;
}

function deletionOf(mirror: Pick<Mirror, 'history'>, p: HistoryPage, pending: DeletedPage | undefined): Deletion | null {
  if (pending) return { by: 'here', at: pending.at, pending: true, detail: null };
  if (!p.deleted) return null;
  const last = mirror.history.version(p.spaceId, p.pageKey, p.lastNumber);
  const here = p.lastReason === 'deleted-locally';
  // Here: the change request that carries the delete; on the server, main's revision says nothing to a person.
  return { by: here ? 'here' : 'server', at: p.lastAt, pending: false, detail: here ? (last?.detail ?? null) : null };
}

function formatPages(mirror: Pick<Mirror, 'catalog'>, pages: HistoryPage[], deletion: (p: HistoryPage) => Deletion | null, dir: string): string {
  if (pages.length === 0) return 'No page history in this folder yet: Quire records versions as it syncs.';
  const lines = ['Pages with history, latest change first:'];
  let deleted = 0;
  let earliest: string | null = null;
  for (const p of pages) {
    const file = fileInSyncFolder(mirror, p.spaceId, p.path) ?? p.pageKey;
    const d = deletion(p);
    if (d) deleted++;
    if (d && !d.pending && d.at !== null && (earliest === null || d.at < earliest)) earliest = d.at;
    const what = d
      ? `DELETED ${describeDeletion(d)}${d.detail ? ` (${safeField(d.detail)})` : ''}; ${plural(p.versions, 'version')} kept`
      : `${plural(p.versions, 'version')}, last ${REASON_WORDS[p.lastReason]} ${when(p.lastAt)}`;
    lines.push(`  ${safeField(file)} — ${safeField(p.title ?? '(untitled)')}: ${what}`);
  }
  if (deleted > 0) {
    // From the minute of the earliest deletion listed: the command brings back every one listed.
    const since = earliest === null ? '' : ` --since ${shellWord(localTime(earliest).replace(/ \S+$/, ''))}`;
    lines.push(`Bring the deleted pages back with: \`quire restore --deleted${since} --dir ${shellWord(dir)}\` (or name their files after --deleted).`);
  }
  return lines.join('\n');
}
