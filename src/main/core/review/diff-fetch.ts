/**
 * Fetches what a change request's page diff needs into the mirror: the page
 * lists of its base and head revisions, and the markdown of the pages whose
 * document differs. Revisions are immutable, so a revision already stored is
 * never fetched again, and markdown is only fetched for changed pages.
 */
import type { ApiClient } from '../api/client';
import type { Db, Mirror } from '../mirror';
import type { ReviewStore } from './store';
import type { RemoteChangeRequest } from './types';

interface RemotePage {
  id: string;
  title: string;
  type: string;
  path?: string;
  documentId?: string;
  markdown?: string;
  pages?: RemotePage[];
}

interface StoredPage {
  page_id: string;
  document_id: string | null;
  type: string;
  markdown: string | null;
}

function flatten(pages: RemotePage[], parentId: string | null, out: { page: RemotePage; parentId: string | null }[] = []) {
  for (const p of pages) {
    out.push({ page: p, parentId });
    flatten(p.pages ?? [], p.id, out);
  }
  return out;
}

async function ensureRevisionPages(api: ApiClient, db: Db, spaceId: string, revisionId: string): Promise<Map<string, StoredPage>> {
  const load = (): Map<string, StoredPage> =>
    new Map(
      (db.prepare(`SELECT page_id, document_id, type, markdown FROM review_revision_pages WHERE revision_id = ?`).all(revisionId) as StoredPage[]).map((p) => [
        p.page_id,
        p,
      ]),
    );
  const stored = load();
  if (stored.size > 0) return stored;
  const { pages } = await api.call<{ pages: RemotePage[] }>((c, params) => c.spaces.listPagesInRevisionById(spaceId, revisionId, { metadata: false }, params));
  const insert = db.prepare(
    `INSERT OR IGNORE INTO review_revision_pages (space_id, revision_id, page_id, parent_id, position, title, path, type, document_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const [i, { page, parentId }] of flatten(pages, null).entries()) {
      insert.run(spaceId, revisionId, page.id, parentId, i, page.title, page.path ?? null, page.type, page.documentId ?? null);
    }
  })();
  return load();
}

async function ensureMarkdown(api: ApiClient, db: Db, spaceId: string, revisionId: string, page: StoredPage): Promise<void> {
  if (page.markdown !== null || page.type !== 'document') return;
  const fetched = await api.call<RemotePage>((c, params) =>
    c.spaces.getPageInRevisionById(spaceId, revisionId, page.page_id, { format: 'markdown', metadata: false }, params),
  );
  db.prepare(`UPDATE review_revision_pages SET markdown = ? WHERE revision_id = ? AND page_id = ?`).run(fetched.markdown ?? '', revisionId, page.page_id);
}

/** Stores the page diff of one change request against its base; a no-op when already current. */
export async function refreshDiff(api: ApiClient, mirror: Mirror, store: ReviewStore, spaceId: string, cr: RemoteChangeRequest): Promise<boolean> {
  const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
  const head = cr.revision;
  if (!base || !head) return false;
  const fingerprint = `${base}..${head}`;
  const [basePages, headPages] = await Promise.all([ensureRevisionPages(api, mirror.db, spaceId, base), ensureRevisionPages(api, mirror.db, spaceId, head)]);
  const fetches: Promise<void>[] = [];
  for (const [id, after] of headPages) {
    const before = basePages.get(id);
    if (before && before.document_id === after.document_id && before.document_id !== null) continue;
    if (before) fetches.push(ensureMarkdown(api, mirror.db, spaceId, base, before));
    fetches.push(ensureMarkdown(api, mirror.db, spaceId, head, after));
  }
  for (const [id, before] of basePages) if (!headPages.has(id)) fetches.push(ensureMarkdown(api, mirror.db, spaceId, base, before));
  await Promise.all(fetches);
  mirror.transaction(() => store.setDiffFingerprint(cr.id, fingerprint));
  return true;
}

/** Forgets stored revisions no change request diff refers to any more. */
export function pruneRevisionPages(db: Db): void {
  const used = new Set<string>();
  for (const { diff_fingerprint } of db.prepare(`SELECT diff_fingerprint FROM change_requests WHERE diff_fingerprint IS NOT NULL`).all() as {
    diff_fingerprint: string;
  }[]) {
    for (const rev of diff_fingerprint.split('..')) used.add(rev);
  }
  const stored = db.prepare(`SELECT DISTINCT revision_id FROM review_revision_pages`).all() as { revision_id: string }[];
  const drop = db.prepare(`DELETE FROM review_revision_pages WHERE revision_id = ?`);
  for (const { revision_id } of stored) if (!used.has(revision_id)) drop.run(revision_id);
}
