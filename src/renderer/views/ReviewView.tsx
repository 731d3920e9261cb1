import { useEffect, useMemo, useState } from 'react';
import type { ChangeRequestVM, CommentVM } from '../../shared/contract';
import type { Route } from '../../shared/routes';
import { useRoute } from '../hooks/use-route';
import { useQuery } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';
import { VirtualList } from '../components/VirtualList';
import { PendingMark } from '../components/Pending';
import { Person } from '../components/Person';
import { Thread } from '../components/Thread';
import { firstLine, plural, timeAgo } from '../lib/format';
import { ChangeRequestDetail } from './ChangeRequestDetail';

type Open = { kind: 'cr'; spaceId: string; changeRequestId: string } | { kind: 'comment'; spaceId: string; commentId: string } | null;
type Tab = 'attention' | 'comments';

interface Filters {
  spaceId: string;
  changeRequestId: string;
  authorId: string;
  text: string;
}

const NO_FILTERS: Filters = { spaceId: '', changeRequestId: '', authorId: '', text: '' };

/** A comment the address names (`#review/comment/<space>/<id>`, from search), to open at once. */
function commentOf(route: Route | null): Open {
  return route?.name === 'review.comment' ? { kind: 'comment', spaceId: route.spaceId, commentId: route.commentId } : null;
}

/** Change requests needing the user and unresolved comments across spaces, with a detail pane. */
export function ReviewView() {
  const [tab, setTab] = useState<Tab>('comments');
  const { route, hash } = useRoute();
  const [open, setOpen] = useState<Open>(() => commentOf(route));
  const attention = useQuery('review.attention', {}, ['review']);
  const comments = useQuery('review.comments', {}, ['review']);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for `route` (a new object each time the address changes).
  useEffect(() => {
    const named = commentOf(route);
    if (!named) return;
    setTab('comments');
    setOpen(named);
  }, [hash]);

  return (
    <section className="review" aria-labelledby="review-title">
      <div className="view-head">
        <h1 id="review-title">Review</h1>
        <div className="tabs" role="tablist" aria-label="Review lists">
          <button type="button" role="tab" aria-selected={tab === 'comments'} onClick={() => setTab('comments')}>
            Unresolved comments {comments.data && <span className="count">{comments.data.length}</span>}
          </button>
          <button type="button" role="tab" aria-selected={tab === 'attention'} onClick={() => setTab('attention')}>
            Change requests {attention.data && <span className="count">{attention.data.length}</span>}
          </button>
        </div>
      </div>
      <ErrorNotice error={attention.error ?? comments.error} />
      <div className="split review-split">
        <div className="list-pane">
          {tab === 'attention' ? (
            <AttentionList
              items={attention.data ?? []}
              loaded={attention.data !== undefined}
              selected={open?.kind === 'cr' ? open.changeRequestId : null}
              onOpen={(cr) => setOpen({ kind: 'cr', spaceId: cr.spaceId, changeRequestId: cr.id })}
            />
          ) : (
            <CommentList
              items={comments.data ?? []}
              loaded={comments.data !== undefined}
              changeRequests={attention.data ?? []}
              selected={open?.kind === 'comment' ? open.commentId : null}
              onOpen={(c) => setOpen({ kind: 'comment', spaceId: c.spaceId, commentId: c.id })}
            />
          )}
        </div>
        <div className="detail-pane">
          {open?.kind === 'cr' && (
            <ChangeRequestDetail key={open.changeRequestId} spaceId={open.spaceId} changeRequestId={open.changeRequestId} onClose={() => setOpen(null)} />
          )}
          {open?.kind === 'comment' && <ThreadPane key={open.commentId} spaceId={open.spaceId} commentId={open.commentId} onClose={() => setOpen(null)} />}
          {!open && <p className="muted empty">Choose a change request or a comment. Use ↑ ↓ and Enter in the list.</p>}
        </div>
      </div>
    </section>
  );
}

function AttentionList(props: { items: ChangeRequestVM[]; loaded: boolean; selected: string | null; onOpen(cr: ChangeRequestVM): void }) {
  if (props.loaded && props.items.length === 0) return <p className="muted empty">No change requests need you.</p>;
  return (
    <VirtualList
      label="Change requests needing attention"
      testId="cr-list"
      items={props.items}
      rowHeight={64}
      getKey={(cr) => cr.id}
      selectedKey={props.selected}
      onOpen={props.onOpen}
      renderRow={(cr) => (
        <div className="row cr-row">
          <div className="row-main">
            <span className="cr-number">#{cr.number}</span> <span className="cr-subject">{cr.subject}</span>
            <PendingMark pending={cr.pending} failure={cr.failure} />
          </div>
          <div className="row-meta muted small">
            {cr.spaceTitle} · {cr.status} · {plural(cr.comments, 'comment')} · updated {timeAgo(cr.updatedAt)}
            {cr.reasons
              .filter((r) => r !== 'open')
              .map((r) => (
                <span key={r} className={`badge reason ${r}`}>
                  {r === 'review-requested' ? 'review requested' : r}
                </span>
              ))}
          </div>
        </div>
      )}
    />
  );
}

function CommentList(props: { items: CommentVM[]; loaded: boolean; changeRequests: ChangeRequestVM[]; selected: string | null; onOpen(c: CommentVM): void }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const { items } = props;
  const options = useMemo(() => {
    const spaces = new Map<string, string>();
    const authors = new Map<string, string>();
    const crs = new Map<string, string>();
    for (const c of items) {
      spaces.set(c.spaceId, c.spaceTitle);
      if (c.author) authors.set(c.author.id, c.author.displayName);
      if (c.changeRequestId) crs.set(c.changeRequestId, `#${c.changeRequestNumber ?? '?'} · ${c.spaceTitle}`);
    }
    const sorted = (m: Map<string, string>) => [...m].sort((a, b) => a[1].localeCompare(b[1]));
    return { spaces: sorted(spaces), authors: sorted(authors), crs: sorted(crs) };
  }, [items]);
  const shown = useMemo(() => {
    const text = filters.text.trim().toLowerCase();
    return items.filter(
      (c) =>
        (!filters.spaceId || c.spaceId === filters.spaceId) &&
        (!filters.authorId || c.author?.id === filters.authorId) &&
        (!filters.changeRequestId || (filters.changeRequestId === 'main' ? c.changeRequestId === null : c.changeRequestId === filters.changeRequestId)) &&
        (!text || c.markdown.toLowerCase().includes(text) || (c.pageTitle ?? '').toLowerCase().includes(text)),
    );
  }, [items, filters]);
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <div className="comment-list">
      <div className="filters" role="search" aria-label="Filter comments">
        <select aria-label="Space" value={filters.spaceId} onChange={(e) => set({ spaceId: e.target.value })}>
          <option value="">All spaces</option>
          {options.spaces.map(([id, title]) => (
            <option key={id} value={id}>
              {title}
            </option>
          ))}
        </select>
        <select aria-label="Change request" value={filters.changeRequestId} onChange={(e) => set({ changeRequestId: e.target.value })}>
          <option value="">Any place</option>
          <option value="main">Main content only</option>
          {options.crs.map(([id, title]) => (
            <option key={id} value={id}>
              {title}
            </option>
          ))}
        </select>
        <select aria-label="Author" value={filters.authorId} onChange={(e) => set({ authorId: e.target.value })}>
          <option value="">Anyone</option>
          {options.authors.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
        <input type="search" aria-label="Search comments" placeholder="Search…" value={filters.text} onChange={(e) => set({ text: e.target.value })} />
        <span className="muted small" data-testid="comment-count">
          {shown.length} of {items.length}
        </span>
      </div>
      {props.loaded && shown.length === 0 ? (
        <p className="muted empty">{items.length === 0 ? 'No unresolved comments. Nice.' : 'No comment matches these filters.'}</p>
      ) : (
        <VirtualList
          label="Unresolved comments"
          testId="comment-list"
          items={shown}
          rowHeight={68}
          getKey={(c) => c.id}
          selectedKey={props.selected}
          onOpen={props.onOpen}
          renderRow={(c) => (
            <div className="row comment-row">
              <div className="row-main">
                <Person user={c.author} />
                <span className="comment-snippet">{firstLine(c.markdown)}</span>
              </div>
              <div className="row-meta muted small">
                {c.spaceTitle}
                {c.changeRequestNumber !== null && ` · #${c.changeRequestNumber}`}
                {c.pageTitle && ` · ${c.pageTitle}`} · {timeAgo(c.postedAt)}
                {c.replyCount > 0 && ` · ${plural(c.replyCount, 'reply', 'replies')}`}
                <PendingMark pending={c.pending} failure={c.failure} />
              </div>
            </div>
          )}
        />
      )}
    </div>
  );
}

function ThreadPane({ spaceId, commentId, onClose }: { spaceId: string; commentId: string; onClose(): void }) {
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
      {thread.data && <Thread thread={thread.data} />}
    </div>
  );
}
