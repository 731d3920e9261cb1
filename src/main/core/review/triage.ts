/**
 * The inbox sorted the way a reviewer works through it, across every organization the folder
 * syncs, from the mirror alone:
 *
 * - needs your review: open change requests someone asked you to review;
 * - changes requested on yours: your change requests whose latest review by someone says so;
 * - ready to merge: your other change requests, every merge rule met (as far as the mirror
 *   knows: the server has the last word);
 * - blocked: your other change requests, with each rule or reviewer they wait on;
 * - mentions and replies: threads that mention you, reply to you, or are on your change
 *   requests or pages (inbox.ts says which).
 *
 * An item can be pinned (first in its group) or snoozed: out of the groups until a date, or —
 * without one — until it changes (new activity, a new revision, another group). Both are kept
 * in the mirror, so they hold across runs and hosts.
 */
import type { Mirror } from '../mirror';
import { buildInbox, type InboxItem } from './inbox';
import { blockersOf } from './lifecycle';

export const TRIAGE_GROUPS = ['needs-review', 'changes-requested', 'ready-to-merge', 'blocked', 'mentions'] as const;
export type TriageGroup = (typeof TRIAGE_GROUPS)[number];

export interface TriageItem extends InboxItem {
  group: TriageGroup;
  /** Blocked: each rule or reviewer it waits on, in words. */
  waitingOn: string[];
  pinned: boolean;
  /** Out of the groups: until a date (`until`), or until it changes (`until` null). */
  snoozed: { until: string | null } | null;
  /** What "it changed" compares against the snooze. */
  changeMark: string;
}

/** No item by that key in the inbox now. */
export class NotInInboxError extends Error {
  override name = 'NotInInboxError';
}

/** What triage reads: the inbox (review records and views, who reviews, the marks, the pages the user pushed) and what blocks a merge. */
type TriageStores = Pick<Mirror, 'catalog' | 'history' | 'inboxMarks' | 'reviewRecords' | 'reviewViews' | 'reviewers'>;

const latest = (a: string, b: string | null | undefined): string => (b && b > a ? b : a);

/** Every inbox item with its group and marks: the groups in order, pinned then unread then newest first; snoozed ones last. */
export function triage(mirror: TriageStores, now: Date = new Date()): TriageItem[] {
  if (!mirror.reviewRecords.knowsMe()) return [];
  const me = mirror.reviewRecords.me().id;
  const marks = mirror.inboxMarks.marks();
  const items: Omit<TriageItem, 'pinned' | 'snoozed'>[] = [];
  const byKey = new Map(buildInbox(mirror).map((i) => [i.key, i]));
  const seen = mirror.inboxMarks.seen();

  for (const cr of mirror.reviewViews.changeRequests({ statuses: ['open', 'draft'] })) {
    const key = `cr:${cr.id}`;
    const listed = byKey.get(key);
    const mark = (group: TriageGroup, item: InboxItem, waitingOn: string[] = []) =>
      items.push({ ...item, group, waitingOn, changeMark: `${group}|${cr.revision ?? ''}|${latest(item.activityAt, cr.updatedAt)}` });
    if (listed?.reasons.includes('review-requested')) {
      mark('needs-review', listed);
      continue;
    }
    if (cr.createdBy?.id !== me) continue;
    const reviews = mirror.reviewers.reviews(cr.id).filter((r) => r.reviewer.id !== me && !r.outdated);
    const lastReview = reviews.reduce<(typeof reviews)[number] | null>((a, b) => (a === null || b.at > a.at ? b : a), null);
    const activityAt = lastReview?.at ?? cr.updatedAt ?? cr.createdAt ?? '';
    const at = seen.get(key);
    const item: InboxItem = listed ?? {
      key,
      reasons: reviews.length > 0 ? ['reviewed'] : [],
      unread: at === undefined || activityAt > at,
      activityAt,
      by: lastReview?.reviewer ?? null,
      spaceId: cr.spaceId,
      changeRequest: cr,
      comment: null,
      replies: [],
    };
    const asking = reviews.filter((r) => r.status === 'changes-requested');
    if (asking.length > 0) {
      const last = asking.reduce((a, b) => (b.at > a.at ? b : a));
      mark('changes-requested', { ...item, by: last.reviewer, activityAt: latest(item.activityAt, last.at) });
      continue;
    }
    const blockers = blockersOf(mirror, cr.id, 'merge');
    if (blockers.length === 0) {
      mark('ready-to-merge', item);
      continue;
    }
    const reviewed = new Set(reviews.map((r) => r.reviewer.id));
    const asked = mirror.reviewers
      .requestedReviewers(cr.id)
      .filter((r) => r.pending !== 'remove' && !reviewed.has(r.id))
      .map((r) => `a review from ${r.displayName} (asked)`);
    mark('blocked', item, [...blockers.map((b) => b.message), ...asked]);
  }

  for (const item of byKey.values()) {
    if (!item.comment) continue;
    const thread = [item.comment, ...item.replies];
    const lastPost = thread.reduce((a, p) => latest(a, latest(p.postedAt, p.editedAt)), '');
    items.push({ ...item, group: 'mentions', waitingOn: [], changeMark: `mentions|${thread.length}|${lastPost}` });
  }

  const when = now.toISOString();
  const out = items.map((item): TriageItem => {
    const m = marks.get(item.key);
    const snoozed =
      m?.snoozedActivity != null && (m.snoozedUntil !== null ? when < m.snoozedUntil : m.snoozedActivity === item.changeMark)
        ? { until: m.snoozedUntil }
        : null;
    return { ...item, pinned: m?.pinned ?? false, snoozed };
  });
  const rank = (i: TriageItem) => (i.snoozed ? TRIAGE_GROUPS.length : TRIAGE_GROUPS.indexOf(i.group));
  return out.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      Number(b.pinned) - Number(a.pinned) ||
      Number(b.unread) - Number(a.unread) ||
      (a.activityAt < b.activityAt ? 1 : a.activityAt > b.activityAt ? -1 : 0),
  );
}

function find(mirror: TriageStores, key: string): TriageItem {
  const item = triage(mirror).find((i) => i.key === key);
  if (!item) throw new NotInInboxError('it is not in your inbox now (merged, closed or resolved, or nothing asks for you there)');
  return item;
}

/** Pins an inbox item to the top of its group, or unpins it. */
export function pinItem(mirror: TriageStores & Pick<Mirror, 'transaction'>, key: string, pinned: boolean): TriageItem {
  find(mirror, key);
  mirror.transaction(() => mirror.inboxMarks.setPinned(key, pinned));
  return find(mirror, key);
}

/** Snoozes an inbox item until `until` (ISO), or, without one, until it changes. */
export function snoozeItem(mirror: TriageStores & Pick<Mirror, 'transaction'>, key: string, until: string | null): TriageItem {
  const item = find(mirror, key);
  mirror.transaction(() => mirror.inboxMarks.snooze(key, item.changeMark, until));
  return find(mirror, key);
}

/** Brings a snoozed item back now. */
export function unsnoozeItem(mirror: TriageStores & Pick<Mirror, 'transaction'>, key: string): TriageItem {
  find(mirror, key);
  mirror.transaction(() => mirror.inboxMarks.unsnooze(key));
  return find(mirror, key);
}
