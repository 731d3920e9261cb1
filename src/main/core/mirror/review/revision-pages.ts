/**
 * Page lists, markdown and documents of revisions, for change request diffs (migrations 2 and
 * 20). Revisions never change, so what is stored is kept until no diff refers to the revision
 * any more.
 */
import type { Db } from '../database';

export interface RevisionPageRow {
  pageId: string;
  documentId: string | null;
  type: string;
  markdown: string | null;
}

/** A page of a revision's tree, flattened (depth-first order gives its position). */
export interface RevisionTreePage {
  id: string;
  parentId: string | null;
  title: string;
  path: string | null;
  type: string;
  documentId: string | null;
  /** Its slug, which names its file in the folder's layout. */
  slug?: string | null;
  /** The fields its file's frontmatter holds (sync/page-file.ts `fileMeta`). */
  fields?: Record<string, unknown>;
}

/** A stored page of a revision, in tree order, with its markdown (stable references) once fetched. */
export interface StoredRevisionPage {
  pageId: string;
  parentId: string | null;
  title: string;
  slug: string | null;
  path: string | null;
  type: string;
  documentId: string | null;
  fields: Record<string, unknown>;
  markdown: string | null;
}

export class RevisionPageStore {
  constructor(private readonly db: Db) {}

  /** The stored pages of a revision by id; empty when it was never fetched. */
  pages(revisionId: string): Map<string, RevisionPageRow> {
    const rows = this.db
      .prepare(`SELECT page_id AS pageId, document_id AS documentId, type, markdown FROM review_revision_pages WHERE revision_id = ?`)
      .all(revisionId) as RevisionPageRow[];
    return new Map(rows.map((p) => [p.pageId, p]));
  }

  /**
   * The pages whose file may differ between two stored revisions, found by SQLite (a change
   * request's head is a whole tree, 20,000 rows in a large space, of which an edit changes one):
   * each page of `head` but those with the same body (document), title and fields in `base`,
   * beside what `base` has of it; and the pages only `base` has.
   */
  differing(base: string, head: string): { changed: { after: RevisionPageRow; before: RevisionPageRow | null }[]; gone: RevisionPageRow[] } {
    type Joined = RevisionPageRow & { bPageId: string | null; bDocumentId: string | null; bType: string | null; bMarkdown: string | null };
    const joined = this.db
      .prepare(
        `SELECT h.page_id AS pageId, h.document_id AS documentId, h.type, h.markdown,
                b.page_id AS bPageId, b.document_id AS bDocumentId, b.type AS bType, b.markdown AS bMarkdown
         FROM review_revision_pages h
         LEFT JOIN review_revision_pages b ON b.revision_id = @base AND b.page_id = h.page_id
         WHERE h.revision_id = @head
           AND NOT (b.document_id IS NOT NULL AND b.document_id = h.document_id AND b.title = h.title
                    AND coalesce(nullif(b.fields, ''), '{}') = coalesce(nullif(h.fields, ''), '{}'))`,
      )
      .all({ base, head }) as Joined[];
    const gone = this.db
      .prepare(
        `SELECT b.page_id AS pageId, b.document_id AS documentId, b.type, b.markdown FROM review_revision_pages b
         WHERE b.revision_id = @base
           AND NOT EXISTS (SELECT 1 FROM review_revision_pages h WHERE h.revision_id = @head AND h.page_id = b.page_id)`,
      )
      .all({ base, head }) as RevisionPageRow[];
    return {
      changed: joined.map((r) => ({
        after: { pageId: r.pageId, documentId: r.documentId, type: r.type, markdown: r.markdown },
        before: r.bPageId === null ? null : { pageId: r.bPageId, documentId: r.bDocumentId, type: r.bType!, markdown: r.bMarkdown },
      })),
      gone,
    };
  }

  /** Whether a revision's pages are stored. */
  has(revisionId: string): boolean {
    return this.db.prepare(`SELECT 1 FROM review_revision_pages WHERE revision_id = ? LIMIT 1`).get(revisionId) !== undefined;
  }

  /** A page's markdown at a revision, when fetched. */
  markdown(revisionId: string, pageId: string): string | null {
    const row = this.db.prepare(`SELECT markdown FROM review_revision_pages WHERE revision_id = ? AND page_id = ?`).get(revisionId, pageId) as
      | { markdown: string | null }
      | undefined;
    return row?.markdown ?? null;
  }

  /** Stores a revision's page tree (markdown comes later, page by page). */
  insertPages(spaceId: string, revisionId: string, pages: readonly RevisionTreePage[]): void {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO review_revision_pages (space_id, revision_id, page_id, parent_id, position, title, path, type, document_id, slug, fields)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const [i, p] of pages.entries()) {
        insert.run(spaceId, revisionId, p.id, p.parentId, i, p.title, p.path, p.type, p.documentId, p.slug ?? null, JSON.stringify(p.fields ?? {}));
      }
    })();
  }

  /** A revision's stored pages in tree order; empty when it was never fetched. */
  tree(revisionId: string): StoredRevisionPage[] {
    const rows = this.db
      .prepare(
        `SELECT page_id AS pageId, parent_id AS parentId, title, slug, path, type, document_id AS documentId, fields, markdown
         FROM review_revision_pages WHERE revision_id = ? ORDER BY position`,
      )
      .all(revisionId) as (Omit<StoredRevisionPage, 'fields'> & { fields: string | null })[];
    return rows.map((r) => ({ ...r, fields: r.fields ? (JSON.parse(r.fields) as Record<string, unknown>) : {} }));
  }

  /** A page's document (the API's JSON) at a revision, when fetched. */
  document(revisionId: string, pageId: string): unknown {
    const row = this.db.prepare(`SELECT document FROM review_revision_pages WHERE revision_id = ? AND page_id = ?`).get(revisionId, pageId) as
      | { document: string | null }
      | undefined;
    return row?.document ? JSON.parse(row.document) : null;
  }

  setDocument(revisionId: string, pageId: string, document: unknown): void {
    this.db.prepare(`UPDATE review_revision_pages SET document = ? WHERE revision_id = ? AND page_id = ?`).run(JSON.stringify(document), revisionId, pageId);
  }

  setMarkdown(revisionId: string, pageId: string, markdown: string): void {
    this.db.prepare(`UPDATE review_revision_pages SET markdown = ? WHERE revision_id = ? AND page_id = ?`).run(markdown, revisionId, pageId);
  }

  /** Forgets stored revisions no change request diff refers to any more. */
  prune(): void {
    const used = new Set<string>();
    const fingerprints = this.db.prepare(`SELECT diff_fingerprint FROM change_requests WHERE diff_fingerprint IS NOT NULL`).all() as {
      diff_fingerprint: string;
    }[];
    for (const { diff_fingerprint } of fingerprints) for (const rev of diff_fingerprint.split('..')) used.add(rev);
    const stored = this.db.prepare(`SELECT DISTINCT revision_id FROM review_revision_pages`).all() as { revision_id: string }[];
    const drop = this.db.prepare(`DELETE FROM review_revision_pages WHERE revision_id = ?`);
    for (const { revision_id } of stored) if (!used.has(revision_id)) drop.run(revision_id);
  }
}
