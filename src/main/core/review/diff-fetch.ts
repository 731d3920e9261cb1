/**
 * Fetches what a change request's page diff needs into the mirror: the page
 * lists of its base and head revisions, and the markdown of the pages whose
 * document differs. Revisions are immutable, so a revision already stored is
 * never fetched again, and markdown is only fetched for changed pages.
 */
import type { ApiClient } from '../api/client';
import type { Mirror, RemoteChangeRequest, RevisionPageRow, RevisionTreePage } from '../mirror';

interface RemotePage {
  id: string;
  title: string;
  type: string;
  path?: string;
  documentId?: string;
  markdown?: string;
  pages?: RemotePage[];
}

function flatten(pages: RemotePage[], parentId: string | null, out: RevisionTreePage[] = []): RevisionTreePage[] {
  for (const p of pages) {
    out.push({ id: p.id, parentId, title: p.title, path: p.path ?? null, type: p.type, documentId: p.documentId ?? null });
    flatten(p.pages ?? [], p.id, out);
  }
  return out;
}

async function ensureRevisionPages(api: ApiClient, mirror: Mirror, spaceId: string, revisionId: string): Promise<Map<string, RevisionPageRow>> {
  const stored = mirror.revisionPages.pages(revisionId);
  if (stored.size > 0) return stored;
  const { pages } = await api.call<{ pages: RemotePage[] }>((c, params) => c.spaces.listPagesInRevisionById(spaceId, revisionId, { metadata: false }, params));
  mirror.revisionPages.insertPages(spaceId, revisionId, flatten(pages, null));
  return mirror.revisionPages.pages(revisionId);
}

async function ensureMarkdown(api: ApiClient, mirror: Mirror, spaceId: string, revisionId: string, page: RevisionPageRow): Promise<void> {
  if (page.markdown !== null || page.type !== 'document') return;
  const fetched = await api.call<RemotePage>((c, params) =>
    c.spaces.getPageInRevisionById(spaceId, revisionId, page.pageId, { format: 'markdown', metadata: false }, params),
  );
  mirror.revisionPages.setMarkdown(revisionId, page.pageId, fetched.markdown ?? '');
}

/** Stores the page diff of one change request against its base; a no-op when already current. */
export async function refreshDiff(api: ApiClient, mirror: Mirror, spaceId: string, cr: RemoteChangeRequest): Promise<boolean> {
  const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
  const head = cr.revision;
  if (!base || !head) return false;
  const fingerprint = `${base}..${head}`;
  const [basePages, headPages] = await Promise.all([ensureRevisionPages(api, mirror, spaceId, base), ensureRevisionPages(api, mirror, spaceId, head)]);
  const fetches: Promise<void>[] = [];
  for (const [id, after] of headPages) {
    const before = basePages.get(id);
    if (before && before.documentId === after.documentId && before.documentId !== null) continue;
    if (before) fetches.push(ensureMarkdown(api, mirror, spaceId, base, before));
    fetches.push(ensureMarkdown(api, mirror, spaceId, head, after));
  }
  for (const [id, before] of basePages) if (!headPages.has(id)) fetches.push(ensureMarkdown(api, mirror, spaceId, base, before));
  await Promise.all(fetches);
  mirror.transaction(() => mirror.review.setDiffFingerprint(cr.id, fingerprint));
  return true;
}
