import { QuireError, type HistoryPageVM, type PageHistoryVM, type SearchResultVM } from '../../../shared/contract';
import { join } from 'node:path';
import {
  fileInSyncFolder,
  findPage,
  type HistoryPage,
  PageNotFoundError,
  recordSyncedBaselines,
  refOf,
  restoreVersion,
  VersionNotFoundError,
  versionListing,
} from '../../core/history';
import type { Mirror } from '../../core/mirror';
import { type FolderSearchHit, indexNewSpaces, searchFolder } from '../../core/search';
import { pendingEdits } from '../../core/sync';
import { toQuireError } from './errors';
import { spaceDir, spaceTitle, type ServiceState } from './state';
import type { SyncRunner } from './sync-runner';
import type { HandlersFor } from './types';

type FindRequest = 'search.query' | 'history.pages' | 'history.versions' | 'history.text' | 'history.restore' | 'history.restoreDeleted';

function toResultVM(h: FolderSearchHit): SearchResultVM {
  const base = { spaceId: h.spaceId, spaceTitle: h.spaceTitle, title: h.title, snippet: h.snippet, file: h.file };
  if (h.kind === 'page') return { ...base, kind: 'page', pageKey: h.key, pageId: h.pageId, reusable: h.reusable, path: h.path };
  return {
    ...base,
    kind: h.kind,
    commentId: h.commentId,
    replyId: h.kind === 'reply' ? h.id : null,
    author: h.author,
    changeRequestId: h.changeRequestId,
    changeRequestNumber: h.changeRequestNumber,
    pageId: h.pageId,
  };
}

/** `runner`: history.restore and restoreDeleted write into the folder under its lock, never during a sync cycle. */
export function findHandlers(state: ServiceState, runner: Pick<SyncRunner, 'holdingFolder' | 'request'>): HandlersFor<FindRequest> {
  /** Indexing under way, per mirror (a folder switch opens another); searches meanwhile wait for it. */
  const indexing = new WeakMap<Mirror, Promise<void>>();
  const historyReady = new WeakSet<Mirror>();

  /**
   * Spaces the index has not seen are indexed from their files first: once per space, and again
   * after the index was made again (damaged). With nothing to index, a lookup per space.
   */
  const readyToSearch = (): Promise<void> => {
    const mirror = state.mirror;
    let ready = indexing.get(mirror);
    if (!ready) {
      // Search damaged: made again (said in the log), then indexed from the folder.
      ready = mirror
        .withRepair(() => indexNewSpaces(mirror, state.folder), state.log)
        .then(
          () => undefined,
          (e: unknown) => {
            throw toQuireError(e, 'index the folder for search', state.folder);
          },
        )
        .finally(() => indexing.delete(mirror));
      indexing.set(mirror, ready);
    }
    return ready;
  };

  const history = (): Mirror => {
    const mirror = state.mirror;
    if (!historyReady.has(mirror)) {
      recordSyncedBaselines(mirror);
      historyReady.add(mirror);
    }
    return mirror;
  };

  const pageVM = (p: HistoryPage): HistoryPageVM => ({
    spaceId: p.spaceId,
    spaceTitle: spaceTitle(state, p.spaceId) ?? p.spaceId,
    pageKey: p.pageKey,
    path: p.path,
    file: fileInSyncFolder(state.mirror, p.spaceId, p.path),
    title: p.title,
    versions: p.versions,
    lastAt: p.lastAt,
    lastReason: p.lastReason,
    deleted: p.deleted,
  });

  const notFound = (spaceId: string, pageKey: string) =>
    new QuireError('not-found', `No versions of that page are kept (${pageKey} in ${spaceTitle(state, spaceId) ?? spaceId}).`);

  return {
    'search.query': async ({ query, spaceId, kinds, limit }) => {
      await readyToSearch();
      return searchFolder(state.mirror, query, { spaceId, kinds, limit: limit ?? 20 }).map(toResultVM);
    },
    'history.pages': ({ spaceId, text, limit }) =>
      history()
        .history.pages({ spaceId, text, limit: limit ?? 500 })
        .map(pageVM),
    'history.versions': ({ spaceId, pageKey }): PageHistoryVM => {
      const mirror = history();
      const page = mirror.history.page(spaceId, pageKey);
      if (!page) throw notFound(spaceId, pageKey);
      // Where the file is now, which may be newer than the latest version's path.
      const path = refOf(mirror, spaceId, pageKey).path ?? page.path;
      return { page: pageVM({ ...page, path }), versions: mirror.history.versions(spaceId, pageKey).map(versionListing) };
    },
    'history.text': ({ spaceId, pageKey, version }) => {
      const text = history().history.text(spaceId, pageKey, version);
      if (text === undefined) throw new QuireError('not-found', `Version ${version} of that page is not kept (any more).`);
      return { number: version, text };
    },
    'history.restore': async ({ spaceId, pageKey, version }) => {
      try {
        const result = await runner.holdingFolder('restoring a version', () =>
          state.mirror.withRepair(() => restoreVersion(history(), state.folder, { spaceId, pageKey, version }), state.log),
        );
        return { version, file: result.file, outcome: result.outcome, savedVersion: result.saved?.number ?? null, besideOther: result.besideOther };
      } catch (e) {
        if (e instanceof VersionNotFoundError || e instanceof PageNotFoundError) throw new QuireError('not-found', e.message);
        throw toQuireError(e, 'restore that version', state.folder);
      } finally {
        state.events.changed('history');
      }
    },
    'history.restoreDeleted': async ({ spaceId, paths }) => {
      const mirror = history();
      const dir = spaceDir(state, spaceId);
      const restored: string[] = [];
      const missing: string[] = [];
      try {
        await runner.holdingFolder('restoring deleted files', async () => {
          // The files deleted here since the last sync, or those named (a delete the server refused is one of them).
          for (const path of paths ?? (await pendingEdits(mirror, spaceId, dir)).deleted) {
            const ref = pageAtPathOrNull(mirror, join(dir, path));
            const newest = ref ? mirror.history.versions(ref.spaceId, ref.pageKey)[0] : undefined;
            if (!ref || !newest) {
              missing.push(path);
              continue;
            }
            restored.push((await restoreVersion(mirror, state.folder, { spaceId: ref.spaceId, pageKey: ref.pageKey, version: newest.number })).file);
          }
        });
      } catch (e) {
        throw toQuireError(e, 'restore the deleted files', state.folder);
      } finally {
        state.events.changed('history', 'catalog', 'conflicts');
      }
      // The files are back: the next cycle finds nothing to delete, and the stop is over.
      if (restored.length > 0 && state.token) void runner.request();
      return { restored, missing };
    },
  };

  function pageAtPathOrNull(mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'search'>, file: string) {
    try {
      return findPage(mirror, state.folder, file);
    } catch (e) {
      if (e instanceof PageNotFoundError) return null;
      throw e;
    }
  }
}
