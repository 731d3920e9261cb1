/**
 * The records of change requests, comments and replies, written here (views.ts reads them as
 * the views show them). Every row keeps the server's object (in server_json, or comment_sources /
 * reply_sources) and effective columns: the server object with the pending actions that touch it
 * folded in. Rewriting either side goes through `materialize*`, so pending effects survive
 * refreshes and restarts.
 *
 * The search index follows every comment and reply row written or deleted here (what search
 * finds is what the review views show, pending edits included).
 */
import type { Db } from '../database';
import type { SearchIndex } from '../search';
import type { ReviewActionLog } from './action-log';
import { applyToChangeRequest, applyToComment, applyToReply, CHANGE_REQUEST_KINDS } from './effects';
import { SpaceCommentLists } from './listed';
import { statementCache } from './statements';
import type { ActionRecord, RemoteChangeRequest, RemoteComment, RemoteReaction, RemoteReply, RemoteUser } from './types';

const ME_KEY = 'review.me';
const REFRESHED_KEY = 'review.refreshedAt';
/** Used for optimistic authorship before the signed-in user is known. */
const UNKNOWN_ME: RemoteUser = { id: 'me', displayName: 'You' };

/** Compact reactions for the effective column: names, not whole user objects. */
function compactReactions(reactions: RemoteReaction[] | undefined): string {
  return JSON.stringify(
    (reactions ?? []).map((r) => ({ emoji: r.emoji, count: r.count, users: r.users.map((u) => ({ id: u.user.id, displayName: u.user.displayName ?? '' })) })),
  );
}

/** The name search finds a comment or reply by. */
function authorName(u: RemoteUser | undefined): string {
  return u?.displayName ?? u?.email ?? '';
}

export class ReviewRecords {
  private readonly sql: ReturnType<typeof statementCache>;
  private cachedMe: RemoteUser | undefined;
  /** Display names already written, so mirroring thousands of comments does not rewrite the same users. */
  private readonly knownNames = new Map<string, string>();
  /** When each space's own comments were last listed. */
  readonly spaceCommentLists: SpaceCommentLists;

  constructor(
    db: Db,
    private readonly actions: ReviewActionLog,
    private readonly search: SearchIndex,
  ) {
    this.sql = statementCache(db);
    this.spaceCommentLists = new SpaceCommentLists(db);
  }

  me(): RemoteUser {
    if (!this.cachedMe) {
      const raw = this.meta(ME_KEY);
      this.cachedMe = raw ? (JSON.parse(raw) as RemoteUser) : UNKNOWN_ME;
    }
    return this.cachedMe;
  }

  knowsMe(): boolean {
    return this.meta(ME_KEY) !== undefined;
  }

  setMe(user: RemoteUser): void {
    this.sql(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
      ME_KEY,
      JSON.stringify({ id: user.id, displayName: user.displayName ?? user.email ?? user.id, ...(user.email ? { email: user.email } : {}) }),
    );
    this.cachedMe = undefined;
    this.rememberUser(user);
  }

  private meta(key: string): string | undefined {
    return (this.sql(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined)?.value;
  }

  rememberUser(u: RemoteUser | undefined): void {
    if (!u?.id) return;
    const name = u.displayName ?? u.email ?? u.id;
    if (this.knownNames.get(u.id) === name) return;
    this.knownNames.set(u.id, name);
    this.sql(
      `INSERT INTO review_users (id, display_name, email, photo_url) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name, email = COALESCE(excluded.email, email),
           photo_url = COALESCE(excluded.photo_url, photo_url)
         WHERE display_name IS NOT excluded.display_name OR email IS NOT COALESCE(excluded.email, email)
           OR photo_url IS NOT COALESCE(excluded.photo_url, photo_url)`,
    ).run(u.id, u.displayName ?? u.email ?? u.id, u.email ?? null, u.photoURL ?? null);
  }

  private rememberUsersOf(o: RemoteComment | RemoteReply): void {
    this.rememberUser(o.postedBy);
    if ('resolvedBy' in o) this.rememberUser(o.resolvedBy);
    for (const r of o.reactions ?? []) for (const u of r.users) this.rememberUser(u.user);
  }

  // ---- server objects ------------------------------------------------------

  putChangeRequest(spaceId: string, cr: RemoteChangeRequest, reviewRequested?: boolean): void {
    this.rememberUser(cr.createdBy);
    this.sql(
      `INSERT INTO change_requests (id, space_id, number, status, subject, server_json, review_requested)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET server_json = excluded.server_json,
           review_requested = CASE WHEN ? IS NULL THEN review_requested ELSE excluded.review_requested END`,
    ).run(cr.id, spaceId, cr.number, cr.status, cr.subject ?? '', JSON.stringify(cr), reviewRequested ? 1 : 0, reviewRequested === undefined ? null : 1);
    this.materializeChangeRequest(cr.id);
  }

  serverChangeRequest(id: string): RemoteChangeRequest | null {
    const r = this.sql(`SELECT server_json FROM change_requests WHERE id = ?`).get(id) as { server_json: string | null } | undefined;
    return r?.server_json ? (JSON.parse(r.server_json) as RemoteChangeRequest) : null;
  }

  /** The server's copy with what actions not sent yet change in it: the change request as the user sees it. */
  effectiveChangeRequest(id: string): RemoteChangeRequest | null {
    return this.pendingChangeRequestActions(id).reduce(applyToChangeRequest, this.serverChangeRequest(id));
  }

  private pendingChangeRequestActions(id: string) {
    return this.actions.pendingFor('change_request_id', id).filter((a) => CHANGE_REQUEST_KINDS.has(a.kind));
  }

  materializeChangeRequest(id: string): void {
    const pending = this.pendingChangeRequestActions(id);
    const cr = pending.reduce(applyToChangeRequest, this.serverChangeRequest(id));
    if (!cr) return;
    this.sql(
      `UPDATE change_requests SET number = ?, status = ?, subject = ?, outdated = ?, author_id = ?, created_at = ?, updated_at = ?,
           revision = ?, revision_initial = ?, revision_merged_ancestor = ?, comments = ?, pending = ? WHERE id = ?`,
    ).run(
      cr.number,
      cr.status,
      cr.subject ?? '',
      cr.outdated ? 1 : 0,
      cr.createdBy?.id ?? null,
      cr.createdAt ?? null,
      cr.updatedAt ?? null,
      cr.revision ?? null,
      cr.revisionInitial ?? null,
      cr.revisionMergedAncestor ?? null,
      cr.comments ?? 0,
      pending.length > 0 ? 1 : 0,
      id,
    );
    this.sql(`UPDATE comments SET closed = ? WHERE change_request_id = ?`).run(cr.status === 'merged' || cr.status === 'archived' ? 1 : 0, id);
  }

  setCommentsFingerprint(changeRequestId: string, fingerprint: string | null, at = new Date().toISOString()): void {
    this.sql(`UPDATE change_requests SET comments_fingerprint = ?, comments_listed_at = ? WHERE id = ?`).run(fingerprint, at, changeRequestId);
  }

  /** Open and draft change requests of a space whose comments were listed longest ago. */
  longestUnlisted(spaceId: string, limit: number): string[] {
    const rows = this.sql(
      `SELECT id FROM change_requests WHERE space_id = ? AND status IN ('open', 'draft')
         ORDER BY comments_listed_at IS NOT NULL, comments_listed_at, id LIMIT ?`,
    ).all(spaceId, limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** The base..head whose page diff is stored for the change request (null: none yet). */
  diffFingerprint(changeRequestId: string): string | null {
    const row = this.sql(`SELECT diff_fingerprint FROM change_requests WHERE id = ?`).get(changeRequestId) as { diff_fingerprint: string | null } | undefined;
    return row?.diff_fingerprint ?? null;
  }

  setDiffFingerprint(changeRequestId: string, fingerprint: string | null): void {
    this.sql(`UPDATE change_requests SET diff_fingerprint = ? WHERE id = ?`).run(fingerprint, changeRequestId);
  }

  /** Keyed by id: what the last refresh saw of each change request of a space. */
  changeRequestStates(spaceId: string): Map<string, { commentsFingerprint: string | null; diffFingerprint: string | null; status: string }> {
    const rows = this.sql(`SELECT id, comments_fingerprint, diff_fingerprint, status FROM change_requests WHERE space_id = ?`).all(spaceId) as {
      id: string;
      comments_fingerprint: string | null;
      diff_fingerprint: string | null;
      status: string;
    }[];
    return new Map(rows.map((r) => [r.id, { commentsFingerprint: r.comments_fingerprint, diffFingerprint: r.diff_fingerprint, status: r.status }]));
  }

  deleteChangeRequest(id: string): void {
    this.deleteCommentsWhere(`change_request_id = ?`, id);
    this.sql(`DELETE FROM change_requests WHERE id = ?`).run(id);
  }

  putComment(spaceId: string, changeRequestId: string | null, c: RemoteComment): void {
    this.rememberUsersOf(c);
    this.sql(
      `INSERT INTO comments (id, space_id, change_request_id, body, posted_at, on_server) VALUES (?, ?, ?, '', ?, 1)
         ON CONFLICT (id) DO UPDATE SET space_id = excluded.space_id, change_request_id = excluded.change_request_id, on_server = 1`,
    ).run(c.id, spaceId, changeRequestId, c.postedAt);
    this.sql(`INSERT INTO comment_sources (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json`).run(c.id, JSON.stringify(c));
    this.materializeComment(c.id, c);
  }

  serverComment(id: string): RemoteComment | null {
    const r = this.sql(`SELECT json FROM comment_sources WHERE id = ?`).get(id) as { json: string } | undefined;
    return r ? (JSON.parse(r.json) as RemoteComment) : null;
  }

  commentLocation(id: string): { spaceId: string; changeRequestId: string | null } | undefined {
    const r = this.sql(`SELECT space_id, change_request_id FROM comments WHERE id = ?`).get(id) as
      | { space_id: string; change_request_id: string | null }
      | undefined;
    return r && { spaceId: r.space_id, changeRequestId: r.change_request_id };
  }

  /**
   * Rewrites a comment's effective columns; creates the row for one posted offline, drops one
   * that no longer exists. A comment whose deletion is pending leaves the views and search but
   * keeps its server copy (and its replies), so a withdrawn or refused deletion brings it back;
   * `where` says where it lives when its row must come back.
   */
  materializeComment(id: string, known?: RemoteComment, where?: { spaceId: string; changeRequestId: string | null }): void {
    const server = known ?? this.serverComment(id);
    const pending = this.actions.pendingFor('comment_id', id);
    const me = this.me();
    let c: RemoteComment | null = server;
    for (const a of pending) c = applyToComment(c, a, me);
    if (!c) {
      if (server) this.hideComment(id);
      else this.deleteCommentsWhere(`id = ?`, id);
      return;
    }
    const create = pending.find((a) => a.kind === 'postComment');
    if (!server && create) {
      this.sql(`INSERT OR IGNORE INTO comments (id, space_id, change_request_id, body, posted_at) VALUES (?, ?, ?, '', ?)`).run(
        id,
        create.spaceId,
        create.changeRequestId,
        c.postedAt,
      );
    }
    const shown = this.commentLocation(id) !== undefined;
    if (!shown && server) {
      // Back from a deletion that was withdrawn or refused: its row, and its replies in search, return.
      const spaceId = where?.spaceId ?? server.target?.space;
      if (!spaceId) return;
      this.sql(`INSERT OR IGNORE INTO comments (id, space_id, change_request_id, body, posted_at, on_server) VALUES (?, ?, ?, '', ?, 1)`).run(
        id,
        spaceId,
        where?.changeRequestId ?? server.target?.changeRequest ?? null,
        server.postedAt,
      );
      for (const replyId of this.replyIdsOf(id)) this.materializeReply(replyId);
    }
    this.sql(
      `UPDATE comments SET page_id = ?, node_id = ?, author_id = ?, body = ?, resolved = ?, posted_at = ?, edited_at = ?,
           resolved_at = ?, resolved_by = ?, reply_count = ?, reactions = ?, pending = ?,
           closed = COALESCE((SELECT status IN ('merged', 'archived') FROM change_requests WHERE id = comments.change_request_id), 0)
         WHERE id = ?`,
    ).run(
      c.target?.page?.id ?? null,
      c.target?.node?.id ?? null,
      c.postedBy?.id ?? null,
      c.body?.markdown ?? '',
      c.status === 'resolved' ? 1 : 0,
      c.postedAt,
      c.editedAt ?? null,
      c.resolvedAt ?? null,
      c.resolvedBy?.id ?? null,
      c.replies ?? 0,
      compactReactions(c.reactions),
      // Only the comment's own changes make it pending; a pending reply shows on the reply.
      pending.some((a) => a.replyId === null) ? 1 : 0,
      id,
    );
    const location = this.commentLocation(id);
    if (location) this.search.indexComment({ id, spaceId: location.spaceId, author: authorName(c.postedBy), body: c.body?.markdown ?? '' });
  }

  setRepliesFingerprint(commentId: string, fingerprint: string | null): void {
    this.sql(`UPDATE comments SET replies_fingerprint = ? WHERE id = ?`).run(fingerprint, commentId);
  }

  /** Server comment ids of a space's main content (changeRequestId null) or of one change request, with their replies fingerprint. */
  knownComments(spaceId: string, changeRequestId: string | null): Map<string, string | null> {
    const rows = (
      changeRequestId === null
        ? this.sql(`SELECT id, replies_fingerprint FROM comments WHERE space_id = ? AND change_request_id IS NULL AND on_server = 1`).all(spaceId)
        : this.sql(`SELECT id, replies_fingerprint FROM comments WHERE change_request_id = ? AND on_server = 1`).all(changeRequestId)
    ) as { id: string; replies_fingerprint: string | null }[];
    return new Map(rows.map((r) => [r.id, r.replies_fingerprint]));
  }

  /** The server no longer has this comment: forget its server side (pending creations stay). */
  dropServerComment(id: string): void {
    for (const replyId of this.serverReplyIds(id)) this.dropServerReply(replyId);
    this.sql(`DELETE FROM comment_sources WHERE id = ?`).run(id);
    this.sql(`UPDATE comments SET on_server = 0 WHERE id = ?`).run(id);
    this.materializeComment(id);
  }

  /** A comment whose deletion is pending: out of the views and out of search, its server copy and replies kept. */
  private hideComment(id: string): void {
    this.search.removeComment(id); // its replies' entries too (they carry its id)
    this.sql(`DELETE FROM comments WHERE id = ?`).run(id);
  }

  private replyIdsOf(commentId: string): string[] {
    return (this.sql(`SELECT id FROM replies WHERE comment_id = ?`).all(commentId) as { id: string }[]).map((r) => r.id);
  }

  /** The server deleted the comment (our deletion went through): it goes, with its replies. */
  deleteComment(id: string): void {
    this.deleteCommentsWhere(`id = ?`, id);
    this.search.removeComment(id); // its replies' entries too (they carry its id)
    this.sql(`DELETE FROM reply_sources WHERE id IN (SELECT id FROM replies WHERE comment_id = ?)`).run(id);
    this.sql(`DELETE FROM replies WHERE comment_id = ?`).run(id);
    this.sql(`DELETE FROM comment_sources WHERE id = ?`).run(id);
  }

  /** The server deleted the reply (our deletion went through). */
  deleteReply(id: string): void {
    this.sql(`DELETE FROM reply_sources WHERE id = ?`).run(id);
    this.sql(`DELETE FROM replies WHERE id = ?`).run(id);
    this.search.removeReply(id);
  }

  private deleteCommentsWhere(where: string, arg: string): void {
    for (const { id } of this.sql(`SELECT id FROM comments WHERE ${where}`).all(arg) as { id: string }[]) this.search.removeComment(id);
    const replies = `SELECT id FROM replies WHERE comment_id IN (SELECT id FROM comments WHERE ${where})`;
    this.sql(`DELETE FROM reply_sources WHERE id IN (${replies})`).run(arg);
    this.sql(`DELETE FROM replies WHERE comment_id IN (SELECT id FROM comments WHERE ${where})`).run(arg);
    this.sql(`DELETE FROM comment_sources WHERE id IN (SELECT id FROM comments WHERE ${where})`).run(arg);
    this.sql(`DELETE FROM comments WHERE ${where}`).run(arg);
  }

  putReply(spaceId: string, commentId: string, r: RemoteReply): void {
    this.rememberUsersOf(r);
    this.sql(
      `INSERT INTO replies (id, comment_id, space_id, body, posted_at, on_server) VALUES (?, ?, ?, '', ?, 1)
         ON CONFLICT (id) DO UPDATE SET comment_id = excluded.comment_id, space_id = excluded.space_id, on_server = 1`,
    ).run(r.id, commentId, spaceId, r.postedAt);
    this.sql(`INSERT INTO reply_sources (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json`).run(r.id, JSON.stringify(r));
    this.materializeReply(r.id, r);
  }

  serverReply(id: string): RemoteReply | null {
    const r = this.sql(`SELECT json FROM reply_sources WHERE id = ?`).get(id) as { json: string } | undefined;
    return r ? (JSON.parse(r.json) as RemoteReply) : null;
  }

  /** The comment a reply belongs to, if the mirror has the reply. */
  replyComment(id: string): string | null {
    return (this.sql(`SELECT comment_id FROM replies WHERE id = ?`).get(id) as { comment_id: string } | undefined)?.comment_id ?? null;
  }

  replyExists(id: string): boolean {
    return this.sql(`SELECT 1 FROM replies WHERE id = ?`).get(id) !== undefined;
  }

  serverReplyIds(commentId: string): Set<string> {
    const rows = this.sql(`SELECT id FROM replies WHERE comment_id = ? AND on_server = 1`).all(commentId) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  dropServerReply(id: string): void {
    this.sql(`DELETE FROM reply_sources WHERE id = ?`).run(id);
    this.sql(`UPDATE replies SET on_server = 0 WHERE id = ?`).run(id);
    this.materializeReply(id);
  }

  /** As materializeComment, for a reply; `where` names its comment when its row must come back. */
  materializeReply(id: string, known?: RemoteReply, where?: { commentId: string; spaceId: string }): void {
    const server = known ?? this.serverReply(id);
    const pending = this.actions.pendingFor('reply_id', id);
    const me = this.me();
    let r: RemoteReply | null = server;
    for (const a of pending) r = applyToReply(r, a, me);
    if (!r) {
      // A pending deletion keeps the server copy (reply_sources) for a withdrawal to bring back.
      this.sql(`DELETE FROM replies WHERE id = ?`).run(id);
      this.search.removeReply(id);
      return;
    }
    const create = pending.find((a) => a.kind === 'reply');
    if (!server && create && create.commentId) {
      this.sql(`INSERT OR IGNORE INTO replies (id, comment_id, space_id, body, posted_at) VALUES (?, ?, ?, '', ?)`).run(
        id,
        create.commentId,
        create.spaceId,
        r.postedAt,
      );
    } else if (server && where) {
      this.sql(`INSERT OR IGNORE INTO replies (id, comment_id, space_id, body, posted_at, on_server) VALUES (?, ?, ?, '', ?, 1)`).run(
        id,
        where.commentId,
        where.spaceId,
        r.postedAt,
      );
    }
    this.sql(`UPDATE replies SET author_id = ?, body = ?, posted_at = ?, edited_at = ?, reactions = ?, pending = ? WHERE id = ?`).run(
      r.postedBy?.id ?? null,
      r.body?.markdown ?? '',
      r.postedAt,
      r.editedAt ?? null,
      compactReactions(r.reactions),
      pending.length > 0 ? 1 : 0,
      id,
    );
    // A reply of a comment whose deletion is pending stays out of search with it.
    const row = this.sql(`SELECT comment_id, space_id FROM replies WHERE id = ? AND comment_id IN (SELECT id FROM comments)`).get(id) as
      | { comment_id: string; space_id: string }
      | undefined;
    if (row) this.search.indexReply({ id, commentId: row.comment_id, spaceId: row.space_id, author: authorName(r.postedBy), body: r.body?.markdown ?? '' });
  }

  /** Moves a comment posted offline (and its local replies) to the id the server gave it. */
  renameComment(localId: string, serverId: string): void {
    this.sql(`UPDATE replies SET comment_id = ? WHERE comment_id = ?`).run(serverId, localId);
    this.sql(`DELETE FROM comments WHERE id = ?`).run(localId);
    this.search.moveReplies(localId, serverId);
    this.search.removeComment(localId);
  }

  renameReply(localId: string): void {
    this.sql(`DELETE FROM replies WHERE id = ?`).run(localId);
    this.search.removeReply(localId);
  }

  /** Re-applies pending actions to every row they touch (after the queue changed). */
  materializeTargetsOf(a: Pick<ActionRecord, 'commentId' | 'replyId' | 'changeRequestId' | 'kind' | 'spaceId'>): void {
    if (CHANGE_REQUEST_KINDS.has(a.kind)) {
      if (a.changeRequestId) this.materializeChangeRequest(a.changeRequestId);
      return;
    }
    if (a.commentId) this.materializeComment(a.commentId, undefined, { spaceId: a.spaceId, changeRequestId: a.changeRequestId });
    if (a.replyId) this.materializeReply(a.replyId, undefined, a.commentId ? { commentId: a.commentId, spaceId: a.spaceId } : undefined);
  }

  /** Ids of comments and replies the mirror holds from the server. */
  mirroredIds(): Set<string> {
    const rows = this.sql(`SELECT id FROM comment_sources UNION ALL SELECT id FROM reply_sources`).all() as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /** How many change requests, comments or replies the mirror holds for these spaces. */
  count(table: 'change_requests' | 'comments' | 'replies', spaceIds: readonly string[]): number {
    const row = this.sql(`SELECT COUNT(*) AS n FROM ${table} WHERE space_id IN (SELECT value FROM json_each(?))`).get(JSON.stringify(spaceIds)) as {
      n: number;
    };
    return row.n;
  }

  /** Open change requests of a space. */
  openChangeRequestCount(spaceId: string): number {
    return (this.sql(`SELECT COUNT(*) AS n FROM change_requests WHERE space_id = ? AND status = 'open'`).get(spaceId) as { n: number }).n;
  }

  /** Drops review rows of spaces no longer synced, keeping any with actions still to send. */
  forgetSpacesExcept(keep: readonly string[]): void {
    const keepJson = JSON.stringify(keep);
    const notKept = `space_id NOT IN (SELECT value FROM json_each(?)) AND space_id NOT IN
      (SELECT space_id FROM review_actions WHERE state IN ('queued', 'sending', 'draft'))`;
    for (const { id } of this.sql(`SELECT id FROM replies WHERE ${notKept}`).all(keepJson) as { id: string }[]) this.search.removeReply(id);
    for (const { id } of this.sql(`SELECT id FROM comments WHERE ${notKept}`).all(keepJson) as { id: string }[]) this.search.removeComment(id);
    this.sql(`DELETE FROM reply_sources WHERE id IN (SELECT id FROM replies WHERE ${notKept})`).run(keepJson);
    this.sql(`DELETE FROM replies WHERE ${notKept}`).run(keepJson);
    this.sql(`DELETE FROM comment_sources WHERE id IN (SELECT id FROM comments WHERE ${notKept})`).run(keepJson);
    this.sql(`DELETE FROM comments WHERE ${notKept}`).run(keepJson);
    this.sql(`DELETE FROM change_requests WHERE ${notKept}`).run(keepJson);
    this.spaceCommentLists.forgetSpacesExcept(keep);
  }

  /** The merge rules that apply in a space (its own, else its organization's), as the server last sent them. */
  mergeRules(spaceId: string): { type: string; rules?: { rule: string; users?: string[] }[] } | null {
    type Rules = { type: string; rules?: { rule: string; users?: string[] }[] };
    const r = this.sql(`SELECT json, organization_id FROM spaces WHERE id = ?`).get(spaceId) as { json: string; organization_id: string } | undefined;
    if (!r) return null;
    const own = (JSON.parse(r.json) as { mergeRules?: Rules }).mergeRules;
    if (own && own.type !== 'inherit') return own;
    const org = this.sql(`SELECT json FROM organizations WHERE id = ?`).get(r.organization_id) as { json: string } | undefined;
    return org ? ((JSON.parse(org.json) as { mergeRules?: Rules }).mergeRules ?? null) : null;
  }

  /** When review state was last refreshed from the server (ISO), or null. */
  refreshedAt(): string | null {
    return this.meta(REFRESHED_KEY) ?? null;
  }

  setRefreshedAt(at: string): void {
    this.sql(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(REFRESHED_KEY, at);
  }

  spacePermissions(spaceId: string): Record<string, boolean> | undefined {
    const r = this.sql(`SELECT json FROM spaces WHERE id = ?`).get(spaceId) as { json: string } | undefined;
    if (!r) return undefined;
    const space = JSON.parse(r.json) as { permissions?: Record<string, boolean> };
    return space.permissions;
  }
}
