import { useId, useState } from 'react';
import type { ChangeRequestDetailVM, FinishedReviewVM } from '../../../shared/contract';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAction } from '../../hooks/use-query';
import { timeAgo } from '../../lib/format';
import { blockedWords, NEEDS_SERVER } from './Lifecycle';

type Verdict = 'approved' | 'changes-requested' | 'comment';

/**
 * GitHub's "Start a review": comments made on the change request while a review is open are kept
 * here (marked "Pending review" among the threads, editable and deletable) and sent together, in
 * order, with the verdict by "Finish review"; "Discard" drops them, nothing sent.
 */
export function PendingReview({ detail, online }: { detail: ChangeRequestDetailVM; online: boolean }) {
  const action = useAction();
  const [summary, setSummary] = useState('');
  const [result, setResult] = useState<FinishedReviewVM | null>(null);
  const id = useId();
  const cr = detail.changeRequest;
  const ref = { spaceId: cr.spaceId, changeRequestId: cr.id };
  const blockers = detail.actions.review;
  const pending = detail.pendingReview ?? null;

  const finish = async (verdict: Verdict) => {
    setResult(null);
    const text = summary.trim();
    const done = await action.run('review.finishReview', { ...ref, verdict, ...(text ? { markdown: text } : {}) });
    if (!done) return;
    setSummary('');
    setResult(done);
  };

  if (!pending) {
    return (
      <div className="action-row" data-testid="start-review">
        <button type="button" disabled={blockers.length > 0 || action.busy} onClick={() => void action.run('review.startReview', ref)}>
          Start a review
        </button>
        {blockers.length === 0 && <span className="action-note small">Comments you make are kept here, and sent together when you finish the review.</span>}
        {result && <FinishedNotice result={result} />}
        <ErrorNotice error={action.error} onDismiss={action.clearError} />
      </div>
    );
  }
  return (
    <form className="review-form pending-review" aria-label="Your pending review" data-testid="pending-review" onSubmit={(e) => e.preventDefault()}>
      <p className="field-label">
        Your pending review: {pending.comments} {pending.comments === 1 ? 'comment' : 'comments'}, started {timeAgo(pending.startedAt)}{' '}
        <span className="muted small">(marked “Pending review” below; nothing is sent until you finish)</span>
      </p>
      <label htmlFor={id} className="field-label">
        Summary <span className="muted small">(optional)</span>
      </label>
      <textarea id={id} rows={2} value={summary} onChange={(e) => setSummary(e.target.value)} />
      <div className="form-buttons">
        <button type="button" className="primary" disabled={blockers.length > 0 || action.busy} onClick={() => void finish('approved')}>
          Finish review: Approve
        </button>
        <button type="button" disabled={blockers.length > 0 || action.busy} onClick={() => void finish('changes-requested')}>
          Finish review: Request changes
        </button>
        <button type="button" disabled={action.busy} onClick={() => void finish('comment')}>
          Finish review: Comment only
        </button>
        <button type="button" className="secondary" disabled={action.busy} onClick={() => void action.run('review.discardReview', ref)}>
          Discard review
        </button>
        {(blockers.length > 0 || !online) && (
          <span className={`action-note small${blockers.length > 0 ? ' blocked' : ''}`}>{blockers.length > 0 ? blockedWords(blockers) : NEEDS_SERVER}</span>
        )}
      </div>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </form>
  );
}

function FinishedNotice({ result }: { result: FinishedReviewVM }) {
  const cls = result.outcome === 'sent' ? 'ok' : result.outcome === 'refused' ? 'error' : 'queued';
  return (
    <p className={`notice ${cls}`} role={result.outcome === 'refused' ? 'alert' : 'status'} data-outcome={result.outcome}>
      {result.message}
    </p>
  );
}
