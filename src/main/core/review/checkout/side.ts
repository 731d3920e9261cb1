/**
 * One side of a checkout — the change request's revision, or main at its base — as the files a
 * sync would write for it: the sync engine's layout (GitBook's Git Sync paths, SUMMARY.md,
 * `.gitbook/assets/`), its page files (frontmatter, title heading) and its links turned into
 * relative paths. Page markdown is read by document: a document fetched before (for the other
 * side, or an earlier revision) is not fetched again.
 */
import type { Revision } from '@gitbook/api';
import type { ApiClient } from '../../api';
import { renderSummary, toLocalLinks } from '../../content';
import { flattenRevision, layoutTree, pageFileFromServer, planAssetPaths, planLayout, type RemoteFile, type RemotePage } from '../../sync';
import { forEachBounded } from '../../sync';

export type Wanted = { kind: 'text'; text: string } | { kind: 'asset'; file: RemoteFile };

export interface Side {
  revisionId: string;
  /** Path (relative to the side's folder) -> what it holds. */
  files: Map<string, Wanted>;
  /** Every page of the revision: its file (null for groups and links) and its text in stable form (documents). */
  pages: Map<string, { title: string; path: string | null; stable: string | null }>;
}

/** Page markdown by document id: kept between runs (the mirror), and what this run used. */
export interface Documents {
  get(documentId: string): string | null;
  /** A page's markdown at a revision as the review refresh stored it (for its diff), when it did. */
  stored(revisionId: string, pageId: string): string | null;
  /** Every document this run read, by id. */
  readonly used: Map<string, string>;
}

const FETCH_WINDOW = 8;

/** The files of one revision of the space, as a sync lays them out. */
export async function readSide(api: ApiClient, spaceId: string, revisionId: string, documents: Documents, signal?: AbortSignal): Promise<Side> {
  const revision = await api.call<Revision>((c, p) => c.spaces.getRevisionById(spaceId, revisionId, { metadata: false }, p), { signal });
  if (!revision || !Array.isArray(revision.pages)) {
    throw new Error(`The API sent revision ${revisionId} of space ${spaceId} without its pages; nothing was written. Try again later.`);
  }
  const tree = flattenRevision(revision.pages);
  const tops = layoutTree(tree);
  const layout = planLayout(tops);
  const remoteFiles: RemoteFile[] = (revision.files ?? []).map((f) => ({
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    size: f.size,
    downloadURL: f.downloadURL,
  }));
  const assets = planAssetPaths(remoteFiles.map((f) => ({ id: f.id, name: f.name })));

  const files = new Map<string, Wanted>();
  const summaryTree = (ids: readonly string[]): Parameters<typeof renderSummary>[0] =>
    ids.map((id) => {
      const p = tree.pages.get(id)!;
      const kids = summaryTree(tree.children.get(id) ?? []);
      return { id, title: p.title, ...(p.href !== null ? { href: p.href } : {}), ...(kids.length > 0 ? { pages: kids } : {}) };
    });
  if (tops.length > 0) files.set('SUMMARY.md', { kind: 'text', text: renderSummary(summaryTree(tree.children.get(null) ?? []), layout) });
  for (const f of remoteFiles) files.set(assets.get(f.id)!, { kind: 'asset', file: f });

  const pages: Side['pages'] = new Map();
  const documentPages = [...tree.pages.values()].filter((p) => p.kind === 'document' && layout.pagePaths.get(p.id));
  const markdowns = new Map<string, string>();
  await forEachBounded(documentPages, FETCH_WINDOW, async (p) => {
    markdowns.set(p.id, await markdownOf(api, spaceId, revisionId, p, documents, signal));
  });
  for (const p of tree.pages.values()) {
    const path = layout.pagePaths.get(p.id) ?? null;
    const markdown = markdowns.get(p.id);
    if (path === null || markdown === undefined) {
      pages.set(p.id, { title: p.title, path, stable: null });
      continue;
    }
    const stable = pageFileFromServer({ title: p.title, meta: p.meta }, markdown);
    const text = toLocalLinks(stable, {
      spaceId,
      file: path,
      pageFile: (space, id) => (space === spaceId ? (layout.pagePaths.get(id) ?? null) : null),
      assetFile: (space, id) => (space === spaceId ? (assets.get(id) ?? null) : null),
      lookup: () => null,
    }).text;
    files.set(path, { kind: 'text', text });
    pages.set(p.id, { title: p.title, path, stable });
  }
  return { revisionId, files, pages };
}

/** A page's markdown (references by id), read once per document. */
async function markdownOf(api: ApiClient, spaceId: string, revisionId: string, page: RemotePage, documents: Documents, signal?: AbortSignal): Promise<string> {
  const byDocument = page.documentId === null ? null : (documents.used.get(page.documentId) ?? documents.get(page.documentId));
  const known = byDocument ?? documents.stored(revisionId, page.id);
  if (known !== null) {
    if (page.documentId !== null) documents.used.set(page.documentId, known);
    return known;
  }
  const got = await api.call(
    (c, p) =>
      c.spaces.getPageInRevisionById(spaceId, revisionId, page.id, { format: 'markdown', 'format.markdown.refs': 'stable', metadata: false } as never, p),
    { signal },
  );
  const markdown = (got as { markdown?: unknown } | null)?.markdown;
  if (typeof markdown !== 'string') {
    throw new Error(`The API sent page ${page.id} of revision ${revisionId} without its markdown; nothing was written. Try again later.`);
  }
  if (page.documentId !== null) documents.used.set(page.documentId, markdown);
  return markdown;
}
