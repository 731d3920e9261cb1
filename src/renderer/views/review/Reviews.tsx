import { useId, useState } from 'react';
import type { ChangeRequestDetailVM, RequestedReviewerVM } from '../../../shared/contract';
import { ActFeedback, useAct } from '../../components/ActOutcome';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Person } from '../../components/Person';
import { useAction, useQuery } from '../../hooks/use-query';
import { timeAgo } from '../../lib/format';
import { blockedWords, NEEDS_SERVER } from './Lifecycle';
import { PendingReview } from './PendingReview';

const REVIEW_WORDS = { approved: 'approved', 'changes-requested': 'requested changes' } as const;

/** A change request's reviews and requested reviewers; approve or request changes; ask and withdraw reviewers. */
export function Reviews({ detail, online }: { detail: ChangeRequestDetailVM; online: boolean }) {
  const cr = detail.changeRequest;
  const id = useId();
  return (
    <section className="cr-reviews" aria-labelledby={`${id}-reviews`} data-testid="cr-reviews">
      <h3 id={`${id}-reviews`}>Reviews ({detail.reviews.length})</h3>
      {detail.reviews.length === 0 ? (
        <p className="muted">No reviews yet.</p>
      ) : (
        <ul className="review-list">
          {detail.reviews.map((r) => (
            <li key={r.id} className={r.outdated ? 'outdated' : ''} data-testid={`review-${r.id}`}>
              <Person user={r.reviewer} /> <span className={`badge ${r.status === 'approved' ? 'ok' : 'warn'}`}>{REVIEW_WORDS[r.status]}</span>
              {r.outdated && <span className="muted small"> (before later changes or a new request)</span>}
              <span className="muted small"> · {timeAgo(r.at)}</span>
              {r.comment && <div className="comment-body">{r.comment}</div>}
            </li>
          ))}
        </ul>
      )}
      {!detail.pendingReview && <ReviewForm detail={detail} online={online} />}
      <PendingReview detail={detail} online={online} />
      <h3>Requested reviewers ({detail.requestedReviewers.length})</h3>
      {detail.requestedReviewers.length === 0 && <p className="muted">Nobody is asked to review.</p>}
      <Reviewers spaceId={cr.spaceId} changeRequestId={cr.id} reviewers={detail.requestedReviewers} blocked={detail.actions.reviewers} />
    </section>
  );
}

function ReviewForm({ detail, online }: { detail: ChangeRequestDetailVM; online: boolean }) {
  const action = useAction();
  const [comment, setComment] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const id = useId();
  const cr = detail.changeRequest;
  const blockers = detail.actions.review;
  const submit = async (status: 'approved' | 'changes-requested') => {
    setDone(null);
    const text = comment.trim();
    const review = await action.run('review.submitReview', { spaceId: cr.spaceId, changeRequestId: cr.id, status, ...(text ? { markdown: text } : {}) });
    if (review) {
      setComment('');
      setDone(status === 'approved' ? 'You approved it.' : 'You requested changes.');
    }
  };
  return (
    <form className="review-form" aria-label="Your review" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id} className="field-label">
        Your review <span className="muted small">(an optional comment)</span>
      </label>
      <textarea id={id} rows={2} value={comment} disabled={blockers.length > 0} onChange={(e) => setComment(e.target.value)} />
      <div className="form-buttons">
        <button type="button" className="primary" disabled={blockers.length > 0 || action.busy} onClick={() => void submit('approved')}>
          Approve
        </button>
        <button type="button" disabled={blockers.length > 0 || action.busy} onClick={() => void submit('changes-requested')}>
          Request changes
        </button>
        {(blockers.length > 0 || !online) && (
          <span className={`action-note small${blockers.length > 0 ? ' blocked' : ''}`}>{blockers.length > 0 ? blockedWords(blockers) : NEEDS_SERVER}</span>
        )}
      </div>
      {done && (
        <p className="notice ok" role="status">
          {done}
        </p>
      )}
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </form>
  );
}

function Reviewers({
  spaceId,
  changeRequestId,
  reviewers,
  blocked,
}: {
  spaceId: string;
  changeRequestId: string;
  reviewers: RequestedReviewerVM[];
  blocked: ChangeRequestDetailVM['actions']['reviewers'];
}) {
  const act = useAct();
  const [asking, setAsking] = useState(false);
  const ref = { spaceId, changeRequestId };
  return (
    <>
      {reviewers.length > 0 && (
        <ul className="reviewer-list">
          {reviewers.map((r) => (
            <li key={r.id} className={r.pending === 'remove' ? 'withdrawn' : ''} data-testid={`reviewer-${r.id}`}>
              <Person user={{ id: r.id, displayName: r.displayName }} />
              {r.requestedBy && <span className="muted small"> asked by {r.requestedBy.displayName}</span>}
              {r.pending && (
                <span className="badge pending" role="status">
                  {r.pending === 'add' ? 'Pending' : 'Pending removal'}
                </span>
              )}
              {r.pending !== 'remove' && (
                <button
                  type="button"
                  className="link"
                  disabled={act.busy || blocked.length > 0}
                  aria-label={`Remove ${r.displayName} from the reviewers`}
                  onClick={() => void act.run('review.removeReviewer', { ...ref, userId: r.id })}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {blocked.length > 0 ? (
        <p className="action-note small blocked">Asking reviewers is not possible: {blocked.map((b) => b.message).join('; ')}.</p>
      ) : asking ? (
        <MemberPicker
          spaceId={spaceId}
          exclude={new Set(reviewers.filter((r) => r.pending !== 'remove').map((r) => r.id))}
          busy={act.busy}
          onPick={async (userId) => {
            if (await act.run('review.requestReviewer', { ...ref, user: userId })) setAsking(false);
          }}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" onClick={() => setAsking(true)}>
          Ask someone to review…
        </button>
      )}
      <ActFeedback act={act} />
    </>
  );
}

/** The organization's members, by name, to ask one to review. */
function MemberPicker({
  spaceId,
  exclude,
  busy,
  onPick,
  onCancel,
}: {
  spaceId: string;
  exclude: Set<string>;
  busy: boolean;
  onPick(userId: string): void;
  onCancel(): void;
}) {
  const members = useQuery('review.members', { spaceId }, []);
  const [chosen, setChosen] = useState('');
  const id = useId();
  const list = (members.data ?? []).filter((m) => !exclude.has(m.id)).sort((a, b) => a.displayName.localeCompare(b.displayName));
  return (
    <form
      className="inline-form member-picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) onPick(chosen);
      }}
    >
      <label htmlFor={id}>Ask</label>
      <select id={id} value={chosen} onChange={(e) => setChosen(e.target.value)} aria-busy={members.loading}>
        <option value="">{members.loading && !members.data ? 'Loading members…' : 'Choose a member…'}</option>
        {list.map((m) => (
          <option key={m.id} value={m.id}>
            {m.email ? `${m.displayName} (${m.email})` : m.displayName}
          </option>
        ))}
      </select>
      <button type="submit" className="primary" disabled={!chosen || busy}>
        Ask to review
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
      <ErrorNotice error={members.error} />
    </form>
  );
}
