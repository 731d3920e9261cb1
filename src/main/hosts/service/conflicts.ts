import { lstatSync, type Stats } from 'node:fs';
import { QuireError, type ConflictVM } from '../../../shared/contract';
import { ConflictNotFoundError, readConflict, resolveConflict, type ConflictChoice, resolveInside } from '../../core/sync';
import { openOrShow } from './app-actions';
import { spaceDir, spaceTitle, type ServiceState } from './state';
import type { SyncRunner } from './sync-runner';
import type { HandlersFor } from './types';

/** Conflicts as the window shows them: the writer's text, the server's, and the merge base. */
async function conflictsVM(state: ServiceState): Promise<ConflictVM[]> {
  return Promise.all(
    state.mirror.content.conflicts().map(async (c) => {
      const texts = await readConflict(state.mirror, state.folder, c.spaceId, c.path);
      return {
        spaceId: c.spaceId,
        spaceTitle: spaceTitle(state, c.spaceId) ?? c.spaceId,
        path: c.path,
        pageId: c.pageId,
        kind: c.kind,
        detectedAt: c.detectedAt,
        local: texts.local,
        remote: texts.remote,
        base: texts.base,
      };
    }),
  );
}

/** Resolves through the sync core, turning "no such conflict" into the contract's not-found. */
async function resolve(state: ServiceState, spaceId: string, path: string, choice: ConflictChoice): Promise<void> {
  try {
    await resolveConflict(state.mirror, state.folder, spaceId, path, choice);
  } catch (err) {
    if (err instanceof ConflictNotFoundError) throw new QuireError('not-found', err.message);
    throw err;
  }
}

export function conflictHandlers(state: ServiceState, runner: SyncRunner): HandlersFor<'conflicts.list' | 'conflicts.resolve' | 'conflicts.openInEditor'> {
  return {
    'conflicts.list': () => conflictsVM(state),
    'conflicts.resolve': async ({ spaceId, path, choice }) => {
      const running = runner.running();
      if (running) await running;
      await resolve(state, spaceId, path, choice);
      await state.status.refresh();
      state.events.changed('conflicts', 'catalog', 'log');
      // Mine is pushed; theirs is recorded as in sync: either way a cycle settles it now, not at the next interval.
      if (state.token) void runner.request();
      return conflictsVM(state);
    },
    'conflicts.openInEditor': ({ spaceId, path }) => openOrShow(state, conflictFile(state, spaceId, path)),
  };
}

/**
 * The one kind of file the window may ask the desktop to open: the page file of a conflict,
 * or its `.remote.md` copy — a markdown file, really a file (not a link), inside the space.
 * Anything else the system would open with its default handler (a script, an app), so the
 * request is refused whatever the renderer sends.
 */
function conflictFile(state: ServiceState, spaceId: string, path: string): string {
  const conflict = state.mirror.content.conflicts(spaceId).find((c) => c.path === path || c.remotePath === path);
  const refuse = () => new QuireError('not-found', 'Quire opens only the files of a conflict (the page and its .remote.md copy), and that is not one of them.');
  if (!conflict || !path.toLowerCase().endsWith('.md')) throw refuse();
  const full = resolveInside(spaceDir(state, spaceId), path);
  let stat: Stats;
  try {
    stat = lstatSync(full);
  } catch {
    throw new QuireError('not-found', `${path} is not in the space folder any more. Sync again to bring the conflict up to date.`);
  }
  if (!stat.isFile()) throw refuse();
  return full;
}

/** `space/path` of every conflict, for notifications. */
export function conflictIds(state: ServiceState): string[] {
  return state.mirror.content.conflicts().map((c) => `${c.spaceId}/${c.path}`);
}
