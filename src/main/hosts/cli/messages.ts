/**
 * What the command line says about the core's structured results and errors, in its own
 * terms: which command or flag to use next.
 */
import { TokenRejectedError } from '../../core/api';
import { explainStorageError, FolderBusyError } from '../../core/mirror';
import type { ReasonAction, StateReason } from '../../core/status';
import { describeMassDelete, type HeldDelete } from '../../core/sync';
import { safeField, shellWord } from './terminal-text';

type Hold = Parameters<typeof describeMassDelete>[0];

/** The mass-delete fail-safe stopped a space: what it would have deleted, and the commands that let it through or restore the files, for this folder. */
export function heldMessage(hold: Hold, space: { title: string; folder: string | null }, dir: string, held: readonly HeldDelete[] = []): string {
  const shown = { title: safeField(space.title), folder: space.folder === null ? null : safeField(space.folder) };
  const files = heldFiles(held, space.folder);
  const restore = hold.localDeletes > 0 ? `; otherwise \`${restoreDeletedCommand(dir, files)}\` puts the files back` : '; otherwise keep the files';
  return `${describeMassDelete(hold, shown)} If that is what you want, run \`${allowDeletesCommand(dir, files)}\`${restore}.`;
}

/** More files than this, and a command lets every held delete through (or restores every deleted file) instead of naming them. */
const NAMED_MAX = 10;

/** The held deletes' files as commands name them (relative to the sync folder; a page no record places, by its id). */
export function heldFiles(held: readonly HeldDelete[], folder: string | null): { files: string[]; deletedHere: string[] } {
  const name = (d: HeldDelete) => (d.path !== null && folder !== null ? `${folder}/${d.path}` : d.pageId);
  return { files: held.map(name), deletedHere: held.filter((d) => d.on === 'server').map(name) };
}

/** `quire sync --once` letting these deletes through by name (all of them, past NAMED_MAX or when none is named). */
export function allowDeletesCommand(dir: string, held: { files: string[] }): string {
  const named = held.files.length > 0 && held.files.length <= NAMED_MAX;
  return `quire sync --dir ${shellWord(dir)} --once ${named ? held.files.map((f) => `--allow-delete ${shellWord(f)}`).join(' ') : '--allow-deletes'}`;
}

/** `quire restore --deleted` putting back these deleted files by name (every file deleted here since the last sync, past NAMED_MAX). */
export function restoreDeletedCommand(dir: string, held: { deletedHere: string[] }): string {
  const named = held.deletedHere.length > 0 && held.deletedHere.length <= NAMED_MAX;
  return `quire restore --deleted ${named ? `${held.deletedHere.map(shellWord).join(' ')} ` : ''}--dir ${shellWord(dir)}`;
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

/**
 * What to do about a reason of the sync state, on the command line (the app offers a button for
 * each): every command runs as printed. `where.held`: the files a stop holds; `where.apiUrl`: the
 * address the folder syncs with, or for a folder that never synced the one to give it.
 */
export function stateAction(
  r: StateReason,
  where: { dir: string; apiUrl: string | null; folder: string | null; held?: { files: string[]; deletedHere: string[] } },
): string | null {
  const one = (action: ReasonAction) => actionWords(action, r, where);
  const first = one(r.action);
  const also = r.also ? one(r.also) : null;
  return first && also ? `${first.replace(/\.$/, '')}; or ${also}` : (first ?? also);
}

function actionWords(
  action: ReasonAction,
  r: StateReason,
  where: { dir: string; apiUrl: string | null; folder: string | null; held?: { files: string[]; deletedHere: string[] } },
): string | null {
  const dir = shellWord(where.dir);
  const file = r.path && where.folder ? safeField(`${dir}/${where.folder}/${r.path}`) : r.path ? safeField(r.path) : null;
  const held = where.held ?? { files: [], deletedHere: [] };
  switch (action) {
    case 'resolve-conflict':
      return `open ${file ?? 'the file'}, keep your side, theirs or both, then delete its .remote.md copy; the next sync pushes the result.`;
    case 'show-file':
      if (r.kind === 'editor-only') return `make the change in GitBook's editor, then delete ${file ?? 'the file'} to take GitBook's version back.`;
      return `open ${file ?? 'the file'} and fix it; the next sync pushes it.`;
    case 'restore-deleted':
      return `run \`${safeField(restoreDeletedCommand(where.dir, held))}\` to put the files back (history keeps them).`;
    case 'restore-file':
      return `run \`quire restore ${shellWord(safeField(where.folder && r.path ? `${where.folder}/${r.path}` : (r.path ?? '')))} --dir ${dir}\` to put the file back (history keeps it).`;
    case 'allow-deletes':
      return `run \`${safeField(allowDeletesCommand(where.dir, held))}\` to let ${held.files.length === 1 ? 'the delete' : 'these deletes'} through on purpose.`;
    case 'sign-in':
      return `run \`quire login${where.apiUrl ? ` --api ${safeField(where.apiUrl)}` : ''}\` (it reads the token from stdin), or set QUIRE_TOKEN to a valid token.`;
    case 'choose-spaces':
      return `run \`quire sync --dir ${dir} --once${where.apiUrl ? ` --api ${safeField(where.apiUrl)}` : ''}\` for every space the token reaches (or add --space with a space id for some).`;
    case 'sync-now':
      return `run \`quire sync --dir ${dir} --once\`.`;
    case 'resume':
      return `run \`quire sync --dir ${dir} --once\` (it resumes sync), or choose Resume in the app.`;
    case 'open-review':
      return r.reviewAction === undefined
        ? `run \`quire review --dir ${dir}\`: it lists the refused actions by number, and --dismiss with a number clears one.`
        : `run \`quire review --dir ${dir}\` to see it, and \`quire review --dismiss ${r.reviewAction} --dir ${dir}\` to clear it.`;
    case 'show-folder':
      return `look in ${where.folder ? safeField(`${dir}/${where.folder}`) : safeField(dir)}.`;
    case 'none':
      return null;
  }
}
