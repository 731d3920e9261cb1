import { isAbsolute, resolve as resolvePath } from 'node:path';
import { QuireError, type SettingsVM } from '../../../shared/contract';
import { API_URL_META } from '../../core/api';
import { type Mirror, StateFileError, StorageError, UnsafeSyncFolderError } from '../../core/mirror';
import { describeError } from './errors';
import type { Session } from './session';
import { loadStoredToken } from './session';
import { connectCore, openFolder, sameApi, type ServiceState } from './state';
import type { SyncRunner } from './sync-runner';
import type { HandlersFor } from './types';

/** The sync folder and notification settings; changing the folder reopens the mirror there. */
export function settingsHandlers(
  state: ServiceState,
  runner: SyncRunner,
  session: Pick<Session, 'vm'>,
): HandlersFor<'settings.get' | 'settings.update' | 'settings.chooseFolder'> {
  const { options } = state;

  const vm = (): SettingsVM => ({
    folder: state.folder,
    notifications: state.notifications,
    host: options.host.kind,
    canChooseFolder: !!options.host.chooseFolder,
  });

  async function switchFolder(next: string): Promise<void> {
    if (!isAbsolute(next)) throw new QuireError('invalid-request', `The sync folder must be an absolute path, like /home/you/Docs; got “${next}”.`);
    const target = resolvePath(next);
    if (target === state.folder) return;
    if (runner.running()) throw new QuireError('busy', 'A sync is running. Wait for it to finish, then change the folder.');
    let opened: Mirror;
    try {
      opened = openFolder(target);
    } catch (e) {
      if (e instanceof UnsafeSyncFolderError || e instanceof StateFileError || e instanceof StorageError) throw new QuireError('invalid-request', e.message);
      throw new QuireError('invalid-request', `Cannot use ${target} as the sync folder: ${describeError(e)}. Pick a folder you can write to.`);
    }
    await runner.halt(); // the watcher and timer were the old folder's
    state.mirror.close();
    state.mirror = opened;
    state.folder = target;
    const remembered = opened.catalog.getMeta(API_URL_META);
    if (remembered && !sameApi(remembered, state.apiUrl)) {
      // That folder belongs to another API: use its address and the token saved for it, never this one's.
      state.apiUrl = remembered;
      state.token = null;
      await loadStoredToken(state);
      state.signedOutReason = state.token ? undefined : `This folder syncs with ${remembered}. Sign in to it to sync here.`;
      state.events.emit('session.changed', session.vm());
    } else if (state.token) {
      state.mirror.catalog.setMeta(API_URL_META, state.apiUrl);
    }
    connectCore(state);
    await state.status.refresh();
    if (opened.notices.length > 0) runner.announce(opened.notices.join(' '));
    void runner.schedule();
  }

  const persist = () => options.onSettingsChange?.({ folder: state.folder, notifications: state.notifications });

  return {
    'settings.get': () => vm(),
    'settings.update': async ({ folder: nextFolder, notifications: nextNotify }) => {
      if (nextFolder !== undefined) await switchFolder(nextFolder);
      if (nextNotify !== undefined) state.notifications = nextNotify;
      persist();
      state.events.changed('settings', 'catalog', 'conflicts', 'log', 'review', 'sites', 'history');
      return vm();
    },
    'settings.chooseFolder': async () => {
      if (!options.host.chooseFolder) throw new QuireError('unsupported', 'This window cannot show a folder picker. Type the folder path instead.');
      const picked = await options.host.chooseFolder();
      if (picked) {
        await switchFolder(picked);
        persist();
        state.events.changed('settings', 'catalog', 'conflicts', 'log', 'review', 'sites', 'history');
      }
      return vm();
    },
  };
}
