/**
 * Change requests written out as read-only folders (migration 24; core/review/checkout): which
 * folder holds which change request at which revision, and the page markdown they were written
 * from, by document, so a new revision fetches only the pages it changed.
 */
import type { Db } from '../database';
import { statementCache } from './statements';

export interface CheckoutRow {
  /** Absolute path of the checkout folder. */
  folder: string;
  spaceId: string;
  changeRequestId: string;
  /** The change request's revision the folder holds; null before it was first written whole. */
  revision: string | null;
  writtenAt: string | null;
}

export class CheckoutStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  list(): CheckoutRow[] {
    return this.sql(
      `SELECT folder, space_id AS spaceId, change_request_id AS changeRequestId, revision, written_at AS writtenAt FROM review_checkouts ORDER BY folder`,
    ).all() as CheckoutRow[];
  }

  get(folder: string): CheckoutRow | undefined {
    return this.list().find((c) => c.folder === folder);
  }

  put(row: CheckoutRow): void {
    this.sql(
      `INSERT INTO review_checkouts (folder, space_id, change_request_id, revision, written_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (folder) DO UPDATE SET space_id = excluded.space_id, change_request_id = excluded.change_request_id,
         revision = excluded.revision, written_at = excluded.written_at`,
    ).run(row.folder, row.spaceId, row.changeRequestId, row.revision, row.writtenAt);
  }

  remove(folder: string): void {
    this.sql(`DELETE FROM review_checkouts WHERE folder = ?`).run(folder);
  }

  /** The stable markdown of a document the checkout fetched before. */
  document(folder: string, documentId: string): string | null {
    const row = this.sql(`SELECT markdown FROM review_checkout_documents WHERE folder = ? AND document_id = ?`).get(folder, documentId) as
      | { markdown: string }
      | undefined;
    return row?.markdown ?? null;
  }

  /** Keeps the documents given (by id) as the checkout's, and only those: what its two sides use now. */
  setDocuments(folder: string, documents: ReadonlyMap<string, string>): void {
    const stored = this.sql(`SELECT document_id FROM review_checkout_documents WHERE folder = ?`).all(folder) as { document_id: string }[];
    for (const { document_id } of stored)
      if (!documents.has(document_id)) this.sql(`DELETE FROM review_checkout_documents WHERE folder = ? AND document_id = ?`).run(folder, document_id);
    const insert = this.sql(`INSERT OR IGNORE INTO review_checkout_documents (folder, document_id, markdown) VALUES (?, ?, ?)`);
    for (const [id, markdown] of documents) insert.run(folder, id, markdown);
  }
}
