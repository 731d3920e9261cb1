import { recordSyncedBaselines, restoreVersion } from '../../../core/history';
import { dirFlag, requireFlag, UsageError, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { withFolderTurn } from '../folder-turn';
import { EXIT, type CliIo } from '../io';
import { safeField } from '../terminal-text';

/**
 * `quire restore <file or page id> --version <n> --dir <folder>`: writes that version back
 * into the folder; the next sync pushes it like any edit. The file's current text is kept in
 * history first. It writes holding the folder's lock, as `quire sync --once` does, so never
 * beside another Quire's sync cycle: it waits briefly, then says who holds the folder (exit 1).
 */
export async function restore(args: ParsedArgs, io: CliIo, ctx: Pick<CliContext, 'openMirror'>): Promise<number> {
  const dir = dirFlag(args);
  const target = args.positionals[0]!;
  const raw = requireFlag(args, 'version');
  // `3` or `v3`, as history shows it; plain digits only (`1e3` is not version 1000).
  const version = /^v?[0-9]{1,9}$/i.test(raw) ? Number(raw.replace(/^v/i, '')) : 0;
  if (version < 1) throw new UsageError(`--version takes a version number from \`quire history\`, such as --version 3; got "${raw}".`, { usage: false });
  const mirror = ctx.openMirror(dir);
  try {
    const result = await withFolderTurn(dir, 'quire restore', io, () =>
      mirror.withRepair(() => {
        recordSyncedBaselines(mirror);
        return restoreVersion(mirror, dir, { target, version });
      }, io.stderr),
    );
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
    if (result.saved)
      lines.push(`Its previous text is kept as version ${result.saved.number} (\`quire history ${safeField(target)} --dir ${safeField(dir)}\`).`);
    lines.push('The next sync pushes it like any edit.');
    io.stdout(lines.join('\n'));
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}
