import { useMemo, useState } from 'react';
import type { CommentVM } from '../../../shared/contract';
import { PendingMark } from '../../components/Pending';
import { Person } from '../../components/Person';
import { VirtualList } from '../../components/VirtualList';
import { firstLine, plural, timeAgo } from '../../lib/format';

interface Filters {
  spaceId: string;
  changeRequestId: string;
  authorId: string;
  text: string;
}

const NO_FILTERS: Filters = { spaceId: '', changeRequestId: '', authorId: '', text: '' };

/** Unresolved comments across spaces, filtered by space, place, author and text; and the way to start one. */
export function CommentList(props: { items: CommentVM[]; loaded: boolean; selected: string | null; onOpen(c: CommentVM): void; onNew(): void }) {
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
        <button type="button" className="primary" onClick={props.onNew}>
          New comment
        </button>
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
                {c.pageTitle && ` · ${c.pageTitle}`}
                {typeof c.line === 'number' && `, line ${c.line}`}
                {c.outdated && ' (outdated)'}
                {c.suggestion && ' · suggests a change'} · {timeAgo(c.postedAt)}
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
