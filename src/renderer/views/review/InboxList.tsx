import { useState } from 'react';
import { INBOX_GROUPS, type InboxGroupVM, type InboxItemVM, type InboxReasonVM } from '../../../shared/contract';
import { VirtualList } from '../../components/VirtualList';
import { firstLine, timeAgo } from '../../lib/format';

export const INBOX_REASON_WORDS: Record<InboxReasonVM, string> = {
  'review-requested': 'review requested',
  reviewed: 'reviewed',
  'comment-on-my-change-request': 'on your change request',
  'comment-on-my-page': 'on a page you edited',
  mention: 'mentions you',
  'reply-to-me': 'replies to you',
};

export const INBOX_GROUP_WORDS: Record<InboxGroupVM, string> = {
  'needs-review': 'Needs your review',
  'changes-requested': 'Changes requested on yours',
  'ready-to-merge': 'Ready to merge',
  blocked: 'Blocked',
  mentions: 'Mentions and replies',
};

type Filter = 'all' | InboxGroupVM | 'snoozed';

/** A thread by its first line (in a change request too), a change request by its number and subject. */
function title(item: InboxItemVM): string {
  if (item.thread) return firstLine(item.thread.markdown);
  return item.changeRequest ? `#${item.changeRequest.number} ${item.changeRequest.subject}` : '';
}

const snoozeWords = (s: NonNullable<InboxItemVM['snoozed']>) => (s.until ? `Snoozed until ${s.until.slice(0, 10)}` : 'Snoozed until it changes');

/**
 * What asks something of the user, sorted into groups (needs your review, changes requested on
 * yours, ready to merge, blocked — with what it waits on —, mentions and replies), pinned first
 * in each, then unread; snoozed items out of sight under their own filter. Opening an item marks
 * it read; the chosen item can be pinned or snoozed from the toolbar.
 */
export function InboxList(props: {
  items: InboxItemVM[];
  loaded: boolean;
  selected: string | null;
  busy: boolean;
  onOpen(item: InboxItemVM): void;
  onMarkAllRead(): void;
  onPin(item: InboxItemVM, pinned: boolean): void;
  /** `until`: ISO; null: until it changes. */
  onSnooze(item: InboxItemVM, until: string | null): void;
  onUnsnooze(item: InboxItemVM): void;
}) {
  const [filter, setFilter] = useState<Filter>('all');
  const [date, setDate] = useState('');
  const awake = props.items.filter((i) => !i.snoozed);
  const snoozed = props.items.filter((i) => i.snoozed);
  const shown = filter === 'all' ? awake : filter === 'snoozed' ? snoozed : awake.filter((i) => i.group === filter);
  const unread = awake.filter((i) => i.unread).length;
  const chosen = props.items.find((i) => i.key === props.selected) ?? null;
  const filters: { id: Filter; label: string; count: number }[] = [
    { id: 'all', label: 'All', count: awake.length },
    ...INBOX_GROUPS.map((g) => ({ id: g, label: INBOX_GROUP_WORDS[g], count: awake.filter((i) => i.group === g).length })),
    { id: 'snoozed', label: 'Snoozed', count: snoozed.length },
  ];
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <div className="inbox">
      <div className="tabs inbox-groups" role="group" aria-label="Inbox groups">
        {filters.map((f) => (
          <button key={f.id} type="button" aria-pressed={filter === f.id} onClick={() => setFilter(f.id)} data-testid={`inbox-group-${f.id}`}>
            {f.label} <span className="count">{f.count}</span>
          </button>
        ))}
      </div>
      <div className="list-toolbar">
        <span className="muted small" data-testid="inbox-count">
          {awake.length === 0 ? 'Nothing asks for you.' : `${awake.length} for you, ${unread} new`}
        </span>
        <span className="spacer" />
        <button type="button" disabled={unread === 0 || props.busy} onClick={props.onMarkAllRead}>
          Mark all read
        </button>
      </div>
      {chosen && (
        <div className="list-toolbar inbox-marks" data-testid="inbox-marks">
          <span className="muted small">{title(chosen)}:</span>
          <button type="button" disabled={props.busy} onClick={() => props.onPin(chosen, !chosen.pinned)}>
            {chosen.pinned ? 'Unpin' : 'Pin'}
          </button>
          {chosen.snoozed ? (
            <button type="button" disabled={props.busy} onClick={() => props.onUnsnooze(chosen)}>
              Bring back
            </button>
          ) : (
            <>
              <button type="button" disabled={props.busy} onClick={() => props.onSnooze(chosen, null)}>
                Snooze until it changes
              </button>
              <input type="date" aria-label="Snooze until the date" min={tomorrow} value={date} onChange={(e) => setDate(e.target.value)} />
              <button type="button" disabled={props.busy || date < tomorrow} onClick={() => props.onSnooze(chosen, `${date}T00:00:00.000Z`)}>
                Snooze until the date
              </button>
            </>
          )}
        </div>
      )}
      {props.loaded && shown.length === 0 ? (
        <p className="muted empty">
          {filter === 'all'
            ? 'Nothing asks for you: no review requested from you, none of your change requests waiting, no new activity on your pages.'
            : filter === 'snoozed'
              ? 'Nothing is snoozed.'
              : `Nothing in “${INBOX_GROUP_WORDS[filter]}”.`}
        </p>
      ) : (
        <VirtualList
          label="Inbox"
          testId="inbox-list"
          items={shown}
          rowHeight={84}
          getKey={(i) => i.key}
          selectedKey={props.selected}
          onOpen={props.onOpen}
          renderRow={(item) => (
            <div className={`row inbox-row${item.unread ? ' unread' : ''}`} data-unread={item.unread} data-group={item.group}>
              <div className="row-main">
                {item.unread ? <span className="badge new">New</span> : <span className="sr-only">Read:</span>}
                {item.pinned && <span className="badge pinned">Pinned</span>}
                <span className={`badge group ${item.group}`}>{INBOX_GROUP_WORDS[item.group]}</span>
                <span className="inbox-title">{title(item)}</span>
              </div>
              <div className="row-meta small">
                {item.reasons.map((r) => (
                  <span key={r} className={`badge why ${r}`}>
                    {INBOX_REASON_WORDS[r]}
                  </span>
                ))}{' '}
                <span className="muted">
                  {item.spaceTitle}
                  {item.thread && item.changeRequest && ` · #${item.changeRequest.number}`}
                  {item.thread?.pageTitle && ` · ${item.thread.pageTitle}`}
                  {item.by && ` · ${item.by.displayName}`} · {timeAgo(item.activityAt)}
                </span>
              </div>
              {(item.waitingOn.length > 0 || item.snoozed) && (
                <div className="small muted inbox-waiting">{item.snoozed ? snoozeWords(item.snoozed) : `Waits on ${item.waitingOn.join('; ')}`}</div>
              )}
            </div>
          )}
        />
      )}
    </div>
  );
}
