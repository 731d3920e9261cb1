/**
 * Pull: main's tree now (one request), and page bodies when a decision or a write needs
 * them (one request each). What to do with them is the planner's business (planner.ts);
 * writing is apply.ts's.
 */
import type { Revision, RevisionPage } from '@gitbook/api';
import type { ApiClient } from '../api/client';
import type { PageRow } from '../mirror';
import { pageKind, parsePageFile, renderPageFile, type PageMeta } from '../content';
import { remoteCopyPath } from './ignore';
import type { ProgressListener } from './progress';
import { flattenPages, remoteFiles, type RemoteFile } from './remote-tree';
import type { BasePage, RemotePage } from './trees';

/** Where the remote side of a clash is saved, beside the local file. */
export { remoteCopyPath };

/**
 * The page file text for a remote page: frontmatter for metadata, then the
 * body. The title is the body's leading `# heading` (Git Sync's convention);
 * if the API body has none, the title is put there.
 */
export function pageFileText(page: { title: string; meta: PageMeta }, markdown: string): string {
  if (hasLeadingHeading(markdown)) return renderPageFile({ meta: page.meta, body: markdown });
  return renderPageFile({ title: page.title, meta: page.meta, body: markdown });
}

function hasLeadingHeading(markdown: string): boolean {
  return /^#\s+\S/.test(markdown.replace(/^\s+/, ''));
}

export interface RemoteSnapshot {
  revision: Revision;
  pages: Map<string, RemotePage>;
  files: RemoteFile[];
}

/** Main's tree now. Pages whose body changed since `base` are `pending` (fetch with fetchBodies). */
export async function fetchRemoteTree(api: ApiClient, spaceId: string, base: readonly PageRow[], signal?: AbortSignal): Promise<RemoteSnapshot> {
  const revision = await api.call<Revision>((c, params) => c.spaces.getCurrentRevision(spaceId, { metadata: false }, params), { signal });
  const known = new Map(base.map((p) => [p.id, p]));
  const hrefs = linkTargets(revision.pages);
  const pages = new Map<string, RemotePage>();
  for (const p of flattenPages(revision.pages)) {
    const kind = pageKind(p.type);
    const meta = p.meta as Record<string, unknown>;
    const page: RemotePage = {
      id: p.id,
      parentId: p.parentId,
      position: p.position,
      kind,
      title: p.title,
      slug: p.slug,
      text: null,
      documentId: p.documentId,
      updatedAt: p.updatedAt,
      meta: kind === 'link' ? { href: hrefs.get(p.id) ?? '#' } : meta,
      ...(kind === 'link' ? { href: hrefs.get(p.id) ?? '#' } : {}),
    };
    if (kind === 'document') {
      const old = known.get(p.id);
      const text = old ? unchangedText(old, p) : null;
      if (text === null) page.pending = true;
      else page.text = text;
    }
    pages.set(p.id, page);
  }
  return { revision, pages, files: remoteFiles(revision.files) };
}

/** The file text of a page whose body did not change, without fetching it; null when it must be fetched. */
function unchangedText(old: PageRow, p: { title: string; meta: PageMeta; documentId: string | null; updatedAt: string | null }): string | null {
  if (old.baseContent === null) return null;
  const sameBody = p.documentId || old.documentId ? p.documentId === old.documentId : p.updatedAt === old.updatedAt;
  if (!sameBody) return null;
  if (old.title === p.title && JSON.stringify(old.meta) === JSON.stringify(p.meta)) return old.baseContent;
  try {
    return pageFileText(p, parsePageFile(old.baseContent).body);
  } catch {
    return null;
  }
}

function linkTargets(pages: readonly RevisionPage[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: readonly RevisionPage[]) => {
    for (const page of list) {
      const p = page as unknown as { id: string; type: string; href?: string; target?: { url?: string }; pages?: RevisionPage[] };
      if (p.type === 'link') out.set(p.id, p.href ?? p.target?.url ?? '#');
      walk(p.pages ?? []);
    }
  };
  walk(pages);
  return out;
}

/** One page's file text as the server has it now (one request). */
export async function fetchPageText(api: ApiClient, spaceId: string, page: RemotePage, signal?: AbortSignal): Promise<string> {
  const got = await api.call((c, params) => c.spaces.getPageById(spaceId, page.id, { format: 'markdown', metadata: false }, params), { signal });
  const markdown = (got as { markdown?: unknown }).markdown;
  return pageFileText({ title: page.title, meta: (page.meta ?? {}) as PageMeta }, typeof markdown === 'string' ? markdown : '');
}

/** Fetches the bodies of `ids` (pending pages) into `pages`, several at a time. */
export async function fetchBodies(
  api: ApiClient,
  spaceId: string,
  pages: Map<string, RemotePage>,
  ids: Iterable<string>,
  options: { signal?: AbortSignal; onProgress?: ProgressListener; spaceTitle?: string } = {},
): Promise<void> {
  const list = [...ids].map((id) => pages.get(id)).filter((p): p is RemotePage => p !== undefined && p.pending === true);
  let done = 0;
  const report = () => options.onProgress?.({ phase: 'pull', spaceId, spaceTitle: options.spaceTitle, done, total: list.length });
  if (list.length > 0) report();
  await forEachBounded(list, 16, async (page) => {
    // The client's own signal cancels these; a per-call signal each would pile up listeners.
    const text = await fetchPageText(api, spaceId, page);
    pages.set(page.id, { ...page, text, pending: false });
    done++;
    report();
  });
}

/** Meta flag of a page row kept for a conflict after main deleted the page (BasePage.goneRemotely). */
export const GONE_REMOTELY = 'quire:goneRemotely';

/** Main as last synced, from the mirror's page rows. */
export function basePages(rows: readonly PageRow[]): Map<string, BasePage> {
  return new Map(
    rows.map((r) => {
      const kind = pageKind(r.type);
      const href = kind === 'link' && typeof r.meta.href === 'string' ? r.meta.href : undefined;
      const page: BasePage = {
        id: r.id,
        parentId: r.parentId,
        position: r.position,
        kind,
        title: r.title,
        slug: r.slug,
        name: r.name,
        path: r.path,
        text: r.baseContent,
        documentId: r.documentId,
        updatedAt: r.updatedAt,
        meta: r.meta,
        ...(href !== undefined ? { href } : {}),
        ...(r.meta[GONE_REMOTELY] === true ? { goneRemotely: true } : {}),
      };
      return [r.id, page];
    }),
  );
}

/** Main now when it has not moved since the last sync: the base itself. */
export function remoteFromBase(base: ReadonlyMap<string, BasePage>): Map<string, RemotePage> {
  const out = new Map<string, RemotePage>();
  for (const b of base.values()) {
    if (b.goneRemotely) continue;
    const { name: _name, path: _path, goneRemotely: _gone, ...rest } = b;
    out.set(b.id, { ...rest });
  }
  return out;
}

/**
 * Runs `fn` over `items` with at most `limit` at once. The first failure stops new work;
 * it rejects with that failure once the items already started have finished, so nothing
 * keeps writing after the caller moved on.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
