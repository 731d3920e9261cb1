import type { InboxItemVM, InboxReasonVM } from '../../../shared/contract';
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

/** A thread by its first line (in a change request too), a change request by its number and subject. */
function title(item: InboxItemVM): string {
  if (item.thread) return firstLine(item.thread.markdown);
  return item.changeRequest ? `#${item.changeRequest.number} ${item.changeRequest.subject}` : '';
}

/** What asks something of the user, unread first; opening an item marks it read. */
export function InboxList(props: {
  items: InboxItemVM[];
  loaded: boolean;
  selected: string | null;
  busy: boolean;
  onOpen(item: InboxItemVM): void;
  onMarkAllRead(): void;
}) {
  const unread = props.items.filter((i) => i.unread).length;
  return (
    <div className="inbox">
      <div className="list-toolbar">
        <span className="muted small" data-testid="inbox-count">
          {props.items.length === 0 ? 'Nothing asks for you.' : `${props.items.length} for you, ${unread} new`}
        </span>
        <span className="spacer" />
        <button type="button" disabled={unread === 0 || props.busy} onClick={props.onMarkAllRead}>
          Mark all read
        </button>
      </div>
      {props.loaded && props.items.length === 0 ? (
        <p className="muted empty">Nothing asks for you: no review requested from you, no new activity on your change requests or pages.</p>
      ) : (
        <VirtualList
          label="Inbox"
          testId="inbox-list"
          items={props.items}
          rowHeight={64}
          getKey={(i) => i.key}
          selectedKey={props.selected}
          onOpen={props.onOpen}
          renderRow={(item) => (
            <div className={`row inbox-row${item.unread ? ' unread' : ''}`} data-unread={item.unread}>
              <div className="row-main">
                {item.unread ? <span className="badge new">New</span> : <span className="sr-only">Read:</span>}
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
            </div>
          )}
        />
      )}
    </div>
  );
}
