import type { AttentionReason, ChangeRequestVM } from '../../../shared/contract';
import { PendingMark } from '../../components/Pending';
import { VirtualList } from '../../components/VirtualList';
import { plural, timeAgo } from '../../lib/format';

const REASON_WORDS: Record<AttentionReason, string> = { 'review-requested': 'review requested', mine: 'yours', outdated: 'behind main', open: '' };

/** Open and draft change requests, those asking for the user first. */
export function ChangeRequestList(props: { items: ChangeRequestVM[]; loaded: boolean; selected: string | null; onOpen(cr: ChangeRequestVM): void }) {
  if (props.loaded && props.items.length === 0) return <p className="muted empty">No open change requests in the synced spaces.</p>;
  return (
    <VirtualList
      label="Change requests"
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
          <div className="row-meta small">
            {cr.reasons
              .filter((r) => r !== 'open')
              .map((r) => (
                <span key={r} className={`badge why ${r}`}>
                  {REASON_WORDS[r]}
                </span>
              ))}{' '}
            <span className="muted">
              {cr.spaceTitle} · {cr.status} · {plural(cr.comments, 'comment')} · updated {timeAgo(cr.updatedAt)}
            </span>
          </div>
        </div>
      )}
    />
  );
}
