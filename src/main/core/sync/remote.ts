/**
 * Main now, as a cycle sees it: the revision's page tree (one request, fetched only when the
 * space's revision moved), what differs from main as last synced, and page bodies (one request
 * each, fetched only for the pages a decision needs or a write takes).
 *
 * Bodies are read with `format.markdown.refs=stable`: references by id, whatever the pages'
 * paths — the form the mirror keeps as the merge base (links.ts turns them into relative paths).
 */
import type { Revision, RevisionFile, RevisionPage } from '@gitbook/api';
import type { ApiClient } from '../api';
import { pageKind, type VariableValue, variablesOf } from '../content';
import type { BaseRow, LogChangeRequest, LogPerson, Mirror } from '../mirror';
import { fileMeta, pageFileFromServer, type PageTemplates } from './page-file';

export { retitledText } from './page-file';
import type { RemotePage } from './plan';

/** Meta flag of a page row kept for a conflict after main deleted the page. */
export const GONE_REMOTELY = 'quire:goneRemotely';

export interface RemoteFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL: string;
}

/** A reusable content of the revision: `document` changes exactly when its content does; `gitPath`, where Git Sync keeps it (when the server says). */
export interface RemoteReusableContent {
  id: string;
  title: string;
  document: string | null;
  gitPath: string | null;
}

export interface RemoteTree {
  /** `mergedFrom`: the change request a merge revision merged, as the API names it (who wrote it, who merged it). */
  revision: { id: string; parents: string[]; createdAt?: string; mergedFrom?: LogChangeRequest };
  pages: Map<string, RemotePage>;
  children: Map<string | null, string[]>;
  files: RemoteFile[];
  reusableContents: RemoteReusableContent[];
  /** The space's variables. */
  variables: Record<string, VariableValue>;
}

export async function fetchRemoteTree(api: ApiClient, spaceId: string, signal?: AbortSignal): Promise<RemoteTree> {
  const revision = await api.call<Revision>((c, params) => c.spaces.getCurrentRevision(spaceId, { metadata: false }, params), { signal });
  if (!revision || typeof revision.id !== 'string' || !Array.isArray(revision.pages)) {
    throw new Error(`The API sent a revision of space ${spaceId} without an id or a page list; nothing was changed. Try again later.`);
  }
  const { pages, children } = flattenRevision(revision.pages);
  const mergedFrom = revision.type === 'merge' ? changeRequestOf(revision.mergedFrom) : null;
  return {
    revision: {
      id: revision.id,
      parents: revision.parents ?? [],
      ...(revision.createdAt ? { createdAt: revision.createdAt } : {}),
      ...(mergedFrom ? { mergedFrom } : {}),
    },
    pages,
    children,
    files: remoteFiles(revision.files),
    reusableContents: remoteReusableContents(revision.reusableContents),
    variables: variablesOf(revision.variables),
  };
}

function remoteReusableContents(list: unknown): RemoteReusableContent[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((r: { id?: unknown; title?: unknown; document?: unknown; git?: { path?: unknown } }) =>
    r && typeof r.id === 'string'
      ? [
          {
            id: r.id,
            title: typeof r.title === 'string' ? r.title : '',
            document: typeof r.document === 'string' ? r.document : null,
            gitPath: typeof r.git?.path === 'string' ? r.git.path : null,
          },
        ]
      : [],
  );
}

/** A merge revision's change request, as far as the answer says it (a malformed one says nothing). */
function changeRequestOf(cr: unknown): LogChangeRequest | null {
  const c = cr as { id?: unknown; number?: unknown; subject?: unknown; createdBy?: unknown; mergedBy?: unknown } | null | undefined;
  if (!c || typeof c !== 'object' || typeof c.id !== 'string') return null;
  const createdBy = personOf(c.createdBy);
  const mergedBy = personOf(c.mergedBy);
  return {
    id: c.id,
    number: typeof c.number === 'number' ? c.number : null,
    subject: typeof c.subject === 'string' ? c.subject : null,
    ...(createdBy ? { createdBy } : {}),
    ...(mergedBy ? { mergedBy } : {}),
  };
}

function personOf(user: unknown): LogPerson | null {
  const u = user as { id?: unknown; displayName?: unknown } | null | undefined;
  if (!u || typeof u !== 'object' || typeof u.id !== 'string') return null;
  return { id: u.id, name: typeof u.displayName === 'string' && u.displayName.trim() !== '' ? u.displayName : u.id };
}

/** A revision's page tree, flattened: each page with its parent and place, and each parent's children in order. */
export function flattenRevision(list: readonly RevisionPage[]): { pages: Map<string, RemotePage>; children: Map<string | null, string[]> } {
  const pages = new Map<string, RemotePage>();
  const children = new Map<string | null, string[]>();
  const walk = (level: readonly RevisionPage[], parentId: string | null) => {
    const ids: string[] = [];
    level.forEach((page, position) => {
      const p = page as unknown as Record<string, unknown> & { id: string; title: string; type: string };
      if (typeof p.id !== 'string' || pages.has(p.id)) return;
      const kind = pageKind(p.type);
      pages.set(p.id, {
        id: p.id,
        parentId,
        position,
        kind,
        title: typeof p.title === 'string' ? p.title : '',
        slug: typeof p.slug === 'string' ? p.slug : null,
        meta: kind === 'document' ? fileMeta(p) : {},
        href: kind === 'link' ? linkHref(p) : null,
        documentId: typeof p.documentId === 'string' ? p.documentId : null,
        updatedAt: typeof p.updatedAt === 'string' ? p.updatedAt : null,
      });
      ids.push(p.id);
      walk((p.pages as RevisionPage[] | undefined) ?? [], p.id);
    });
    children.set(parentId, ids);
  };
  walk(list, null);
  return { pages, children };
}

/** Where a link page points: its URL, or the page it targets in stable form. */
function linkHref(p: Record<string, unknown>): string {
  if (typeof p.href === 'string') return p.href;
  const target = p.target as { kind?: string; url?: string; page?: string; space?: string } | undefined;
  if (target?.kind === 'url' && typeof target.url === 'string') return target.url;
  if (target?.kind === 'page' && typeof target.page === 'string') {
    return target.space ? `/spaces/${target.space}/pages/${target.page}` : `/pages/${target.page}`;
  }
  return '#';
}

function remoteFiles(files: RevisionFile[] | undefined): RemoteFile[] {
  return (files ?? []).map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, size: f.size, downloadURL: f.downloadURL }));
}

/** A base row as the planner sees it. */
export function basePageOf(r: BaseRow): import('./plan').BasePage {
  const kind = pageKind(r.type);
  const { [GONE_REMOTELY]: gone, href, ...meta } = r.meta as Record<string, unknown>;
  return {
    id: r.id,
    parentId: r.parentId,
    position: r.position,
    kind,
    title: r.title,
    slug: r.slug,
    meta,
    href: kind === 'link' && typeof href === 'string' ? href : null,
    documentId: r.documentId,
    updatedAt: r.updatedAt,
    goneRemotely: gone === true,
  };
}

/** The meta a base row stores for a page (links keep their target there). */
export function baseMetaOf(p: { kind: string; meta: Record<string, unknown>; href: string | null; goneRemotely?: boolean }): Record<string, unknown> {
  return { ...p.meta, ...(p.kind === 'link' && p.href !== null ? { href: p.href } : {}), ...(p.goneRemotely ? { [GONE_REMOTELY]: true } : {}) };
}

/** What a page of main now says differently from main as last synced. */
export interface RemoteDiff {
  /** Pages added, removed, moved, renamed, retitled, whose text or metadata changed. */
  changed: Set<string>;
  /** Of those, pages whose body changed (their text must be fetched). */
  bodyChanged: Set<string>;
  /** Parents whose children's order changed. */
  reordered: Set<string | null>;
}

export function diffRemote(tree: RemoteTree, base: readonly BaseRow[]): RemoteDiff {
  const diff: RemoteDiff = { changed: new Set(), bodyChanged: new Set(), reordered: new Set() };
  const baseById = new Map(base.map((b) => [b.id, b]));
  const baseChildren = new Map<string | null, { id: string; position: number }[]>();
  for (const b of base) {
    const page = basePageOf(b);
    if (page.goneRemotely) {
      if (!tree.pages.has(b.id)) diff.changed.add(b.id);
      continue;
    }
    const siblings = baseChildren.get(b.parentId);
    if (siblings) siblings.push({ id: b.id, position: b.position });
    else baseChildren.set(b.parentId, [{ id: b.id, position: b.position }]);
    if (!tree.pages.has(b.id)) diff.changed.add(b.id);
  }
  for (const r of tree.pages.values()) {
    const row = baseById.get(r.id);
    if (!row) {
      diff.changed.add(r.id);
      if (r.kind === 'document') diff.bodyChanged.add(r.id);
      continue;
    }
    const b = basePageOf(row);
    const sameBody = r.documentId || b.documentId ? r.documentId === b.documentId : r.updatedAt === b.updatedAt;
    if (!sameBody && r.kind === 'document') diff.bodyChanged.add(r.id);
    if (
      b.goneRemotely ||
      !sameBody ||
      b.parentId !== r.parentId ||
      b.kind !== r.kind ||
      b.title !== r.title ||
      b.slug !== r.slug ||
      b.href !== r.href ||
      JSON.stringify(b.meta) !== JSON.stringify(r.meta)
    ) {
      diff.changed.add(r.id);
    }
  }
  const parents = new Set<string | null>([...tree.children.keys(), ...baseChildren.keys()]);
  for (const parent of parents) {
    const before = (baseChildren.get(parent) ?? []).sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1)).map((c) => c.id);
    const now = tree.children.get(parent) ?? [];
    if (before.length !== now.length || before.some((id, i) => id !== now[i])) diff.reordered.add(parent);
  }
  return diff;
}

/** What the server was last known to hold for a page (page-file.ts): what the change request was sent, else main's as last synced. */
export function knownText(mirror: Pick<Mirror, 'content' | 'outbox'>, spaceId: string, pageId: string): string | null {
  const pushed = mirror.outbox.pushedPage(spaceId, pageId);
  return (pushed && !pushed.deleted ? pushed.text : null) ?? mirror.content.baseText(spaceId, pageId);
}

/**
 * One page's file text as the server has it now, references in stable form (one request); its
 * frontmatter written as `templates` say (page-file.ts).
 */
export async function fetchPageText(api: ApiClient, spaceId: string, page: RemotePage, signal?: AbortSignal, templates: PageTemplates = {}): Promise<string> {
  const got = await api.call(
    (c, params) => c.spaces.getPageById(spaceId, page.id, { format: 'markdown', 'format.markdown.refs': 'stable', metadata: false } as never, params),
    { signal },
  );
  const markdown = (got as { markdown?: unknown } | null)?.markdown;
  if (typeof markdown !== 'string') {
    throw new Error(`The API sent page ${page.id} of space ${spaceId} without its markdown; nothing was changed for it. Try again later.`);
  }
  return pageFileFromServer({ title: page.title, meta: page.meta }, markdown, templates);
}

/** One page's file text as the change request has it now, references in stable form (one request). */
export async function fetchRequestPageText(api: ApiClient, spaceId: string, changeRequestId: string, page: RemotePage, signal?: AbortSignal): Promise<string> {
  const got = await api.call(
    (c, params) =>
      c.spaces.getPageInChangeRequestById(
        spaceId,
        changeRequestId,
        page.id,
        { format: 'markdown', 'format.markdown.refs': 'stable', metadata: false } as never,
        params,
      ),
    { signal },
  );
  const markdown = (got as { markdown?: unknown } | null)?.markdown;
  return pageFileFromServer({ title: page.title, meta: page.meta }, typeof markdown === 'string' ? markdown : '');
}
