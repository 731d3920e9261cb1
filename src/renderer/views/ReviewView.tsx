import { useEffect, useRef, useState } from 'react';
import type { ActOutcomeVM, InboxItemVM } from '../../shared/contract';
import type { ReviewList, Route } from '../../shared/routes';
import { useAction, useQuery } from '../hooks/use-query';
import { navigate, useRoute } from '../hooks/use-route';
import { outcomeWords } from '../components/ActOutcome';
import { ErrorNotice } from '../components/ErrorNotice';
import { Thread } from '../components/Thread';
import { ChangeRequestDetail } from './ChangeRequestDetail';
import { ChangeRequestList } from './review/ChangeRequestList';
import { CommentList } from './review/CommentList';
import { Freshness, RefusedActions, useReviewFreshness } from './review/Freshness';
import { InboxList } from './review/InboxList';
import { NewComment } from './review/NewComment';
import { YourChangeRequests } from './review/YourChangeRequests';

type Open = { kind: 'cr'; spaceId: string; changeRequestId: string } | { kind: 'comment'; spaceId: string; commentId: string } | { kind: 'new' } | null;

const LISTS: { id: ReviewList; label: string }[] = [
  { id: 'inbox', label: 'Inbox' },
  { id: 'comments', label: 'Unresolved comments' },
  { id: 'change-requests', label: 'Change requests' },
  { id: 'yours', label: 'Your change requests' },
];

/** The list and the open item the address names: `#review/<list>`, `#review/change-request/<space>/<id>`, or `#review/comment/<space>/<id>` (from search). */
function named(route: Route | null): { list: ReviewList | null; open: Open } {
  if (route?.name === 'review.list') return { list: route.list, open: null };
  if (route?.name === 'review.changeRequest')
    return { list: 'change-requests', open: { kind: 'cr', spaceId: route.spaceId, changeRequestId: route.changeRequestId } };
  if (route?.name === 'review.comment') return { list: 'comments', open: { kind: 'comment', spaceId: route.spaceId, commentId: route.commentId } };
  return { list: null, open: null };
}

/**
 * The reviewer's desk: what asks for you first (the inbox), unresolved comments, open change
 * requests and your own by topic, with the chosen item beside the list. Opening the view online
 * refreshes review data; offline it says when it was last refreshed. Everything works offline:
 * what can wait is queued and shown pending; what needs the server says so.
 */
export function ReviewView() {
  const { route, hash } = useRoute();
  const [list, setList] = useState<ReviewList>(() => named(route).list ?? 'inbox');
  const [open, setOpen] = useState<Open>(() => named(route).open);
  const [notice, setNotice] = useState<string | null>(null);
  const freshness = useReviewFreshness();
  const online = freshness.state?.online ?? true;
  const inbox = useQuery('review.inbox', {}, ['review']);
  const attention = useQuery('review.attention', {}, ['review']);
  const comments = useQuery('review.comments', {}, ['review']);
  const markRead = useAction();
  const detailPane = useRef<HTMLDivElement>(null);

  // Stacked (a narrow view), the chosen item opens below the list: bring it into view; with none (or another list), the list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `list` is here to run it when another list is chosen.
  useEffect(() => {
    const pane = detailPane.current;
    const listPane = pane?.previousElementSibling;
    if (!pane?.parentElement || !listPane) return;
    if (getComputedStyle(pane.parentElement).flexDirection !== 'column') return;
    (open ? pane : listPane).scrollIntoView({ block: open ? 'start' : 'nearest' });
  }, [open, list]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for `route` (a new object each time the address changes).
  useEffect(() => {
    const next = named(route);
    if (next.list) setList(next.list);
    // Another list closes what was open beside the last one, unless the address names an item.
    if (next.list || next.open) {
      setOpen(next.open);
      setNotice(null);
    }
  }, [hash]);

  const show = (next: Open, words: string | null = null) => {
    setNotice(words);
    setOpen(next);
  };
  const choose = (id: ReviewList) => {
    setList(id);
    navigate({ name: 'review.list', list: id });
  };
  const openInbox = (item: InboxItemVM) => {
    if (item.unread) void markRead.run('review.markRead', { keys: [item.key] });
    if (item.thread) show({ kind: 'comment', spaceId: item.spaceId, commentId: item.thread.id });
    else if (item.changeRequest) show({ kind: 'cr', spaceId: item.spaceId, changeRequestId: item.changeRequest.id });
  };
  const commented = (outcome: ActOutcomeVM, spaceId: string) => {
    const words = outcomeWords(outcome) ?? 'Comment sent.';
    if (outcome.targetId) show({ kind: 'comment', spaceId, commentId: outcome.targetId }, words);
    else show(null, words);
  };
  const unread = inbox.data?.filter((i) => i.unread && !i.snoozed).length ?? 0;
  const counts: Record<ReviewList, string | null> = {
    inbox: inbox.data ? (unread > 0 ? `${unread} new` : String(inbox.data.filter((i) => !i.snoozed).length)) : null,
    comments: comments.data ? String(comments.data.length) : null,
    'change-requests': attention.data ? String(attention.data.length) : null,
    yours: null,
  };
  const selected = (kind: 'cr' | 'comment') =>
    open?.kind === 'cr' && kind === 'cr' ? open.changeRequestId : open?.kind === 'comment' && kind === 'comment' ? open.commentId : null;

  return (
    <section className="review" aria-labelledby="review-title">
      <div className="view-head review-head">
        <h1 id="review-title">Review</h1>
        <Freshness freshness={freshness} />
      </div>
      <RefusedActions refused={freshness.state?.refused ?? []} />
      <div className="tabs" role="tablist" aria-label="Review lists">
        {LISTS.map((l) => (
          <button key={l.id} type="button" role="tab" aria-selected={list === l.id} onClick={() => choose(l.id)} data-testid={`tab-${l.id}`}>
            {l.label} {counts[l.id] !== null && <span className={`count${l.id === 'inbox' && unread > 0 ? ' new' : ''}`}>{counts[l.id]}</span>}
          </button>
        ))}
      </div>
      <ErrorNotice error={inbox.error ?? attention.error ?? comments.error ?? markRead.error} />
      <div className="split review-split">
        <div className={`list-pane${list === 'yours' ? ' cards' : ''}`}>
          {list === 'inbox' && (
            <InboxList
              items={inbox.data ?? []}
              loaded={inbox.data !== undefined}
              selected={open?.kind === 'cr' ? `cr:${open.changeRequestId}` : open?.kind === 'comment' ? `thread:${open.commentId}` : null}
              busy={markRead.busy}
              onOpen={openInbox}
              onMarkAllRead={() => void markRead.run('review.markRead', {})}
              onPin={(item, pinned) => void markRead.run('review.pin', { key: item.key, pinned })}
              onSnooze={(item, until) => void markRead.run('review.snooze', { key: item.key, ...(until ? { until } : {}) })}
              onUnsnooze={(item) => void markRead.run('review.snooze', { key: item.key, off: true })}
            />
          )}
          {list === 'comments' && (
            <CommentList
              items={comments.data ?? []}
              loaded={comments.data !== undefined}
              selected={selected('comment')}
              onOpen={(c) => show({ kind: 'comment', spaceId: c.spaceId, commentId: c.id })}
              onNew={() => show({ kind: 'new' })}
            />
          )}
          {list === 'change-requests' && (
            <ChangeRequestList
              items={attention.data ?? []}
              loaded={attention.data !== undefined}
              selected={selected('cr')}
              onOpen={(cr) => show({ kind: 'cr', spaceId: cr.spaceId, changeRequestId: cr.id })}
            />
          )}
          {list === 'yours' && <YourChangeRequests onOpen={(ref) => show({ kind: 'cr', ...ref })} />}
        </div>
        <div className={`detail-pane${open || notice ? ' showing' : ''}`} ref={detailPane}>
          {notice && (
            <p className="notice queued" role="status" data-testid="review-notice">
              <span>{notice}</span>
              <button type="button" className="link" onClick={() => setNotice(null)} aria-label="Dismiss">
                ×
              </button>
            </p>
          )}
          {open?.kind === 'cr' && (
            <ChangeRequestDetail
              key={open.changeRequestId}
              spaceId={open.spaceId}
              changeRequestId={open.changeRequestId}
              online={online}
              onClose={() => show(null)}
            />
          )}
          {open?.kind === 'comment' && (
            <ThreadPane
              key={open.commentId}
              spaceId={open.spaceId}
              commentId={open.commentId}
              onClose={() => show(null)}
              onDeleted={(o) => show(null, outcomeWords(o) ?? 'Comment deleted.')}
            />
          )}
          {open?.kind === 'new' && <NewComment onDone={commented} onCancel={() => show(null)} />}
          {!open && !notice && <p className="muted empty">Choose an item in the list. Use ↑ ↓ and Enter in the list.</p>}
        </div>
      </div>
    </section>
  );
}

function ThreadPane({ spaceId, commentId, onClose, onDeleted }: { spaceId: string; commentId: string; onClose(): void; onDeleted(o: ActOutcomeVM): void }) {
  const thread = useQuery('review.thread', { spaceId, commentId }, ['review']);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from any control inside the pane closes it (the key bubbles here).
    <div className="thread-pane" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div className="detail-head">
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      <ErrorNotice error={thread.error} />
      {thread.data && <Thread thread={thread.data} showChangeRequest onDeleted={onDeleted} />}
    </div>
  );
}
