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
    'app.openFolder': async ({ spaceId }) => {
      await host.openPath(spaceId ? spaceDir(state, spaceId) : state.folder);
    },
  };
}
