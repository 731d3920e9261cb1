import type { AttentionSnapshot } from '../service';
import { NotificationLimiter } from './notify-limiter';

export interface Notice {
  kind: 'conflicts' | 'comments' | 'replies';
  title: string;
  body: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What is new in `next` compared with `prev`, as notifications. */
export function newNotices(prev: AttentionSnapshot, next: AttentionSnapshot): Notice[] {
  const fresh = (before: string[], after: string[]) => {
    const seen = new Set(before);
    return after.filter((id) => !seen.has(id)).length;
  };
  const out: Notice[] = [];
  const conflicts = fresh(prev.conflicts, next.conflicts);
  if (conflicts > 0) {
    out.push({
      kind: 'conflicts',
      title: plural(conflicts, 'new conflict', 'new conflicts'),
      body: 'A page changed here and on the server. Open Quire to choose which version to keep.',
    });
  }
  const comments = fresh(prev.commentsOnMyChangeRequests, next.commentsOnMyChangeRequests);
  if (comments > 0) {
    out.push({ kind: 'comments', title: plural(comments, 'new comment', 'new comments'), body: 'Someone commented on your change requests.' });
  }
  const replies = fresh(prev.repliesToMyComments, next.repliesToMyComments);
  if (replies > 0) out.push({ kind: 'replies', title: plural(replies, 'new reply', 'new replies'), body: 'Someone replied to your comments.' });
  return out;
}

/**
 * Turns successive snapshots into notifications: the first snapshot is the
 * baseline (nothing is "new" at start-up), then only additions notify, when
 * notifications are on and the rate limit allows.
 */
export class Notifier {
  private last: AttentionSnapshot | null = null;

  constructor(
    private readonly show: (n: Notice) => void,
    private readonly enabled: () => boolean,
    private readonly limiter = new NotificationLimiter(),
  ) {}

  update(snapshot: AttentionSnapshot): Notice[] {
    const prev = this.last;
    this.last = snapshot;
    if (!prev || !this.enabled()) return [];
    const shown = newNotices(prev, snapshot).filter(() => this.limiter.allow());
    for (const n of shown) this.show(n);
    return shown;
  }
}
