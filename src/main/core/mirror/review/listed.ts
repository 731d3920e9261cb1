/**
 * What tells a review refresh to list something again: the fingerprint each list was last seen
 * with (a change request's comments, a comment's replies), and when each space's own comments
 * were last listed (migration 28).
 */
import type { Db } from '../database';
import { statementCache } from './statements';
import type { RemoteChangeRequest, RemoteComment } from './types';

export function commentFingerprint(c: RemoteComment): string {
  // biome-ignore lint/complexity/useMathMinMax: ISO timestamps are strings; Math.max would compare numbers.
  const latest = (c.repliers ?? []).reduce((max, r) => (r.updatedAt > max ? r.updatedAt : max), '');
  return `${c.replies ?? 0}|${latest}`;
}

export function changeRequestFingerprint(cr: RemoteChangeRequest): string {
  return `${cr.updatedAt ?? ''}|${cr.comments ?? 0}`;
}

/** When each space's own comments (those on its main content) were last listed, and which it holds open. */
export class SpaceCommentLists {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** The space's own comments the mirror holds open (their resolution, or deletion, is only seen by listing them). */
  holdsOpen(spaceId: string): boolean {
    return (
      this.sql(`SELECT 1 FROM comments WHERE space_id = ? AND change_request_id IS NULL AND on_server = 1 AND resolved = 0 LIMIT 1`).get(spaceId) !== undefined
    );
  }

  /** Of `spaceIds`, the `limit` whose own comments were listed longest ago, those never listed first. */
  longestUnlisted(spaceIds: readonly string[], limit: number): string[] {
    const rows = this.sql(
      `SELECT value AS id FROM json_each(?) LEFT JOIN space_comment_lists ON space_id = value
         ORDER BY listed_at IS NOT NULL, listed_at, value LIMIT ?`,
    ).all(JSON.stringify(spaceIds), limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  setListed(spaceId: string, at = new Date().toISOString()): void {
    this.sql(`INSERT INTO space_comment_lists (space_id, listed_at) VALUES (?, ?) ON CONFLICT (space_id) DO UPDATE SET listed_at = excluded.listed_at`).run(
      spaceId,
      at,
    );
  }

  forgetSpacesExcept(keep: readonly string[]): void {
    this.sql(`DELETE FROM space_comment_lists WHERE space_id NOT IN (SELECT value FROM json_each(?))`).run(JSON.stringify(keep));
  }
}
