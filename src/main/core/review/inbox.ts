/**
 * The inbox: what asks something of the signed-in user, newest first, unread before read.
 *
 * - change requests: a review requested from you; your own open change request that someone
 *   else reviewed;
 * - threads (unresolved comments of main and of open change requests): a comment or reply by
 *   someone else on your change request or on a page you pushed from this folder, one that
 *   mentions you (`@Your Name`, your email or your user id), and replies to your comments.
 *
 * Each item carries the time of its latest activity by someone else. It is unread until the
 * user looked at it with that activity shown (markItemsRead records the time per item), so a new
 * reply makes a thread unread again. From the mirror alone: no request.
 */
import type { ChangeRequestView, CommentView, Mirror, Person, ReplyView } from '../mirror';

export type InboxReason = 'review-requested' | 'reviewed' | 'comment-on-my-change-request' | 'comment-on-my-page' | 'mention' | 'reply-to-me';

export interface InboxItem {
  /** `cr:<change request id>` or `thread:<comment id>`: what markRead takes. */
  key: string;
  reasons: InboxReason[];
  unread: boolean;
  /** The latest activity by someone else (ISO). */
  activityAt: string;
  /** Who did it. */
  by: Person | null;
  spaceId: string;
  changeRequest: ChangeRequestView | null;
  /** The thread, for a thread item. */
  comment: CommentView | null;
  replies: ReplyView[];
}

const later = (a: string, b: string | null | undefined): string => (b && b > a ? b : a);

export function buildInbox(mirror: Pick<Mirror, 'history' | 'inboxMarks' | 'reviewRecords' | 'reviewViews' | 'reviewers'>): InboxItem[] {
  if (!mirror.reviewRecords.knowsMe()) return [];
  const me = mirror.reviewRecords.me();
  const seen = mirror.inboxMarks.seen();
  const items: InboxItem[] = [];
  const add = (item: Omit<InboxItem, 'unread'>) => {
    const at = seen.get(item.key);
    items.push({ ...item, unread: at === undefined || item.activityAt > at });
  };

  const changeRequests = mirror.reviewViews.changeRequests({ statuses: ['open', 'draft'] });
  const byId = new Map(changeRequests.map((cr) => [cr.id, cr]));
  for (const cr of changeRequests) {
    if (cr.reviewRequested) {
      add({
        key: `cr:${cr.id}`,
        reasons: ['review-requested'],
        activityAt: cr.updatedAt ?? cr.createdAt ?? '',
        by: cr.createdBy,
        spaceId: cr.spaceId,
        changeRequest: cr,
        comment: null,
        replies: [],
      });
      continue;
    }
    if (cr.createdBy?.id !== me.id) continue;
    const reviews = mirror.reviewers.reviews(cr.id).filter((r) => r.reviewer.id !== me.id && !r.outdated);
    if (reviews.length === 0) continue;
    const latest = reviews.reduce((a, b) => (b.at > a.at ? b : a));
    add({
      key: `cr:${cr.id}`,
      reasons: ['reviewed'],
      activityAt: latest.at,
      by: latest.reviewer,
      spaceId: cr.spaceId,
      changeRequest: cr,
      comment: null,
      replies: [],
    });
  }

  const myPages = mirror.history.pushedPageKeys();
  const comments = mirror.reviewViews.comments({ status: 'open' });
  const replies = mirror.reviewViews.repliesFor(comments.map((c) => c.id));
  const mentionsMe = mentionTest(me.displayName ?? '', me.email, me.id);
  for (const c of comments) {
    const thread = replies.get(c.id) ?? [];
    const cr = c.changeRequestId ? (byId.get(c.changeRequestId) ?? null) : null;
    const others = [c, ...thread].filter((p) => p.author !== null && p.author.id !== me.id);
    if (others.length === 0) continue;
    const reasons: InboxReason[] = [];
    if (cr && cr.createdBy?.id === me.id) reasons.push('comment-on-my-change-request');
    if (c.pageId && myPages.get(c.spaceId)?.has(c.pageId)) reasons.push('comment-on-my-page');
    if (others.some((p) => mentionsMe(p.body))) reasons.push('mention');
    if (c.author?.id === me.id) reasons.push('reply-to-me');
    if (reasons.length === 0) continue;
    let activityAt = '';
    let by: Person | null = null;
    for (const p of others) {
      const at = later(p.postedAt, p.editedAt);
      if (at >= activityAt) {
        activityAt = at;
        by = p.author;
      }
    }
    add({ key: `thread:${c.id}`, reasons, activityAt, by, spaceId: c.spaceId, changeRequest: cr, comment: c, replies: thread });
  }
  return items.sort((a, b) => Number(b.unread) - Number(a.unread) || (a.activityAt < b.activityAt ? 1 : a.activityAt > b.activityAt ? -1 : 0));
}

/** Marks the items given read at the activity they show (an inbox just built: not built again). */
export function markItemsRead(mirror: Pick<Mirror, 'inboxMarks' | 'transaction'>, items: readonly Pick<InboxItem, 'key' | 'activityAt'>[]): number {
  mirror.transaction(() => mirror.inboxMarks.markSeen(items.map((i) => ({ item: i.key, at: i.activityAt }))));
  return items.length;
}

/** Whether a text mentions the user: `@Name`, their email or their id, in any case. */
function mentionTest(name: string, email: string | undefined, id: string): (text: string) => boolean {
  const needles = [name.trim() ? `@${name.trim().toLowerCase()}` : null, email?.toLowerCase() ?? null, id.toLowerCase()].filter((n): n is string => !!n);
  return (text) => {
    const lower = text.toLowerCase();
    return needles.some((n) => lower.includes(n));
  };
}
