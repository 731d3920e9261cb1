/**
 * What the command line says about the core's structured results and errors, in its own
 * terms: which command or flag to use next.
 */
import { TokenRejectedError } from '../../core/api';
import { explainStorageError, FolderBusyError } from '../../core/mirror';
import type { StateReason } from '../../core/status';
import { describeMassDelete } from '../../core/sync';
import { safeField, shellWord } from './terminal-text';

type Hold = Parameters<typeof describeMassDelete>[0];

/** The mass-delete fail-safe stopped a space: what it would have deleted, and the command that lets it through for this folder. */
export function heldMessage(hold: Hold, space: { title: string; folder: string | null }, dir: string): string {
  const shown = { title: safeField(space.title), folder: space.folder === null ? null : safeField(space.folder) };
  return `${describeMassDelete(hold, shown)} If that is what you want, run \`quire sync --dir ${shellWord(dir)} --once --allow-deletes\`; otherwise restore the files.`;
}

export { shellWord } from './terminal-text';

/**
 * An error's message, with what to run next when the command line knows better than the core.
 * SQLite failing on the folder's mirror (`dir`) is said in plain words, for every command.
 */
export function errorMessage(raw: unknown, dir?: string): string {
  const err = dir === undefined ? raw : explainStorageError(raw, dir);
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof TokenRejectedError) return `${message} Run \`quire login\` to sign in again, or set QUIRE_TOKEN to a valid API token.`;
  if (err instanceof FolderBusyError) return `${message} Let it finish (or stop it), then run this again; \`quire status\` works meanwhile.`;
  return message;
}

/** What to do about a reason of the sync state, on the command line (the app offers a button for each). */
export function stateAction(r: StateReason, where: { dir: string; apiUrl: string | null; folder: string | null }): string | null {
  const dir = shellWord(where.dir);
  const file = r.path && where.folder ? safeField(`${dir}/${where.folder}/${r.path}`) : r.path ? safeField(r.path) : null;
  switch (r.action) {
    case 'resolve-conflict':
      return `open ${file ?? 'the file'}, keep your side, theirs or both, then delete its .remote.md copy; the next \`quire sync\` pushes the result.`;
    case 'show-file':
      if (r.kind === 'editor-only') return `make the change in GitBook's editor, then delete ${file ?? 'the file'} to take GitBook's version back.`;
      return `open ${file ?? 'the file'} and fix it; the next \`quire sync\` pushes it.`;
    case 'restore-deleted':
      return `\`quire history --dir ${dir}\` lists the deleted pages, \`quire restore <file> --version <n> --dir ${dir}\` puts one back (or \`quire sync --dir ${dir} --once --allow-deletes\` deletes them on purpose).`;
    case 'sign-in':
      return `run \`quire login${where.apiUrl ? ` --api ${safeField(where.apiUrl)}` : ''}\` (it reads the token from stdin), or set QUIRE_TOKEN to a valid token.`;
    case 'choose-spaces':
      return `run \`quire sync --dir ${dir} --once --space <spaceId>\` for the spaces you want (or --all-spaces for every one).`;
    case 'sync-now':
      return `run \`quire sync --dir ${dir} --once\`.`;
    case 'resume':
      return `run \`quire sync --dir ${dir}\` (it resumes), or choose Resume in the app.`;
    case 'open-review':
      return `run \`quire review --dir ${dir}\`: it lists the refused actions by number, and \`quire review --dismiss <n> --dir ${dir}\` clears one.`;
    case 'show-folder':
      return `look in ${where.folder ? safeField(`${dir}/${where.folder}`) : safeField(dir)}.`;
    case 'none':
      return null;
  }
}
