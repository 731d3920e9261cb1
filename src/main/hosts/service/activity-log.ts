import type { LogActivity, LogEntry } from '../../core/mirror';
import { describeActivity, describeSource } from '../../core/sync';
import type { LogActivityVM, LogEntryVM, Params } from '../../../shared/contract';
import { spaceTitle, type ServiceState } from './state';
import type { HandlersFor } from './types';
import { logEntryText } from '../../../shared/log-search';

/** The sync log, filtered by space, kind and text (a pull's or a push's page titles and files included). */
export function logHandlers(state: ServiceState): HandlersFor<'log.list'> {
  function list(params: Params<'log.list'>): LogEntryVM[] {
    const text = params.text?.trim().toLowerCase();
    const limit = params.limit ?? 500;
    // Filtering by text happens here, so read more rows than asked for when it may drop some.
    const rows = state.mirror.log.recent(text ? 5000 : limit, params.kind, params.spaceId ? { spaceId: params.spaceId } : {});
    const entries = rows.map((r) => entryVM(state, r));
    return (text ? entries.filter((e) => logEntryText(e).includes(text)) : entries).slice(0, limit);
  }
  return { 'log.list': (p) => list(p) };
}

function entryVM(state: ServiceState, r: LogEntry): LogEntryVM {
  const { activity, ...rest } = r;
  return {
    ...rest,
    spaceTitle: spaceTitle(state, r.spaceId),
    ...(activity ? { message: describeActivity(activity), activity: activityVM(activity) } : { activity: null }),
  };
}

function activityVM(a: LogActivity): LogActivityVM {
  const from = a.revision?.mergedFrom;
  const words = describeSource(a);
  return {
    direction: a.direction,
    summary: describeActivity(a, { source: false }),
    pages: a.pages,
    morePages: a.morePages,
    files: a.files,
    moreFiles: a.moreFiles,
    relinked: a.relinked,
    ...(a.changeRequest ? { changeRequest: { id: a.changeRequest.id, number: a.changeRequest.number, subject: a.changeRequest.subject } } : {}),
    source:
      from && words
        ? {
            words,
            changeRequest: { id: from.id, number: from.number, subject: from.subject },
            createdBy: from.createdBy ?? null,
            mergedBy: from.mergedBy ?? null,
          }
        : null,
    revision: a.revision?.id ?? null,
  };
}
