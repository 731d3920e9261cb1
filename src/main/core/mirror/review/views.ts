/**
 * The review records (records.ts writes them) read as the views show them: the read-only
 * questions the UI asks, answered from the mirror alone. Effective
 * columns already include pending actions, so what a user did offline shows
 * at once, flagged `pending`.
 */
import { diffIndices } from 'node-diff3';
import type { Db } from '../database';
import type {
  ChangeRequestDiff,
  ChangeRequestView,
  CommentFilter,
  CommentView,
  NeedingUser,
  PageChange,
  Person,
  Reaction,
  ReplyView,
  ShareLinkView,
  SiteGroupNode,
  SiteSectionNode,
  SiteSpaceNode,
  SiteTree,
} from './types';

const COMMENT_COLUMNS = `id, space_id, change_request_id, page_id, node_id, author_id, body, resolved, posted_at, edited_at,
  resolved_at, reply_count, reactions, pending`;

type CommentRow = [
  id: string,
  spaceId: string,
  changeRequestId: string | null,
  pageId: string | null,
  nodeId: string | null,
  authorId: string | null,
  body: string,
  resolved: number,
  postedAt: string,
  editedAt: string | null,
  resolvedAt: string | null,
  replyCount: number,
  reactions: string,
  pending: number,
];

interface ReplyRecord {
  id: string;
  comment_id: string;
  author_id: string | null;
  author_name: string | null;
  body: string;
  posted_at: string;
  edited_at: string | null;
  reactions: string;
  pending: number;
}

interface ChangeRequestRecord {
  id: string;
  space_id: string;
  number: number;
  status: string;
  subject: string;
  outdated: number;
  author_id: string | null;
  author_name: string | null;
  created_at: string | null;
  updated_at: string | null;
  revision: string | null;
  revision_initial: string | null;
  revision_merged_ancestor: string | null;
  comments: number;
  review_requested: number;
  pending: number;
}

const person = (id: string | null, name: string | null): Person | null => (id ? { id, displayName: name ?? id } : null);

function reactionsOf(raw: string, meId: string): Reaction[] {
  const list = JSON.parse(raw) as { emoji: string; count: number; users: Person[] }[];
  return list.map((r) => ({ emoji: r.emoji, count: r.count, users: r.users, mine: r.users.some((u) => u.id === meId) }));
}

export class ReviewViews {
  constructor(
    private readonly db: Db,
    private readonly meId: () => string,
  ) {}

  /** People by user id: few rows, so a lookup in memory beats a join per comment (and rows share one object per person). */
  private people(): Map<string, Person> {
    const rows = this.db.prepare(`SELECT id, display_name FROM review_users`).raw(true).all() as [string, string][];
    return new Map(rows.map(([id, displayName]) => [id, Object.freeze({ id, displayName })]));
  }

  /**
   * Comments matching a filter, newest first. `status` defaults to open (unresolved).
   * Rows are read as arrays (no per-row objects from the driver): the unresolved list
   * across every space must come back in well under 20 ms for thousands of comments.
   */
  comments(filter: CommentFilter & { status?: 'open' | 'resolved' | 'all' } = {}): CommentView[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const status = filter.status ?? 'open';
    if (status !== 'all') where.push(`resolved = ${status === 'resolved' ? 1 : 0}`);
    // Comments left on merged or archived change requests are history, not work.
    if (!filter.includeClosedChangeRequests && filter.changeRequestId === undefined) where.push('closed = 0');
    if (filter.spaceId !== undefined) {
      where.push('space_id = ?');
      args.push(filter.spaceId);
    }
    if (filter.changeRequestId === null) where.push('change_request_id IS NULL');
    else if (filter.changeRequestId !== undefined) {
      where.push('change_request_id = ?');
      args.push(filter.changeRequestId);
    }
    if (filter.authorId !== undefined) {
      where.push('author_id = ?');
      args.push(filter.authorId);
    }
    if (filter.pageId !== undefined) {
      where.push('page_id = ?');
      args.push(filter.pageId);
    }
    const limit = filter.limit !== undefined ? `LIMIT ${Math.max(0, Math.floor(filter.limit))}` : '';
    const sql = `SELECT ${COMMENT_COLUMNS} FROM comments ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY posted_at DESC ${limit}`;
    const rows = this.db
      .prepare(sql)
      .raw(true)
      .all(...args) as CommentRow[];
    return this.toComments(rows);
  }

  private toComments(rows: CommentRow[]): CommentView[] {
    if (rows.length === 0) return [];
    const people = this.people();
    const meId = this.meId();
    const personOf = (id: string): Person => people.get(id) ?? { id, displayName: id };
    return rows.map((r) => ({
      id: r[0],
      spaceId: r[1],
      changeRequestId: r[2],
      pageId: r[3],
      nodeId: r[4],
      author: r[5] === null ? null : personOf(r[5]),
      body: r[6],
      status: r[7] === 1 ? 'resolved' : 'open',
      postedAt: r[8],
      editedAt: r[9],
      resolvedAt: r[10],
      replyCount: r[11],
      reactions: r[12] === '[]' ? [] : reactionsOf(r[12], meId),
      pending: r[13] === 1,
      mine: r[5] === meId,
    }));
  }

  /** Unresolved comments across every mirrored space, newest first. */
  unresolvedComments(filter: CommentFilter = {}): CommentView[] {
    return this.comments({ ...filter, status: 'open' });
  }

  comment(id: string): CommentView | undefined {
    const rows = this.db.prepare(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = ?`).raw(true).all(id) as CommentRow[];
    return this.toComments(rows)[0];
  }

  /** Replies of several comments at once, oldest first within each. */
  repliesFor(commentIds: string[]): Map<string, ReplyView[]> {
    const out = new Map<string, ReplyView[]>(commentIds.map((id) => [id, []]));
    if (commentIds.length === 0) return out;
    const meId = this.meId();
    const stmt = this.db.prepare(
      `SELECT r.id, r.comment_id, r.author_id, u.display_name AS author_name, r.body, r.posted_at, r.edited_at, r.reactions, r.pending
       FROM replies r LEFT JOIN review_users u ON u.id = r.author_id
       WHERE r.comment_id IN (SELECT value FROM json_each(?)) ORDER BY r.comment_id, r.posted_at, r.id`,
    );
    for (const r of stmt.all(JSON.stringify(commentIds)) as ReplyRecord[]) {
      out.get(r.comment_id)?.push({
        id: r.id,
        commentId: r.comment_id,
        author: person(r.author_id, r.author_name),
        body: r.body,
        postedAt: r.posted_at,
        editedAt: r.edited_at,
        reactions: r.reactions === '[]' ? [] : reactionsOf(r.reactions, meId),
        pending: r.pending === 1,
        mine: r.author_id === meId,
      });
    }
    return out;
  }

  replies(commentId: string): ReplyView[] {
    return this.repliesFor([commentId]).get(commentId) ?? [];
  }

  private toChangeRequest(r: ChangeRequestRecord): ChangeRequestView {
    return {
      spaceId: r.space_id,
      id: r.id,
      number: r.number,
      subject: r.subject,
      status: r.status,
      outdated: r.outdated === 1,
      createdBy: person(r.author_id, r.author_name),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      revision: r.revision,
      baseRevision: r.revision_merged_ancestor ?? r.revision_initial,
      comments: r.comments,
      reviewRequested: r.review_requested === 1,
      pending: r.pending === 1,
    };
  }

  /** Change requests, most recently updated first; by default every status. */
  changeRequests(filter: { spaceId?: string; statuses?: string[] } = {}): ChangeRequestView[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.spaceId !== undefined) {
      where.push('cr.space_id = ?');
      args.push(filter.spaceId);
    }
    if (filter.statuses) {
      where.push(`cr.status IN (SELECT value FROM json_each(?))`);
      args.push(JSON.stringify(filter.statuses));
    }
    const sql = `SELECT cr.*, u.display_name AS author_name FROM change_requests cr LEFT JOIN review_users u ON u.id = cr.author_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY cr.updated_at DESC, cr.space_id, cr.number DESC`;
    return (this.db.prepare(sql).all(...args) as ChangeRequestRecord[]).map((r) => this.toChangeRequest(r));
  }

  changeRequest(id: string): ChangeRequestView | undefined {
    const r = this.db
      .prepare(`SELECT cr.*, u.display_name AS author_name FROM change_requests cr LEFT JOIN review_users u ON u.id = cr.author_id WHERE cr.id = ?`)
      .get(id) as ChangeRequestRecord | undefined;
    return r && this.toChangeRequest(r);
  }

  /** Open change requests where the user is a requested reviewer, or their own that fell behind main. */
  needingUser(): NeedingUser[] {
    const meId = this.meId();
    return this.changeRequests({ statuses: ['open'] })
      .map((cr) => {
        const reasons: NeedingUser['reasons'] = [];
        if (cr.reviewRequested) reasons.push('review-requested');
        if (cr.outdated && cr.createdBy?.id === meId) reasons.push('outdated');
        return { ...cr, reasons };
      })
      .filter((cr) => cr.reasons.length > 0);
  }

  /** Pages that differ between a change request and its base, as last fetched; null when never fetched. */
  changeRequestDiff(changeRequestId: string): ChangeRequestDiff | null {
    const cr = this.db.prepare(`SELECT space_id, diff_fingerprint FROM change_requests WHERE id = ?`).get(changeRequestId) as
      | { space_id: string; diff_fingerprint: string | null }
      | undefined;
    if (!cr?.diff_fingerprint) return null;
    const [baseRevision = '', headRevision = ''] = cr.diff_fingerprint.split('..');
    type PageRecord = { page_id: string; title: string; path: string | null; type: string; document_id: string | null; markdown: string | null };
    const load = (rev: string): Map<string, PageRecord> =>
      new Map(
        (
          this.db
            .prepare(`SELECT page_id, title, path, type, document_id, markdown FROM review_revision_pages WHERE revision_id = ? ORDER BY position`)
            .all(rev) as PageRecord[]
        ).map((p) => [p.page_id, p]),
      );
    const base = load(baseRevision);
    const head = load(headRevision);
    const pages: PageChange[] = [];
    for (const [id, after] of head) {
      const before = base.get(id);
      if (!before) {
        pages.push(pageChange(id, 'added', after.title, after.path, null, null, after.markdown));
        continue;
      }
      const contentChanged = before.title !== after.title || (before.document_id ?? before.markdown) !== (after.document_id ?? after.markdown);
      const moved = before.path !== after.path;
      if (contentChanged) pages.push(pageChange(id, 'modified', after.title, after.path, moved ? before.path : null, before.markdown, after.markdown));
      else if (moved) pages.push(pageChange(id, 'moved', after.title, after.path, before.path, null, null));
    }
    for (const [id, before] of base) {
      if (!head.has(id)) pages.push(pageChange(id, 'removed', before.title, before.path, null, before.markdown, null));
    }
    return { spaceId: cr.space_id, changeRequestId, baseRevision, headRevision, pages };
  }

  /** Sites with their section groups, sections and site spaces, in site order. */
  siteTrees(organizationId?: string): SiteTree[] {
    type SiteRecord = { id: string; organization_id: string; title: string; visibility: string; published: number };
    const sites = (
      organizationId
        ? this.db.prepare(`SELECT * FROM sites WHERE organization_id = ? ORDER BY title, id`).all(organizationId)
        : this.db.prepare(`SELECT * FROM sites ORDER BY organization_id, title, id`).all()
    ) as SiteRecord[];
    return sites.map((s) => this.siteTree(s));
  }

  private siteTree(s: { id: string; organization_id: string; title: string; visibility: string; published: number }): SiteTree {
    const groups = this.db.prepare(`SELECT id, parent_group_id, title FROM site_section_groups WHERE site_id = ? ORDER BY position`).all(s.id) as {
      id: string;
      parent_group_id: string | null;
      title: string;
    }[];
    const sections = this.db.prepare(`SELECT id, group_id, title, path, is_default FROM site_sections WHERE site_id = ? ORDER BY position`).all(s.id) as {
      id: string;
      group_id: string | null;
      title: string;
      path: string;
      is_default: number;
    }[];
    const siteSpaces = this.db
      .prepare(`SELECT id, section_id, space_id, title, path, is_default, hidden FROM site_spaces WHERE site_id = ? ORDER BY position`)
      .all(s.id) as { id: string; section_id: string | null; space_id: string | null; title: string; path: string; is_default: number; hidden: number }[];
    const links = this.db.prepare(`SELECT id, name, active, created_at FROM share_links WHERE site_id = ? ORDER BY created_at, id`).all(s.id) as {
      id: string;
      name: string | null;
      active: number;
      created_at: string;
    }[];

    const spaceNodes = new Map<string | null, SiteSpaceNode[]>();
    for (const ss of siteSpaces) {
      const key = ss.section_id && sections.some((x) => x.id === ss.section_id) ? ss.section_id : null;
      const node: SiteSpaceNode = {
        type: 'site-space',
        id: ss.id,
        title: ss.title,
        path: ss.path,
        spaceId: ss.space_id,
        isDefault: ss.is_default === 1,
        hidden: ss.hidden === 1,
      };
      spaceNodes.set(key, [...(spaceNodes.get(key) ?? []), node]);
    }
    const groupNodes = new Map<string, SiteGroupNode>(groups.map((g) => [g.id, { type: 'group', id: g.id, title: g.title, children: [] }]));
    const root: SiteTree['children'] = [];
    const place = (parent: string | null, node: SiteGroupNode | SiteSectionNode): void => {
      const group = parent ? groupNodes.get(parent) : undefined;
      if (group) group.children.push(node);
      else root.push(node);
    };
    for (const g of groups) place(g.parent_group_id, groupNodes.get(g.id)!);
    for (const sec of sections) {
      place(sec.group_id, {
        type: 'section',
        id: sec.id,
        title: sec.title,
        path: sec.path,
        isDefault: sec.is_default === 1,
        children: spaceNodes.get(sec.id) ?? [],
      });
    }
    root.push(...(spaceNodes.get(null) ?? []));
    const shareLinks: ShareLinkView[] = links.map((l) => ({ id: l.id, name: l.name, active: l.active === 1, createdAt: l.created_at }));
    return {
      id: s.id,
      organizationId: s.organization_id,
      title: s.title,
      visibility: s.visibility,
      published: s.published === 1,
      children: root,
      shareLinks,
    };
  }
}

function lineCounts(before: string | null, after: string | null): { added: number; removed: number } {
  const a = before === null || before === '' ? [] : before.split('\n');
  const b = after === null || after === '' ? [] : after.split('\n');
  let added = 0;
  let removed = 0;
  for (const hunk of diffIndices(a, b)) {
    removed += hunk.buffer1[1];
    added += hunk.buffer2[1];
  }
  return { added, removed };
}

function pageChange(
  pageId: string,
  kind: PageChange['kind'],
  title: string,
  path: string | null,
  previousPath: string | null,
  before: string | null,
  after: string | null,
): PageChange {
  const { added, removed } = lineCounts(before, after);
  return { pageId, kind, title, path, previousPath, before, after, linesAdded: added, linesRemoved: removed };
}
