/**
 * The Pages view's requests: each space's page tree (the mirror's, with the folder's new files),
 * one page rendered by the preview's renderer with its check problems, unresolved comments and
 * sync state (reusable content too: listed under “Reusable content”, held when edited here), `pages.open` (shows a page in the view through the `pages.opened` event), opening a
 * page in the editor, and a change request's page rendered before and after. In the app a page
 * runs no code: page links become the route `pages.open`, `#pages/<spaceId>/<path>` (the view
 * follows them), images are inlined as data: URLs (the window's CSP allows no other source),
 * external links go through app.openExternal.
 */
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type CommentVM, type PageDetailVM, type PageNodeVM, type PageSyncState, QuireError, type SpacePagesVM } from '../../../shared/contract';

/** Where a page stands, as the Pages view marks it. */
type PageMark = { sync: PageSyncState; changeRequest: number | null; why: string | null };
import { routeHash } from '../../../shared/routes';
import { checkPage, type LoadedFolder, loadFolder, MAX_ASSET_BYTES } from '../../core/check';
import { pageTitleOf } from '../../core/content';
import { folderRenderContext, type PreviewUrls, renderPage } from '../../core/preview';
import { changeRequestTarget, describeNotPushed, includeKey, pendingEdits, readExtras, resolveInside } from '../../core/sync';
import { openOrShow } from './app-actions';
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

  /** How each page file of a space stands: the writer's own work (new, edited, in Quire's change request, held, in conflict). */
  async function syncMarks(spaceId: string): Promise<{ of(path: string | null, key: string | null): PageMark; added: string[] }> {
    const { mirror } = state;
    const conflicts = new Set(mirror.content.conflicts(spaceId).map((c) => c.path));
    const edits = await pendingEdits(mirror, spaceId, spaceDir(state, spaceId));
    const modified = new Set([...edits.modified, ...edits.moved.map((m) => m.to)]);
    const added = new Set(edits.added);
    const held = new Map<string, string>();
    for (const a of mirror.outbox.attention(spaceId)) {
      held.set(a.path, a.reason === 'unsafe' ? (a.title ?? 'GitBook would damage it') : describeNotPushedReason(a));
    }
    for (const r of mirror.outbox.refused(spaceId).values()) if (r.path !== null) held.set(r.path, `the server refused it: ${r.message}`);
    const cr = mirror.outbox.changeRequest(spaceId);
    const pushed = cr?.changeRequestId ? mirror.outbox.pushedPages(spaceId) : new Map<string, never>();
    const inRequest = new Map<string, { key: string }>();
    for (const p of pushed.values()) if (p.path !== null && !p.deleted) inRequest.set(p.path, { key: p.id });
    return {
      added: edits.added,
      of(path, key) {
        const none: PageMark = { sync: 'synced', changeRequest: null, why: null };
        if (path === null) return none;
        const pushedHere = inRequest.get(path) ?? (key !== null && pushed.has(key) ? { key } : undefined);
        const changeRequest = pushedHere ? (cr?.number ?? null) : null;
        // A page created here lives only in the change request until it is merged.
        const created = pushedHere !== undefined && mirror.content.page(spaceId, pushedHere.key) === undefined;
        const base = { changeRequest, why: null };
        if (conflicts.has(path)) return { ...base, sync: 'conflict' };
        const why = held.get(path);
        if (why !== undefined) return { ...base, sync: 'held', why };
        if (added.has(path) || created) return { ...base, sync: 'new' };
        if (modified.has(path)) return { ...base, sync: 'edited' };
        if (pushedHere) return { ...base, sync: 'in-change-request' };
        return none;
      },
    };
  }

  /**
   * A space's pages as the folder has them: the folder's tree (pages created here and pushed
   * into the change request included, not only main's), and files not pushed yet under the page
   * whose folder holds them, titled by their heading.
   */
  async function tree(): Promise<SpacePagesVM[]> {
    const out: SpacePagesVM[] = [];
    for (const space of state.mirror.catalog.selectedSpaces()) {
      if (!space.folder) continue;
      const nodes = state.mirror.folder.tree(space.id);
      const marks = await syncMarks(space.id);
      const byParent = new Map<string | null, typeof nodes>();
      for (const n of nodes) byParent.set(n.parentKey, [...(byParent.get(n.parentKey) ?? []), n]);
      const added = new Map<string | null, PageNodeVM[]>();
      for (const path of marks.added) {
        const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null;
        const parent = dir === null ? null : (state.mirror.folder.byFolder(space.id, dir) ?? null);
        const node: PageNodeVM = {
          id: `new:${path}`,
          title: titleOfFile(join(state.folder, space.folder, path), path.replace(/^.*\//, '').replace(/\.md$/i, '')),
          kind: 'document',
          path,
          ...marks.of(path, null),
          children: [],
        };
        added.set(parent, [...(added.get(parent) ?? []), node]);
      }
      const build = (parent: string | null): PageNodeVM[] => [
        ...(byParent.get(parent) ?? [])
          .sort((a, b) => a.position - b.position)
          .map((n) => {
            const mark = marks.of(n.path, n.key.startsWith('new:') ? null : n.key);
            // A page created here is titled by its file (its heading), as the server will title it.
            const title = mark.sync === 'new' && n.path ? titleOfFile(join(state.folder, space.folder!, n.path), n.title) : n.title;
            return { id: n.key, title, kind: n.kind, path: n.path, ...mark, children: build(n.key) };
          }),
        ...(added.get(parent) ?? []),
      ];
      out.push({ spaceId: space.id, title: space.title, folder: space.folder, pages: [...build(null), ...includesNode(space.id, marks)] });
    }
    return out;
  }

  /** The space's reusable content, as a group after its pages (none when it has none). */
  function includesNode(spaceId: string, marks: { of(path: string | null, key: string | null): PageMark }): PageNodeVM[] {
    const includes = readExtras(state.mirror, spaceId).includes;
    if (includes.length === 0) return [];
    const children = includes.map(
      (i): PageNodeVM => ({ id: includeKey(i.id), title: i.title, kind: 'document', path: i.path, ...marks.of(i.path, null), children: [] }),
    );
    return [{ id: 'includes', title: 'Reusable content', kind: 'group', path: null, sync: 'synced', changeRequest: null, why: null, children }];
  }

  function comments(spaceId: string, pageId: string | null): CommentVM[] {
    if (!pageId || !state.review) return [];
    return state.review.comments({ spaceId, pageId }).filter((c) => c.status === 'open');
  }

  async function page(spaceId: string, path: string): Promise<PageDetailVM> {
    const space = spaceOf(spaceId);
    const rootPath = `${space.folder}/${path}`;
    const found = folder().index.get(rootPath);
    if (found?.file.kind !== 'page' && found?.file.kind !== 'include')
      throw new QuireError('not-found', `${path} is not a page of “${space.title}” (it was moved or deleted). Choose it again in the tree.`);
    const row = state.mirror.content.pageAt(spaceId, path) ?? null;
    const pageComments = comments(spaceId, row?.id ?? null);
    // A comment on a line of the change request that receives this folder's edits: the folder's file is what it holds.
    const target = changeRequestTarget(state.mirror, spaceId).changeRequestId;
    const commentLines = new Set(pageComments.flatMap((c) => (c.changeRequestId === target && typeof c.line === 'number' ? [c.line] : [])));
    const rendered = found.file.text === null ? null : renderPage(found.file.text, { ...folderRenderContext(folder().index, rootPath, urls()), commentLines });
    const marks = await syncMarks(spaceId);
    const key = state.mirror.folder.byPath(spaceId, path) ?? null;
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
      comments: pageComments,
      ...marks.of(path, key !== null && !key.startsWith('new:') ? key : null),
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
    'pages.openInEditor': ({ spaceId, path }) => openOrShow(state, resolveInside(spaceDir(state, spaceId), path)),
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

/** A page file's title (its heading, else its frontmatter's), else `fallback`. */
function titleOfFile(file: string, fallback: string): string {
  try {
    return pageTitleOf(readFileSync(file, 'utf8')) || fallback;
  } catch {
    return fallback;
  }
}

/** A held entry (not the push guard's) said as the sync says it, without the path it is about. */
function describeNotPushedReason(a: { reason: string; path: string; line?: number; title?: string }): string {
  return describeNotPushed({ key: null, ...a, reason: a.reason as never }).replace(/^[^:]*: /, '');
}
