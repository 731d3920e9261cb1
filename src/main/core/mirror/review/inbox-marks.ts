/**
 * What the user did to inbox items: read them (migration 14: the activity time each had then),
 * pinned them to the top of their group, or snoozed them (migration 24) — out of sight until a
 * time, or until the item shows activity newer than it had when snoozed, whichever comes first.
 */
import type { Db } from '../database';
import { statementCache } from './statements';

export interface InboxMark {
  pinned: boolean;
  /** Snoozed until this time (ISO); null: no date. */
  snoozedUntil: string | null;
  /** Snoozed until the item shows activity later than this (ISO); null: not snoozed. */
  snoozedActivity: string | null;
}

export class InboxMarkStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** Marks inbox items as seen at the activity time each had. */
  markSeen(items: readonly { item: string; at: string }[]): void {
    for (const { item, at } of items) {
      this.sql(`INSERT INTO review_inbox_seen (item, seen_at) VALUES (?, ?) ON CONFLICT (item) DO UPDATE SET seen_at = excluded.seen_at`).run(item, at);
    }
  }

  /** What the user has seen of each inbox item: the activity time it had then. */
  seen(): Map<string, string> {
    const rows = this.sql(`SELECT item, seen_at FROM review_inbox_seen`).all() as { item: string; seen_at: string }[];
    return new Map(rows.map((r) => [r.item, r.seen_at]));
  }

  marks(): Map<string, InboxMark> {
    const rows = this.sql(`SELECT item, pinned, snoozed_until, snoozed_activity FROM review_inbox_marks`).all() as {
      item: string;
      pinned: number;
      snoozed_until: string | null;
      snoozed_activity: string | null;
    }[];
    return new Map(rows.map((r) => [r.item, { pinned: r.pinned === 1, snoozedUntil: r.snoozed_until, snoozedActivity: r.snoozed_activity }]));
  }

  setPinned(item: string, pinned: boolean): void {
    this.sql(`INSERT INTO review_inbox_marks (item, pinned) VALUES (?, ?) ON CONFLICT (item) DO UPDATE SET pinned = excluded.pinned`).run(item, pinned ? 1 : 0);
    this.prune(item);
  }

  /** Snoozes an item showing activity `activity` (it comes back once it shows later activity), and until `until` when given. */
  snooze(item: string, activity: string, until: string | null): void {
    this.sql(
      `INSERT INTO review_inbox_marks (item, snoozed_until, snoozed_activity) VALUES (?, ?, ?)
       ON CONFLICT (item) DO UPDATE SET snoozed_until = excluded.snoozed_until, snoozed_activity = excluded.snoozed_activity`,
    ).run(item, until, activity);
  }

  unsnooze(item: string): void {
    this.sql(`UPDATE review_inbox_marks SET snoozed_until = NULL, snoozed_activity = NULL WHERE item = ?`).run(item);
    this.prune(item);
  }

  private prune(item: string): void {
    this.sql(`DELETE FROM review_inbox_marks WHERE item = ? AND pinned = 0 AND snoozed_activity IS NULL`).run(item);
  }
}
