/**
 * The Pages view's requests: each space's page tree (the mirror's, with the folder's new files),
 * one page rendered by the preview's renderer with its check problems, unresolved comments and
 * sync state, `pages.open` (shows a page in the view through the `pages.opened` event), opening a
 * page in the editor, and a change request's page rendered before and after. In the app a page
 * runs no code: page links become the route `pages.open`, `#pages/<spaceId>/<path>` (the view
 * follows them), images are inlined as data: URLs (the window's CSP allows no other source),
 * external links go through app.openExternal.
 */
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type CommentVM, type PageDetailVM, type PageNodeVM, type PageSyncState, QuireError, type SpacePagesVM } from '../../../shared/contract';
import { routeHash } from '../../../shared/routes';
import { checkPage, type LoadedFolder, loadFolder, MAX_ASSET_BYTES } from '../../core/check';
import { pageKind } from '../../core/content';
import { folderRenderContext, type PreviewUrls, renderPage } from '../../core/preview';
import { pendingEdits, resolveInside } from '../../core/sync';
import { spaceDir, type ServiceState } from './state';
import type { HandlersFor } from './types';

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

type PageRequests = 'pages.tree' | 'pages.get' | 'pages.open' | 'pages.openInEditor' | 'review.renderedDiff';

export function pageHandlers(state: ServiceState): HandlersFor<PageRequests> {
  // Read afresh for every request: the writer edits the files at any time, and a page must show what is on disk.
  // (One request reads the folder once: `folder()` is called again only by the request that loaded it, through `current`.)
  let current: LoadedFolder | null = null;
  const folder = (): LoadedFolder => current ?? loadFolder(state.folder, state.mirror);
  const withFolder = async <T>(run: () => T | Promise<T>): Promise<T> => {
    current = loadFolder(state.folder, state.mirror);
    try {
      return await run();
    } finally {
      current = null;
    }
  };
  const spaceOf = (spaceId: string) => {
    spaceDir(state, spaceId); // not-found with the reason when the space has no folder
    const space = folder().index.spaces.find((s) => s.spaceId === spaceId);
    if (!space) throw new QuireError('not-found', 'That space is not synced into this folder yet. Run a sync first.');
    return space;
  };

  const urls = (): PreviewUrls => ({
    page: (rootPath, anchor) => {
      const space = folder().index.spaceOf(rootPath);
      const path = space && space.folder !== '' ? rootPath.slice(space.folder.length + 1) : rootPath;
      return `${routeHash({ name: 'pages.open', spaceId: space?.spaceId ?? '', path })}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
    },
    asset: (rootPath) => {
      const type = IMAGE_TYPES[extname(rootPath).toLowerCase()];
      const file = folder().index.get(rootPath)?.file;
      if (!type || !file || file.size > MAX_ASSET_BYTES) return null;
      try {
        return `data:${type};base64,${readFileSync(join(state.folder, rootPath)).toString('base64')}`;
      } catch {
        return null;
      }
    },
  });

  async function syncStates(spaceId: string): Promise<{ state(path: string | null): PageSyncState; added: string[] }> {
    const conflicts = new Set(state.mirror.content.conflicts(spaceId).map((c) => c.path));
    const edits = await pendingEdits(state.mirror, spaceId, spaceDir(state, spaceId));
    const modified = new Set(edits.modified);
    return {
      state: (path) => (path === null ? 'synced' : conflicts.has(path) ? 'conflict' : modified.has(path) ? 'pending-edit' : 'synced'),
      added: edits.added,
    };
  }

  async function tree(): Promise<SpacePagesVM[]> {
    const out: SpacePagesVM[] = [];
    for (const space of state.mirror.catalog.selectedSpaces()) {
      if (!space.folder) continue;
      const rows = state.mirror.content.pages(space.id).sort((a, b) => a.position - b.position);
      const sync = await syncStates(space.id);
      const byParent = new Map<string | null, typeof rows>();
      for (const r of rows) byParent.set(r.parentId, [...(byParent.get(r.parentId) ?? []), r]);
      const build = (parent: string | null): PageNodeVM[] =>
        (byParent.get(parent) ?? []).map((r) => ({
          id: r.id,
          title: r.title,
          kind: pageKind(r.type),
          path: r.path,
          sync: sync.state(r.path),
          children: build(r.id),
        }));
      const added = sync.added.map((path): PageNodeVM => ({ id: `new:${path}`, title: path, kind: 'document', path, sync: 'new', children: [] }));
      out.push({ spaceId: space.id, title: space.title, folder: space.folder, pages: [...build(null), ...added] });
    }
    return out;
  }

  function comments(spaceId: string, pageId: string | null): CommentVM[] {
    if (!pageId || !state.review) return [];
    return state.review.comments({ spaceId, pageId }).filter((c) => c.status === 'open');
  }

  async function page(spaceId: string, path: string): Promise<PageDetailVM> {
    const space = spaceOf(spaceId);
    const rootPath = `${space.folder}/${path}`;
    const found = folder().index.get(rootPath);
    if (found?.file.kind !== 'page')
      throw new QuireError('not-found', `${path} is not a page of “${space.title}” (it was moved or deleted). Choose it again in the tree.`);
    const row = state.mirror.content.pageAt(spaceId, path) ?? null;
    const rendered = found.file.text === null ? null : renderPage(found.file.text, folderRenderContext(folder().index, rootPath, urls()));
    const sync = await syncStates(spaceId);
    return {
      spaceId,
      spaceTitle: space.title,
      path,
      pageId: row?.id ?? null,
      title: rendered?.title ?? row?.title ?? path,
      description: rendered?.description ?? null,
      hidden: rendered?.hidden ?? false,
      icon: rendered?.icon ?? null,
      html: rendered?.html ?? '<p class="gb-error">Quire cannot show this file: it is not UTF-8 text, or too large to push.</p>',
      frontmatterError: rendered?.frontmatterError ?? null,
      problems: checkPage(folder().index, rootPath).map(({ line, severity, code, message, fix }) => ({ line, severity, code, message, fix })),
      comments: comments(spaceId, row?.id ?? null),
      sync: row ? sync.state(path) : 'new',
    };
  }

  return {
    'pages.tree': () => tree(),
    'pages.get': ({ spaceId, path }) => withFolder(() => page(spaceId, path)),
    'pages.open': ({ spaceId, pageId, path }) => {
      // The folder's tree first: it knows pages only the change request has (a new page pushed).
      const target = path ?? (pageId ? (state.mirror.folder.node(spaceId, pageId)?.path ?? state.mirror.content.page(spaceId, pageId)?.path) : null);
      if (!target) throw new QuireError('not-found', 'That page has no file here (a group, a link, or not pulled yet).');
      state.events.emit('pages.opened', { spaceId, path: target });
    },
    'pages.openInEditor': async ({ spaceId, path }) => {
      await state.options.host.openPath(resolveInside(spaceDir(state, spaceId), path));
    },
    'review.renderedDiff': ({ spaceId, changeRequestId, pageId }) =>
      withFolder(async () => {
        if (!state.review) throw new QuireError('signed-out', 'You are signed out. Sign in with an API token first.');
        const detail = await state.review.changeRequest(spaceId, changeRequestId);
        const diff = detail.diff.find((d) => d.pageId === pageId);
        if (!diff) throw new QuireError('not-found', 'That page is not part of this change request any more. Open the change request again.');
        const space = folder().index.spaces.find((s) => s.spaceId === spaceId);
        const render = (text: string | null, path: string | null) => {
          if (text === null) return null;
          const rootPath = space ? `${space.folder}/${path ?? 'page.md'}` : (path ?? 'page.md');
          return renderPage(text, folderRenderContext(folder().index, rootPath, urls())).html;
        };
        return { before: render(diff.before, diff.previousPath ?? diff.path), after: render(diff.after, diff.path) };
      }),
  };
}
