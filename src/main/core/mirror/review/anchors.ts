/**
 * Where comments on a block were made (migration 25): the block's lines in its page's file at
 * the comment's revision and a fingerprint of the block, read once per comment
 * (core/review/anchors.ts). Whether the thread is outdated, and where it shows now, come from
 * comparing them with the change request's current revision.
 */
import type { Db } from '../database';

export interface CommentAnchor {
  commentId: string;
  /** The revision the comment was made on (its `target.revision`). */
  revisionId: string;
  pageId: string;
  nodeId: string;
  /** What the block said (core/review/blocks.ts `blockFingerprint`); null when the block was not found. */
  fingerprint: string | null;
  /** Its first line in the page's file at that revision (1-based); null when not found. */
  line: number | null;
  /** Its lines in the file then; null when not found. */
  lines: string[] | null;
}

type Row = Omit<CommentAnchor, 'lines'> & { lines: string | null };

export class CommentAnchorStore {
  constructor(private readonly db: Db) {}

  /** The anchors of these comments that were read. */
  anchors(commentIds: readonly string[]): Map<string, CommentAnchor> {
    if (commentIds.length === 0) return new Map();
    const rows = this.db
      .prepare(
        `SELECT comment_id AS commentId, revision_id AS revisionId, page_id AS pageId, node_id AS nodeId, fingerprint, line, lines
         FROM comment_anchors WHERE comment_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(commentIds)) as Row[];
    return new Map(rows.map((r) => [r.commentId, { ...r, lines: r.lines === null ? null : (JSON.parse(r.lines) as string[]) }]));
  }

  put(a: CommentAnchor): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO comment_anchors (comment_id, revision_id, page_id, node_id, fingerprint, line, lines) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(a.commentId, a.revisionId, a.pageId, a.nodeId, a.fingerprint, a.line, a.lines === null ? null : JSON.stringify(a.lines));
  }

  /** Forgets the anchors of comments the mirror no longer has. */
  prune(): void {
    this.db.prepare(`DELETE FROM comment_anchors WHERE comment_id NOT IN (SELECT id FROM comments)`).run();
  }
}
