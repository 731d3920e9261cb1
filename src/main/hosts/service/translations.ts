import type { TranslationVM } from '../../../shared/contract';
import { runTranslation, type TranslationView, translationViews } from '../../core/translations';
import { toQuireError } from './errors';
import { needApi, type ServiceState } from './state';
import type { HandlersFor } from './types';

/** The organizations' translations (the Sites view's panel): listed from the mirror, run again through the API. */
export function translationHandlers(state: ServiceState): HandlersFor<'translations.list' | 'translations.run'> {
  const orgTitle = (id: string) => state.mirror.catalog.organizations().find((o) => o.id === id)?.title ?? null;
  const vm = (t: TranslationView): TranslationVM => ({ ...t, organizationTitle: orgTitle(t.organizationId) });
  return {
    'translations.list': () => translationViews(state.mirror).map(vm),
    'translations.run': async (p) => {
      const api = needApi(state);
      try {
        return vm(await runTranslation(api, state.mirror, p.organizationId, p.translationId, state.abort.signal));
      } catch (e) {
        throw toQuireError(e, 'run the translation again', state.folder);
      } finally {
        state.events.changed('sites');
      }
    },
  };
}
