/**
 * The pages of a change request the user marked viewed (migration 23), each with a fingerprint
 * of the page's change when it was marked: core/review/viewed.ts compares it with the change
 * now, so a mark clears itself when a later revision changes the page.
 */
import type { Db } from '../database';
import { statementCache } from './statements';

export class ViewedPageStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** Each marked page of the change request, with the fingerprint its change had when marked. */
  marks(changeRequestId: string): Map<string, string> {
    const rows = this.sql(`SELECT page_id, fingerprint FROM review_viewed_pages WHERE change_request_id = ?`).all(changeRequestId) as {
      page_id: string;
      fingerprint: string;
    }[];
    return new Map(rows.map((r) => [r.page_id, r.fingerprint]));
  }

  mark(changeRequestId: string, pageId: string, fingerprint: string, at: string): void {
    this.sql(
      `INSERT INTO review_viewed_pages (change_request_id, page_id, fingerprint, viewed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (change_request_id, page_id) DO UPDATE SET fingerprint = excluded.fingerprint, viewed_at = excluded.viewed_at`,
    ).run(changeRequestId, pageId, fingerprint, at);
  }

  unmark(changeRequestId: string, pageId: string): void {
    this.sql(`DELETE FROM review_viewed_pages WHERE change_request_id = ? AND page_id = ?`).run(changeRequestId, pageId);
  }
}
