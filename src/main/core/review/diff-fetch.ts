/**
 * Fetches what a change request's page diff needs into the mirror: the page lists of its base
 * and head revisions (with each page's slug and fields, which place and head its file), the
 * markdown of the pages whose file differs (references in stable form: page-files.ts writes
 * them for the folder), and the head's document of each changed page (its blocks, which a
 * comment on a line names). Revisions are immutable, so a revision already stored is never
 * fetched again, and only changed pages are fetched.
 */
import type { ApiClient } from '../api';
import type { Mirror, RemoteChangeRequest, RevisionPageRow, RevisionTreePage } from '../mirror';
import { fileMeta } from '../sync';

interface RemotePage {
  id: string;
  title: string;
  type: string;
  slug?: string;
  path?: string;
  documentId?: string;
  markdown?: string;
  document?: unknown;
  pages?: RemotePage[];
}

function flatten(pages: RemotePage[], parentId: string | null, out: RevisionTreePage[] = []): RevisionTreePage[] {
  for (const p of pages) {
    out.push({
      id: p.id,
      parentId,
      title: p.title,
      path: p.path ?? null,
      type: p.type,
      documentId: p.documentId ?? null,
      slug: p.slug ?? null,
      fields: fileMeta(p as unknown as Record<string, unknown>),
    });
    flatten(p.pages ?? [], p.id, out);
  }
  return out;
}

/** Fetches and stores a revision's page list, unless it is stored already (revisions never change). */
async function ensureRevisionPages(api: ApiClient, mirror: Mirror, spaceId: string, revisionId: string): Promise<void> {
  if (mirror.revisionPages.has(revisionId)) return;
  const { pages } = await api.call<{ pages: RemotePage[] }>((c, params) => c.spaces.listPagesInRevisionById(spaceId, revisionId, { metadata: false }, params));
  mirror.revisionPages.insertPages(spaceId, revisionId, flatten(pages, null));
}

/** A page's markdown at a revision, references in stable form. */
export async function pageMarkdownAt(api: ApiClient, spaceId: string, revisionId: string, pageId: string): Promise<RemotePage> {
  return api.call<RemotePage>((c, params) =>
    c.spaces.getPageInRevisionById(spaceId, revisionId, pageId, { format: 'markdown', 'format.markdown.refs': 'stable', metadata: false } as never, params),
  );
}

/** A page's document (its blocks, with their keys) at a revision; null for a page without one. */
export async function pageDocumentAt(api: ApiClient, spaceId: string, revisionId: string, pageId: string): Promise<unknown> {
  const page = await api.call<RemotePage>((c, params) =>
    c.spaces.getPageInRevisionById(spaceId, revisionId, pageId, { format: 'document', metadata: false }, params),
  );
  return page.document ?? null;
}

async function ensureMarkdown(api: ApiClient, mirror: Mirror, spaceId: string, revisionId: string, page: RevisionPageRow): Promise<void> {
  if (page.markdown !== null || page.type !== 'document') return;
  const fetched = await pageMarkdownAt(api, spaceId, revisionId, page.pageId);
  mirror.revisionPages.setMarkdown(revisionId, page.pageId, fetched.markdown ?? '');
}

/** The head's document of a page, stored once (its revision never changes). */
export async function ensureDocument(api: ApiClient, mirror: Mirror, spaceId: string, revisionId: string, pageId: string): Promise<unknown> {
  const stored = mirror.revisionPages.document(revisionId, pageId);
  if (stored !== null) return stored;
  const document = await pageDocumentAt(api, spaceId, revisionId, pageId);
  if (document !== null) mirror.revisionPages.setDocument(revisionId, pageId, document);
  return document;
}

/** Stores the page diff of one change request against its base; a no-op when already current. */
export async function refreshDiff(api: ApiClient, mirror: Mirror, spaceId: string, cr: RemoteChangeRequest): Promise<boolean> {
  const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
  const head = cr.revision;
  if (!base || !head) return false;
  const fingerprint = `${base}..${head}`;
  // Set once everything below was stored, and revisions never change: nothing to fetch or compare.
  if (mirror.reviewRecords.diffFingerprint(cr.id) === fingerprint) return true;
  await Promise.all([ensureRevisionPages(api, mirror, spaceId, base), ensureRevisionPages(api, mirror, spaceId, head)]);
  const { changed, gone } = mirror.revisionPages.differing(base, head);
  const fetches: Promise<unknown>[] = [];
  for (const { after, before } of changed) {
    const sameBody = before !== null && before.documentId === after.documentId && before.documentId !== null;
    // The same body under another title or other fields is among them: its file still differs (its heading, its frontmatter).
    if (before && !sameBody) fetches.push(ensureMarkdown(api, mirror, spaceId, base, before));
    fetches.push(
      ensureMarkdown(api, mirror, spaceId, head, after).then(() => {
        // One body, fetched once: the base's is the head's.
        if (before && sameBody && before.markdown === null) {
          const markdown = mirror.revisionPages.markdown(head, after.pageId);
          if (markdown !== null) mirror.revisionPages.setMarkdown(base, after.pageId, markdown);
        }
      }),
    );
    if (after.type === 'document' && !sameBody) fetches.push(ensureDocument(api, mirror, spaceId, head, after.pageId));
  }
  for (const before of gone) fetches.push(ensureMarkdown(api, mirror, spaceId, base, before));
  await Promise.all(fetches);
  mirror.transaction(() => mirror.reviewRecords.setDiffFingerprint(cr.id, fingerprint));
  return true;
}
