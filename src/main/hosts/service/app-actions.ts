import type { OpenedVM } from '../../../shared/contract';
import { checkExternalUrl } from '../../../shared/external-url';
import { spaceDir, type ServiceState } from './state';
import type { HandlersFor } from './types';

/** Opening links and folders, which only the host can do. */
export function appHandlers(state: ServiceState): HandlersFor<'app.openExternal' | 'app.openFolder'> {
  const { host } = state.options;
  return {
    'app.openExternal': async ({ url }) => {
      await host.openExternal(checkExternalUrl(url));
    },
    'app.openFolder': ({ spaceId }) => openOrShow(state, spaceId ? spaceDir(state, spaceId) : state.folder),
  };
}

/** Opens an (already checked) absolute path where the host can; otherwise answers with the path for the user to copy. */
export async function openOrShow(state: ServiceState, path: string): Promise<OpenedVM> {
  const { openPath } = state.options.host;
  if (!openPath) return { opened: false, path };
  await openPath(path);
  return { opened: true, path };
}
