import { resolve } from 'node:path';
import { type DeletedPage, deletedPages, recordSyncedBaselines, restoreDeleted, restoreVersion } from '../../../core/history';
import type { Mirror } from '../../../core/mirror';
import { dirFlag, flag, has, sinceFlag, UsageError, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { withFolderTurn } from '../folder-turn';
import { EXIT, type CliIo } from '../io';
import { safeField, shellWord } from '../terminal-text';
import { plural } from '../../../../shared/plural';
import { when } from '../../../../shared/when';

/**
 * `quire restore <file or page id> [--version <n>] --dir <folder>`: writes that version back into
 * the folder (without --version, a file that is gone comes back as it was last kept); the next
 * sync pushes it like any edit. The file's current text is kept in history first.
 *
 * `quire restore --deleted [<file>...] [--since <time>] --dir <folder>`: every page deleted since
 * the last sync comes back (or those named); with --since, also the pages whose deletes reached
 * the server (or came from it) since then.
 *
 * It writes holding the folder's lock, as `quire sync --once` does, so never beside another
 * Quire's sync cycle: it waits briefly, then says who holds the folder (exit 1).
 */
export async function restore(args: ParsedArgs, io: CliIo, ctx: Pick<CliContext, 'openMirror'>): Promise<number> {
  const dir = dirFlag(args);
  const deleted = has(args, 'deleted');
  const since = sinceFlag(args);
  const raw = flag(args, 'version');
  if (deleted && raw !== undefined)
    throw new UsageError('--deleted brings back the latest version of each deleted page: leave --version out.', { usage: false });
  if (!deleted && since !== null) throw new UsageError('--since goes with --deleted: quire restore --deleted --since <time>.', { usage: false });
  if (!deleted && args.positionals.length === 0)
    throw new UsageError('missing <file or page id>: the page, by its file or its page id (`quire history` lists them), or --deleted for the deleted ones.');
  if (!deleted && args.positionals.length > 1)
    throw new UsageError(`unexpected argument "${args.positionals[1]}": quire restore takes one page (or several after --deleted).`);
  // `3` or `v3`, as history shows it; plain digits only (`1e3` is not version 1000).
  const version = raw === undefined ? null : /^v?[0-9]{1,9}$/i.test(raw) ? Number(raw.replace(/^v/i, '')) : 0;
  if (version !== null && version < 1)
    throw new UsageError(`--version takes a version number from \`quire history\`, such as --version 3; got "${raw}".`, { usage: false });
  const mirror = ctx.openMirror(dir);
  try {
    return await withFolderTurn(dir, 'quire restore', io, () =>
      mirror.withRepair(async () => {
        recordSyncedBaselines(mirror);
        return deleted ? restoreAllDeleted(mirror, dir, io, args.positionals, since) : restoreOne(mirror, dir, io, args.positionals[0]!, version);
      }, io.stderr),
    );
  } finally {
    mirror.close();
  }
}

async function restoreOne(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox' | 'search' | 'transaction'>,
  dir: string,
  io: CliIo,
  target: string,
  version: number | null,
): Promise<number> {
  if (version === null) {
    // No version: a page whose file is gone comes back as last kept; one still there needs its version.
    const gone = (await deletedPages(mirror, dir, { since: '' })).find((p) => named(p, target, dir));
    if (!gone)
      throw new UsageError(
        `${safeField(target)} is not a deleted page: give --version <n> (\`quire history ${shellWord(target)} --dir ${shellWord(dir)}\` lists them).`,
        { usage: false },
      );
    return restoreAllDeleted(mirror, dir, io, [target], null);
  }
  const result = await restoreVersion(mirror, dir, { target, version });
  const file = safeField(result.file);
  if (result.outcome === 'unchanged') {
    io.stdout(`${file} already holds version ${version}; nothing to do.`);
    return EXIT.ok;
  }
  const lines = [
    result.besideOther
      ? `Version ${version} went to ${file}: the page's own path now holds another page's file, which was left alone.`
      : `Restored version ${version} into ${file}.`,
  ];
  if (result.saved) lines.push(`Its previous text is kept as version ${result.saved.number} (\`quire history ${shellWord(target)} --dir ${shellWord(dir)}\`).`);
  lines.push('The next sync pushes it like any edit.');
  io.stdout(lines.join('\n'));
  return EXIT.ok;
}

/** Every deleted page (since the last sync; with `since`, since then), or those `names` names. */
async function restoreAllDeleted(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox' | 'search' | 'transaction'>,
  dir: string,
  io: CliIo,
  names: readonly string[],
  since: string | null,
): Promise<number> {
  const all = await deletedPages(mirror, dir, { since: names.length > 0 ? '' : since });
  const chosen = names.length === 0 ? all : all.filter((p) => names.some((n) => named(p, n, dir)));
  const unknown = names.filter((n) => !all.some((p) => named(p, n, dir)));
  if (unknown.length > 0)
    throw new UsageError(
      `${unknown.map(safeField).join(', ')}: not ${unknown.length === 1 ? 'a deleted page' : 'deleted pages'} of this folder (\`quire history --dir ${shellWord(dir)}\` lists them). Nothing was restored.`,
      { usage: false },
    );
  if (chosen.length === 0) {
    io.stdout(since ? `No page was deleted since ${when(since)}.` : 'No page was deleted since the last sync; add --since <time> for pages deleted before it.');
    return EXIT.ok;
  }
  const { restored, missing } = await restoreDeleted(mirror, dir, chosen);
  const lines = [`Restored ${plural(restored.length, 'deleted page')}:`];
  for (const r of restored)
    lines.push(
      `  ${safeField(r.file)}${r.page.title ? ` (“${safeField(r.page.title)}”)` : ''} — deleted ${describeDeletion(r.page)}${r.besideOther ? '; its path holds another file now, so it went beside it' : ''}`,
    );
  for (const m of missing) lines.push(`  not restored: ${safeField(m.file ?? m.pageKey)}: no version of it is kept`);
  lines.push('The next sync pushes them like any edit.');
  io.stdout(lines.join('\n'));
  return missing.length > 0 && restored.length === 0 ? EXIT.error : EXIT.ok;
}

/** "here, not synced yet", "here 5 min ago", "on the server 2 h ago". */
export function describeDeletion(p: Pick<DeletedPage, 'by' | 'pending' | 'at'>): string {
  if (p.pending) return `here${p.at ? ` ${when(p.at)}` : ' since the last sync'}, not synced yet`;
  return `${p.by === 'here' ? 'here' : 'on the server'} ${when(p.at)}`;
}

/** Whether a file (relative to the sync folder or this directory, or absolute) or page id names the page. */
function named(p: DeletedPage, name: string, dir: string): boolean {
  if (name === p.pageKey) return true;
  if (p.file === null) return false;
  const file = resolve(dir, p.file).normalize('NFC');
  return [resolve(name), resolve(dir, name)].some((n) => n.normalize('NFC') === file);
}
