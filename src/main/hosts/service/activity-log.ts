import type { LogEntryVM, Params } from '../../../shared/contract';
import { spaceTitle, type ServiceState } from './state';
import type { HandlersFor } from './types';

/** The sync log, filtered by space, kind and text. */
export function logHandlers(state: ServiceState): HandlersFor<'log.list'> {
  function list(params: Params<'log.list'>): LogEntryVM[] {
    const text = params.text?.trim().toLowerCase();
    const limit = params.limit ?? 500;
    // Filtering happens here, so read more rows than asked for when a filter may drop some.
    const rows = state.mirror.log.recent(params.spaceId || text ? 5000 : limit, params.kind);
    return rows
      .filter((r) => (!params.spaceId || r.spaceId === params.spaceId) && (!text || r.message.toLowerCase().includes(text)))
      .slice(0, limit)
      .map((r) => ({ ...r, spaceTitle: spaceTitle(state, r.spaceId) }));
  }
  return { 'log.list': (p) => list(p) };
}
