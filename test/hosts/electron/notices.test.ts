import { describe, expect, it } from 'vitest';
import { newNotices, Notifier, type Notice } from '../../../src/main/hosts/electron/notices';
import { NotificationLimiter } from '../../../src/main/hosts/electron/notify-limiter';

const snap = (conflicts: string[] = [], comments: string[] = [], replies: string[] = []) => ({
  conflicts,
  commentsOnMyChangeRequests: comments,
  repliesToMyComments: replies,
});

describe('notices', () => {
  it('reports only what is new', () => {
    expect(newNotices(snap(['a']), snap(['a']))).toEqual([]);
    expect(newNotices(snap(['a']), snap(['a', 'b', 'c'])).map((n) => n.title)).toEqual(['2 new conflicts']);
    expect(newNotices(snap([], ['c1']), snap([], ['c1', 'c2'], ['r1'])).map((n) => n.title)).toEqual(['1 new comment', '1 new reply']);
    expect(newNotices(snap(['a']), snap([]))).toEqual([]);
  });

  it('treats the first snapshot as the baseline, honours the switch and the rate limit', () => {
    let now = 0;
    const shown: Notice[] = [];
    let enabled = true;
    const notifier = new Notifier(
      (n) => shown.push(n),
      () => enabled,
      new NotificationLimiter(2, 60_000, () => now),
    );
    notifier.update(snap(['a'], ['c1'], ['r1']));
    expect(shown).toEqual([]);

    notifier.update(snap(['a', 'b']));
    notifier.update(snap(['a', 'b'], ['c2']));
    notifier.update(snap(['a', 'b'], ['c2'], ['r2']));
    expect(shown.map((n) => n.kind)).toEqual(['conflicts', 'comments']);

    now = 61_000;
    enabled = false;
    notifier.update(snap(['a', 'b', 'c'], ['c2'], ['r2']));
    expect(shown).toHaveLength(2);
    enabled = true;
    notifier.update(snap(['a', 'b', 'c', 'd'], ['c2'], ['r2']));
    expect(shown.map((n) => n.kind)).toEqual(['conflicts', 'comments', 'conflicts']);
  });

  it('limits to max notifications per sliding window', () => {
    let now = 0;
    const limiter = new NotificationLimiter(3, 10_000, () => now);
    expect([limiter.allow(), limiter.allow(), limiter.allow(), limiter.allow()]).toEqual([true, true, true, false]);
    now = 9_999;
    expect(limiter.allow()).toBe(false);
    now = 10_000;
    expect(limiter.allow()).toBe(true);
  });
});
